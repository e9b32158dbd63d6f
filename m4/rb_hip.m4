# SPDX-License-Identifier: MIT
# RB_CHECK_HIP: HIP sources build with hipcc for AMD targets, or on NVIDIA with
# nvcc and the project's own HIP-on-CUDA header (harness/backend/hipcuda/),
# since Debian's HIP headers for NVIDIA do not compile against CUDA 13.
AC_DEFUN([RB_CHECK_HIP], [
AC_ARG_ENABLE([hip],
  [AS_HELP_STRING([--disable-hip], [do not build the HIP backend (default: auto)])],
  [], [enable_hip=auto])
AC_ARG_WITH([hip-platform],
  [AS_HELP_STRING([--with-hip-platform=amd|nvidia],
    [build HIP with hipcc for AMD, or with nvcc for NVIDIA (default: amd if hipcc works, else nvidia)])],
  [], [with_hip_platform=auto])
AC_ARG_WITH([hip-arch],
  [AS_HELP_STRING([--with-hip-arch=ARCH], [AMD offload target for hipcc (default: gfx900)])],
  [], [with_hip_arch=gfx900])
AC_ARG_VAR([HIPCC], [the HIP compiler for AMD targets])
rb_hip_happy=no
rb_hip_why="disabled"
rb_hip_platform=none
AS_IF([test "x$enable_hip" != xno], [
  AS_IF([test "x$with_hip_platform" != xnvidia], [
    AC_PATH_PROG([HIPCC], [hipcc], [], [$PATH:/opt/rocm/bin])
    AS_IF([test -n "$HIPCC"], [
      AC_CHECK_LIB([amdhip64], [hipGetDeviceCount],
        [rb_hip_platform=amd],
        [rb_hip_why="hipcc found but libamdhip64 missing (install libamdhip64-dev)"])],
      [rb_hip_why="hipcc not found (install hipcc)"])])
  AS_IF([test $rb_hip_platform = none && test "x$with_hip_platform" != xamd], [
    AS_IF([test $rb_cuda_happy = yes],
      [rb_hip_platform=nvidia],
      [AS_IF([test "x$with_hip_platform" = xnvidia],
        [rb_hip_why="the nvidia platform needs the CUDA backend"])])])
  AS_IF([test $rb_hip_platform != none], [rb_hip_happy=yes])
  AS_IF([test "x$enable_hip" = xyes && test $rb_hip_happy = no],
    [AC_MSG_ERROR([--enable-hip given but $rb_hip_why])])])
AS_CASE([$rb_hip_platform],
  [amd], [
    RB_HIP_COMPILE="$HIPCC --offload-arch=$with_hip_arch -O3 -fPIC"
    RB_HIP_LIBS="-lamdhip64 -lstdc++"
    rb_hip_why="hipcc for AMD $with_hip_arch"],
  [nvidia], [
    RB_HIP_COMPILE="$NVCC -x cu $RB_NVCC_ARCHFLAGS -O3 -I\$(top_srcdir)/harness/backend/hipcuda $RB_CUDA_CPPFLAGS"
    RB_HIP_LIBS=""
    rb_hip_why="nvcc with the HIP-on-CUDA header"])
AS_IF([test $rb_hip_happy = yes],
  [AC_DEFINE([RB_HAVE_HIP], [1], [Define if the HIP backend is built.])])
AS_IF([test $rb_hip_platform = amd],
  [AC_DEFINE([RB_HIP_PLATFORM_AMD], [1], [Define if HIP targets AMD GPUs.])])
AS_IF([test $rb_hip_platform = nvidia],
  [AC_DEFINE([RB_HIP_PLATFORM_NVIDIA], [1], [Define if HIP targets NVIDIA GPUs through CUDA.])])
AC_SUBST([RB_HIP_COMPILE])
AC_SUBST([RB_HIP_LIBS])
])
