// SPDX-License-Identifier: MIT
// The CUDA device's ceilings for the roofline (harness/backend/gpu_ceiling.inc).
#include <config.h>
#include "harness/backend/gpu_ceiling.inc"
