#version 450
// convTranspose2d as a gather, one output element per invocation: output
// (oy, ox) sums input (iy, ix) * filter (ky, kx) over the taps with
// iy * stride + ky * dilation == oy + pad_begin (likewise x), as
// src/ops/reference/conv_transpose2d.cc; the bias is added last, float16
// rounds once. Layouts enter as element strides.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 26
#include "epilogue.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer I { A_T x[]; };
layout(std430, binding = 2) readonly buffer F { A_T w[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };
layout(std430, binding = 4) readonly buffer Bias { A_T bias[]; };  // bound to the input when absent

// P(0) output elements, P(1) 1 when nhwc, P(2) OC, P(3) OH, P(4) OW,
// P(5) in channels per group, P(6) out channels per group, P(7) KH, P(8) KW,
// P(9) IH, P(10) IW, P(11) stride h, P(12) stride w, P(13) dilation h,
// P(14) dilation w, P(15) pad top, P(16) pad left, P(17..20) input strides
// n, c, y, x, P(21..24) filter strides (input channel, group-local output
// channel, ky, kx), P(25) 1 when the bias is present, P(26..32) the fused
// epilogue (epilogue.glsl).
void main() {
  const uint total = P(0), OC = P(2), OH = P(3), OW = P(4), cg = P(5), ocg = P(6), KH = P(7), KW = P(8);
  const bool nhwc = P(1) != 0u, has_bias = P(25) != 0u;
  const int IH = int(P(9)), IW = int(P(10)), sh = int(P(11)), sw = int(P(12));
  const int dh = int(P(13)), dw = int(P(14)), pt = int(P(15)), pl = int(P(16));
  const uint xs_n = P(17), xs_c = P(18), xs_y = P(19), xs_x = P(20);
  const uint ws_c = P(21), ws_o = P(22), ws_y = P(23), ws_x = P(24);
  const uint bx = BASE(1), bw = BASE(2), bo = BASE(3), bb = BASE(4);
  GRID_STRIDE_LOOP(i, total) {
    uint n, c, oy, ox;
    if (nhwc) {
      c = i % OC;
      ox = (i / OC) % OW;
      oy = (i / (OC * OW)) % OH;
      n = i / (OC * OW * OH);
    } else {
      ox = i % OW;
      oy = (i / OW) % OH;
      c = (i / (OW * OH)) % OC;
      n = i / (OW * OH * OC);
    }
    const uint g = c / ocg, oc = c % ocg;
    const uint xbase = bx + n * xs_n + g * cg * xs_c;
    const uint wbase = bw + g * cg * ws_c + oc * ws_o;
    float sum = 0.0;
    for (uint ky = 0u; ky < KH; ++ky) {
      const int ty = int(oy) + pt - int(ky) * dh;
      if (ty < 0 || ty % sh != 0 || ty / sh >= IH) continue;
      const uint iy = uint(ty / sh);
      for (uint kx = 0u; kx < KW; ++kx) {
        const int tx = int(ox) + pl - int(kx) * dw;
        if (tx < 0 || tx % sw != 0 || tx / sw >= IW) continue;
        const uint xo = xbase + iy * xs_y + uint(tx / sw) * xs_x;
        const uint wo = wbase + ky * ws_y + kx * ws_x;
        for (uint ci = 0u; ci < cg; ++ci) sum += float(x[xo + ci * xs_c]) * float(w[wo + ci * ws_c]);
      }
    }
    if (has_bias) sum += float(bias[bb + c]);
    o[bo + i] = A_T(Epilogue(sum));
  }
}
