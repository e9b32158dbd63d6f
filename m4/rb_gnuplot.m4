# SPDX-License-Identifier: MIT
# RB_CHECK_GNUPLOT: plots need gnuplot at run time; its path is recorded.
AC_DEFUN([RB_CHECK_GNUPLOT], [
AC_ARG_VAR([GNUPLOT], [the gnuplot program used for plots])
AC_PATH_PROG([GNUPLOT], [gnuplot], [])
AS_IF([test -n "$GNUPLOT"],
  [rb_gnuplot_happy=yes; rb_gnuplot_why="$GNUPLOT"],
  [rb_gnuplot_happy=no; rb_gnuplot_why="not found (install gnuplot-nox); plots are skipped"
   GNUPLOT=gnuplot])
AC_DEFINE_UNQUOTED([RB_GNUPLOT], ["$GNUPLOT"], [The gnuplot program.])
])
