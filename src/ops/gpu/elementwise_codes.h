// What the gpu kernels tell the shared element-wise math of the shaders
// (shaders/unary_math.glsl, binary_math.glsl, epilogue.glsl): op codes, an
// activation's attributes as words, and the fused epilogue of matmul, gemm,
// conv2d and convTranspose2d. One place, so that the unary and activation ops,
// fusedElementwise and the epilogues agree on every number.
#pragma once

#include <cstdint>
#include <optional>

#include "ops/activation.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {

// unary_math.glsl's code of an ElementwiseUnary or Activation op (not identity).
uint32_t UnaryOpCode(OpKind op);
// binary_math.glsl's code of an ElementwiseBinary op.
uint32_t BinaryOpCode(OpKind op);

// An op's attributes as unary_math.glsl's UnaryFloat takes them, each cast to
// `type` (float32 or float16) as the spec's method steps cast MLNumbers:
// alpha and beta as float bits, and clamp's bounds with a flag per bound
// (bit 0 minimum, bit 1 maximum) set when it clamps (given, and not NaN).
struct UnaryFloatArgs {
  uint32_t alpha = 0, beta = 0, has_bounds = 0, lo = 0, hi = 0;
};
UnaryFloatArgs FloatArgs(OpKind op, const ActivationAttrs& attrs, DataType type);

// Sets the epilogue of a dispatch whose shader includes epilogue.glsl: its
// specialization constants 0 and 1, and 7 words appended to `d.params`, which
// must end where the shader's EPILOGUE_PARAMS says. No activation: constants
// that fold the epilogue away, and zero words.
void AddEpilogue(GpuDispatch& d, const std::optional<FusedActivation>& activation, DataType type);

}  // namespace webnn::ops::gpu
