#version 450
// matmul and gemm in float16 through cooperative matrices
// (VK_NV_cooperative_matrix: the tensor cores of an NVIDIA GPU): out = alpha *
// A x B + beta * C with A [M, K] and B [K, N] row-major, the parameters of
// matmul.comp (its transposed-operand strides are not taken: product.h sends
// those to matmul.comp). Products of float16 accumulate in float32; alpha,
// beta * C and the epilogue are applied in float32 and float16 rounds once at
// the store, as in the reference.
//
// Tiling: a 256-thread workgroup (8 subgroups of 32) computes a 128x128 tile
// of the output, each subgroup a 64x32 part of it as 4x2 16x16 accumulators
// (8 x 8 = 64 float32 registers per invocation). K is walked in steps of 32:
// the workgroup copies a 128x32 slice of A and a 32x128 slice of B to shared
// memory (16-byte words: 2 + 2 per invocation), and each subgroup loads its
// 16x16 operand fragments from there, 4 of A and 2 of B per 16 of K, for 8
// products: 2 fragment loads per product. The next step's words are read
// from global memory into registers before the products of this one, so the
// loads' latency hides behind them. Rows of shared memory are padded by one
// word (80 and 272 bytes) so that fragment loads spread over the banks.
//
// Measured on an H100 (device time, 4096^3): with the 4x2 accumulators in an
// array (acc[i][j], even under [[unroll]]) this ran at 29-30 TFLOP/s, the
// float32 FMA rate, whatever else changed: fragments loaded once outside the
// K loop, no global loads, uint or uvec4 shared arrays, fragments straight
// from global memory: all 27-36 TFLOP/s (2026-11-28). With the accumulators
// and fragments as separate variables (the cooperative-matrix probe's form)
// it runs at 125 TFLOP/s (1.10 ms), 19 % of the probe's 649 TFLOP/s; 8192^3
// at 136 TFLOP/s, 21 %. What holds it there is not yet measured (no profiler
// reads a Vulkan shader there); the next candidates, K steps of 64 and a
// 64x64 part per subgroup, are on the branch exp/gpu-coopmat-shapes.
//
// Edges: a word that lies partly or wholly outside the matrix, or when the
// rows are not whole 16-byte words, is gathered element by element, padded
// outside (GatherA). The results go through shared memory (a 16x16 float32 block per
// subgroup), so every element is stored with its own bounds check, alpha,
// beta * C and the epilogue.
#extension GL_GOOGLE_include_directive : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
#define EPILOGUE_PARAMS 32
#include "epilogue.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer AWords { uvec4 aw[]; };  // A again, 8 float16 per word
layout(std430, binding = 2) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) readonly buffer BWords { uvec4 bw[]; };
layout(std430, binding = 3) writeonly buffer O { float16_t o[]; };
layout(std430, binding = 4) readonly buffer C { float16_t c[]; };  // bound to A when absent

const uint kTile = 128, kStepK = 32;
const uint kAStride = kStepK / 8u + 1u;  // words per shared row of A (4 + 1 of padding)
const uint kBStride = kTile / 8u + 1u;   // words per shared row of B (16 + 1)
shared uvec4 tile_a[kTile * kAStride];
shared uvec4 tile_b[kStepK * kBStride];
shared float staged[8u * 256u];  // one 16x16 float32 block per subgroup

#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>

// 8 float16 of a row from `start` (elements from the binding's start), those
// at or past `valid` replaced by `pad` (bits). A pads with -0 and B with +0,
// so a padded product is -0 and leaves a sum of -0 products -0, as the
// accumulators start at -0 (the reference's dot product starts at -0.0).
uvec4 GatherA(uint start, uint valid) {
  uint w[4];
  for (uint i = 0u; i < 4u; ++i) {
    const uint lo = 2u * i < valid ? uint(float16BitsToUint16(a[start + 2u * i])) : 0x8000u;
    const uint hi = 2u * i + 1u < valid ? uint(float16BitsToUint16(a[start + 2u * i + 1u])) : 0x8000u;
    w[i] = lo | (hi << 16);
  }
  return uvec4(w[0], w[1], w[2], w[3]);
}
uvec4 GatherB(uint start, uint valid) {
  uint w[4];
  for (uint i = 0u; i < 4u; ++i) {
    const uint lo = 2u * i < valid ? uint(float16BitsToUint16(b[start + 2u * i])) : 0u;
    const uint hi = 2u * i + 1u < valid ? uint(float16BitsToUint16(b[start + 2u * i + 1u])) : 0u;
    w[i] = lo | (hi << 16);
  }
  return uvec4(w[0], w[1], w[2], w[3]);
}

// Block (i, j) of this subgroup's part, through its staging block: every
// element with its own bounds check, alpha, beta * C and the epilogue (o_off:
// this batch's output, in elements).
void StoreBlock(ACC acc, uint o_off, uint m0, uint n0, uint i, uint j) {
  const uint M = P(0), N = P(1);
  const float alpha = PF(7), beta = PF(8);
  const bool has_c = P(9) != 0u;
  const uint c_rs = P(10), c_cs = P(11);
  const uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, sg_m = sg / 4u, sg_n = sg % 4u;
  coopMatStoreNV(acc, staged, sg * 256u, 16u, false);
  subgroupMemoryBarrierShared();
  subgroupBarrier();
  for (uint e = lane; e < 256u; e += gl_SubgroupSize) {
    const uint gm = m0 + sg_m * 64u + i * 16u + e / 16u, gn = n0 + sg_n * 32u + j * 16u + e % 16u;
    if (gm >= M || gn >= N) continue;
    float v = alpha * staged[sg * 256u + e];
    if (has_c) v += beta * float(c[BASE(4) + gm * c_rs + gn * c_cs]);
    o[o_off + gm * N + gn] = float16_t(Epilogue(v));
  }
  subgroupBarrier();
}

