// cpu kernel of quantizedMatmul (src/ops/quantized_matmul.h): matmul / gemm of
// float activations and int4/uint4/int8/uint8 weights that stay quantized.
//
// Packing (prepare, once per compiled graph): the weight's codes are regrouped
// into column groups of kGroup = 16 columns (one AVX-512 float vector, two
// AVX2, four SSE4). Per group, per block of `block` rows along K, the codes of
// 16 columns lie next to each other, row by row:
//   4-bit: one byte per column per PAIR of rows (low nibble row k, high nibble
//          row k + 1; an odd block's last row has only low nibbles), so a
//          16-byte load is 32 weights. int4 codes are stored as q + 8 (0..15)
//          and their zero point likewise, so q - zp is the same difference.
//   8-bit: one byte per column per row.
// Per group and block: 16 float32 scales (float16 scales widened, exactly)
// and 16 zero points, or one zero point for the whole weight when they are
// all equal (symmetric int4 has a zero point of 0 everywhere). The codes take
// the bytes the weight took (plus padding of the last group and odd blocks);
// the original constants are released after packing.
//
// Dequantization happens in registers, never into memory:
//  - M <= kMatvecRows (decode): a GEMV over the packed codes. Per 16-byte
//    load of 4-bit codes (32 weights): 1 zero-extending load, and + shift
//    (split the nibbles), 2 converts and, per row of A, 2 FMAs: the zero
//    point and the scale are factored out of each block's sum (sum a * code
//    - zp * sum a, times the scale, once per block), which changes the
//    rounding (per block sums instead of per weight) but nothing else: it is
//    taken only when the scales are finite, no weight overflows and A is
//    finite below 2^32. Otherwise each weight is dequantized exactly as
//    dequantizeLinear does, float(code - zp) * scale with one rounding (to
//    float16 with a float16 scale). Compute-bound on Zen 5 (~23 GB/s of
//    codes + scales per core, 1x4096x4096); up to 4 rows of A share each
//    converted vector; about 4 independent accumulator chains keep FMA
//    latency off the critical path.
//    Opt-in int8 activations (QuantizedMatmulAttrs::int8_activations): A
//    quantized per row and block, integer dot products (VNNI where the CPU
//    has it; see BlockSumsVnni), ~memory-bound: ~0.24 ms for 1x4096x4096
//    int4 on one Zen 5 core against ~0.35 ms for the float GEMV.
//  - larger M (prefill): A is packed once for the GEMM core, which runs per
//    chunk of columns and asks for each B micro-panel (a K block of one column
//    panel, <= 32 KiB) right before its tiles read it (GemmF32Sourced): the
//    weights are dequantized exactly into that L1-sized buffer, and the
//    dequantization (~1 op per weight) is amortized over M rows of 2 flops
//    per weight (10.5 % of the sourced GEMM's time at M = 128 before the
//    range-check and table changes below, 8.6-9.5 % after the first; 9-12 %
//    in the decoder's prefill with its weights coming from memory, 4.5-5.3 %
//    once the next micro-panel's codes are prefetched (PrefetchWeightPanel);
//    Xeon, rdtsc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/quantized_matmul.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "core/float16.h"
#include "ops/cpu/activation.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/fused_epilogue.h"
#include "ops/cpu/gemm.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/quantized_matmul_amx.h"
#include "ops/cpu/quantized_weights.h"
#include "ops/quantized_matmul.h"

#ifndef WEBNN_QUANTIZED_MATMUL_ONCE
#define WEBNN_QUANTIZED_MATMUL_ONCE
namespace webnn::ops::cpu::qmm {

constexpr size_t kMatvecRows = 4;  // M up to this: the GEMV path

// A's rows quantized to int8 for the int8-activation GEMV
// (QuantizedMatmulAttrs::int8_activations), per row i and weight block b:
// sa = max |a| / 127 over the block, aq = round(a / sa) in [-127, 127].
struct Int8Rows {
  const int8_t* aq = nullptr;       // [rows][k]
  const int32_t* words = nullptr;   // [rows][k / 4]: aq as VNNI operands (see QuantizeRows)
  const float* sa = nullptr;        // [rows][blocks]
  const int32_t* sums = nullptr;    // [rows][blocks]: the block's sum of aq
  size_t k = 0, blocks = 0;
};

}  // namespace webnn::ops::cpu::qmm
#endif  // WEBNN_QUANTIZED_MATMUL_ONCE

#include "ops/cpu/float16-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

using qmm::Codes;
using qmm::kGroup;
using qmm::PackedWeights;
using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;
constexpr size_t kLanes = hn::MaxLanes(DF());
static_assert(kGroup % kLanes == 0, "a column group is whole vectors");
constexpr size_t kParts = kGroup / kLanes;  // vectors per group

// kLanes codes (one byte each) widened to int32 lanes.
template <Codes kCodes>
HWY_INLINE VI LoadCodes(const uint8_t* p) {
  const DI di;
  if constexpr (kCodes == Codes::kInt8) {
    return hn::PromoteTo(di, hn::LoadU(hn::Rebind<int8_t, DI>(), reinterpret_cast<const int8_t*>(p)));
  } else {
    return hn::PromoteTo(di, hn::LoadU(hn::Rebind<uint8_t, DI>(), p));
  }
}

// What ForEachWeightRow hands out per weight.
enum class Weights {
  kExact,     // float(code - zero point) * scale, rounded once: dequantizeLinear's float32 value
  kExactF16,  // the same rounded to float16 (a float16 scale): dequantizeLinear's float16 value
  kCodes,     // float(code), exact: the caller subtracts the zero point's share and applies the scale
};

template <Weights kWeights>
HWY_INLINE VF Dequantize(VI code, VI zero_point, VF scale) {
  const DF df;
  if constexpr (kWeights == Weights::kCodes) return hn::ConvertTo(df, code);
  VF w = hn::Mul(hn::ConvertTo(df, hn::Sub(code, zero_point)), scale);
  if constexpr (kWeights == Weights::kExactF16) w = F16BitsToF32(df, F32ToF16Bits(df, w));
  return w;
}

// The scale and zero point vectors of group g, block b.
template <Codes kCodes, bool kScales>
HWY_INLINE void BlockParameters(const PackedWeights& p, size_t g, size_t b, VF* scale, VI* zero_point) {
  const DF df;
  const DI di;
  const float* s = p.scales_at(g, b);
  const uint8_t* z = p.zero_points_at(g, b);
  for (size_t v = 0; v < kParts; ++v) {
    scale[v] = kScales ? hn::LoadU(df, s + v * kLanes) : hn::Zero(df);
    zero_point[v] = z ? LoadCodes<kCodes>(z + v * kLanes) : hn::Set(di, p.zero_point);
  }
}

