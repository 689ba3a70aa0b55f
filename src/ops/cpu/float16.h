// float16 (IEEE binary16 bit patterns) <-> float32 arrays for the cpu kernels
// that compute float16 in float32: exact widening, narrowing rounded to
// nearest even with Inf and NaN kept, SIMD on every target (float16-inl.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/parallel.h"
#include "memory/workspace.h"
#include "ops/kernel.h"

namespace webnn::ops::cpu {

void ConvertF16ToF32(const uint16_t* src, float* dst, size_t count);
void ConvertF32ToF16(const float* src, uint16_t* dst, size_t count);

// The same, split over `parallel` in chunks of 32K elements.
void ConvertF16ToF32(const uint16_t* src, float* dst, size_t count, core::ParallelFor& parallel);
void ConvertF32ToF16(const float* src, uint16_t* dst, size_t count, core::ParallelFor& parallel);

// A float32 or float16 tensor as float32: its own data, or a copy widened
// into workspace scratch (declared with AddF32InputWorkspace). Null for an
// absent tensor.
class F32Input {
 public:
  F32Input(const TensorView* t, core::ParallelFor& parallel);
  const float* get() const { return data_; }

 private:
  memory::Scratch<float> copy_;
  const float* data_;
};
// Declares F32Input's copy of `t` (at its maximum shape), taken on the
// dispatching thread.
void AddF32InputWorkspace(memory::WorkspaceSize& workspace, const TensorView* t);

}  // namespace webnn::ops::cpu
