#version 450
// conv2d as an implicit GEMM per group: rows are output pixels (n, oy, ox),
// columns the group's output channels, K = in channels per group * KH * KW.
// The A operand (im2col of the input) is never materialized: each tile load
// decodes its (pixel, tap) pair and reads 0 on the padding. Layouts enter only
// as element strides (input, filter and output), so every inputLayout and
// filterLayout shares one shader. Semantics follow src/ops/reference/conv2d.cc:
// padding taps read 0 and are still multiplied (a NaN weight there makes NaN),
// the sum starts at +0.0 and the bias is added last; float16 rounds once.
//
// Tiling as shaders/matmul.comp: 64x64 output tile per 256-thread workgroup,
// 4x4 per thread, K in steps of 16 through shared memory.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 32
#include "epilogue.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer I { A_T x[]; };
layout(std430, binding = 2) readonly buffer F { A_T w[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };
layout(std430, binding = 4) readonly buffer Bias { A_T bias[]; };  // bound to the input when absent

// P(0) pixels (batch * OH * OW), P(1) OH, P(2) OW, P(3) out channels per group,
// P(4) in channels per group, P(5) KH, P(6) KW, P(7) groups, P(8) IH, P(9) IW,
// P(10) stride h, P(11) stride w, P(12) dilation h, P(13) dilation w,
// P(14) pad top, P(15) pad left, P(16..19) input strides n, c, y, x,
// P(20..23) filter strides o, i, ky, kx, P(24..27) output strides n, c, y, x,
// P(28) 1 when the bias is present, P(29) 1: K runs channel-fastest (nhwc
// input, contiguous along K) else kx-fastest, P(30) 1 when the filter is
// contiguous along output channels, P(31) output elements, P(32..38) the
// fused epilogue (epilogue.glsl).
const uint kTile = 64, kStepK = 16;

shared vec4 tile_a[kStepK][kTile / 4u];  // [k][pixel / 4][pixel % 4]
shared vec4 tile_b[kStepK][kTile / 4u];  // [k][channel / 4][channel % 4]

// The (ci, ky, kx) of tap k.
uvec3 DecodeTap(uint k, uint cg, uint kh, uint kw, bool channel_fastest) {
  if (channel_fastest) {
    const uint r = k / cg;
    return uvec3(k % cg, r / kw, r % kw);
  }
  const uint r = k / kw;
  return uvec3(r / kh, r % kh, k % kw);
}

void main() {
  const uint pixels = P(0), OH = P(1), OW = P(2), ocg = P(3), cg = P(4), KH = P(5), KW = P(6), groups = P(7);
  const int IH = int(P(8)), IW = int(P(9));
  const uint sh = P(10), sw = P(11), dh = P(12), dw = P(13);
  const int pt = int(P(14)), pl = int(P(15));
  const uint xs_n = P(16), xs_c = P(17), xs_y = P(18), xs_x = P(19);
  const uint ws_o = P(20), ws_i = P(21), ws_y = P(22), ws_x = P(23);
  const uint os_n = P(24), os_c = P(25), os_y = P(26), os_x = P(27);
  const bool has_bias = P(28) != 0u, channel_fastest = P(29) != 0u, filter_o_fast = P(30) != 0u;
  const uint bx = BASE(1), bw = BASE(2), bo = BASE(3), bb = BASE(4);
  const uint K = cg * KH * KW;
  const uint t = gl_LocalInvocationIndex;
  const uint tx = t % 16u, ty = t / 16u;
  const uint tiles_n = (ocg + kTile - 1u) / kTile, tiles_m = (pixels + kTile - 1u) / kTile;
  // Which tile element each of this thread's 4 loads fills: consecutive
  // threads walk K when that is contiguous in memory, else pixels / channels.
  const bool a_k_fast = channel_fastest, b_k_fast = !filter_o_fast;

  for (uint g = gl_WorkGroupID.z; g < groups; g += gl_NumWorkGroups.z) {
    for (uint tm = gl_WorkGroupID.y; tm < tiles_m; tm += gl_NumWorkGroups.y) {
      for (uint tn = gl_WorkGroupID.x; tn < tiles_n; tn += gl_NumWorkGroups.x) {
        const uint m0 = tm * kTile, n0 = tn * kTile;
        // The pixel of each A load does not change along K: decode it once.
        uint a_mm[4], a_kk[4], a_base[4];
        int a_y[4], a_x[4];
        bool a_ok[4];
        for (uint r = 0u; r < 4u; ++r) {
          const uint e = t + r * 256u;
          a_mm[r] = a_k_fast ? e / kStepK : e % kTile;
          a_kk[r] = a_k_fast ? e % kStepK : e / kTile;
          const uint p = m0 + a_mm[r];
          a_ok[r] = p < pixels;
          const uint n = p / (OH * OW), rem = p % (OH * OW);
          a_y[r] = int((rem / OW) * sh) - pt;
          a_x[r] = int((rem % OW) * sw) - pl;
          a_base[r] = bx + n * xs_n + g * cg * xs_c;
        }
        vec4 acc[4];
        for (uint i = 0u; i < 4u; ++i) acc[i] = vec4(0.0);
        for (uint k0 = 0u; k0 < K; k0 += kStepK) {
          for (uint r = 0u; r < 4u; ++r) {
            const uint k = k0 + a_kk[r];
            float v = 0.0;
            if (a_ok[r] && k < K) {
              const uvec3 tap = DecodeTap(k, cg, KH, KW, channel_fastest);
              const int y = a_y[r] + int(tap.y * dh), xx = a_x[r] + int(tap.z * dw);
              if (y >= 0 && y < IH && xx >= 0 && xx < IW)
                v = float(x[a_base[r] + tap.x * xs_c + uint(y) * xs_y + uint(xx) * xs_x]);
            }
            tile_a[a_kk[r]][a_mm[r] / 4u][a_mm[r] % 4u] = v;
          }
          for (uint r = 0u; r < 4u; ++r) {
            const uint e = t + r * 256u;
            const uint nn = b_k_fast ? e / kStepK : e % kTile;
            const uint kk = b_k_fast ? e % kStepK : e / kTile;
            const uint oc = n0 + nn, k = k0 + kk;
            float v = 0.0;
            if (oc < ocg && k < K) {
              const uvec3 tap = DecodeTap(k, cg, KH, KW, channel_fastest);
              v = float(w[bw + (g * ocg + oc) * ws_o + tap.x * ws_i + tap.y * ws_y + tap.z * ws_x]);
            }
            tile_b[kk][nn / 4u][nn % 4u] = v;
          }
          barrier();
          for (uint kk = 0u; kk < kStepK; ++kk) {
            const vec4 av = tile_a[kk][ty];
            const vec4 bv = tile_b[kk][tx];
            acc[0] += av.x * bv;
            acc[1] += av.y * bv;
            acc[2] += av.z * bv;
            acc[3] += av.w * bv;
          }
          barrier();
        }
        for (uint i = 0u; i < 4u; ++i) {
          const uint p = m0 + ty * 4u + i;
          if (p >= pixels) break;
          const uint n = p / (OH * OW), rem = p % (OH * OW);
          const uint out_pixel = bo + n * os_n + (rem / OW) * os_y + (rem % OW) * os_x;
          for (uint j = 0u; j < 4u; ++j) {
            const uint oc = n0 + tx * 4u + j;
            if (oc >= ocg) break;
            const uint c = g * ocg + oc;
            float v = acc[i][j];
            if (has_bias) v += float(bias[bb + c]);
            o[out_pixel + c * os_c] = A_T(Epilogue(v));
          }
        }
      }
    }
  }
}