// Calls f(k, part, w, slot): the dequantized weights of row k of group g,
// block b (kLanes columns starting at part * kLanes), row by row. `slot`
// (0..3, a constant once inlined) is the row's position modulo 4 where the
// loop is unrolled, for callers that keep independent accumulators.
template <Codes kCodes, Weights kWeights, class F>
HWY_INLINE void ForEachWeightRow(const PackedWeights& p, size_t g, size_t b, const F& f) {
  const DI di;
  VF scale[kParts];
  VI zero_point[kParts];
  BlockParameters<kCodes, kWeights != Weights::kCodes>(p, g, b, scale, zero_point);
  const uint8_t* codes = p.codes_at(g, b);
  const size_t k0 = b * p.block;
  if constexpr (kCodes == Codes::kNibbles) {
    const VI low_mask = hn::Set(di, 0x0F);
    // Code row r holds rows 2r (low nibbles) and 2r + 1 (high nibbles).
    auto pair = [&](size_t r, size_t slot_low, size_t slot_high) HWY_ATTR {
      for (size_t v = 0; v < kParts; ++v) {
        const VI raw = LoadCodes<kCodes>(codes + r * kGroup + v * kLanes);
        f(k0 + 2 * r, v, Dequantize<kWeights>(hn::And(raw, low_mask), zero_point[v], scale[v]), slot_low);
        f(k0 + 2 * r + 1, v, Dequantize<kWeights>(hn::ShiftRight<4>(raw), zero_point[v], scale[v]), slot_high);
      }
    };
    const size_t pairs = p.block / 2;
    size_t r = 0;
    for (; r + 2 <= pairs; r += 2) {
      pair(r, 0, 1);
      pair(r + 1, 2, 3);
    }
    if (r < pairs) pair(r++, 0, 1);
    if (p.block % 2) {  // an odd block's last row: low nibbles only
      for (size_t v = 0; v < kParts; ++v) {
        const VI raw = LoadCodes<kCodes>(codes + r * kGroup + v * kLanes);
        f(k0 + 2 * r, v, Dequantize<kWeights>(hn::And(raw, low_mask), zero_point[v], scale[v]), 0);
      }
    }
  } else {
    auto row = [&](size_t r, size_t slot) HWY_ATTR {
      for (size_t v = 0; v < kParts; ++v)
        f(k0 + r, v, Dequantize<kWeights>(LoadCodes<kCodes>(codes + r * kGroup + v * kLanes), zero_point[v], scale[v]),
          slot);
    };
    size_t r = 0;
    for (; r + 4 <= p.block; r += 4) {
      row(r, 0);
      row(r + 1, 1);
      row(r + 2, 2);
      row(r + 3, 3);
    }
    for (; r < p.block; ++r) row(r, 0);
  }
}

// Group g's sums of one row of A (kParts vectors), plus the bias, clamped, to
// c[g * kGroup ...] (the columns the group has).
HWY_INLINE void StoreGroup(const PackedWeights& p, const VF* sum, const GemmEpilogue& epilogue, size_t g, float* c) {
  const DF df;
  const size_t n0 = g * kGroup;
  const size_t cols = std::min(kGroup, p.n - n0);
  HWY_ALIGN float out[kGroup];
  for (size_t v = 0; v < kParts; ++v) {
    VF x = sum[v];
    if (epilogue.bias) {
      HWY_ALIGN float bias[kLanes];
      for (size_t j = 0; j < kLanes; ++j) bias[j] = n0 + v * kLanes + j < p.n ? epilogue.bias[n0 + v * kLanes + j] : 0;
      x = hn::Add(x, hn::Load(df, bias));
    }
    // max/min that keep NaN: compare, then select.
    x = hn::IfThenElse(hn::Lt(x, hn::Set(df, epilogue.min)), hn::Set(df, epilogue.min), x);
    x = hn::IfThenElse(hn::Gt(x, hn::Set(df, epilogue.max)), hn::Set(df, epilogue.max), x);
    hn::Store(x, df, out + v * kLanes);
  }
  std::memcpy(c + n0, out, cols * sizeof(float));
}

// C[0:R, groups g0..g1) = A[0:R, :] x W (+ bias, clamped): the GEMV path.
// kExact / kExactF16: sum a * w over K with dequantizeLinear's weights.
// kCodes: per block, sum a * code, subtract zero point * sum a (the row's
// block sums, `block_sums`), then one FMA by the block's scale: the scale and
// zero point are factored out of the block's sum (per 32 weights and row,
// 2 converts and 2 FMAs after the nibbles are split; no integer subtracts,
// no multiplies), the product's rounding moves from the weights to the block
// sums. QuantizedMatmulF32 picks it only where that changes no NaN, Inf or
// overflow. An FMA's latency is ~4 cycles and a row of codes takes ~2-3
// cycles of other work, so about 4 independent accumulator chains keep the
// FMAs off the critical path: R rows x kParts vectors, times kSlots by row
// position.
template <Codes kCodes, Weights kWeights, size_t R>
void MatvecGroups(const PackedWeights& p, const float* a, size_t lda, const float* block_sums, float* c, size_t ldc,
                  const GemmEpilogue& epilogue, size_t g0, size_t g1) {
  constexpr size_t kSlots = R * kParts >= 4 ? 1 : 4 / (R * kParts);
  const DF df;
  for (size_t g = g0; g < g1; ++g) {
    VF acc[R][kParts][kSlots];
    for (size_t i = 0; i < R; ++i)
      for (size_t v = 0; v < kParts; ++v)
        for (VF& x : acc[i][v]) x = hn::Zero(df);
    for (size_t b = 0; b < p.blocks; ++b) {
      if constexpr (kWeights == Weights::kCodes) {
        VF block[R][kParts][kSlots];
        for (size_t i = 0; i < R; ++i)
          for (size_t v = 0; v < kParts; ++v)
            for (VF& x : block[i][v]) x = hn::Zero(df);
        ForEachWeightRow<kCodes, kWeights>(p, g, b, [&](size_t k, size_t v, VF w, size_t slot) HWY_ATTR {
          for (size_t i = 0; i < R; ++i)
            block[i][v][slot % kSlots] = hn::MulAdd(hn::Set(df, a[i * lda + k]), w, block[i][v][slot % kSlots]);
        });
        const float* s = p.scales_at(g, b);
        const uint8_t* z = p.zero_points_at(g, b);
        for (size_t v = 0; v < kParts; ++v) {
          const VF scale = hn::LoadU(df, s + v * kLanes);
          const VF zero_point = z ? hn::ConvertTo(df, LoadCodes<kCodes>(z + v * kLanes)) : hn::Set(df, p.zero_point);
          for (size_t i = 0; i < R; ++i) {
            // sum a * (code - zp) = sum a * code - zp * sum a, in the first slot.
            block[i][v][0] = hn::NegMulAdd(zero_point, hn::Set(df, block_sums[i * p.blocks + b]), block[i][v][0]);
            for (size_t j = 0; j < kSlots; ++j) acc[i][v][j] = hn::MulAdd(scale, block[i][v][j], acc[i][v][j]);
          }
        }
      } else {
        ForEachWeightRow<kCodes, kWeights>(p, g, b, [&](size_t k, size_t v, VF w, size_t slot) HWY_ATTR {
          for (size_t i = 0; i < R; ++i)
            acc[i][v][slot % kSlots] = hn::MulAdd(hn::Set(df, a[i * lda + k]), w, acc[i][v][slot % kSlots]);
        });
      }
    }
    for (size_t i = 0; i < R; ++i) {
      VF sum[kParts];
      for (size_t v = 0; v < kParts; ++v) {
        sum[v] = acc[i][v][0];
        for (size_t j = 1; j < kSlots; ++j) sum[v] = hn::Add(sum[v], acc[i][v][j]);
      }
      StoreGroup(p, sum, epilogue, g, c + i * ldc);
    }
  }
}