void main() {
  const uint M = P(0), N = P(1), K = P(2);
  const uint a_rs = P(3), b_rs = P(5);
  const uint batches = P(12), batch_rank = P(13);
  const uint ba = BASE(1), bb = BASE(2), bo = BASE(3);
  const uint t = gl_LocalInvocationIndex;
  const uint sg = gl_SubgroupID;
  const uint sg_m = sg / 4u, sg_n = sg % 4u;  // this subgroup's 64x32 part: rows 64 sg_m, columns 32 sg_n
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
    // Whole words: each row starts on a 16-byte word.
    const bool a_words = (a_off % 8u) == 0u && (a_rs % 8u) == 0u;
    const bool b_words = (b_off % 8u) == 0u && (b_rs % 8u) == 0u;
    const uint o_off = bo + batch * M * N;
    for (uint tm = gl_WorkGroupID.y; tm < tiles_m; tm += gl_NumWorkGroups.y) {
      for (uint tn = gl_WorkGroupID.x; tn < tiles_n; tn += gl_NumWorkGroups.x) {
        const uint m0 = tm * kTile, n0 = tn * kTile;
        // The accumulators as variables, not an array: the driver keeps
        // them in registers (an array of them, even indexed by constants,
        // ran at the float32 FMA rate on an H100).
        const ACC zero = ACC(uintBitsToFloat(0x80000000u));
        ACC c00 = zero, c01 = zero, c10 = zero, c11 = zero, c20 = zero, c21 = zero, c30 = zero, c31 = zero;

        // This invocation's words: of A, rows (t + 256 r) / 4, word (t % 4);
        // of B, rows (t + 256 r) / 16, word (t % 16).
        uvec4 next_a[2], next_b[2];
        for (uint k0 = 0u; k0 < K + kStepK; k0 += kStepK) {
          if (k0 > 0u) {  // the words read last time, to shared memory
            barrier();    // every subgroup is done with the previous step's
            for (uint r = 0u; r < 2u; ++r) {
              const uint e = t + 256u * r;
              tile_a[(e / 4u) * kAStride + e % 4u] = next_a[r];
              tile_b[(e / 16u) * kBStride + e % 16u] = next_b[r];
            }
            barrier();
          }
          if (k0 < K) {  // this step's words, from global memory
            for (uint r = 0u; r < 2u; ++r) {
              const uint e = t + 256u * r;
              const uint gm = m0 + e / 4u, gk = k0 + (e % 4u) * 8u;
              const uint a_valid = gm < M && gk < K ? min(K - gk, 8u) : 0u;
              const uint a_at = a_off + gm * a_rs + gk;
              next_a[r] = a_valid == 8u && a_words ? aw[a_at / 8u] : GatherA(a_at, a_valid);
              const uint gkb = k0 + e / 16u, gn = n0 + (e % 16u) * 8u;
              const uint b_valid = gkb < K && gn < N ? min(N - gn, 8u) : 0u;
              const uint b_at = b_off + gkb * b_rs + gn;
              next_b[r] = b_valid == 8u && b_words ? bw[b_at / 8u] : GatherB(b_at, b_valid);
            }
          }
          if (k0 > 0u) {  // the products of the step now in shared memory
            for (uint kk = 0u; kk < kStepK / 16u; ++kk) {
              FRAG fa, fb0, fb1;
              coopMatLoadNV(fb0, tile_b, (kk * 16u) * kBStride + (sg_n * 32u) / 8u, kBStride, false);
              coopMatLoadNV(fb1, tile_b, (kk * 16u) * kBStride + (sg_n * 32u + 16u) / 8u, kBStride, false);
              // Row block i of this subgroup's part times both column blocks.
#define MMA_ROW(i, x0, x1)                                                                   \
  coopMatLoadNV(fa, tile_a, (sg_m * 64u + i * 16u) * kAStride + kk * 2u, kAStride, false); \
  x0 = coopMatMulAddNV(fa, fb0, x0);                                                         \
  x1 = coopMatMulAddNV(fa, fb1, x1);
              MMA_ROW(0u, c00, c01) MMA_ROW(1u, c10, c11) MMA_ROW(2u, c20, c21) MMA_ROW(3u, c30, c31)
#undef MMA_ROW
            }
          }
        }

        // Out through this subgroup's staging block, element by element.
        StoreBlock(c00, o_off, m0, n0, 0u, 0u); StoreBlock(c01, o_off, m0, n0, 0u, 1u);
        StoreBlock(c10, o_off, m0, n0, 1u, 0u); StoreBlock(c11, o_off, m0, n0, 1u, 1u);
        StoreBlock(c20, o_off, m0, n0, 2u, 0u); StoreBlock(c21, o_off, m0, n0, 2u, 1u);
        StoreBlock(c30, o_off, m0, n0, 3u, 0u); StoreBlock(c31, o_off, m0, n0, 3u, 1u);
      }
    }
  }
}
