# SPDX-License-Identifier: MIT
# RB_CHECK_CUDA: nvcc, the CUDA runtime (cudart) and cuBLAS.  The binary links
# cudart only, never the driver library, so it starts on machines without one.
AC_DEFUN([RB_CHECK_CUDA], [
AC_ARG_ENABLE([cuda],
  [AS_HELP_STRING([--disable-cuda], [do not build the CUDA backend (default: auto)])],
  [], [enable_cuda=auto])
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit root (default: nvcc on PATH, else /usr/local/cuda)])],
  [], [with_cuda=auto])
AC_ARG_WITH([cuda-arch],
  [AS_HELP_STRING([--with-cuda-arch=SM], [GPU architecture for nvcc, e.g. sm_90 (default); SASS plus PTX are embedded])],
  [], [with_cuda_arch=sm_90])
AC_ARG_VAR([NVCC], [the CUDA compiler])
AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
rb_cuda_happy=no
rb_cublas_happy=no
rb_cuda_why="disabled"
RB_CUDA_HOME=
AS_IF([test "x$with_cuda" = xno], [enable_cuda=no])
AS_IF([test "x$enable_cuda" != xno], [
  AS_IF([test "x$with_cuda" != xauto && test "x$with_cuda" != xyes],
    [AS_IF([test -z "$NVCC"], [NVCC="$with_cuda/bin/nvcc"])],
    [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])])
  AS_IF([test -n "$NVCC" && test -x "$NVCC"], [
    RB_CUDA_HOME=`dirname "$NVCC"`
    RB_CUDA_HOME=`dirname "$RB_CUDA_HOME"`
    rb_cuda_libdir="$RB_CUDA_HOME/lib64"
    AS_IF([test -d "$rb_cuda_libdir"], [], [rb_cuda_libdir="$RB_CUDA_HOME/lib"])
    rb_save_CPPFLAGS=$CPPFLAGS
    rb_save_LDFLAGS=$LDFLAGS
    CPPFLAGS="$CPPFLAGS -I$RB_CUDA_HOME/include"
    LDFLAGS="$LDFLAGS -L$rb_cuda_libdir"
    AC_CHECK_HEADER([cuda_runtime_api.h], [
      AC_CHECK_LIB([cudart], [cudaGetDeviceCount], [rb_cuda_happy=yes],
        [rb_cuda_why="libcudart not found in $rb_cuda_libdir"])],
      [rb_cuda_why="cuda_runtime_api.h not found under $RB_CUDA_HOME/include"])
    AS_IF([test $rb_cuda_happy = yes],
      [AC_CHECK_LIB([cublas], [cublasCreate_v2], [rb_cublas_happy=yes], [], [-lcudart])])
    CPPFLAGS=$rb_save_CPPFLAGS
    LDFLAGS=$rb_save_LDFLAGS],
    [rb_cuda_why="nvcc not found (use --with-cuda=DIR)"])
  AS_IF([test "x$enable_cuda" = xyes && test $rb_cuda_happy = no],
    [AC_MSG_ERROR([--enable-cuda given but $rb_cuda_why])])])
AS_IF([test $rb_cuda_happy = yes], [
  rb_cuda_arch=`echo "$with_cuda_arch" | $SED 's/^sm_//; s/^compute_//'`
  RB_NVCC_ARCHFLAGS="-gencode arch=compute_$rb_cuda_arch,code=sm_$rb_cuda_arch -gencode arch=compute_$rb_cuda_arch,code=compute_$rb_cuda_arch"
  RB_CUDA_CPPFLAGS="-I$RB_CUDA_HOME/include"
  RB_CUDA_LIBS="-L$rb_cuda_libdir -Wl,-rpath,$rb_cuda_libdir -lcudart -lstdc++"
  rb_cuda_version=`"$NVCC" --version | $SED -n 's/.*release \(@<:@0-9.@:>@*\).*/\1/p'`
  rb_cuda_why="nvcc $rb_cuda_version, sm_$rb_cuda_arch + PTX"
  dnl cuBLAS is opened on first use (impl/sbo/sbo_cublas.cu), not linked:
  dnl the library found here, by its versioned name where it has one.
  AS_IF([test $rb_cublas_happy = yes], [
    rb_cublas_lib=`ls "$rb_cuda_libdir"/libcublas.so.@<:@0-9@:>@* 2>/dev/null | $SED -n '/\.so\.@<:@0-9@:>@*$/p' | head -n 1`
    AS_IF([test -z "$rb_cublas_lib"], [rb_cublas_lib="$rb_cuda_libdir/libcublas.so"])
    AC_SEARCH_LIBS([dlopen], [dl])
    rb_cuda_why="$rb_cuda_why, cuBLAS"
    AC_DEFINE_UNQUOTED([RB_CUBLAS_LIB], ["$rb_cublas_lib"], [The cuBLAS library opened on first use.])
    AC_DEFINE([RB_HAVE_CUBLAS], [1], [Define if cuBLAS is used.])],
    [rb_cuda_why="$rb_cuda_why, no cuBLAS"])
  AC_DEFINE([RB_HAVE_CUDA], [1], [Define if the CUDA backend is built.])])
AC_SUBST([RB_CUDA_HOME])
AC_SUBST([RB_NVCC_ARCHFLAGS])
AC_SUBST([RB_CUDA_CPPFLAGS])
AC_SUBST([RB_CUDA_LIBS])
])