template <Codes kCodes, Weights kWeights>
void MatvecRows(const PackedWeights& p, const float* a, size_t lda, const float* block_sums, size_t rows, float* c,
                size_t ldc, const GemmEpilogue& epilogue, size_t g0, size_t g1) {
  for (size_t r = 0; r < rows; r += 4) {
    const float* ar = a + r * lda;
    const float* sr = block_sums ? block_sums + r * p.blocks : nullptr;
    float* cr = c + r * ldc;
    switch (std::min<size_t>(4, rows - r)) {
      case 1: MatvecGroups<kCodes, kWeights, 1>(p, ar, lda, sr, cr, ldc, epilogue, g0, g1); break;
      case 2: MatvecGroups<kCodes, kWeights, 2>(p, ar, lda, sr, cr, ldc, epilogue, g0, g1); break;
      case 3: MatvecGroups<kCodes, kWeights, 3>(p, ar, lda, sr, cr, ldc, epilogue, g0, g1); break;
      default: MatvecGroups<kCodes, kWeights, 4>(p, ar, lda, sr, cr, ldc, epilogue, g0, g1); break;
    }
  }
}

// block_sums: the factored GEMV's per-row block sums of A, or null for the exact one.
template <Codes kCodes>
void MatvecRowsOf(const PackedWeights& p, const float* a, size_t lda, const float* block_sums, size_t rows, float* c,
                  size_t ldc, const GemmEpilogue& epilogue, size_t g0, size_t g1) {
  if (block_sums) return MatvecRows<kCodes, Weights::kCodes>(p, a, lda, block_sums, rows, c, ldc, epilogue, g0, g1);
  if (p.f16) return MatvecRows<kCodes, Weights::kExactF16>(p, a, lda, nullptr, rows, c, ldc, epilogue, g0, g1);
  MatvecRows<kCodes, Weights::kExact>(p, a, lda, nullptr, rows, c, ldc, epilogue, g0, g1);
}

// ---- The int8-activation GEMV (QuantizedMatmulAttrs::int8_activations) ----
// Per group g and block b, the integer sums S = sum code * aq over the
// block's rows, exactly, in int32 (|S| <= 255 * 127 * K); then, as the
// factored float GEMV, t = S - zp * sum aq (exact) and acc += (scale * sa) *
// float(t). Two ways to S give the same integers, so the same results:
//  - BlockSumsVnni (AVX3 target, a CPU with AVX-512 VNNI and VBMI, blocks of
//    a multiple of 8 (4-bit) or 4 (8-bit) rows): a 64-byte load holds 4
//    code rows of 16 columns; vpermb regroups it so that each column's 32-bit
//    lane holds its 4 rows (8 for 4-bit: low nibbles the even rows, high
//    the odd ones); vpdpbusd multiplies them with 4 activations and adds, 64
//    products per instruction. Per 128 4-bit weights and row: load, permute,
//    2 ands, a shift, 2 dot products (the float GEMV: ~28 ops).
//  - BlockSumsPortable (every target): codes widened to int32, multiplied by
//    the broadcast activation and added, row by row.

// Int8Rows::words of row i: for 4-bit codes, per 8 rows k0.. two words,
// (aq[k0], aq[k0 + 2], aq[k0 + 4], aq[k0 + 6]) then the odd rows; for 8-bit,
// per 4 rows one word (aq[k0..k0 + 3]); bytes low first.
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
bool HasVnni() {
  static const bool vnni = __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vbmi");
  return vnni;
}

// sums[b][i][0..16) for the blocks of group g.
template <Codes kCodes, size_t R>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,avx512vbmi"))) void BlockSumsVnni(
    const PackedWeights& p, size_t g, const qmm::Int8Rows& q, int32_t* sums) {
  // Byte 4c + j of the regrouped vector is byte 16j + c of the load (row j, column c).
  alignas(64) static const uint8_t kTranspose[64] = {
      0, 16, 32, 48, 1, 17, 33, 49, 2, 18, 34, 50, 3, 19, 35, 51, 4, 20, 36, 52, 5, 21, 37, 53,
      6, 22, 38, 54, 7, 23, 39, 55, 8, 24, 40, 56, 9, 25, 41, 57, 10, 26, 42, 58, 11, 27, 43, 59,
      12, 28, 44, 60, 13, 29, 45, 61, 14, 30, 46, 62, 15, 31, 47, 63};
  const __m512i transpose = _mm512_load_si512(kTranspose);
  const __m512i low = _mm512_set1_epi8(0x0F);
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  constexpr bool kNibbles = kCodes == Codes::kNibbles;
  const size_t units = p.code_rows / 4;              // 64-byte loads per block
  const size_t words_per_unit = kNibbles ? 2 : 1;
  const size_t row_words = q.k / 4;
  for (size_t b = 0; b < p.blocks; ++b) {
    const uint8_t* codes = p.codes_at(g, b);
    const size_t w0 = b * units * words_per_unit;
    // Two chains per row (low and high nibbles, or even and odd units) keep
    // vpdpbusd's latency off the critical path.
    __m512i s0[R], s1[R];
    for (size_t i = 0; i < R; ++i) s0[i] = s1[i] = _mm512_setzero_si512();
    for (size_t u = 0; u < units; ++u) {
      const __m512i z = _mm512_permutexvar_epi8(transpose, _mm512_loadu_si512(codes + u * 64));
      const int32_t* w = q.words + w0 + u * words_per_unit;
      if constexpr (kNibbles) {
        const __m512i lo = _mm512_and_si512(z, low);
        const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(z, 4), low);
        for (size_t i = 0; i < R; ++i) {
          s0[i] = _mm512_dpbusd_epi32(s0[i], lo, _mm512_set1_epi32(w[i * row_words]));
          s1[i] = _mm512_dpbusd_epi32(s1[i], hi, _mm512_set1_epi32(w[i * row_words + 1]));
        }
      } else {
        // vpdpbusd multiplies unsigned by signed bytes: int8 codes as q + 128.
        const __m512i c = kCodes == Codes::kInt8 ? _mm512_xor_si512(z, flip) : z;
        for (size_t i = 0; i < R; ++i) s0[i] = _mm512_dpbusd_epi32(s0[i], c, _mm512_set1_epi32(w[i * row_words]));
        std::swap(s0, s1);  // alternate the chains (the copies fold away once unrolled)
      }
    }
    for (size_t i = 0; i < R; ++i) {
      __m512i sum = _mm512_add_epi32(s0[i], s1[i]);
      // int8: sum (q + 128) * aq = sum q * aq + 128 * sum aq.
      if constexpr (kCodes == Codes::kInt8)
        sum = _mm512_sub_epi32(sum, _mm512_set1_epi32(128 * q.sums[i * q.blocks + b]));
      _mm512_storeu_si512(sums + (b * R + i) * kGroup, sum);
    }
  }
}
#endif

// The same sums on every target.
template <Codes kCodes, size_t R>
void BlockSumsPortable(const PackedWeights& p, size_t g, const qmm::Int8Rows& q, int32_t* sums) {
  const DI di;
  for (size_t b = 0; b < p.blocks; ++b) {
    const uint8_t* codes = p.codes_at(g, b);
    const size_t k0 = b * p.block;
    VI s[R][kParts];
    for (size_t i = 0; i < R; ++i)
      for (VI& x : s[i]) x = hn::Zero(di);
    auto add = [&](size_t k, size_t v, VI code) HWY_ATTR {
      for (size_t i = 0; i < R; ++i) s[i][v] = hn::Add(s[i][v], hn::Mul(code, hn::Set(di, q.aq[i * q.k + k])));
    };
    for (size_t v = 0; v < kParts; ++v) {
      if constexpr (kCodes == Codes::kNibbles) {
        for (size_t r = 0; r < p.code_rows; ++r) {
          const VI raw = LoadCodes<kCodes>(codes + r * kGroup + v * kLanes);
          add(k0 + 2 * r, v, hn::And(raw, hn::Set(di, 0x0F)));
          if (2 * r + 1 < p.block) add(k0 + 2 * r + 1, v, hn::ShiftRight<4>(raw));
        }
      } else {
        for (size_t r = 0; r < p.block; ++r) add(k0 + r, v, LoadCodes<kCodes>(codes + r * kGroup + v * kLanes));
      }
    }
    for (size_t i = 0; i < R; ++i)
      for (size_t v = 0; v < kParts; ++v) hn::StoreU(s[i][v], di, sums + (b * R + i) * kGroup + v * kLanes);
  }
}

