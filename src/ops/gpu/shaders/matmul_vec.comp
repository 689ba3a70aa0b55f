#version 450
// matmul and gemm for few rows of A (M <= 16; LLM decode has M = 1): out =
// alpha * A' x B' + beta * C with the operands, parameters and semantics of
// matmul.comp (the dot product starts at -0.0, so a sum of -0 terms stays -0;
// float16 rounds once at the store). Such a product is bound by reading B
// once, while matmul.comp's 64-row tile would spend 63/64 of its arithmetic on
// rows that do not exist.
//
// Layout: a workgroup owns a strip of output columns. Its 256 threads are
// kSlices = 256 / kLanes slices of kLanes lanes: the lanes of a slice read
// consecutive 16-byte words of a row of B (lane l reads words l, l + kLanes,
// ... of the strip, kWords of them), the slices split K (slice s reads rows
// 4s..4s+3, then 4 kSlices rows further on; rows s, s + kSlices, ... on the
// element path). Each B value serves kRows rows of A; M is walked in passes
// of kRows. The slices' partial sums are then added in shared memory, as a
// tree over the slices. (A subgroup reduction would add lanes, i.e.
// different columns: the partial sums of one column live in different
// slices, so none is used and no subgroup feature is needed.)
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 32
#include "epilogue.glsl"
layout(local_size_x = 256) in;

// Specialization constants 0 and 1 and P(32..38) are the fused epilogue's
// (epilogue.glsl); 2, 3 and 4 shape the product (matmul.cc chooses them).
layout(constant_id = 2) const uint kRows = 1;   // rows of A per pass
layout(constant_id = 3) const uint kWords = 4;  // words of B per thread and row
// Lanes per slice, a power of two (matmul.cc picks 8 or 4): 8 is lavapipe's
// subgroup, and on a GPU a 128-byte segment per slice; 4 make narrower
// strips, hence more workgroups, where N alone gives too few to keep a GPU's
// memory busy.
layout(constant_id = 4) const uint kLanes = 8;
const uint kSlices = 256 / kLanes;

// A 16-byte word of B holds 4 float32 or 8 float16 values. Wide loads matter
// on lavapipe, which loads a non-uniform address one invocation at a time in
// a loop, each component separately: fewer, wider loads cost less.
#if defined(A_F32)
#define B_WORD vec4
#define A_VEC4 vec4
const uint kWordElems = 4;
#else
#define B_WORD uvec4
#define A_VEC4 f16vec4
const uint kWordElems = 8;
#endif
const uint kVec4s = kWordElems / 4u;  // float4 accumulators per word

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 1) readonly buffer A4 { A_VEC4 a4[]; };  // A again, in float4
layout(std430, binding = 2) readonly buffer B { A_T b[]; };
layout(std430, binding = 2) readonly buffer BWords { B_WORD bw[]; };  // B again, in words
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };
layout(std430, binding = 4) readonly buffer C { A_T c[]; };  // bound to A when absent

// P(0..31) as matmul.comp (so is the grid: x column strips, y passes of
// kRows rows, z batches, each walked with a grid-stride loop).

// Partial sums, kShared float4 per thread at a time (16 KiB, Vulkan's minimum
// of maxComputeSharedMemorySize).
const uint kShared = 4;
shared vec4 partial[256 * kShared];

// The float4 parts of a word of B.
void Unpack(B_WORD w, out vec4 part[kVec4s]) {
#if defined(A_F32)
  part[0] = w;
#else
  part[0] = vec4(vec2(unpackFloat2x16(w.x)), vec2(unpackFloat2x16(w.y)));
  part[1] = vec4(vec2(unpackFloat2x16(w.z)), vec2(unpackFloat2x16(w.w)));
#endif
}

