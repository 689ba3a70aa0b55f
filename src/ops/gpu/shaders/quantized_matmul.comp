#version 450
// quantizedMatmul (src/ops/quantized_matmul.h): out = a x W (+ bias, then the
// fused epilogue), or with -DGATED the SwiGLU (g * sigmoid(g)) * u of
// g = a x W and u = a x W_up. -DA_F32 / -DA_F16: a, scale, bias and output;
// -DQ_I8, -DQ_U8, -DQ_I4, -DQ_U4: weight and zero point (quantized.glsl). The constant
// weight, scale and zero point are read as they are, each weight dequantized
// in registers as dequantizeLinear computes it: (code - zeroPoint) * scale
// rounded to the scale's type. The dot product starts at -0.0 and adds in
// float32 (matmul.comp's semantics); float16 rounds once at the store.
//
// Tiling as matmul.comp's: each 256-thread workgroup computes a 64x64 output
// tile, each thread a 4x4 register block, K walked in steps of 16 through
// shared memory; the weight's 16x64 tile is dequantized as it is stored
// there, so every weight is dequantized once per 64 rows of A and never
// written to memory as float. Consecutive threads load consecutive codes:
// along N for a [K, N] weight, along K for a transposed one. The gated form
// keeps a second weight tile and a second 4x4 block.
//
// Few tiles (a 128-row prefill of an N = 896 projection has 28 for 132
// multiprocessors on an H100): K is split over workgroups (grid z, P(18)
// splits of P(19) rows of K), each writing its float32 partial sums to
// scratch, and quantized_matvec.comp's combine dispatch adds them in order
// and applies the bias and epilogue, or the SwiGLU.
//
// Few rows of a [K, N] weight go to quantized_matvec.comp instead. Not yet
// done: cooperative matrices for float16.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 11
#include "epilogue.glsl"  // also unary_math.glsl's SigmoidF
#include "quantized.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer W { Q_T w[]; };
layout(std430, binding = 3) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 4) readonly buffer ZeroPoint { Q_T zero_point[]; };
layout(std430, binding = 5) writeonly buffer O { A_T o[]; };
// The scratch of partial sums instead of the output when K is split.
layout(std430, binding = 5) writeonly buffer Partial { float partial[]; };
#if defined(GATED)
layout(std430, binding = 6) readonly buffer UpW { Q_T up_w[]; };
layout(std430, binding = 7) readonly buffer UpScale { A_T up_scale[]; };
layout(std430, binding = 8) readonly buffer UpZeroPoint { Q_T up_zero_point[]; };
#else
layout(std430, binding = 6) readonly buffer Bias { A_T bias[]; };  // bound to A when absent
#endif

// P(0) rows of A, P(1) N, P(2) K, P(3) weight stride along K, P(4) along N,
// P(5) blocks along K (the scale's extent), P(6) block along K, P(7) along
// N, P(8) scale (and zero point) stride per block along K, P(9) along N,
// P(10) bias: 0 none, 1 one value, 2 one per column; P(11..17) the epilogue
// (epilogue.glsl; none when gated); P(18) K splits, P(19) rows of K per split
// (partials: [split][row][N], gated the gate's then the up projection's). The gated up projection's operands have
// the gate's shapes, so the same strides.
const uint kTile = 64, kStepK = 16;

shared vec4 tile_a[kStepK][kTile / 4u];  // [k][m / 4][m % 4]
shared vec4 tile_w[kStepK][kTile / 4u];  // [k][n / 4][n % 4]
#if defined(GATED)
shared vec4 tile_u[kStepK][kTile / 4u];
#endif