template <Codes kCodes, size_t R>
void MatvecInt8Groups(const PackedWeights& p, const qmm::Int8Rows& q, float* c, size_t ldc,
                      const GemmEpilogue& epilogue, size_t g0, size_t g1) {
  const DF df;
  const DI di;
  const memory::Scratch<int32_t> sums(p.blocks * R * kGroup, "quantizedMatmul: int8 block sums");
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  const bool vnni = HasVnni() && p.code_rows % 4 == 0 && p.block == (kCodes == Codes::kNibbles ? 2 : 1) * p.code_rows;
#endif
  for (size_t g = g0; g < g1; ++g) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if (vnni) BlockSumsVnni<kCodes, R>(p, g, q, sums.data());
    else BlockSumsPortable<kCodes, R>(p, g, q, sums.data());
#else
    BlockSumsPortable<kCodes, R>(p, g, q, sums.data());
#endif
    VF acc[R][kParts];
    for (size_t i = 0; i < R; ++i)
      for (VF& x : acc[i]) x = hn::Zero(df);
    for (size_t b = 0; b < p.blocks; ++b) {
      const float* s = p.scales_at(g, b);
      const uint8_t* z = p.zero_points_at(g, b);
      for (size_t v = 0; v < kParts; ++v) {
        const VF scale = hn::LoadU(df, s + v * kLanes);
        const VI zero_point = z ? LoadCodes<kCodes>(z + v * kLanes) : hn::Set(di, p.zero_point);
        for (size_t i = 0; i < R; ++i) {
          const VI t = hn::Sub(hn::LoadU(di, sums.data() + (b * R + i) * kGroup + v * kLanes),
                               hn::Mul(zero_point, hn::Set(di, q.sums[i * q.blocks + b])));
          acc[i][v] = hn::MulAdd(hn::Mul(scale, hn::Set(df, q.sa[i * q.blocks + b])), hn::ConvertTo(df, t), acc[i][v]);
        }
      }
    }
    for (size_t i = 0; i < R; ++i) StoreGroup(p, acc[i], epilogue, g, c + i * ldc);
  }
}

// Group g, block b of 4-bit codes with one zero point for the whole weight
// (symmetric int4, or uint4 with one zero point) as exact float32 weights,
// row r at out + r * nr, where one vector is a whole group (AVX-512): a
// 16-entry table of float(code - zero point) replaces the subtraction and the
// conversion, so a 16-byte load of 32 weights costs a widening, and + shift,
// 2 lookups and 2 multiplies (vs 2 subtractions and 2 conversions). The same
// value, rounded once: float(code - zp) is exact. False where it does not apply.
template <Codes kCodes, Weights kWeights>
HWY_INLINE bool NibblesByTable(const PackedWeights& p, size_t g, size_t b, float* HWY_RESTRICT out, size_t nr) {
#if HWY_HAVE_SCALABLE
  return false;
#else
  if constexpr (kCodes != Codes::kNibbles || kWeights != Weights::kExact || kLanes != kGroup) {
    return false;
  } else {
    if (!p.zero_points.empty()) return false;
    const DF df;
    const DI di;
    HWY_ALIGN float values[kGroup];
    for (size_t i = 0; i < kGroup; ++i) values[i] = static_cast<float>(static_cast<int32_t>(i) - p.zero_point);
    const VF table = hn::Load(df, values), scale = hn::LoadU(df, p.scales_at(g, b));
    const VI low_mask = hn::Set(di, 0x0F);
    const uint8_t* codes = p.codes_at(g, b);
    const auto lookup = [&](VI index) HWY_ATTR {
      return hn::Mul(hn::TableLookupLanes(table, hn::IndicesFromVec(df, index)), scale);
    };
    size_t r = 0;
    for (; r < p.block / 2; ++r) {
      const VI raw = LoadCodes<kCodes>(codes + r * kGroup);
      hn::Store(lookup(hn::And(raw, low_mask)), df, out + 2 * r * nr);
      hn::Store(lookup(hn::ShiftRight<4>(raw)), df, out + (2 * r + 1) * nr);
    }
    if (p.block % 2) hn::Store(lookup(hn::And(LoadCodes<kCodes>(codes + r * kGroup), low_mask)), df, out + 2 * r * nr);
    return true;
  }
#endif
}

// Rows [k0, k0 + kc) of W's columns [c0, c0 + nr), counted from group g0's
// first, as one GEMM micro-panel (GemmPanelSource): kc rows of nr floats at
// dst. A panel is whole vectors of a group (nr is a multiple of kLanes), and
// whole groups where nr >= kGroup (SSE4's 8-column panels dequantize each
// group twice). Whole blocks are dequantized (the GEMM's K blocks are
// multiples of the quantization block, see GemmLhsLayout) and rows outside the
// range skipped; columns past the last group are zeroed (computed by the
// tiles, never stored).
template <Codes kCodes, Weights kWeights>
void DequantizePanel(const PackedWeights& p, size_t g0, size_t c0, size_t k0, size_t kc, float* dst, size_t nr) {
  const DF df;
  const size_t c1 = c0 + nr, k1 = k0 + kc;
  const size_t g_end = std::min(p.groups, g0 + (c1 + kGroup - 1) / kGroup);
  for (size_t g = g0 + c0 / kGroup; g < g_end; ++g) {
    const size_t g_col = (g - g0) * kGroup;  // the group's first column, from g0's
    const bool whole_group = g_col >= c0 && g_col + kGroup <= c1;
    for (size_t b = k0 / p.block; b * p.block < k1; ++b) {
      if (whole_group && b * p.block >= k0 && (b + 1) * p.block <= k1) {  // the usual case: no checks per row
        float* base = dst + g_col - c0;
        if (NibblesByTable<kCodes, kWeights>(p, g, b, base + (b * p.block - k0) * nr, nr)) continue;
        ForEachWeightRow<kCodes, kWeights>(p, g, b, [&](size_t k, size_t v, VF w, size_t) HWY_ATTR {
          hn::Store(w, df, base + (k - k0) * nr + v * kLanes);
        });
        continue;
      }
      ForEachWeightRow<kCodes, kWeights>(p, g, b, [&](size_t k, size_t v, VF w, size_t) HWY_ATTR {
        const size_t col = g_col + v * kLanes;
        if (k >= k0 && k < k1 && col >= c0 && col < c1) hn::Store(w, df, dst + (k - k0) * nr + (col - c0));
      });
    }
  }
  const size_t filled = std::min(c1, (g_end - g0) * kGroup) - std::min(c0, (g_end - g0) * kGroup);
  if (filled < nr)
    for (size_t r = 0; r < kc; ++r) std::fill(dst + r * nr + filled, dst + (r + 1) * nr, 0.0f);
}

}  // namespace

