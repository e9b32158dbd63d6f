# SPDX-License-Identifier: MIT
# RB_CHECK_SQLITE: libsqlite3 for the results store (reprobench db, history,
# compare --db, report --db); optional: without it run directories still work
# and those commands say the store was not built.  3.24 for upserts.
AC_DEFUN([RB_CHECK_SQLITE], [
AC_ARG_ENABLE([sqlite],
  [AS_HELP_STRING([--disable-sqlite], [build without the SQLite results store (default: auto)])],
  [], [enable_sqlite=auto])
rb_sqlite_happy=no
rb_sqlite_why="disabled"
AS_IF([test "x$enable_sqlite" != xno], [
  PKG_CHECK_MODULES([SQLITE], [sqlite3 >= 3.24], [rb_sqlite_happy=yes],
    [rb_sqlite_why="not found (install libsqlite3-dev); no results store"])
  AS_IF([test "x$enable_sqlite" = xyes && test $rb_sqlite_happy = no],
    [AC_MSG_ERROR([--enable-sqlite given but libsqlite3 $rb_sqlite_why])])])
AS_IF([test $rb_sqlite_happy = yes], [
  rb_sqlite_why="`$PKG_CONFIG --modversion sqlite3`"
  AC_DEFINE([RB_HAVE_SQLITE], [1], [Define if the SQLite results store is built.])])
])
