#version 450
// averagePool2d, l2Pool2d, maxPool2d: one output element per invocation
// (-DA_<T>; average and l2 only in the float variants). Semantics follow
// src/ops/reference/pool2d.cc: window elements on the padding are left out
// (of the max, the sum and the average's count), an empty window gives 0, a
// NaN in a max window gives NaN. Float sums are compensated float pairs
// (WPT: window + 2 ULP), average divides once; with finite inputs the sum is
// scaled by a power of two (average: by 2^-40 when the window holds values
// above 2^100; l2: by the largest magnitude's exponent), so nothing overflows
// or underflows before the final scale back.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer I { A_T x[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) output elements, P(1) op (0 max, 1 average, 2 l2), P(2) 1 when nhwc,
// P(3) channels, P(4) IH, P(5) IW, P(6) OH, P(7) OW, P(8) window h,
// P(9) window w, P(10) stride h, P(11) stride w, P(12) dilation h,
// P(13) dilation w, P(14) pad top, P(15) pad left.
const uint kMax = 0, kAverage = 1, kL2 = 2;

#if defined(A_FLOAT)
#include "float_float.glsl"
#endif

void main() {
  const uint total = P(0), op = P(1), C = P(3);
  const bool nhwc = P(2) != 0u;
  const int IH = int(P(4)), IW = int(P(5));
  const uint OH = P(6), OW = P(7), WH = P(8), WW = P(9);
  const uint sh = P(10), sw = P(11), dh = P(12), dw = P(13);
  const int pt = int(P(14)), pl = int(P(15));
  const uint bx = BASE(1), bo = BASE(2);
  GRID_STRIDE_LOOP(i, total) {
    uint n, c, oy, ox, xs_c, xs_y, xs_x;
    if (nhwc) {
      c = i % C;
      ox = (i / C) % OW;
      oy = (i / (C * OW)) % OH;
      n = i / (C * OW * OH);
      xs_c = 1u;
      xs_x = C;
    } else {
      ox = i % OW;
      oy = (i / OW) % OH;
      c = (i / (OW * OH)) % C;
      n = i / (OW * OH * C);
      xs_c = uint(IH * IW);
      xs_x = 1u;
    }
    xs_y = uint(IW) * xs_x;
    const uint base = bx + n * C * uint(IH * IW) + c * xs_c;
    const int y0 = int(oy * sh) - pt, x0 = int(ox * sw) - pl;
    A_CT result = A_CT(0);
    if (op == kMax) {
      bool empty = true;
      for (uint ky = 0u; ky < WH; ++ky) {
        const int y = y0 + int(ky * dh);
        if (y < 0 || y >= IH) continue;
        for (uint kx = 0u; kx < WW; ++kx) {
          const int xx = x0 + int(kx * dw);
          if (xx < 0 || xx >= IW) continue;
          const A_CT v = A_CT(x[base + uint(y) * xs_y + uint(xx) * xs_x]);
#if defined(A_FLOAT)
          if (isnan(v)) result = v;
#endif
          if (empty || v > result) result = v;
          empty = false;
        }
      }
    }
#if defined(A_FLOAT)
    else {
      const bool l2 = op == kL2;
      // Pass 1: the plain sum (used when an input is not finite), count, max |v|.
      float plain = 0.0, amax = 0.0;
      bool finite = true;
      uint count = 0u;
      for (uint ky = 0u; ky < WH; ++ky) {
        const int y = y0 + int(ky * dh);
        if (y < 0 || y >= IH) continue;
        for (uint kx = 0u; kx < WW; ++kx) {
          const int xx = x0 + int(kx * dw);
          if (xx < 0 || xx >= IW) continue;
          const float v = float(x[base + uint(y) * xs_y + uint(xx) * xs_x]);
          plain += l2 ? v * v : v;
          finite = finite && !isnan(v) && !isinf(v);
          amax = max(amax, abs(v));
          ++count;
        }
      }
      if (count != 0u) {
        if (!finite) {
          result = l2 ? sqrt(plain) : plain / float(count);
        } else if (l2 && amax == 0.0) {
          result = 0.0;
        } else {
          int k = 0;
          if (l2) k = clamp(-Exponent(amax), -126, 127);
          else if (amax > 1.2676506e30) k = -40;
          vec2 s = vec2(0.0);
          for (uint ky = 0u; ky < WH; ++ky) {
            const int y = y0 + int(ky * dh);
            if (y < 0 || y >= IH) continue;
            for (uint kx = 0u; kx < WW; ++kx) {
              const int xx = x0 + int(kx * dw);
              if (xx < 0 || xx >= IW) continue;
              const float v = Scale2(float(x[base + uint(y) * xs_y + uint(xx) * xs_x]), k);
              vec2 t = vec2(v, 0.0);
              if (l2) TwoProduct(v, v, t.x, t.y);
              float hs, e;
              TwoSum(s.x, t.x, hs, e);
              s = vec2(hs, s.y + (e + t.y));
            }
          }
          s = FastTwoSum(s.x, s.y);
          const vec2 r = l2 ? FFSqrt(s) : FFDivF(s, float(count));
          result = Scale2(r.x + r.y, -k);
        }
      }
    }
#endif
    o[bo + i] = A_T(result);
  }
}