void QuantizedMatvec(const PackedWeights& p, const float* a, size_t lda, const float* block_sums, size_t rows,
                     float* c, size_t ldc, const GemmEpilogue* epilogue, size_t g0, size_t g1) {
  switch (p.codes) {
    case Codes::kNibbles:
      return MatvecRowsOf<Codes::kNibbles>(p, a, lda, block_sums, rows, c, ldc, *epilogue, g0, g1);
    case Codes::kUint8: return MatvecRowsOf<Codes::kUint8>(p, a, lda, block_sums, rows, c, ldc, *epilogue, g0, g1);
    case Codes::kInt8: return MatvecRowsOf<Codes::kInt8>(p, a, lda, block_sums, rows, c, ldc, *epilogue, g0, g1);
  }
}

template <Codes kCodes>
void MatvecInt8RowsOf(const PackedWeights& p, const qmm::Int8Rows& q, size_t rows, float* c, size_t ldc,
                      const GemmEpilogue& epilogue, size_t g0, size_t g1) {
  for (size_t r = 0; r < rows; r += 4) {
    qmm::Int8Rows qr = q;
    qr.aq += r * q.k;
    qr.words += r * (q.k / 4);
    qr.sa += r * q.blocks;
    qr.sums += r * q.blocks;
    float* cr = c + r * ldc;
    switch (std::min<size_t>(4, rows - r)) {
      case 1: MatvecInt8Groups<kCodes, 1>(p, qr, cr, ldc, epilogue, g0, g1); break;
      case 2: MatvecInt8Groups<kCodes, 2>(p, qr, cr, ldc, epilogue, g0, g1); break;
      case 3: MatvecInt8Groups<kCodes, 3>(p, qr, cr, ldc, epilogue, g0, g1); break;
      default: MatvecInt8Groups<kCodes, 4>(p, qr, cr, ldc, epilogue, g0, g1); break;
    }
  }
}

void QuantizedMatvecInt8(const PackedWeights& p, const qmm::Int8Rows* q, size_t rows, float* c, size_t ldc,
                         const GemmEpilogue* epilogue, size_t g0, size_t g1) {
  switch (p.codes) {
    case Codes::kNibbles: return MatvecInt8RowsOf<Codes::kNibbles>(p, *q, rows, c, ldc, *epilogue, g0, g1);
    case Codes::kUint8: return MatvecInt8RowsOf<Codes::kUint8>(p, *q, rows, c, ldc, *epilogue, g0, g1);
    case Codes::kInt8: return MatvecInt8RowsOf<Codes::kInt8>(p, *q, rows, c, ldc, *epilogue, g0, g1);
  }
}

template <Codes kCodes>
void DequantizePanelOf(const PackedWeights& p, size_t g0, size_t c0, size_t k0, size_t kc, float* dst, size_t nr) {
  if (p.f16) return DequantizePanel<kCodes, Weights::kExactF16>(p, g0, c0, k0, kc, dst, nr);
  DequantizePanel<kCodes, Weights::kExact>(p, g0, c0, k0, kc, dst, nr);
}

