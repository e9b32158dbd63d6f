# SPDX-License-Identifier: MIT
# RB_CHECK_OPENMP: the omp backend; AC_OPENMP brings its own --disable-openmp.
AC_DEFUN([RB_CHECK_OPENMP], [
AC_OPENMP
rb_openmp_happy=no
AS_CASE([$enable_openmp],
  [no], [rb_openmp_why="disabled"],
  [AS_CASE([$ac_cv_prog_c_openmp],
    [unsupported], [rb_openmp_why="the C compiler does not support OpenMP"],
    [rb_openmp_happy=yes; rb_openmp_why="$ac_cv_prog_c_openmp"])])
AS_IF([test $rb_openmp_happy = yes],
  [AC_DEFINE([RB_HAVE_OPENMP], [1], [Define if the OpenMP backend is built.])])
])
