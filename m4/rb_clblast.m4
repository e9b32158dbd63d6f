# SPDX-License-Identifier: MIT
# RB_CHECK_CLBLAST: CLBlast's C API, for the OpenCL GEMMs; needs OpenCL.
AC_DEFUN([RB_CHECK_CLBLAST], [
AC_ARG_ENABLE([clblast],
  [AS_HELP_STRING([--disable-clblast], [do not use CLBlast (default: auto)])],
  [], [enable_clblast=auto])
rb_clblast_happy=no
rb_clblast_why="disabled"
AS_IF([test "x$enable_clblast" != xno], [
  AS_IF([test $rb_opencl_happy != yes],
    [rb_clblast_why="needs the OpenCL backend"],
    [PKG_CHECK_MODULES([CLBLAST], [clblast], [rb_clblast_happy=yes],
      [rb_clblast_why="not found (install libclblast-dev)"])])
  AS_IF([test "x$enable_clblast" = xyes && test $rb_clblast_happy = no],
    [AC_MSG_ERROR([--enable-clblast given but CLBlast $rb_clblast_why])])])
AS_IF([test $rb_clblast_happy = yes], [
  rb_clblast_why="`$PKG_CONFIG --modversion clblast`"
  AC_DEFINE([RB_HAVE_CLBLAST], [1], [Define if CLBlast is used.])])
])
