#version 450
// quantizedMatmul for few rows of A (decode: a matrix-vector product bound by
// reading the weight), for a [K, N] weight (not transposed) whose N is a
// multiple of the codes in a 32-bit word. Same semantics as
// quantized_matmul.comp: each weight dequantized in registers as
// dequantizeLinear computes it (quantized.glsl), products summed in float32
// from -0.0, float16 rounded once at the store; only the order of the sum
// differs (partial sums over slices of K, added in slice order).
//
// Layout: a workgroup owns kCols columns (kWords 32-bit words of a weight row)
// and a range of K; thread t reads word t % kWords of the rows of its slice
// t / kWords, a contiguous run of K, so a warp reads 4 rows x 32 bytes, whole
// memory sectors, and reloads a block's scales only when its run crosses a
// block. Each thread keeps kRows x kCodes sums; the slices are added through
// shared memory. With few columns (q, k, v, o and down projections of a small
// LLM have N <= 896: 14 workgroups for 132 multiprocessors on an H100) K is
// also split over workgroups (grid y): each writes its float32 partial sums
// to scratch and a second dispatch (-DCOMBINE) adds them in order and applies
// the bias and epilogue (or the SwiGLU), so that several hundred workgroups
// keep enough loads in flight.
//
// -DGATED: the SwiGLU (g * sigmoid(g)) * u of g = a x W and u = a x W_up.
// -DA_F32 / -DA_F16: a, scale, bias and output; -DQ_*: the code type.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#if defined(COMBINE)
#define EPILOGUE_PARAMS 4
#else
#define EPILOGUE_PARAMS 12
#endif
#include "epilogue.glsl"  // also unary_math.glsl's SigmoidF
layout(local_size_x = 256) in;

#if defined(COMBINE)
// P(0) rows, P(1) N, P(2) K splits, P(3) bias: 0 none, 1 one value, 2 one per
// column; P(4..10) the epilogue. Partials: [split][row][N] (gated: the gate's,
// then the up projection's).
layout(std430, binding = 1) readonly buffer Partial { float partial[]; };
layout(std430, binding = 2) readonly buffer Bias { A_T bias[]; };  // bound to partial when absent
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };

void main() {
  const uint rows = P(0), N = P(1), splits = P(2), pb = BASE(1) / 4u;
  GRID_STRIDE_LOOP(i, rows * N) {
    float g = -0.0;
    for (uint s = 0u; s < splits; ++s) g += partial[pb + s * rows * N + i];
#if defined(GATED)
    float u = -0.0;
    for (uint s = 0u; s < splits; ++s) u += partial[pb + (splits + s) * rows * N + i];
    const float v = (g * SigmoidF(g)) * u;  // as the unfused mul(mul(g, sigmoid(g)), u)
#else
    float v = g;
    if (P(3) != 0u) v += float(bias[BASE(2) + (P(3) == 2u ? i % N : 0u)]);
    v = Epilogue(v);
#endif
    o[BASE(3) + i] = A_T(v);
  }
}

#else  // the product
#include "quantized.glsl"

#if defined(Q_PACKED)
const uint kCodes = 8u;  // codes per 32-bit word
#else
const uint kCodes = 4u;
#endif
const uint kWords = 8u, kSlices = 256u / kWords, kCols = kWords * kCodes, kRows = 4u;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer W { uint w[]; };  // codes as words; BASE(2) in bytes
layout(std430, binding = 3) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 4) readonly buffer ZeroPoint { Q_T zero_point[]; };
// The output, or the scratch of partial sums when K is split (P(10) > 1).
layout(std430, binding = 5) writeonly buffer O { A_T o[]; };
layout(std430, binding = 5) writeonly buffer Partial { float partial[]; };
#if defined(GATED)
layout(std430, binding = 6) readonly buffer UpW { uint up_w[]; };
layout(std430, binding = 7) readonly buffer UpScale { A_T up_scale[]; };
layout(std430, binding = 8) readonly buffer UpZeroPoint { Q_T up_zero_point[]; };
#else
layout(std430, binding = 6) readonly buffer Bias { A_T bias[]; };  // bound to A when absent
#endif

// P(0) rows of A, P(1) N, P(2) K, P(3) weight row stride (codes), P(4) blocks
// along K, P(5) block along K, P(6) along N, P(7) scale (and zero point)
// stride per block along K, P(8) along N, P(9) bias mode (as COMBINE's P(3)),
// P(10) K splits (grid y), P(11) rows of K per split, P(12..18) the epilogue.

// The word at `byte_offset` (a multiple of 4) past the binding's base: the
// base itself may sit at any byte, then the word straddles two.
#define WORD_AT(buf, base, byte_offset, out_word)                                   \
  {                                                                                 \
    const uint b_ = (base) + (byte_offset), shift_ = (b_ & 3u) * 8u, i_ = b_ >> 2; \
    out_word = shift_ == 0u ? buf[i_] : (buf[i_] >> shift_) | (buf[i_ + 1u] << (32u - shift_)); \
  }

int CodeOf(uint word, uint i) { return CodeFromBits((word >> (i * (32u / kCodes))) & ((1u << (32u / kCodes)) - 1u)); }

