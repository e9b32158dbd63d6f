# SPDX-License-Identifier: MIT
# kernels/local.mk: device code only.  OpenCL sources are embedded as C strings.
EXTRA_DIST += build-aux/embed-cl.sh