void main() {
  const uint M = P(0), N = P(1), K = P(2);
  const uint w_ks = P(3), w_ns = P(4), block_k = P(6), block_n = P(7), s_ks = P(8), s_ns = P(9);
  const uint ba = BASE(1), bw = BASE(2), bs = BASE(3), bz = BASE(4), bo = BASE(5);
#if defined(GATED)
  const uint bu = BASE(6), bus = BASE(7), buz = BASE(8);
#endif
  const uint t = gl_LocalInvocationIndex;
  const uint tx = t % 16u, ty = t / 16u;
  const uint tiles_n = (N + kTile - 1u) / kTile, tiles_m = (M + kTile - 1u) / kTile;
  const uint splits = P(18), split = gl_WorkGroupID.z;
  const uint k_begin = split * P(19), k_end = min(K, k_begin + P(19));
  for (uint tm = gl_WorkGroupID.y; tm < tiles_m; tm += gl_NumWorkGroups.y) {
    for (uint tn = gl_WorkGroupID.x; tn < tiles_n; tn += gl_NumWorkGroups.x) {
      const uint m0 = tm * kTile, n0 = tn * kTile;
      vec4 acc[4];
      for (uint i = 0u; i < 4u; ++i) acc[i] = vec4(uintBitsToFloat(0x80000000u));
#if defined(GATED)
      vec4 up[4];
      for (uint i = 0u; i < 4u; ++i) up[i] = vec4(uintBitsToFloat(0x80000000u));
#endif
      for (uint k0 = k_begin; k0 < k_end; k0 += kStepK) {
        // A's rows are contiguous along K.
        for (uint r = 0u; r < 4u; ++r) {
          const uint e = t + r * 256u, kk = e % kStepK, mm = e / kStepK;
          const uint gm = m0 + mm, gk = k0 + kk;
          // -0 pads K: a padded product (-0) * (+0) = -0 leaves a -0 sum -0.
          tile_a[kk][mm / 4u][mm % 4u] = (gm < M && gk < k_end) ? float(a[ba + gm * K + gk]) : -0.0;
        }
        for (uint r = 0u; r < 4u; ++r) {
          const uint e = t + r * 256u;
          uint nn, kk;
          if (w_ns == 1u) {
            nn = e % kTile;
            kk = e / kTile;
          } else {
            kk = e % kStepK;
            nn = e / kStepK;
          }
          const uint gn = n0 + nn, gk = k0 + kk;
          float wv = 0.0;
#if defined(GATED)
          float uv = 0.0;
#endif
          if (gn < N && gk < k_end) {
            const uint wi = gk * w_ks + gn * w_ns, p = (gk / block_k) * s_ks + (gn / block_n) * s_ns;
            wv = Dequantize(CODE(w, bw, wi) - CODE(zero_point, bz, p), float(scale[bs + p]));
#if defined(GATED)
            uv = Dequantize(CODE(up_w, bu, wi) - CODE(up_zero_point, buz, p), float(up_scale[bus + p]));
#endif
          }
          tile_w[kk][nn / 4u][nn % 4u] = wv;
#if defined(GATED)
          tile_u[kk][nn / 4u][nn % 4u] = uv;
#endif
        }
        barrier();
        for (uint kk = 0u; kk < kStepK; ++kk) {
          const vec4 av = tile_a[kk][ty];
          const vec4 wv = tile_w[kk][tx];
          acc[0] += av.x * wv;
          acc[1] += av.y * wv;
          acc[2] += av.z * wv;
          acc[3] += av.w * wv;
#if defined(GATED)
          const vec4 uv = tile_u[kk][tx];
          up[0] += av.x * uv;
          up[1] += av.y * uv;
          up[2] += av.z * uv;
          up[3] += av.w * uv;
#endif
        }
        barrier();
      }
      for (uint i = 0u; i < 4u; ++i) {
        const uint gm = m0 + ty * 4u + i;
        if (gm >= M) break;
        for (uint j = 0u; j < 4u; ++j) {
          const uint n = n0 + tx * 4u + j;
          if (n >= N) break;
          if (splits > 1u) {
            partial[BASE(5) / 4u + (split * M + gm) * N + n] = acc[i][j];
#if defined(GATED)
            partial[BASE(5) / 4u + ((splits + split) * M + gm) * N + n] = up[i][j];
#endif
            continue;
          }
#if defined(GATED)
          // As the unfused mul(mul(g, sigmoid(g)), u), in float32.
          const float g = acc[i][j];
          const float v = (g * SigmoidF(g)) * up[i][j];
#else
          float v = acc[i][j];
          if (P(10) != 0u) v += float(bias[BASE(6) + (P(10) == 2u ? n : 0u)]);
          v = Epilogue(v);
#endif
          o[bo + gm * N + n] = A_T(v);
        }
      }
    }
  }
}
