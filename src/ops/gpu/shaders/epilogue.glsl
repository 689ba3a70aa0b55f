// The fused epilogue of matmul, gemm, conv2d and convTranspose2d: the
// activation that the graph passes moved into the op (FusedActivation in
// src/ops/activation.h), then its post affine map y * scale + shift rounded
// once (as the linear activation). The same routines as the activation ops
// alone (unary_math.glsl), so fusing changes no result beyond the op's own
// float16 rounding, which happens once at the store instead of per step.
//
// The including shader defines EPILOGUE_PARAMS, the P() index where the
// epilogue's 7 words start (AddEpilogue in src/ops/gpu/elementwise_codes.h
// appends them): alpha, beta, clamp bounds flags, lower bound, upper bound,
// post scale, post shift (floats as bits). Specialization constants 0 (the
// activation's op code, or kNoEpilogue) and 1 (1 when the post affine map
// applies) fold the epilogue away when absent; the shader uses no other
// specialization constants.
#ifndef EPILOGUE_GLSL
#define EPILOGUE_GLSL
#include "unary_math.glsl"

const uint kNoEpilogue = 0xffffffffu;
layout(constant_id = 0) const uint kEpilogueOp = kNoEpilogue;
layout(constant_id = 1) const uint kEpilogueAffine = 0u;

float Epilogue(float v) {
  if (kEpilogueOp != kNoEpilogue) {
    const uint p = EPILOGUE_PARAMS;
    v = UnaryFloat(kEpilogueOp, v, PF(p), PF(p + 1u), P(p + 2u), vec2(PF(p + 3u), PF(p + 4u)));
    if (kEpilogueAffine != 0u) v = Linear(PF(p + 5u), v, PF(p + 6u));
  }
  return v;
}
#endif  // EPILOGUE_GLSL
