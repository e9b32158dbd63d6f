# SPDX-License-Identifier: MIT
# RB_CHECK_JANSSON: jansson is required; it writes and strictly reads the records.
AC_DEFUN([RB_CHECK_JANSSON], [
PKG_CHECK_MODULES([JANSSON], [jansson >= 2.10], [],
  [AC_MSG_ERROR([jansson is required: install libjansson-dev])])
])
