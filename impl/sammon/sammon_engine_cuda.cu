// SPDX-License-Identifier: MIT
// The embedding engine on CUDA (sammon_engine_gpu.inc).
#include <config.h>
#include "impl/sammon/sammon_engine_gpu.inc"
