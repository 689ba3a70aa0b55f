// float16 (IEEE binary16 bit patterns) <-> float32 arrays for the cpu kernels
// that compute float16 in float32: exact widening, narrowing rounded to
// nearest even with Inf and NaN kept, SIMD on every target (float16-inl.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/parallel.h"
#include "memory/scratch.h"
#include "ops/kernel.h"

namespace webnn::ops::cpu {

void ConvertF16ToF32(const uint16_t* src, float* dst, size_t count);
void ConvertF32ToF16(const float* src, uint16_t* dst, size_t count);

// The same, split over `parallel` in chunks of 32K elements.
void ConvertF16ToF32(const uint16_t* src, float* dst, size_t count, core::ParallelFor& parallel);
void ConvertF32ToF16(const float* src, uint16_t* dst, size_t count, core::ParallelFor& parallel);

// A float32 or float16 tensor as float32: its own data, or a copy widened
// into `storage`. Null for an absent tensor.
const float* AsF32(const TensorView* t, std::vector<float>& storage, core::ParallelFor& parallel);
const float* AsF32(const TensorView* t, memory::ScratchVector<float>& storage, core::ParallelFor& parallel);

}  // namespace webnn::ops::cpu
