#version 450
// attention (src/ops/attention.h): out = softmax(q k^T * scale + mask) v per
// query row, float32 and float16 (-DA_<T>, computed in float32 with one
// rounding at the store). Flash style: a workgroup per query row walks the
// keys in tiles of kWidth, one key per thread, and keeps the online softmax
// (running maximum m, running sum l, the output rescaled by e^(m_old - m_new)
// when the maximum grows); a tile's weights live in shared memory only, the
// [S, T] scores never exist in memory.
//
// Per tile: thread j computes score j (a dot product over D, then the scale
// and the mask), the workgroup takes the tile's maximum, each thread turns
// its score into a weight e^(s - m_new) and adds it to its own share of l
// (every share is rescaled by the same factor, so they are summed once at
// the end); then thread c accumulates output elements c, c + kWidth, ...
// (kSlots of them) over the tile's value rows, read coalesced along Dv. A Dv
// wider than kWidth * kSlots takes more workgroups per row (grid y), each
// computing the scores again for its own elements.
//
// Semantics of the unfused graph (src/ops/cpu/attention.cc): a NaN or +Inf
// score makes its row NaN (softmax's max or sum turns NaN); a row of only
// -Inf scores gives NaN (0 / 0); a weight of 0 still multiplies its value
// row, so 0 * Inf gives NaN where the unfused matmul does. exp is
// exp_log.glsl's (GLSL's is ~70 ULP off on lavapipe).
//
// Split over the keys (flash decoding, -DSPLIT): where the rows (times the
// Dv workgroups) are too few to fill the device, e.g. an LLM decode step of
// 14 query rows over 513 keys, the keys are cut into chunks of whole tiles
// (grid z), each workgroup runs the loop above over its chunk only and
// stores its partial result unnormalised, in float32: the output
// accumulators, and (m, l, the NaN/+Inf flag) per row and chunk.
// attention_combine.comp then rescales each chunk's share by e^(m_c - m) and
// divides once. Without -DSPLIT there is one chunk of all T keys and the
// workgroup normalises and stores the output itself.
//
// A fast version would also take the query rows that share a key/value head
// (the GQA group, and several positions) into one workgroup so each key and
// value tile is read from memory once for all of them, stage the tiles in
// shared memory, and compute the scores and the value product as small
// matrix products (cooperative matrices for float16), skipping tiles that a
// causal mask hides entirely when their keys and values are finite.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "exp_log.glsl"  // ExpF, kInf
layout(local_size_x = 64) in;

layout(std430, binding = 1) readonly buffer Q { A_T q[]; };
layout(std430, binding = 2) readonly buffer K { A_T k[]; };
layout(std430, binding = 3) readonly buffer V { A_T v[]; };
layout(std430, binding = 4) readonly buffer Mask { A_T mask[]; };  // bound to q when absent
#ifdef SPLIT
// float32 scratch at offset 0, per (row, chunk): Dv output accumulators, and
// (m, l, count of NaN/+Inf scores, unused).
layout(std430, binding = 5) writeonly buffer PartialO { float partial_o[]; };
layout(std430, binding = 6) writeonly buffer PartialStats { vec4 partial_stats[]; };
#else
layout(std430, binding = 5) writeonly buffer O { A_T o[]; };
#endif

// P(0) the first query row (of B * Hq * S) that this dispatch's q and output
// bindings start at, P(1) its rows, P(2) Hq, P(3) S, P(4) T, P(5) D, P(6) Dv,
// P(7) query heads per key/value head, P(8) key stride along T, P(9) along
// D, P(10) scale bits, P(11) 1: divide by the scale, P(12) 1 when the mask is
// present, P(13..16) mask strides along B, Hq, S, T (0 where broadcast),
// P(17) keys per chunk (a multiple of kWidth, or T), P(18) chunks (grid z).
const uint kWidth = 64;  // keys per tile: one per thread
const uint kSlots = 4;   // output elements per thread

shared vec2 partial[kWidth];
shared float weights[kWidth];

// fmax: a NaN operand loses (NaN scores are tracked apart).
float FMax(float a, float b) { return b > a ? b : a; }

float WorkgroupMax(float x) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid].x = x;
  barrier();
  for (uint s = kWidth / 2u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid].x = FMax(partial[lid].x, partial[lid + s].x);
    barrier();
  }
  const float r = partial[0].x;
  barrier();
  return r;
}

