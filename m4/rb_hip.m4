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
  [AS_HELP_STRING([--with-hip-arch=ARCH,...],
    [AMD offload targets for hipcc, one code object each (default: gfx900,gfx90a,gfx942)])],
  [rb_hip_arch_given=yes], [with_hip_arch=gfx900,gfx90a,gfx942; rb_hip_arch_given=no])
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
    RB_HIP_ARCHS_PROBE
    RB_HIP_COMPILE="$HIPCC $rb_hip_offload -O3 -fPIC"
    RB_HIP_LIBS="-lamdhip64 -lstdc++"
    rb_hip_why="hipcc for AMD $rb_hip_archs$rb_hip_arch_note"],
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

# RB_HIP_ARCHS_PROBE: the targets of --with-hip-arch that $HIPCC compiles a
# kernel for, as --offload-arch flags in rb_hip_offload and a list in
# rb_hip_archs.  A target asked for by name that hipcc lacks stops
# configure; of the default ones, gfx942 falls back to gfx940 (the same
# CDNA3 compute unit, which hipcc before LLVM 17, such as Debian 12's 5.2,
# names only so), and another is left out, both said in the summary.
AC_DEFUN([RB_HIP_ARCHS_PROBE], [
rb_hip_offload=
rb_hip_archs=
rb_hip_arch_note=
cat > conftest.hip <<'_RB_EOF'
#include <hip/hip_runtime.h>
__global__ void rb_probe(unsigned long long *m) { *(m + threadIdx.x) = __ballot(threadIdx.x & 1); }
_RB_EOF
for rb_a in $(echo "$with_hip_arch" | tr ',' ' '); do
  rb_try=$rb_a
  AC_MSG_CHECKING([whether $HIPCC compiles for $rb_a])
  AS_IF([$HIPCC --offload-arch=$rb_a -c conftest.hip -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     rb_try=
     AS_IF([test $rb_hip_arch_given = yes],
       [AC_MSG_ERROR([$HIPCC cannot compile for $rb_a (--with-hip-arch)])])
     AS_IF([test $rb_a = gfx942], [
       AC_MSG_CHECKING([whether $HIPCC compiles for gfx940 instead])
       AS_IF([$HIPCC --offload-arch=gfx940 -c conftest.hip -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
         [AC_MSG_RESULT([yes]); rb_try=gfx940
          rb_hip_arch_note="$rb_hip_arch_note (gfx940 for gfx942, which this hipcc lacks)"],
         [AC_MSG_RESULT([no])])])
     AS_IF([test -z "$rb_try"], [
       AC_MSG_WARN([$HIPCC cannot compile for $rb_a: left out])
       rb_hip_arch_note="$rb_hip_arch_note (no $rb_a: this hipcc lacks it)"])])
  AS_IF([test -n "$rb_try"], [
    rb_hip_offload="$rb_hip_offload --offload-arch=$rb_try"
    rb_hip_archs="${rb_hip_archs:+$rb_hip_archs,}$rb_try"])
done
rm -f conftest.hip conftest.$OBJEXT
AS_IF([test -z "$rb_hip_archs"], [AC_MSG_ERROR([$HIPCC compiles for none of $with_hip_arch])])
])
