# SPDX-License-Identifier: MIT
# RB_SANITIZERS: --enable-sanitizers builds with AddressSanitizer and UBSan.
AC_DEFUN([RB_SANITIZERS], [
AC_ARG_ENABLE([sanitizers],
  [AS_HELP_STRING([--enable-sanitizers], [build with -fsanitize=address,undefined])],
  [], [enable_sanitizers=no])
RB_SAN_CFLAGS=
AS_IF([test "x$enable_sanitizers" = xyes],
  [RB_SAN_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"])
AC_SUBST([RB_SAN_CFLAGS])
])
