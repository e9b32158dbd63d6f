# SPDX-License-Identifier: MIT
# RB_SANITIZERS: --enable-sanitizers builds with AddressSanitizer and UBSan;
# any undefined behaviour stops the program, so a test cannot pass past it.
# --enable-fuzz (m4/rb_fuzz.m4) turns them on too and adds libFuzzer's
# coverage instrumentation.
AC_DEFUN([RB_SANITIZERS], [
AC_ARG_ENABLE([sanitizers],
  [AS_HELP_STRING([--enable-sanitizers],
    [build with -fsanitize=address,undefined; make check then runs under them])],
  [], [enable_sanitizers=no])
AS_IF([test "x$enable_fuzz" = xyes], [enable_sanitizers=yes])
RB_SAN_CFLAGS=
rb_san_why="off (--enable-sanitizers)"
AS_IF([test "x$enable_sanitizers" = xyes], [
  RB_SAN_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
  RB_SAN_CFLAGS="$RB_SAN_CFLAGS -fno-omit-frame-pointer"
  AS_IF([test "x$enable_fuzz" = xyes],
    [RB_SAN_CFLAGS="$RB_SAN_CFLAGS -fsanitize=fuzzer-no-link"])
  AC_MSG_CHECKING([whether $CC links with $RB_SAN_CFLAGS])
  rb_save_CFLAGS=$CFLAGS
  rb_save_LDFLAGS=$LDFLAGS
  CFLAGS="$CFLAGS $RB_SAN_CFLAGS"
  LDFLAGS="$LDFLAGS $RB_SAN_CFLAGS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [rb_san_ok=yes], [rb_san_ok=no])
  CFLAGS=$rb_save_CFLAGS
  LDFLAGS=$rb_save_LDFLAGS
  AC_MSG_RESULT([$rb_san_ok])
  AS_IF([test $rb_san_ok = no],
    [AC_MSG_ERROR([$CC cannot build with $RB_SAN_CFLAGS (Debian: apt-get install gcc, or clang)])])
  rb_san_why="address, undefined (fatal)"
])
AC_SUBST([RB_SAN_CFLAGS])
])