shared float sums[kSlices][kCols + 1u];
#if defined(GATED)
shared float up_sums[kSlices][kCols + 1u];
#endif

void main() {
  const uint rows = P(0), N = P(1), K = P(2), w_ks = P(3);
  const uint block_k = P(5), block_n = P(6), s_ks = P(7), s_ns = P(8), splits = P(10), k_per_split = P(11);
  const uint t = gl_LocalInvocationIndex, word = t % kWords, slice = t / kWords;
  const uint n0 = gl_WorkGroupID.x * kCols + word * kCodes;  // this thread's first column
  const bool has_columns = n0 < N;
  const uint split = gl_WorkGroupID.y;
  const uint k_first = split * k_per_split, k_last = min(K, k_first + k_per_split);
  const uint run = (k_last - min(k_first, k_last) + kSlices - 1u) / kSlices;
  const uint k_begin = min(k_last, k_first + slice * run), k_end = min(k_last, k_begin + run);
  const uint ba = BASE(1), bw = BASE(2), bs = BASE(3), bz = BASE(4);
#if defined(GATED)
  const uint bu = BASE(6), bus = BASE(7), buz = BASE(8);
#endif

  for (uint r0 = 0u; r0 < rows; r0 += kRows) {
    const uint count = min(kRows, rows - r0);
    float acc[kRows][kCodes];
#if defined(GATED)
    float up[kRows][kCodes];
#endif
    for (uint r = 0u; r < kRows; ++r)
      for (uint i = 0u; i < kCodes; ++i) {
        acc[r][i] = -0.0;
#if defined(GATED)
        up[r][i] = -0.0;
#endif
      }
    if (has_columns) {
      for (uint k = k_begin; k < k_end;) {
        // One block of K at a time: its scales and zero points once.
        const uint kb = k / block_k, k_stop = min(k_end, (kb + 1u) * block_k);
        float s[kCodes];
        int zp[kCodes];
#if defined(GATED)
        float us[kCodes];
        int uzp[kCodes];
#endif
        for (uint i = 0u; i < kCodes; ++i) {
          const uint p = kb * s_ks + ((n0 + i) / block_n) * s_ns;
          s[i] = float(scale[bs + p]);
          zp[i] = CODE(zero_point, bz, p);
#if defined(GATED)
          us[i] = float(up_scale[bus + p]);
          uzp[i] = CODE(up_zero_point, buz, p);
#endif
        }
        for (; k < k_stop; ++k) {
#if defined(Q_PACKED)
          const uint byte_offset = (k * w_ks + n0) >> 1;
#else
          const uint byte_offset = k * w_ks + n0;
#endif
          uint codes;
          WORD_AT(w, bw, byte_offset, codes);
#if defined(GATED)
          uint up_codes;
          WORD_AT(up_w, bu, byte_offset, up_codes);
#endif
          float av[kRows];
          for (uint r = 0u; r < kRows; ++r) av[r] = r < count ? float(a[ba + (r0 + r) * K + k]) : 0.0;
          for (uint i = 0u; i < kCodes; ++i) {
            const float wv = Dequantize(CodeOf(codes, i) - zp[i], s[i]);
#if defined(GATED)
            const float uv = Dequantize(CodeOf(up_codes, i) - uzp[i], us[i]);
#endif
            for (uint r = 0u; r < kRows; ++r) {
              acc[r][i] += av[r] * wv;
#if defined(GATED)
              up[r][i] += av[r] * uv;
#endif
            }
          }
        }
      }
    }
    // Add the slices, one row at a time; thread c < kCols owns column c.
    for (uint r = 0u; r < kRows; ++r) {
      if (r >= count) break;
      for (uint i = 0u; i < kCodes; ++i) {
        sums[slice][i * kWords + word] = acc[r][i];
#if defined(GATED)
        up_sums[slice][i * kWords + word] = up[r][i];
#endif
      }
      barrier();
      const uint n = gl_WorkGroupID.x * kCols + t;
      if (t < kCols && n < N) {
        const uint col = (t % kCodes) * kWords + t / kCodes;
        float g = -0.0;
        for (uint sl = 0u; sl < kSlices; ++sl) g += sums[sl][col];
#if defined(GATED)
        float u = -0.0;
        for (uint sl = 0u; sl < kSlices; ++sl) u += up_sums[sl][col];
#endif
        const uint i = (r0 + r) * N + n;
        if (splits > 1u) {
          partial[BASE(5) / 4u + split * rows * N + i] = g;
#if defined(GATED)
          partial[BASE(5) / 4u + (splits + split) * rows * N + i] = u;
#endif
        } else {
#if defined(GATED)
          const float v = (g * SigmoidF(g)) * u;  // as the unfused mul(mul(g, sigmoid(g)), u)
#else
          float v = g;
          if (P(9) != 0u) v += float(bias[BASE(6) + (P(9) == 2u ? n : 0u)]);
          v = Epilogue(v);
#endif
          o[BASE(5) + i] = A_T(v);
        }
      }
      barrier();
    }
  }
}
#endif
