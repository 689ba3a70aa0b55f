#version 450
// conv2d, one output element per invocation: for depthwise and other
// convolutions with few output channels per group, where the 64-channel tiles
// of conv2d.comp would leave most lanes idle (depthwise: 1 of 64 busy).
// Same parameters and semantics as conv2d.comp.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 32
#include "epilogue.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer I { A_T x[]; };
layout(std430, binding = 2) readonly buffer F { A_T w[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };
layout(std430, binding = 4) readonly buffer Bias { A_T bias[]; };

// Parameters as conv2d.comp; P(29) 1 when the output is nhwc (decodes the
// invocation's linear output index), P(31) output elements, P(32..38) the
// fused epilogue (epilogue.glsl).
void main() {
  const uint pixels = P(0), OH = P(1), OW = P(2), ocg = P(3), cg = P(4), KH = P(5), KW = P(6), groups = P(7);
  const int IH = int(P(8)), IW = int(P(9));
  const uint sh = P(10), sw = P(11), dh = P(12), dw = P(13);
  const int pt = int(P(14)), pl = int(P(15));
  const uint xs_n = P(16), xs_c = P(17), xs_y = P(18), xs_x = P(19);
  const uint ws_o = P(20), ws_i = P(21), ws_y = P(22), ws_x = P(23);
  const bool has_bias = P(28) != 0u, nhwc = P(29) != 0u;
  const uint total = P(31);
  const uint bx = BASE(1), bw = BASE(2), bo = BASE(3), bb = BASE(4);
  const uint OC = ocg * groups;
  GRID_STRIDE_LOOP(i, total) {
    uint n, c, oy, ox;
    if (nhwc) {
      c = i % OC;
      const uint p = i / OC;
      ox = p % OW;
      oy = (p / OW) % OH;
      n = p / (OW * OH);
    } else {
      ox = i % OW;
      oy = (i / OW) % OH;
      c = (i / (OW * OH)) % OC;
      n = i / (OW * OH * OC);
    }
    const uint g = c / ocg;
    const int y0 = int(oy * sh) - pt, x0 = int(ox * sw) - pl;
    float sum = 0.0;
    for (uint ci = 0u; ci < cg; ++ci) {
      const uint xc = bx + n * xs_n + (g * cg + ci) * xs_c;
      const uint wc = bw + c * ws_o + ci * ws_i;
      for (uint ky = 0u; ky < KH; ++ky) {
        const int y = y0 + int(ky * dh);
        const bool y_in = y >= 0 && y < IH;
        for (uint kx = 0u; kx < KW; ++kx) {
          const int xx = x0 + int(kx * dw);
          const float v = (y_in && xx >= 0 && xx < IW) ? float(x[xc + uint(y) * xs_y + uint(xx) * xs_x]) : 0.0;
          sum += v * float(w[wc + ky * ws_y + kx * ws_x]);
        }
      }
    }
    if (has_bias) sum += float(bias[bb + c]);
    o[bo + i] = A_T(Epilogue(sum));
  }
}