vec2 WorkgroupSum(vec2 x) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = x;
  barrier();
  for (uint s = kWidth / 2u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid] += partial[lid + s];
    barrier();
  }
  const vec2 r = partial[0];
  barrier();
  return r;
}

void main() {
  const uint first = P(0), rows = P(1), Hq = P(2), S = P(3), T = P(4), D = P(5), Dv = P(6), group = P(7);
  const uint k_ts = P(8), k_ds = P(9);
  const float scale = PF(10);
  const bool divide = P(11) != 0u, has_mask = P(12) != 0u;
  const float neg_inf = -kInf;
  const uint lid = gl_LocalInvocationID.x;
  const uint e0 = gl_WorkGroupID.y * kWidth * kSlots + lid;  // this thread's first output element
  const uint chunk = gl_WorkGroupID.z, chunks = P(18);
  const uint key_begin = chunk * P(17), key_end = min(T, key_begin + P(17));  // this workgroup's keys
  for (uint row = gl_WorkGroupID.x; row < rows; row += gl_NumWorkGroups.x) {
    const uint i = (first + row) % S, bh = (first + row) / S, h = bh % Hq, b = bh / Hq;
    const uint kv = b * (Hq / group) + h / group;  // GQA: the key/value head of query head h
    const uint q0 = BASE(1) + row * D, k0 = BASE(2) + kv * T * D, v0 = BASE(3) + kv * T * Dv;
    const uint m0 = BASE(4) + b * P(13) + h * P(14) + i * P(15), m_ts = P(16);
    float m = neg_inf, l = 0.0;
    bool bad = false;  // a NaN or +Inf score
    float acc[kSlots];
    for (uint c = 0u; c < kSlots; ++c) acc[c] = 0.0;
    for (uint t0 = key_begin; t0 < key_end; t0 += kWidth) {
      const uint j = t0 + lid, width = min(kWidth, key_end - t0);
      float s = neg_inf;  // past the chunk: no weight
      if (j < key_end) {
        float dot = 0.0;
        for (uint d = 0u; d < D; ++d) dot += float(q[q0 + d]) * float(k[k0 + j * k_ts + d * k_ds]);
        s = divide ? dot / scale : dot * scale;
        if (has_mask) s += float(mask[m0 + j * m_ts]);
        bad = bad || isnan(s) || s == kInf;
      }
      const float m_new = FMax(m, WorkgroupMax(FMax(neg_inf, s)));
      // Nothing but -Inf so far: weights 0 and the output unscaled.
      const float p = s == neg_inf || m_new == neg_inf ? 0.0 : ExpF(s - m_new);
      const float alpha = m_new == neg_inf ? 1.0 : m == neg_inf ? 0.0 : ExpF(m - m_new);
      l = l * alpha + p;
      m = m_new;
      weights[lid] = p;
      barrier();
      for (uint c = 0u; c < kSlots; ++c) {
        const uint e = e0 + c * kWidth;
        if (e >= Dv) break;
        float sum = acc[c] * alpha;
        for (uint jj = 0u; jj < width; ++jj) sum += weights[jj] * float(v[v0 + (t0 + jj) * Dv + e]);
        acc[c] = sum;
      }
      // The next tile writes `weights` only after WorkgroupMax's barriers,
      // which every thread reaches after this loop.
    }
    const vec2 total = WorkgroupSum(vec2(l, bad ? 1.0 : 0.0));
#ifdef SPLIT
    // Unnormalised: a chunk of only -Inf scores (m = -Inf, l = 0) is no NaN
    // by itself; the combine decides per row. Its accumulators still hold
    // the 0 * Inf NaNs of its values.
    const uint record = row * chunks + chunk;
    for (uint c = 0u; c < kSlots; ++c) {
      const uint e = e0 + c * kWidth;
      if (e >= Dv) break;
      partial_o[record * Dv + e] = acc[c];
    }
    if (gl_WorkGroupID.y == 0u && lid == 0u) partial_stats[record] = vec4(m, total.x, total.y, 0.0);
#else
    // l = 0 (every score -Inf) is softmax's 0 / 0; NaN as a number here, not
    // left to a division by 0 (whose result Vulkan leaves undefined).
    const bool nan_row = total.y != 0.0 || !(total.x > 0.0);
    for (uint c = 0u; c < kSlots; ++c) {
      const uint e = e0 + c * kWidth;
      if (e >= Dv) break;
      o[BASE(5) + row * Dv + e] = A_T(nan_row ? kNaN : acc[c] / total.x);
    }
#endif
  }
}
