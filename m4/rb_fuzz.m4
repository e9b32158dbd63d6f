# SPDX-License-Identifier: MIT
# --enable-fuzz: build the libFuzzer targets in fuzz/ (make fuzz runs them).
# libFuzzer comes with clang only, so the whole build uses clang.
# RB_FUZZ_PROG_CC, before AC_PROG_CC: take clang as CC when none was named.
# RB_FUZZ_CHECK, after it: CC must link a libFuzzer target, else stop.
AC_DEFUN([RB_FUZZ_PROG_CC], [
AC_ARG_ENABLE([fuzz],
  [AS_HELP_STRING([--enable-fuzz],
    [build the libFuzzer targets in fuzz/ with clang (implies --enable-sanitizers)])],
  [], [enable_fuzz=no])
AS_IF([test "x$enable_fuzz" = xyes && test -z "$CC"], [
  AC_CHECK_PROGS([CC], [clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14])
  AS_IF([test -z "$CC"],
    [AC_MSG_ERROR([--enable-fuzz needs clang, which brings libFuzzer, and none is
      on PATH: install it (Debian: apt-get install clang) or name one with CC=])])
  AS_IF([test -z "$CXX"], [CXX=`echo "$CC" | sed "s/clang/clang++/"`])
])
])

AC_DEFUN([RB_FUZZ_CHECK], [
RB_FUZZ_LDFLAGS=
rb_fuzz_why="off (--enable-fuzz)"
AS_IF([test "x$enable_fuzz" = xyes], [
  AC_MSG_CHECKING([whether $CC links a libFuzzer target])
  rb_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS -fsanitize=fuzzer,address,undefined"
  AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return data && size > 9; }
]])], [rb_fuzz_ok=yes], [rb_fuzz_ok=no])
  CFLAGS=$rb_save_CFLAGS
  AC_MSG_RESULT([$rb_fuzz_ok])
  AS_IF([test $rb_fuzz_ok = no],
    [AC_MSG_ERROR([--enable-fuzz needs clang with libFuzzer; $CC cannot link
      -fsanitize=fuzzer (Debian: apt-get install clang; configure CC=clang --enable-fuzz)])])
  RB_FUZZ_LDFLAGS="-fsanitize=fuzzer"
  rb_fuzz_why="libFuzzer targets with $CC (make fuzz)"
])
AC_SUBST([RB_FUZZ_LDFLAGS])
])
