# SPDX-License-Identifier: MIT
# RB_CHECK_OPENCL: the ICD loader and the Khronos headers.
AC_DEFUN([RB_CHECK_OPENCL], [
AC_ARG_ENABLE([opencl],
  [AS_HELP_STRING([--disable-opencl], [do not build the OpenCL backend (default: auto)])],
  [], [enable_opencl=auto])
rb_opencl_happy=no
rb_opencl_why="disabled"
AS_IF([test "x$enable_opencl" != xno], [
  PKG_CHECK_MODULES([OPENCL], [OpenCL], [rb_opencl_happy=yes],
    [rb_opencl_why="no OpenCL ICD loader (install ocl-icd-opencl-dev)"])
  AS_IF([test $rb_opencl_happy = yes], [
    rb_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $OPENCL_CFLAGS"
    AC_CHECK_HEADER([CL/cl.h], [],
      [rb_opencl_happy=no; rb_opencl_why="no OpenCL headers (install opencl-c-headers)"])
    CPPFLAGS=$rb_save_CPPFLAGS])
  AS_IF([test "x$enable_opencl" = xyes && test $rb_opencl_happy = no],
    [AC_MSG_ERROR([--enable-opencl given but $rb_opencl_why])])])
AS_IF([test $rb_opencl_happy = yes], [
  rb_opencl_why="ICD loader and headers"
  AC_DEFINE([RB_HAVE_OPENCL], [1], [Define if the OpenCL backend is built.])])
])
