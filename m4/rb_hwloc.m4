# SPDX-License-Identifier: MIT
# RB_CHECK_HWLOC: hwloc 2 is required; every record is tagged with its topology.
AC_DEFUN([RB_CHECK_HWLOC], [
PKG_CHECK_MODULES([HWLOC], [hwloc >= 2.0], [],
  [AC_MSG_ERROR([hwloc 2 is required: install libhwloc-dev])])
rb_hwloc_version=`$PKG_CONFIG --modversion hwloc`
])