void QuantizedDequantizePanel(const PackedWeights& p, size_t g0, size_t c0, size_t k0, size_t kc, float* dst,
                              size_t nr) {
  switch (p.codes) {
    case Codes::kNibbles: return DequantizePanelOf<Codes::kNibbles>(p, g0, c0, k0, kc, dst, nr);
    case Codes::kUint8: return DequantizePanelOf<Codes::kUint8>(p, g0, c0, k0, kc, dst, nr);
    case Codes::kInt8: return DequantizePanelOf<Codes::kInt8>(p, g0, c0, k0, kc, dst, nr);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(QuantizedMatvec);
HWY_EXPORT(QuantizedMatvecInt8);
HWY_EXPORT(QuantizedDequantizePanel);

namespace {

using qmm::Codes;
using qmm::kGroup;
using qmm::kMatvecRows;
using qmm::PackedWeights;

// Element i of a constant of an integer type as its code: int4 as q + 8
// (0..15), uint4 and uint8 as they are, int8 as its two's complement byte.
uint8_t CodeAt(const TensorView& t, size_t i) {
  const uint8_t byte = t.as<uint8_t>()[t.type == DataType::kInt4 || t.type == DataType::kUint4 ? i / 2 : i];
  if (t.type == DataType::kUint4) return i % 2 ? byte >> 4 : byte & 0x0F;
  if (t.type == DataType::kInt4) return static_cast<uint8_t>(((i % 2 ? byte >> 4 : byte & 0x0F) ^ 0x8));  // q + 8
  return byte;
}

// The packed weights of a quantizedMatmul's weight, scale and zero point.
std::shared_ptr<PackedWeights> Pack(const TensorView& weight, const TensorView& scale, const TensorView& zero_point,
                                    bool transposed) {
  auto p = std::make_shared<PackedWeights>();
  const size_t rows = weight.shape[0], cols = weight.shape[1];
  p->k = transposed ? cols : rows;
  p->n = transposed ? rows : cols;
  p->codes = weight.type == DataType::kInt8    ? Codes::kInt8
             : weight.type == DataType::kUint8 ? Codes::kUint8
                                               : Codes::kNibbles;
  p->f16 = scale.type == DataType::kFloat16;
  // The scale's extent along K gives the block; along N a scale covers
  // n / extent columns (blockwise broadcast, validated by dequantizeLinear).
  const size_t scale_k = scale.shape[transposed ? 1 : 0], scale_n = scale.shape[transposed ? 0 : 1];
  p->blocks = scale_k;
  p->block = p->k / scale_k;
  const size_t n_per_scale = p->n / scale_n;
  p->groups = (p->n + kGroup - 1) / kGroup;
  p->code_rows = p->codes == Codes::kNibbles ? (p->block + 1) / 2 : p->block;
  auto w_index = [&](size_t k, size_t n) { return transposed ? n * cols + k : k * cols + n; };
  auto s_index = [&](size_t k, size_t n) {
    const size_t sk = k / p->block, sn = n / n_per_scale;
    return transposed ? sn * scale_k + sk : sk * scale_n + sn;
  };
  // Zero points: one value when they are all equal.
  const size_t params = scale.elements();
  const uint8_t z0 = CodeAt(zero_point, 0);
  bool uniform = true;
  for (size_t i = 1; i < params && uniform; ++i) uniform = CodeAt(zero_point, i) == z0;
  p->zero_point = p->codes == Codes::kInt8 ? static_cast<int8_t>(z0) : z0;

  // Factorable: finite scales, and |code - zp| <= 15 (4-bit) or 255 times
  // |scale| below the type's largest finite value.
  const double max_weight = p->f16 ? 65504.0 : 3.4028234663852886e38;
  const double max_difference = p->codes == Codes::kNibbles ? 15.0 : 255.0;
  p->factorable = true;
  for (size_t i = 0; i < params && p->factorable; ++i) {
    const double s = p->f16 ? core::HalfBitsToDouble(scale.as<uint16_t>()[i]) : scale.as<float>()[i];
    p->factorable = std::isfinite(s) && std::fabs(s) * max_difference < max_weight;
  }

  p->code_bytes.assign(p->groups * p->blocks * p->code_rows * kGroup, 0);
  p->scales.assign(p->groups * p->blocks * kGroup, 0.0f);
  if (!uniform) p->zero_points.assign(p->groups * p->blocks * kGroup, 0);
  for (size_t g = 0; g < p->groups; ++g) {
    for (size_t b = 0; b < p->blocks; ++b) {
      float* s = p->scales.data() + (g * p->blocks + b) * kGroup;
      uint8_t* z = uniform ? nullptr : p->zero_points.data() + (g * p->blocks + b) * kGroup;
      for (size_t j = 0; j < kGroup && g * kGroup + j < p->n; ++j) {  // padding: scale 0, zero point 0
        const size_t si = s_index(b * p->block, g * kGroup + j);
        s[j] = p->f16 ? core::HalfBitsToFloat(scale.as<uint16_t>()[si]) : scale.as<float>()[si];
        if (z) z[j] = CodeAt(zero_point, si);
      }
    }
  }
  // The codes, row by row of K. Padding columns keep code 0 (their scale is 0).
  const bool nibbles = p->codes == Codes::kNibbles;
  const uint8_t flip = weight.type == DataType::kInt4 ? 0x88 : 0;  // int4 -> q + 8, both nibbles
  for (size_t k = 0; k < p->k; ++k) {
    const size_t b = k / p->block, r = k % p->block;
    uint8_t* row = p->code_bytes.data() + (b * p->code_rows + (nibbles ? r / 2 : r)) * kGroup;
    const size_t group_stride = p->blocks * p->code_rows * kGroup;
    if (nibbles && !transposed && cols % 2 == 0) {
      // Two codes per source byte (this row starts on a byte: cols is even).
      const uint8_t* src = weight.as<uint8_t>() + k * cols / 2;
      const int shift = r % 2 ? 4 : 0;
      for (size_t n = 0; n < p->n; n += 2) {
        const uint8_t byte = src[n / 2] ^ flip;
        uint8_t* d = row + (n / kGroup) * group_stride + n % kGroup;
        d[0] |= static_cast<uint8_t>((byte & 0x0F) << shift);
        d[1] |= static_cast<uint8_t>((byte >> 4) << shift);
      }
      continue;
    }
    for (size_t n = 0; n < p->n; ++n) {
      const uint8_t code = CodeAt(weight, w_index(k, n));
      uint8_t* d = row + (n / kGroup) * group_stride + n % kGroup;
      if (nibbles) *d |= static_cast<uint8_t>(r % 2 ? code << 4 : code);
      else *d = code;
    }
  }
  return p;
}

// The gated weights of a SwiGLU (PackedWeights::gated_n) from the gate's and
// the up projection's packed weights (same shapes, codes and block).
std::shared_ptr<PackedWeights> Interleave(const PackedWeights& gate, const PackedWeights& up) {
  auto p = std::make_shared<PackedWeights>(gate);
  p->gated_n = gate.n;
  p->groups = 2 * gate.groups;
  p->n = p->groups * kGroup;
  p->factorable = gate.factorable && up.factorable;
  const size_t code_stride = gate.blocks * gate.code_rows * kGroup, param_stride = gate.blocks * kGroup;
  p->code_bytes.resize(2 * gate.code_bytes.size());
  p->scales.resize(2 * gate.scales.size());
  // One zero point for all only when both have the same one.
  const bool uniform = gate.zero_points.empty() && up.zero_points.empty() && gate.zero_point == up.zero_point;
  p->zero_points.assign(uniform ? 0 : 2 * gate.groups * param_stride, 0);
  for (size_t g = 0; g < gate.groups; ++g) {
    for (int half = 0; half < 2; ++half) {
      const PackedWeights& src = half ? up : gate;
      const size_t dst_group = 2 * g + half;
      std::copy_n(src.code_bytes.data() + g * code_stride, code_stride, p->code_bytes.data() + dst_group * code_stride);
      std::copy_n(src.scales.data() + g * param_stride, param_stride, p->scales.data() + dst_group * param_stride);
      if (uniform) continue;
      uint8_t* z = p->zero_points.data() + dst_group * param_stride;
      if (src.zero_points.empty()) std::fill_n(z, param_stride, static_cast<uint8_t>(src.zero_point));
      else std::copy_n(src.zero_points.data() + g * param_stride, param_stride, z);
    }
  }
  return p;
}

// out[r, j] = silu(gate) * up = (gate * sigmoid(gate)) * up, as the written-out
// mul(mul(g, sigmoid(g)), u) rounds it, for the gated columns of groups
// [g0, g1) (even) in `wide` (leading dimension ld_wide, column 0 = group g0)
// into out (leading dimension ld_out) over `rows` rows.
void SwiGlu(const PackedWeights& p, const float* wide, size_t ld_wide, size_t rows, size_t g0, size_t g1, float* out,
            size_t ld_out) {
  static const ActivationF32 kSigmoid = MakeActivationF32(OpKind::sigmoid, ActivationAttrs{});
  const size_t j0 = g0 / 2 * kGroup, j1 = std::min(p.gated_n, g1 / 2 * kGroup);
  if (j1 <= j0) return;
  const size_t cols = j1 - j0;
  HWY_ALIGN float sig[kGroup];
  for (size_t r = 0; r < rows; ++r) {
    const float* w = wide + r * ld_wide;
    float* o = out + r * ld_out + j0;
    for (size_t j = 0; j < cols; j += kGroup) {
      const size_t pair = j / kGroup, n = std::min(kGroup, cols - j);
      const float* g = w + pair * 2 * kGroup;
      const float* u = g + kGroup;
      std::copy_n(g, n, sig);
      ApplyActivationF32(kSigmoid, sig, n);
      for (size_t c = 0; c < n; ++c) o[j + c] = (g[c] * sig[c]) * u[c];
    }
  }
}

// The GEMM path's chunks of columns: `count` chunks of whole units (groups,
// pairs of them when gated, and whole GEMM panels), chunk i covering units
// [i * units / count, (i + 1) * units / count): at most kMaxChunk columns, and
// at least 2 per thread where there are units enough, so that both threads
// of a 2-thread run get the same columns (7 chunks of 128 would give one 4 and
// the other 3). A is packed once for all chunks, so a narrow chunk costs a
// call and nothing else, and keeps its C columns in L2 across the K blocks.
// bench/llm prefill, Xeon, 2 threads, two interleaved rounds: 4 per thread
// 397-425 ms (q_proj 0.69-0.78 ms), 2 per thread 379-408 (0.58-0.59), 1 per
// thread with 512 columns at most 380-419; 1 thread alike.
constexpr size_t kMaxChunk = 256;
struct ColumnChunks {
  size_t unit, units, count;
  ColumnChunks(size_t n, size_t threads, bool gated)
      : unit(std::lcm(gated ? 2 * kGroup : kGroup, GemmPanelWidth())), units((n + unit - 1) / unit) {
    count = std::min(units, std::max(2 * threads, (units * unit + kMaxChunk - 1) / kMaxChunk));
  }
  size_t Begin(size_t i) const { return i * units / count * unit; }  // first column
};

// Rows of A per packing of A (and so of the gated path's product tile).
constexpr size_t kChunkRows = 512;

// GemmPanelSource over a chunk of the packed weights that starts at group g0:
// panel j is the chunk's columns [j * nr, (j + 1) * nr).
struct WeightPanels {
  const PackedWeights* p;
  size_t g0, nr;
};
void FillWeightPanel(const void* context, size_t panel, size_t k0, size_t kc, float* dst) {
  const auto& w = *static_cast<const WeightPanels*>(context);
  HWY_DYNAMIC_DISPATCH(QuantizedDequantizePanel)(*w.p, w.g0, panel * w.nr, k0, kc, dst, w.nr);
}
// The codes, scales and zero points that FillWeightPanel will read, towards
// L2 (locality 2: the tiles that run meanwhile stream A through L1). Each
// group's blocks are contiguous, so per group three byte ranges.
void PrefetchWeightPanel(const void* context, size_t panel, size_t k0, size_t kc) {
  const auto& w = *static_cast<const WeightPanels*>(context);
  const PackedWeights& p = *w.p;
  const size_t c0 = panel * w.nr;
  const size_t g_begin = w.g0 + c0 / kGroup, g_end = std::min(p.groups, w.g0 + (c0 + w.nr + kGroup - 1) / kGroup);
  const size_t b0 = k0 / p.block, b1 = std::min(p.blocks, (k0 + kc + p.block - 1) / p.block);
  const auto lines = [](const void* begin, size_t bytes) {
    for (size_t o = 0; o < bytes; o += 64) __builtin_prefetch(static_cast<const std::byte*>(begin) + o, 0, 2);
  };
  for (size_t g = g_begin; g < g_end && b0 < b1; ++g) {
    lines(p.codes_at(g, b0), (b1 - b0) * p.code_rows * kGroup);
    lines(p.scales_at(g, b0), (b1 - b0) * kGroup * sizeof(float));
    if (!p.zero_points.empty()) lines(p.zero_points_at(g, b0), (b1 - b0) * kGroup);
  }
}

// True when every a is finite with |a| < 2^32: with factorable weights, the
// factored GEMV (sum a * code - zp * sum a, times the scale) then overflows
// nowhere dequantizeLinear + matmul do not, and meets no Inf - Inf they do
// not (an Inf in A would: Inf * code - zp * Inf).
bool TameActivations(const float* a, size_t count) {
  constexpr float kLimit = 4294967296.0f;
  bool tame = true;
  for (size_t i = 0; i < count; ++i) tame &= std::fabs(a[i]) < kLimit;  // false for NaN and Inf
  return tame;
}

// Rows [0, m) of a quantized for the int8-activation GEMV (qmm::Int8Rows):
// per weight block, sa = max |a| / 127 and aq = round(a / sa) (ties to even;
// a block of zeros has sa = 0 and aq = 0). Needs finite a.
void QuantizeRows(const PackedWeights& p, const float* a, size_t m, int8_t* aq, int32_t* words, float* sa,
                  int32_t* sums) {
  const size_t k = p.k;
  for (size_t i = 0; i < m; ++i) {
    for (size_t b = 0; b < p.blocks; ++b) {
      const float* x = a + i * k + b * p.block;
      float amax = 0;
      for (size_t r = 0; r < p.block; ++r) amax = std::max(amax, std::fabs(x[r]));
      const float scale = amax / 127.0f;
      int32_t sum = 0;
      for (size_t r = 0; r < p.block; ++r) {
        const float v = scale > 0 ? std::nearbyint(x[r] / scale) : 0.0f;
        const int32_t q = static_cast<int32_t>(std::clamp(v, -127.0f, 127.0f));
        aq[i * k + b * p.block + r] = static_cast<int8_t>(q);
        sum += q;
      }
      sa[i * p.blocks + b] = scale;
      sums[i * p.blocks + b] = sum;
    }
    // The VNNI operands: 4-bit codes pair row 2r (low nibble) with 2r + 1
    // (high), so per 8 rows the even rows' activations, then the odd ones'.
    const int8_t* row = aq + i * k;
    for (size_t w = 0; w < k / 4; ++w) {
      uint8_t bytes[4];
      for (size_t j = 0; j < 4; ++j) {
        const size_t kk = p.codes == Codes::kNibbles ? (w / 2) * 8 + 2 * j + (w % 2) : 4 * w + j;
        bytes[j] = static_cast<uint8_t>(row[kk]);
      }
      std::memcpy(words + i * (k / 4) + w, bytes, 4);
    }
  }
}

// c [m, p.out_n()] = a [m, k] times the weights (gated: their SwiGLU).
// int8_activations: QuantizedMatmulAttrs::int8_activations.
void QuantizedMatmulF32(const PackedWeights& p, const float* a, size_t m, float* c, const FusedEpilogue& fusion,
                        bool int8_activations, core::ParallelFor& parallel) {
  const size_t k = p.k, n = p.n;
  const bool gated = p.gated_n != 0;
  const GemmEpilogue& epilogue = fusion.epilogue();
  if (m <= kMatvecRows) {
    // The factored GEMV's block sums of each row of A.
    const bool factored = p.factorable && TameActivations(a, m * k);
    // The int8-activation GEMV where it can represent A (finite) and the
    // weights factor (finite scales).
    const bool int8 = int8_activations && factored;
    const memory::Scratch<int8_t> aq(int8 ? m * k : 0, "quantizedMatmul: int8 activations");
    const memory::Scratch<int32_t> words(int8 ? m * (k / 4) : 0, "quantizedMatmul: int8 activations (VNNI order)");
    const memory::Scratch<float> sa(int8 ? m * p.blocks : 0, "quantizedMatmul: int8 activation scales");
    const memory::Scratch<int32_t> sums(int8 ? m * p.blocks : 0, "quantizedMatmul: int8 activation sums");
    if (int8) QuantizeRows(p, a, m, aq.data(), words.data(), sa.data(), sums.data());
    const qmm::Int8Rows q{aq.data(), words.data(), sa.data(), sums.data(), k, p.blocks};
    const memory::Scratch<float> block_sums(factored && !int8 ? m * p.blocks : 0, "quantizedMatmul: block sums of A");
    for (size_t i = 0; factored && !int8 && i < m; ++i)
      for (size_t b = 0; b < p.blocks; ++b) {
        float sum = 0;
        for (size_t r = 0; r < p.block; ++r) sum += a[i * k + b * p.block + r];
        block_sums[i * p.blocks + b] = sum;
      }
    // Gated: the gate and up columns go to `wide`, each chunk's SwiGLU to c.
    const memory::Scratch<float> wide(gated ? m * n : 0, "quantizedMatmul: gate and up projections");
    float* dst = gated ? wide.data() : c;
    // core::ChunksForFlops: about 4 chunks per thread. Finer chunks cost more
    // than they balance: with ~100K-flop chunks (~100 per projection) the
    // decoder's decode step took 24.3 ms at 2 threads, 23.7 at 1; with 4 per
    // thread, 20.1 (Zen 5, 2 cores). Gated weights split at pairs of groups.
    const size_t step = gated ? 2 : 1, units = p.groups / step;
    const size_t chunks = core::ChunksForFlops(2.0 * m * k * n, units, parallel.NumThreads());
    parallel.Run(chunks, 1, [&](size_t c0, size_t c1) {
      const size_t g0 = c0 * units / chunks * step, g1 = c1 * units / chunks * step;
      if (int8) {
        HWY_DYNAMIC_DISPATCH(QuantizedMatvecInt8)(p, &q, m, dst, n, &epilogue, g0, g1);
      } else {
        HWY_DYNAMIC_DISPATCH(QuantizedMatvec)(p, a, k, factored ? block_sums.data() : nullptr, m, dst, n, &epilogue,
                                              g0, g1);
      }
      if (gated) SwiGlu(p, dst + g0 * kGroup, n, m, g0, g1, c, p.gated_n);
    });
    return;
  }
  // Prefill: A packed once per kChunkRows rows; per chunk of columns, the GEMM
  // core with the weights dequantized one micro-panel (a K block of NR columns,
  // at most 32 KiB) at a time right before its tiles read it from L1. Or, on
  // a CPU with AMX, the AMX GEMM (quantized_matmul_amx.cc) where A's rows
  // split into bfloat16 exactly.
  const size_t nr = GemmPanelWidth();
  const ColumnChunks chunks(n, parallel.NumThreads(), gated);
  const bool amx = m >= qmm::kAmxMinRows && qmm::AmxTakes(p);
  const memory::Scratch<float> packed_a(GemmLhsLayout(std::min(m, kChunkRows), k, p.block).floats,
                                        "quantizedMatmul: A packed for the GEMM core");
  const memory::Scratch<uint16_t> amx_a(amx ? qmm::AmxLhsElements(std::min(m, kChunkRows), k) : 0,
                                        "quantizedMatmul: A packed for the AMX GEMM");
  for (size_t r0 = 0; r0 < m; r0 += kChunkRows) {
    const size_t rows = std::min(kChunkRows, m - r0);
    const bool amx_rows = amx && qmm::AmxPackLhs(p, a + r0 * k, rows, amx_a.data(), parallel);
    const PackedLhs a_rows = amx_rows ? PackedLhs{}
                                      : GemmPackLhsF32(GemmLhsLayout(rows, k, p.block), a + r0 * k, k,
                                                       packed_a.data(), parallel);
    parallel.Run(chunks.count, 1, [&](size_t c0, size_t c1) {
      const memory::Scratch<float> product(gated ? rows * kMaxChunk : 0,
                                           "quantizedMatmul: a tile of the gate and up projections");
      for (size_t ci = c0; ci < c1; ++ci) {
        const size_t n0 = chunks.Begin(ci), cols = std::min(chunks.Begin(ci + 1), n) - n0;
        const size_t g0 = n0 / kGroup, g1 = (n0 + cols + kGroup - 1) / kGroup;
        const WeightPanels weights{&p, g0, nr};
        const GemmPanelSource source{&FillWeightPanel, &weights, &PrefetchWeightPanel};
        GemmEpilogue tile_epilogue = epilogue;
        if (epilogue.bias) tile_epilogue.bias = epilogue.bias + n0;
        float* dst = gated ? product.data() : c + r0 * n + n0;
        const size_t ldd = gated ? kMaxChunk : n;
        if (amx_rows) qmm::AmxGemm(p, amx_a.data(), rows, n0, cols, dst, ldd, tile_epilogue);
        else GemmF32Sourced(a_rows, cols, source, dst, ldd, tile_epilogue);
        if (!gated) continue;
        SwiGlu(p, product.data(), kMaxChunk, rows, g0, g1, c + r0 * p.gated_n, p.gated_n);
      }
    });
  }
}

void RunQuantizedMatmul(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<QuantizedMatmulAttrs>(ctx.attrs);
  const auto& p = *static_cast<const PackedWeights*>(ctx.prepared);
  const TensorView& a = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t m = a.elements() / p.k;
  const FusedEpilogue fusion(OptionalInput(ctx.inputs, 4), attrs.activation, p.out_n(), ctx.parallel);
  if (out.type == DataType::kFloat32) {
    QuantizedMatmulF32(p, a.as<float>(), m, out.as<float>(), fusion, attrs.int8_activations, ctx.parallel);
    fusion.ApplyRest(out.as<float>(), out.elements(), ctx.parallel);
    return;
  }
  const F32Input a32(&a, ctx.parallel);
  const memory::Scratch<float> out32(out.elements(), "quantizedMatmul: float32 output");
  QuantizedMatmulF32(p, a32.get(), m, out32.data(), fusion, attrs.int8_activations, ctx.parallel);
  fusion.ApplyRest(out32.data(), out32.size(), ctx.parallel);
  ConvertF32ToF16(out32.data(), out.as<uint16_t>(), out32.size(), ctx.parallel);
}

std::shared_ptr<const void> PrepareQuantizedMatmul(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<QuantizedMatmulAttrs>(ctx.attrs);
  const TensorView& a = ctx.inputs[0];
  const TensorView& weight = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  auto constant = [&](size_t i) { return i < ctx.inputs.size() && ctx.inputs[i].present(); };
  if (!constant(1) || !constant(2) || !constant(3) || (attrs.gated && (!constant(5) || !constant(6) || !constant(7))))
    throw std::logic_error("quantizedMatmul: the weights, scales and zero points must be constants");
  std::shared_ptr<PackedWeights> packed = Pack(weight, ctx.inputs[2], ctx.inputs[3], attrs.weight_transposed);
  if (attrs.gated)
    packed = Interleave(*packed, *Pack(ctx.inputs[5], ctx.inputs[6], ctx.inputs[7], attrs.weight_transposed));
  const size_t k = packed->k, n = packed->n;
  const size_t m = a.elements() / k;  // at the maximum shapes
  memory::WorkspaceSize& ws = ctx.workspace;
  // A bias that is not a constant has no data here: counted by its presence.
  AddFusedEpilogueWorkspace(ws, ctx.inputs.size() > 4 ? &ctx.inputs[4] : nullptr, packed->out_n());
  if (out.type == DataType::kFloat16) {
    AddF32InputWorkspace(ws, &a);
    ws.AddShared<float>(out.elements());
  }
  // The factored GEMV's block sums of A (M <= kMatvecRows rows), and gated,
  // the gate and up columns.
  ws.AddShared<float>(std::min(m, kMatvecRows) * packed->blocks);
  if (attrs.gated) ws.AddShared<float>(std::min(m, kMatvecRows) * n);
  if (attrs.int8_activations) {  // QuantizeRows' buffers, and per worker MatvecInt8Groups' block sums
    const size_t rows = std::min(m, kMatvecRows);
    ws.AddShared<int8_t>(rows * k);
    ws.AddShared<int32_t>(rows * (k / 4));
    ws.AddShared<float>(rows * packed->blocks);
    ws.AddShared<int32_t>(rows * packed->blocks);
    ws.AddPerWorker<int32_t>(packed->blocks * kMatvecRows * kGroup);
  }
  if (m > kMatvecRows) {  // (the maximum M: smaller runs may take the GEMV path)
    const PackedLhs layout = GemmLhsLayout(std::min(m, kChunkRows), k, packed->block);
    ws.AddShared<float>(layout.floats);
    AddGemmSourcedWorkspace(ws, layout);
    // Both: rows that do not split into bfloat16 take the GEMM core.
    if (m >= qmm::kAmxMinRows && qmm::AmxFits(*packed)) {
      ws.AddShared<uint16_t>(qmm::AmxLhsElements(std::min(m, kChunkRows), k));
      ws.per_worker += qmm::AmxWorkerBytes(*packed);
    }
    if (attrs.gated) ws.AddPerWorker<float>(std::min(m, kChunkRows) * kMaxChunk);
  }
  ctx.prepared_bytes += packed->bytes();
  // RunQuantizedMatmul reads their shapes only.
  ctx.packed_inputs |= (1u << 1) | (1u << 2) | (1u << 3);
  if (attrs.gated) ctx.packed_inputs |= (1u << 5) | (1u << 6) | (1u << 7);
  return std::shared_ptr<const PackedWeights>(std::move(packed));
}

}  // namespace

void RegisterQuantizedMatmulKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet codes{DataType::kInt4, DataType::kUint4, DataType::kInt8, DataType::kUint8};
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    registry.Add(
        CpuKernel{op, &RunQuantizedMatmul, &PrepareQuantizedMatmul, {s, codes, s, codes, s, codes, s, codes}, {s}});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
