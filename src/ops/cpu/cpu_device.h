// The cpu device: Highway SIMD kernels with runtime dispatch over the targets
// we compile (x86: SSE4, AVX2, AVX3; Arm: NEON, SVE), multithreaded through the
// context's thread pool.
#pragma once

#include <memory>

#include "ops/device.h"

namespace webnn::ops {

std::shared_ptr<Device> CreateCpuDevice();

}  // namespace webnn::ops
