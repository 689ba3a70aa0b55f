#version 450
// matmul and gemm: out = alpha * A' x B' + beta * C over a stack of batches
// whose A/B matrices are picked by broadcast batch strides (-DA_F32 / -DA_F16).
// A' and B' are read through (row, column) element strides, so transposes cost
// nothing. Semantics follow src/ops/reference/{matmul,gemm}.cc: the dot product
// starts at -0.0 (a sum of -0 terms stays -0), alpha scales it, beta * C is
// added, float16 rounds once at the store.
//
// Tiling: each 256-thread workgroup (16 x 16 threads) computes a 64 x kTileN
// output tile, each thread a 4 x TN register block: rows 4 ty..4 ty + 3 and
// the float4 column groups tx + 16 p (p < TN / 4), so a quarter-warp's float4
// reads of B touch consecutive words. K is walked in steps of 16 through
// shared memory (64x16 of A' and 16 x kTileN of B' per step). Per k a thread
// reads 1 + TN / 4 float4s from shared memory for 4 * TN multiply-adds: 16
// per 2 reads at TN = 4 (matmul.f32, tile 64x64), 32 per 3 at TN = 8
// (matmul_wide.f32, tile 64x128). Shared memory holds vec4s so each operand
// is one vector read: on lavapipe that took a 1024^3 product from ~5.9 s to
// ~3.2 s (scalar reads become gathers).
// On an H100 (2026-11-28, device time of a 4096^3 float32 product): 64x64
// 5.13 ms (26.8 TFLOP/s, 44 % of the FMA probe), 64x128 4.53 ms (30.3,
// 50 %), 128x64 (8 x 4 per thread) 4.66 ms, 128x128 (8 x 8) 5.96 ms. The wide
// tile halves the workgroups, so matmul.cc takes it only where there are
// enough of them (a 128 x 4096 product: 0.36 ms at 64x64, 0.50 at 64x128).
// On lavapipe the wide tile is also faster (1024^3: 0.33 s against 0.41).
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
#ifndef TN
#define TN 4
#endif
const uint kTN = TN, kTileM = 64, kTileN = 16u * kTN, kStepK = 16;

shared vec4 tile_a[kStepK][kTileM / 4u];  // [k][m / 4][m % 4]
shared vec4 tile_b[kStepK][kTileN / 4u];  // [k][n / 4][n % 4]

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
  const uint tiles_n = (N + kTileN - 1u) / kTileN, tiles_m = (M + kTileM - 1u) / kTileM;

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
        const uint m0 = tm * kTileM, n0 = tn * kTileN;
        vec4 acc[4][kTN / 4u];  // [row][column group]
        for (uint i = 0u; i < 4u; ++i)
          for (uint p = 0u; p < kTN / 4u; ++p) acc[i][p] = vec4(uintBitsToFloat(0x80000000u));
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
              mm = e % kTileM;
              kk = e / kTileM;
            }
            const uint gm = m0 + mm, gk = k0 + kk;
            // -0 pads K: a padded product (-0) * (+0) = -0 leaves a -0 sum -0.
            tile_a[kk][mm / 4u][mm % 4u] = (gm < M && gk < K) ? float(a[a_off + gm * a_rs + gk * a_cs]) : -0.0;
          }
          for (uint r = 0u; r < kTN; ++r) {
            const uint e = t + r * 256u;
            uint nn, kk;
            if (b_cs == 1u) {
              nn = e % kTileN;
              kk = e / kTileN;
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
            vec4 bv[kTN / 4u];
            for (uint p = 0u; p < kTN / 4u; ++p) bv[p] = tile_b[kk][tx + 16u * p];
            for (uint e = 0u; e < 4u; ++e)
              for (uint p = 0u; p < kTN / 4u; ++p) acc[e][p] += av[e] * bv[p];
          }
          barrier();
        }
        for (uint i = 0u; i < 4u; ++i) {
          const uint gm = m0 + ty * 4u + i;
          if (gm >= M) break;
          for (uint j = 0u; j < kTN; ++j) {
            const uint gn = n0 + (tx + 16u * (j / 4u)) * 4u + j % 4u;
            if (gn >= N) continue;
            float v = alpha * acc[i][j / 4u][j % 4u];
            if (has_c) v += beta * float(c[bc + gm * c_rs + gn * c_cs]);
            o[o_off + gm * N + gn] = A_T(Epilogue(v));
          }
        }
      }
    }
  }
}
