# SPDX-License-Identifier: MIT
# impl/local.mk: host code of each paper, one fragment per folder.
include %reldir%/common/local.mk
include %reldir%/givens/local.mk
include %reldir%/sammon/local.mk
include %reldir%/sbo/local.mk
