#!/bin/sh
# SPDX-License-Identifier: MIT
# sbo-learn --backend cuda on the first CUDA device: t/sbo_learn_gpu.sh's checks,
# skipped without a device.
backend=cuda
NAME=CUDA
. "$RB_TOP_SRCDIR/t/sbo_learn_gpu.sh"
