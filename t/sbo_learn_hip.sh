#!/bin/sh
# SPDX-License-Identifier: MIT
# sbo-learn --backend hip on the first HIP device: t/sbo_learn_gpu.sh's checks,
# skipped without a device.
backend=hip
NAME=HIP
. "$RB_TOP_SRCDIR/t/sbo_learn_gpu.sh"
