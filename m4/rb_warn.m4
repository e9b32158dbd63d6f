# SPDX-License-Identifier: MIT
# RB_WARN_FLAGS: the warnings every C file is built with.
AC_DEFUN([RB_WARN_FLAGS], [
AC_ARG_ENABLE([werror],
  [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])],
  [], [enable_werror=no])
RB_WARN_CFLAGS="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
AS_IF([test "x$enable_werror" = xyes], [RB_WARN_CFLAGS="$RB_WARN_CFLAGS -Werror"])
AC_SUBST([RB_WARN_CFLAGS])
])
