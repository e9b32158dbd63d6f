# SPDX-License-Identifier: MIT
# RB_CHECK_BLAS: OpenBLAS (CBLAS) and LAPACKE, for the CPU linear algebra.
AC_DEFUN([RB_CHECK_BLAS], [
AC_ARG_ENABLE([blas],
  [AS_HELP_STRING([--disable-blas], [do not use OpenBLAS and LAPACKE (default: auto)])],
  [], [enable_blas=auto])
rb_blas_happy=no
rb_blas_why="disabled"
AS_IF([test "x$enable_blas" != xno], [
  PKG_CHECK_MODULES([BLAS], [openblas lapacke], [rb_blas_happy=yes],
    [rb_blas_why="OpenBLAS or LAPACKE not found (install libopenblas-dev liblapacke-dev)"])
  AS_IF([test $rb_blas_happy = yes], [
    rb_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $BLAS_CFLAGS"
    AC_CHECK_HEADERS([cblas.h lapacke.h], [],
      [rb_blas_happy=no; rb_blas_why="cblas.h or lapacke.h missing (install libopenblas-dev liblapacke-dev)"])
    CPPFLAGS=$rb_save_CPPFLAGS])
  AS_IF([test "x$enable_blas" = xyes && test $rb_blas_happy = no],
    [AC_MSG_ERROR([--enable-blas given but $rb_blas_why])])])
AS_IF([test $rb_blas_happy = yes], [
  rb_blas_why="openblas `$PKG_CONFIG --modversion openblas`, lapacke"
  AC_DEFINE([RB_HAVE_BLAS], [1], [Define if OpenBLAS and LAPACKE are used.])])
])
