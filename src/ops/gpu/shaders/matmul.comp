#version 450
// matmul and gemm: out = alpha * A' x B' + beta * C over a stack of batches
// whose A/B matrices are picked by broadcast batch strides (-DA_F32 / -DA_F16).
// A' and B' are read through (row, column) element strides, so transposes cost
// nothing. Semantics follow src/ops/reference/{matmul,gemm}.cc: the dot product
// starts at -0.0 (a sum of -0 terms stays -0), alpha scales it, beta * C is
// added, float16 rounds once at the store.
//
// Tiling: each 256-thread workgroup computes a 64x64 output tile, each thread a
// 4x4 register block, K walked in steps of 16 through shared memory (64x16 of
// A' and 16x64 of B' per step: 4 loads per thread each, 8 KiB shared). 4x4 is
// 16 multiply-adds per 2 vec4 shared reads per k. Shared memory holds vec4s
// so each operand is one vector read: on lavapipe that took a 1024^3 product
// from ~5.9 s to ~3.2 s (scalar reads become gathers). On an H100 (2026-11-26)
// a 4096^3 float32 product ran at 27 TFLOP/s, 44 % of the FMA probe; a
// 128x128 variant with an 8x8 block per thread and double-buffered shared
// memory ran at 22 TFLOP/s (36 %) and was dropped.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 32
#include "epilogue.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer B { A_T b[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };
layout(std430, binding = 4) readonly buffer C { A_T c[]; };  // bound to A when absent

// P(0) M, P(1) N, P(2) K, P(3) A' row stride (along M), P(4) A' column stride
// (along K), P(5) B' row stride (along K), P(6) B' column stride (along N),
// P(7) alpha bits, P(8) beta bits, P(9) 1 when C is present, P(10) C row
// stride, P(11) C column stride, P(12) batches, P(13) batch rank (<= 6),
// P(14..19) output batch dims, P(20..25) A matrix strides, P(26..31) B matrix
// strides (elements, 0 where broadcast), P(32..38) the fused epilogue
// (epilogue.glsl).
const uint kTile = 64, kStepK = 16;

shared vec4 tile_a[kStepK][kTile / 4u];  // [k][m / 4][m % 4]
shared vec4 tile_b[kStepK][kTile / 4u];  // [k][n / 4][n % 4]

void main() {
  const uint M = P(0), N = P(1), K = P(2);
  const uint a_rs = P(3), a_cs = P(4), b_rs = P(5), b_cs = P(6);
  const float alpha = PF(7), beta = PF(8);
  const bool has_c = P(9) != 0u;
  const uint c_rs = P(10), c_cs = P(11);
  const uint batches = P(12), batch_rank = P(13);
  const uint ba = BASE(1), bb = BASE(2), bo = BASE(3), bc = BASE(4);
  const uint t = gl_LocalInvocationIndex;
  const uint tx = t % 16u, ty = t / 16u;
  const uint tiles_n = (N + kTile - 1u) / kTile, tiles_m = (M + kTile - 1u) / kTile;

  for (uint batch = gl_WorkGroupID.z; batch < batches; batch += gl_NumWorkGroups.z) {
    uint a_off = ba, b_off = bb, rest = batch;
    for (int d = int(batch_rank) - 1; d >= 0; --d) {
      const uint dim = P(14 + d);
      const uint i = rest % dim;
      rest /= dim;
      a_off += i * P(20 + d);
      b_off += i * P(26 + d);
    }
    const uint o_off = bo + batch * M * N;
    for (uint tm = gl_WorkGroupID.y; tm < tiles_m; tm += gl_NumWorkGroups.y) {
      for (uint tn = gl_WorkGroupID.x; tn < tiles_n; tn += gl_NumWorkGroups.x) {
        const uint m0 = tm * kTile, n0 = tn * kTile;
        vec4 acc[4];
        for (uint i = 0u; i < 4u; ++i) acc[i] = vec4(uintBitsToFloat(0x80000000u));
        for (uint k0 = 0u; k0 < K; k0 += kStepK) {
          // Consecutive threads load consecutive addresses: along K when A'
          // rows are contiguous (a_cs == 1), along M when A is transposed.
          for (uint r = 0u; r < 4u; ++r) {
            const uint e = t + r * 256u;
            uint mm, kk;
            if (a_cs == 1u) {
              kk = e % kStepK;
              mm = e / kStepK;
            } else {
              mm = e % kTile;
              kk = e / kTile;
            }
            const uint gm = m0 + mm, gk = k0 + kk;
            // -0 pads K: a padded product (-0) * (+0) = -0 leaves a -0 sum -0.
            tile_a[kk][mm / 4u][mm % 4u] = (gm < M && gk < K) ? float(a[a_off + gm * a_rs + gk * a_cs]) : -0.0;
          }
          for (uint r = 0u; r < 4u; ++r) {
            const uint e = t + r * 256u;
            uint nn, kk;
            if (b_cs == 1u) {
              nn = e % kTile;
              kk = e / kTile;
            } else {
              kk = e % kStepK;
              nn = e / kStepK;
            }
            const uint gn = n0 + nn, gk = k0 + kk;
            tile_b[kk][nn / 4u][nn % 4u] = (gn < N && gk < K) ? float(b[b_off + gk * b_rs + gn * b_cs]) : 0.0;
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
          const uint gm = m0 + ty * 4u + i;
          if (gm >= M) break;
          for (uint j = 0u; j < 4u; ++j) {
            const uint gn = n0 + tx * 4u + j;
            if (gn >= N) break;
            float v = alpha * acc[i][j];
            if (has_c) v += beta * float(c[bc + gm * c_rs + gn * c_cs]);
            o[o_off + gm * N + gn] = A_T(Epilogue(v));
          }
        }
      }
    }
  }
}
