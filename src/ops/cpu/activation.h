// Float32 activations for fusion into other kernels' epilogues (conv2d,
// gemm, matmul): the same SIMD code as the Activation family's cpu kernels,
// applied in place to a block of outputs on the calling thread.
#pragma once

#include <cstddef>

#include <optional>

#include "core/parallel.h"
#include "ops/activation.h"
#include "ops/op_kind.h"

namespace webnn::ops::cpu {

// An activation with its options cast to float32 as the spec's method steps
// do (alpha, beta; clamp bounds, +-Infinity when absent or NaN). Make it once,
// outside the epilogue loop.
struct ActivationF32 {
  OpKind op = OpKind::relu;
  float alpha = 0;
  float beta = 0;
  float min_value = 0;  // clamp
  float max_value = 0;  // clamp
};
ActivationF32 MakeActivationF32(OpKind op, const ActivationAttrs& attrs);

// data[0..n) = activation(data[0..n)), in place, SIMD, single-threaded.
// `op` must be an Activation-family op (elu, gelu, hardSigmoid, hardSwish,
// leakyRelu, linear, relu, sigmoid, softplus, softsign, tanh, clamp).
void ApplyActivationF32(const ActivationF32& activation, float* data, size_t n);
void ApplyActivationF32(OpKind op, const ActivationAttrs& attrs, float* data, size_t n);

// A fused activation (graph pass) applied in place to a kernel's whole float32
// output (then its post affine map, block by block), split over `parallel` in
// cache-sized blocks. With `skip_clamps`, relu and clamp are taken as done
// (kernels whose epilogue already clamped in registers).
void ApplyFusedActivation(const std::optional<FusedActivation>& activation, float* data, size_t n,
                          core::ParallelFor& parallel, bool skip_clamps = false);

}  // namespace webnn::ops::cpu