void main() {
  const uint M = P(0), N = P(1), K = P(2);
  const uint a_rs = P(3), a_cs = P(4), b_rs = P(5), b_cs = P(6);
  const float alpha = PF(7), beta = PF(8);
  const bool has_c = P(9) != 0u;
  const uint c_rs = P(10), c_cs = P(11);
  const uint batches = P(12), batch_rank = P(13);
  const uint ba = BASE(1), bb = BASE(2), bo = BASE(3), bc = BASE(4);
  const uint t = gl_LocalInvocationIndex;
  const uint lane = t % kLanes, slice = t / kLanes;
  const uint strip_words = kLanes * kWords;
  const uint strips = (N + strip_words * kWordElems - 1u) / (strip_words * kWordElems);
  // Whole words: rows of A that start on a float4 and fill whole float4s,
  // rows of B that start on a word and fill whole words (the batch strides
  // are multiples of M * K and K * N, hence of K and N).
  const bool whole_words = a_cs == 1u && a_rs % 4u == 0u && K % 4u == 0u && ba % 4u == 0u && b_cs == 1u &&
                           b_rs % kWordElems == 0u && N % kWordElems == 0u && bb % kWordElems == 0u;
  const uint row_words = N / kWordElems;

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
    for (uint m0 = gl_WorkGroupID.y * kRows; m0 < M; m0 += gl_NumWorkGroups.y * kRows) {
      for (uint s = gl_WorkGroupID.x; s < strips; s += gl_NumWorkGroups.x) {
        const uint w0 = s * strip_words + lane;  // this thread's first word of a row
        vec4 acc[kRows][kWords * kVec4s];
        for (uint r = 0u; r < kRows; ++r)
          for (uint j = 0u; j < kWords * kVec4s; ++j) acc[r][j] = vec4(uintBitsToFloat(0x80000000u));
        // Rows past M (a last pass of fewer than kRows) repeat row M - 1 and
        // are never stored.
        // Two loops, and one of them runs no iteration: the first reads A in
        // float4 along K and B in words, 4 rows of B per step; the second one
        // element at a time, for the strides and sizes the first cannot take.
        // (Loops, not if/else: lavapipe runs both sides of a branch it cannot
        // prove uniform, masked, but leaves a loop once no invocation is in
        // it.)
        for (uint k0 = slice * 4u; k0 < (whole_words ? K : 0u); k0 += kSlices * 4u) {
          vec4 av[kRows];
          for (uint r = 0u; r < kRows; ++r) av[r] = vec4(a4[(a_off + min(m0 + r, M - 1u) * a_rs + k0) / 4u]);
          for (uint kk = 0u; kk < 4u; ++kk) {
            const uint row = (b_off + (k0 + kk) * b_rs) / kWordElems;
            vec4 bv[kWords * kVec4s];
            for (uint j = 0u; j < kWords; ++j) {
              const uint q = w0 + j * kLanes;
              vec4 part[kVec4s];
              Unpack(bw[row + min(q, row_words - 1u)], part);
              for (uint h = 0u; h < kVec4s; ++h) bv[j * kVec4s + h] = q < row_words ? part[h] : vec4(0.0);
            }
            for (uint r = 0u; r < kRows; ++r)
              for (uint j = 0u; j < kWords * kVec4s; ++j) acc[r][j] += av[r][kk] * bv[j];
          }
        }
        for (uint k = slice; k < (whole_words ? 0u : K); k += kSlices) {
          vec4 bv[kWords * kVec4s];
          for (uint j = 0u; j < kWords * kVec4s; ++j)
            for (uint e = 0u; e < 4u; ++e) {
              const uint gn = (w0 + (j / kVec4s) * kLanes) * kWordElems + (j % kVec4s) * 4u + e;
              bv[j][e] = gn < N ? float(b[b_off + k * b_rs + gn * b_cs]) : 0.0;
            }
          for (uint r = 0u; r < kRows; ++r) {
            const float av = float(a[a_off + min(m0 + r, M - 1u) * a_rs + k * a_cs]);
            for (uint j = 0u; j < kWords * kVec4s; ++j) acc[r][j] += av * bv[j];
          }
        }
        for (uint r = 0u; r < kRows; ++r) {
          for (uint j0 = 0u; j0 < kWords * kVec4s; j0 += kShared) {
            for (uint j = 0u; j < kShared; ++j)
              if (j0 + j < kWords * kVec4s) partial[t * kShared + j] = acc[r][j0 + j];
            barrier();
            // A tree over the slices (kSlices is a power of two): at each
            // level slices [0, h) add [h, 2 h) and write back their
            // sums; reads and writes of one level touch disjoint slices.
            for (uint h = kSlices / 2u; h > 0u; h /= 2u) {
              if (slice < h)
                for (uint j = 0u; j < kShared; ++j)
                  if (j0 + j < kWords * kVec4s) {
                    acc[r][j0 + j] += partial[((slice + h) * kLanes + lane) * kShared + j];
                    partial[t * kShared + j] = acc[r][j0 + j];
                  }
              barrier();
            }
          }
          const uint gm = m0 + r;
          if (slice == 0u && gm < M) {
            for (uint j = 0u; j < kWords * kVec4s; ++j) {
              for (uint e = 0u; e < 4u; ++e) {
                const uint gn = (w0 + (j / kVec4s) * kLanes) * kWordElems + (j % kVec4s) * 4u + e;
                if (gn >= N) break;
                float v = alpha * acc[r][j][e];
                if (has_c) v += beta * float(c[bc + gm * c_rs + gn * c_cs]);
                o[o_off + gm * N + gn] = A_T(Epilogue(v));
              }
            }
          }
        }
      }
    }
  }
}
