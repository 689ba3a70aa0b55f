// SIMD micro-kernels shared by the cpu conv2d and convTranspose2d kernels,
// all accumulating in float32:
//  - IgemmNhwc: implicit GEMM over an indirection buffer (XNNPACK-style). A
//    tile is MR output pixels x NV vectors of output channels; every (pixel,
//    tap) has a pointer to NHWC input channels, or to a zero buffer where the
//    tap falls on padding (so padding is multiplied like an explicit zero
//    pad, as the reference does). Weights are packed at prepare time into
//    panels [block][tap][ci][NV*L]. Also convTranspose2d's GEMM (one tap).
//  - DirectNchw: NCHW convolution as C[co][q] = sum_k W[co][k] * B[k][q] where
//    q runs over a "q-space": output rows laid end to end with a row pitch of
//    `wq` (the input width, or the padded/phase-split one), so that for
//    k = (tap, ci) B[k][q] = src[ci * chan + tap_off[tap] + q] is contiguous
//    in q. Columns ox >= ow of the q-space are computed and masked off at the
//    store (or, in row mode, tiles stay within output rows). At stride 1 the
//    padding is read in place: lanes whose tap falls on padding are masked
//    off in the load. A tile is MR output channels x NV vectors of q;
//    weights packed as [block][tap][ci][MR].
//  - DepthwiseRowsNchw: depthwise NCHW, R output rows x NV vectors along the
//    width; an input row loaded once serves every output row that reads it.
//  - DepthwiseNhwcRow: one output row of a depthwise NHWC convolution, vectors
//    along channels; a sliding window along the row for kw 3 and 5.
//  - helpers: col2im of one output row, 4x4-block transposes, stride-2
//    deinterleave, float16 <-> float32.
// The tile sizes come from the register count: with 32 vector registers
// (AVX-512, NEON) 24 accumulators + NV operand vectors + 1 broadcast; with 16
// (AVX2, SSE4) 12 accumulators. FMA latency 4 x 1-2 issues per cycle needs at
// least 8 independent accumulators to keep the FMA ports busy.
#ifndef WEBNN_OPS_CPU_CONV_PARAMS_H_
#define WEBNN_OPS_CPU_CONV_PARAMS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace webnn::ops::cpu::conv {

// Bias is added first; the clamp is applied only when `clamp` is set (a fused
// activation), in an order that keeps NaN.
// Applied to each output vector before it is stored, in this order: a clamp
// (relu, clamp; NaN kept), hardSwish, then y * scale + shift (a fused
// activation's post affine map).
struct Epilogue {
  float lo = 0, hi = 0;
  bool clamp = false;
  bool hard_swish = false;
  bool affine = false;
  float scale = 1, shift = 0;
};

struct IgemmParams {
  const float* const* ind = nullptr;  // [pixels][taps] pointers to input channel 0
  size_t pixels = 0, taps = 0, cin = 0;
  size_t a_offset = 0;                // added to every pointer (the group's first channel)
  // Where set: the zero buffer of padding taps, and a tap on it for every
  // pixel of a tile is skipped (only for finite filters: it would add 0 * w).
  const float* skip_zeros = nullptr;
  const float* weights = nullptr;     // [blocks][taps * cin][nv * lanes]
  const float* bias = nullptr;        // [blocks * nv * lanes] or null
  size_t cout = 0;                    // output channels written (this group)
  size_t nv = 1;                      // vectors per block (must match the packing)
  // Tile variant (must match the packing; see IgemmTileInfoImpl): 0 = the
  // default (kIgemmMR pixels x nv full vectors); kIgemmWide = 7 pixels x 4
  // full vectors; kIgemmHalf = 8 pixels x nv half-width (8-lane) vectors;
  // kIgemmTall = kIgemmTallMR pixels x 1 full vector, cin <= kIgemmTallMaxCin.
  size_t variant = 0;
  // Tile order: pixel tiles outer (each tile's input stays in L1 while every
  // block's weights stream past), or blocks outer (one block's weights stay
  // in L2 while the pixels stream past: for filters larger than L2).
  bool blocks_outer = false;
  float* out = nullptr;               // pixel 0, first channel of the group
  size_t out_stride = 0;              // floats between pixels
  Epilogue epilogue;
};

inline constexpr size_t kIgemmWide = 1, kIgemmHalf = 2, kIgemmTall = 3;
inline constexpr size_t kIgemmTallMR = 16, kIgemmTallMaxCin = 12;

struct DirectParams {
  const float* src = nullptr;        // B[(tap, ci)][q] = src[ci * chan + tap_off[tap] + q]
  const int64_t* tap_off = nullptr;  // [taps]
  size_t taps = 0, cin = 0, chan = 0;
  // Padding read in place (or null: every lane reads input): lane q reads
  // input row q / wq + tap_dy[tap] and column q % wq + tap_dx[tap], and
  // loads zero where that is outside in_h x wq. Only where masked loads
  // read nothing for masked-off lanes (DirectInPlaceImpl).
  const int32_t* tap_dy = nullptr;
  const int32_t* tap_dx = nullptr;
  size_t in_h = 0;
  // With tap_dy: a tap on padding for every lane of a tile is skipped (only
  // for finite filters: it would add 0 * w).
  bool skip_padding = false;
  const float* weights = nullptr;  // [blocks][taps][cin][mr]
  const float* bias = nullptr;     // [blocks * mr] or null
  size_t cout = 0;                 // output channels (rows) written
  size_t mr = 1;                   // rows per block (must match the packing)
  size_t block_begin = 0, block_end = SIZE_MAX;  // blocks of mr rows to compute
  // q range to compute; in row mode, output rows [q_begin, q_end) instead,
  // each computed for ox < ow only (tiles within a row, stored in place).
  size_t q_begin = 0, q_end = 0;
  bool row_mode = false;
  size_t wq = 1, ow = 1;           // q -> (q / wq, q % wq); columns >= ow are dropped
  float* out = nullptr;            // output channel 0, row 0
  size_t out_plane = 0;            // floats between output channels
  Epilogue epilogue;
  // Scratch of the masked tiles (tap_dy set, or partial tiles):
  // kDirectMaskBytesPerTap * taps bytes of lane masks and `taps` skip flags.
  uint8_t* mask_bits = nullptr;
  uint8_t* skip = nullptr;
};
// Lane mask bits per tap: at most 8 vectors of at most 64 lanes.
inline constexpr size_t kDirectMaskBytesPerTap = 8 * 8;

struct DepthwiseNhwcParams {
  const float* const* ind = nullptr;  // [ow][taps] pointers to channel 0 (zero buffer on padding)
  size_t ow = 0, taps = 0, channels = 0;
  const float* weights = nullptr;     // [taps][cp], cp = channels rounded up to the lanes
  size_t cp = 0;
  const float* bias = nullptr;        // [cp] or null
  float* out = nullptr;               // pixel 0 of the row
  Epilogue epilogue;
  // Sliding-window form (horizontal stride sw 1 or 2, no horizontal
  // dilation, kw 3 or 5): rows[ky] = input row of tap row ky (channel 0 of
  // column 0), or null where the row is padding; `ind` is then unused.
  // Columns outside [0, in_w) read as zeros (and are multiplied, as the
  // reference does) unless skip_padding: every weight is finite, so padding
  // adds nothing and its rows and columns are skipped.
  const float* const* rows = nullptr;
  size_t kh = 0, kw = 0, sw = 1, in_w = 0, pad_left = 0;
  bool skip_padding = false;
};

// Depthwise nchw over blocks of R output rows (row mode): an input row
// loaded once serves every output row of the block that reads it (kh of them
// for stride 1), cutting loads per FMA from 1 to about (R + kh - 1) / (R * kh).
// Vertical stride and dilation are described per phase py of the input's
// phase planes: tap row ky (with (ky * dh) % sh == py) reads phase row
// oy + ry, ry = (ky * dh) / sh; ky_of[py * max_ry + ry] = ky or -1.
struct DepthwiseRowsParams {
  const float* src = nullptr;        // phase planes (or the raw plane)
  size_t wq = 0, ow = 0;
  size_t oy_begin = 0, oy_end = 0;   // output rows to compute
  size_t phases = 1, max_ry = 1;
  const int64_t* phase_base = nullptr;  // [phases] offset of phase (py, px = 0)
  const int32_t* rows_in_phase = nullptr;  // [phases] ry count
  const int32_t* ky_of = nullptr;       // [phases][max_ry]
  size_t kw = 1;
  const int64_t* xoff = nullptr;        // [kw] offset of tap column kx
  const float* weights = nullptr;       // [kh][kw] of this channel
  const float* bias = nullptr;          // this channel's bias or null
  float* out = nullptr;                 // output plane [oh][ow]
  Epilogue epilogue;
  // 3 or 5: a k x k filter at strides 1 or 2 without dilation (phases 1 or
  // 2, the tap rows of phase py are py, py + phases, ...): the unrolled
  // kernel (DepthwiseFixed). 0: the general loops.
  size_t fixed_k = 0;
};

// One output row of convTranspose2d's col2im: out[oy][ox][g * cout_g + co] +=
// cols[pixel (iy, ix)][g][tap (ky, kx)][co] over every (iy, ky, ix, kx) with
// iy * sh + ky * dh == oy + pt and ix * sw + kx * dw == ox + pl, for input
// rows iy in [iy0, iy1) (the band whose cols are computed).
struct Col2imParams {
  const float* cols = nullptr;  // [(iy - iy0) * in_w + ix][ncols]
  size_t iy0 = 0, iy1 = 0, in_w = 0, ncols = 0;
  size_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pt = 0, pl = 0;
  size_t oy = 0, ow = 0, cout = 0, groups = 1, cout_g = 0;
  float* out_row = nullptr;     // [ow][cout]
};

}  // namespace webnn::ops::cpu::conv

#endif  // WEBNN_OPS_CPU_CONV_PARAMS_H_

#if defined(WEBNN_OPS_CPU_CONV_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WEBNN_OPS_CPU_CONV_KERNELS_INL_H_
#undef WEBNN_OPS_CPU_CONV_KERNELS_INL_H_
#else
#define WEBNN_OPS_CPU_CONV_KERNELS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "core/float16.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace conv_hn = hwy::HWY_NAMESPACE;

// Scalable vectors (SVE, RVV) are sizeless and cannot form arrays: those
// targets get one-vector kernels. WEBNN_CONV_TEST_ONE_VECTOR selects them on
// any target, to test them where no such target is at hand.
#undef WEBNN_CONV_ONE_VECTOR
#if HWY_HAVE_SCALABLE || defined(WEBNN_CONV_TEST_ONE_VECTOR)
#define WEBNN_CONV_ONE_VECTOR 1
#else
#define WEBNN_CONV_ONE_VECTOR 0
#endif

namespace conv_detail {

using DF = conv_hn::ScalableTag<float>;
using VF = conv_hn::Vec<DF>;

#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3
inline constexpr size_t kVecRegs = 16;  // SSE4, AVX2
#else
inline constexpr size_t kVecRegs = 32;  // AVX-512, NEON, SVE
#endif
// IgemmNhwc: MR pixel pointers must stay in general registers (x86-64 has 16),
// so MR <= 8; NV vectors of channels make MR * NV accumulators.
inline constexpr size_t kIgemmMR = kVecRegs == 32 ? 8 : 6;
inline constexpr size_t kIgemmMaxNV = kVecRegs == 32 ? 3 : 2;
inline constexpr size_t kDirectMaxMR = kVecRegs == 32 ? 8 : 4;
// AVX-512's extra IgemmNhwc tiles (conv::kIgemmWide, conv::kIgemmHalf), for
// pixel and channel counts the default 8 x (16, 32, 48) tile covers badly:
//  - wide, 7 pixels x 64 channels: 28 accumulators (against 16 for 8 x 32),
//    7 | 196 and 3136 (14x14, 56x56 planes) and 64 | 64, 128, 256...;
//  - half, 8 pixels x nv 8-lane vectors (8, 16, 24 channels): channel counts
//    that are multiples of 8 but not of 16 (24 fills 24 of 32 lanes of two
//    full vectors, 24 of 24 of three half ones). Zen 4 issues two 256-bit
//    FMAs per cycle against one 512-bit, so a half vector costs half a full one.
//  - tall, 16 pixels x 16 channels with a tap's filter in registers, for
//    thin layers (IgemmNhwcTall).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && !WEBNN_CONV_ONE_VECTOR
inline constexpr bool kIgemmExtraTiles = true;
using DHalf = conv_hn::CappedTag<float, 8>;
#else
inline constexpr bool kIgemmExtraTiles = false;
#endif
template <size_t MR>
inline constexpr size_t DirectNV() {
  // MR * NV accumulators; MR = 1 (depthwise) needs NV independent chains.
  if constexpr (kVecRegs == 32) return MR >= 8 ? 3 : MR >= 4 ? 4 : MR >= 2 ? 6 : 8;
  else return MR >= 4 ? 2 : MR >= 2 ? 3 : 4;
}

// Loads n (< lanes) floats without touching memory past p + n.
HWY_INLINE VF LoadTail(DF d, const float* HWY_RESTRICT p, size_t n) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
  return conv_hn::MaskedLoad(conv_hn::FirstN(d, n), d, p);
#else
  HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)] = {};
  std::memcpy(buf, p, n * sizeof(float));
  return conv_hn::Load(d, buf);
#endif
}

// hardSwish and the affine map of one vector.
template <class D, class V = conv_hn::Vec<D>>
HWY_INLINE V ActivationEpilogueValue(D d, V v, const conv::Epilogue& e) {
  if (e.hard_swish) {
    // As the hardSwish kernel computes it: x (x + 3) / 6, -0 at or below -3,
    // x at or above 3 (NaN stays).
    const V y = conv_hn::Mul(conv_hn::Mul(v, conv_hn::Add(v, conv_hn::Set(d, 3.0f))), conv_hn::Set(d, 1.0f / 6.0f));
    const V low = conv_hn::IfThenElse(conv_hn::Le(v, conv_hn::Set(d, -3.0f)), conv_hn::Set(d, -0.0f), y);
    v = conv_hn::IfThenElse(conv_hn::Ge(v, conv_hn::Set(d, 3.0f)), v, low);
  }
  if (e.affine) v = conv_hn::MulAdd(v, conv_hn::Set(d, e.scale), conv_hn::Set(d, e.shift));
  return v;
}

// The same, kept out of line: inlined into the kernels' store loops, its
// constants stay live across the accumulation loops and crowd the
// accumulators out of registers (the depthwise kernels ran 2x slower). A call
// per stored vector costs far less.
template <class D, class V = conv_hn::Vec<D>>
HWY_NOINLINE V ApplyActivationEpilogue(D d, V v, const conv::Epilogue& e) {
  return ActivationEpilogueValue(d, v, e);
}

// The same over `rows` rows of n floats, `stride` floats apart, that a tile
// has just stored (still in L1): one call per tile instead of one per vector
// (DirectNchw's 8 x 3-vector tiles: 24 calls, 2.7 % of PP-OCR rec).
template <class D>
HWY_NOINLINE void ApplyActivationRows(D d, float* HWY_RESTRICT out, size_t stride, size_t rows, size_t n,
                                      const conv::Epilogue& e) {
  const size_t L = conv_hn::Lanes(d);
  for (size_t m = 0; m < rows; ++m) {
    float* HWY_RESTRICT o = out + m * stride;
    size_t i = 0;
    for (; i + L <= n; i += L) conv_hn::StoreU(ActivationEpilogueValue(d, conv_hn::LoadU(d, o + i), e), d, o + i);
    if (i < n) {
      const size_t k = n - i;
      conv_hn::BlendedStore(ActivationEpilogueValue(d, LoadTail(d, o + i, k), e), conv_hn::FirstN(d, k), d, o + i);
    }
  }
}

// The depthwise kernels clamp only: their few FMAs per stored vector leave no
// room for more, and even an out-of-line call there kept constants live and
// spilled accumulators (dw5x5 at half speed). Their callers apply hardSwish
// and the affine map to each block right after it is written.
template <class D, class V = conv_hn::Vec<D>>
HWY_INLINE V ApplyClamp(D d, V v, const conv::Epilogue& e) {
  // x86 max/min return the second operand when either is NaN: x stays NaN.
  if (e.clamp) v = conv_hn::Min(conv_hn::Set(d, e.hi), conv_hn::Max(conv_hn::Set(d, e.lo), v));
  return v;
}

template <class D, class V = conv_hn::Vec<D>>
HWY_INLINE V ApplyEpilogue(D d, V v, const conv::Epilogue& e) {
  // x86 max/min return the second operand when either is NaN: x stays NaN.
  if (e.clamp) v = conv_hn::Min(conv_hn::Set(d, e.hi), conv_hn::Max(conv_hn::Set(d, e.lo), v));
  if (HWY_UNLIKELY(e.hard_swish || e.affine)) v = ApplyActivationEpilogue(d, v, e);
  return v;
}

template <class D, class V = conv_hn::Vec<D>>
HWY_INLINE void StoreN(D d, V v, float* HWY_RESTRICT p, size_t n) {
  if (n >= conv_hn::Lanes(d)) conv_hn::StoreU(v, d, p);
  else conv_hn::BlendedStore(v, conv_hn::FirstN(d, n), d, p);
}

#if !WEBNN_CONV_ONE_VECTOR

// D: the vector type, full width or (kIgemmHalf) 8 lanes of a 16-lane target.
template <class D, size_t MR, size_t NV>
HWY_NOINLINE void IgemmNhwcImpl(const conv::IgemmParams& p) {
  using V = conv_hn::Vec<D>;
  const D d;
  const size_t L = conv_hn::Lanes(d);
  const size_t nb = NV * L;
  const size_t blocks = (p.cout + nb - 1) / nb;
  const size_t kdepth = p.taps * p.cin;
  const size_t tiles = (p.pixels + MR - 1) / MR;
  for (size_t i = 0; i < tiles * blocks; ++i) {
    const size_t b = p.blocks_outer ? i / tiles : i % blocks;
    const size_t p0 = (p.blocks_outer ? i % tiles : i / blocks) * MR;
    const size_t mc = std::min(MR, p.pixels - p0);
    const float* const* ind = p.ind + p0 * p.taps;
    {
      const float* HWY_RESTRICT w = p.weights + b * kdepth * nb;
      V acc[MR][NV];
      for (size_t v = 0; v < NV; ++v) {
        const V init = p.bias ? conv_hn::LoadU(d, p.bias + b * nb + v * L) : conv_hn::Zero(d);
        for (size_t m = 0; m < MR; ++m) acc[m][v] = init;
      }
      for (size_t t = 0; t < p.taps; ++t) {
        if (p.skip_zeros) {
          bool padding = true;
          for (size_t m = 0; m < mc; ++m) padding = padding && ind[m * p.taps + t] == p.skip_zeros;
          if (padding) {
            w += p.cin * nb;
            continue;
          }
        }
        const float* HWY_RESTRICT a[MR];
        for (size_t m = 0; m < MR; ++m) a[m] = ind[std::min(m, mc - 1) * p.taps + t] + p.a_offset;
        for (size_t ci = 0; ci < p.cin; ++ci) {
          V wv[NV];
          for (size_t v = 0; v < NV; ++v) wv[v] = conv_hn::LoadU(d, w + v * L);
          w += nb;
          HWY_UNROLL(8)
          for (size_t m = 0; m < MR; ++m) {
            const V av = conv_hn::Set(d, a[m][ci]);
            for (size_t v = 0; v < NV; ++v) acc[m][v] = conv_hn::MulAdd(av, wv[v], acc[m][v]);
          }
        }
      }
      for (size_t m = 0; m < mc; ++m) {
        float* o = p.out + (p0 + m) * p.out_stride + b * nb;
        for (size_t v = 0; v < NV; ++v) {
          const size_t c0 = b * nb + v * L;
          if (c0 >= p.cout) break;
          StoreN(d, ApplyEpilogue(d, acc[m][v], p.epilogue), o + v * L, p.cout - c0);
        }
      }
    }
  }
}

// How a DirectNchw tile loads its NV vectors of q: all full (kFull), the
// last one of `last` lanes (kTail, where masked loads might fault), or each
// under its tap's mask (kMasked; lanes off load zero).
enum DirectLoad { kFull, kTail, kMasked };

// Whether kMasked loads read nothing for lanes masked off, so that padding
// can be read in place (masked-off lanes may lie outside the input): AVX2's
// vmaskmovps and AVX-512's masked moves suppress faults.
inline constexpr bool kMaskedLoadsSafe = HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2;
// Bytes per stored mask (StoreMaskBits writes one bit per lane, whole bytes).
inline constexpr size_t kMaskBytes = 8;

// The sums of one tile of DirectNchw: rows [b*MR, b*MR+MR) x NV vectors of
// q from q0 (`last` lanes in the last), over k = (tap, ci), into `out`.
// kMasked: mask_bits + (tap * NV + v) * kMaskBytes are vector v's lanes that
// read input (Highway mask bits), skip[tap] says no lane does. The accumulators are a local array that only these
// loops index, so that GCC 12 keeps them in registers: in an array the
// stores also index (by row segment), it kept them in memory and stored
// every one at every step (half speed).
template <size_t MR, size_t NV, DirectLoad kLoad>
HWY_INLINE void DirectAccumulate(const conv::DirectParams& p, size_t b, size_t q0, size_t last,
                                 const uint8_t* mask_bits, const uint8_t* skip, VF (&out)[MR][NV]) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  VF acc[MR][NV];
  for (size_t m = 0; m < MR; ++m) {
    const VF init = p.bias ? conv_hn::Set(d, p.bias[b * MR + m]) : conv_hn::Zero(d);
    for (size_t v = 0; v < NV; ++v) acc[m][v] = init;
  }
  const float* HWY_RESTRICT w = p.weights + b * p.taps * p.cin * MR;
  for (size_t t = 0; t < p.taps; ++t, w += p.cin * MR) {
    if (kLoad == kMasked && skip[t]) continue;
    conv_hn::Mask<DF> mask[NV];
    if constexpr (kLoad == kMasked)
      for (size_t v = 0; v < NV; ++v) mask[v] = conv_hn::LoadMaskBits(d, mask_bits + (t * NV + v) * kMaskBytes);
    const float* HWY_RESTRICT row = p.src + p.tap_off[t] + q0;
    const float* HWY_RESTRICT wt = w;
    for (size_t ci = 0; ci < p.cin; ++ci, row += p.chan, wt += MR) {
      VF bv[NV];
      for (size_t v = 0; v < NV; ++v) {
        if constexpr (kLoad == kMasked) bv[v] = conv_hn::MaskedLoad(mask[v], d, row + v * L);
        else if (kLoad == kTail && v == NV - 1) bv[v] = LoadTail(d, row + v * L, last);
        else bv[v] = conv_hn::LoadU(d, row + v * L);
      }
      for (size_t m = 0; m < MR; ++m) {
        const VF wv = conv_hn::Set(d, wt[m]);
        for (size_t v = 0; v < NV; ++v) acc[m][v] = conv_hn::MulAdd(wv, bv[v], acc[m][v]);
      }
    }
  }
  for (size_t m = 0; m < MR; ++m)
    for (size_t v = 0; v < NV; ++v) out[m][v] = acc[m][v];
}

// One tile of DirectNchw (see DirectAccumulate), nq <= NV * lanes q. `dst`
// (row b*MR's output for q0) is set when the tile's q are contiguous in the
// output (one output row, or a q-space without dropped columns); otherwise
// each vector is stored per output row it covers.
template <size_t MR, size_t NV, DirectLoad kLoad>
HWY_INLINE void DirectTile(const conv::DirectParams& p, size_t b, size_t q0, size_t nq, float* HWY_RESTRICT dst,
                           const uint8_t* mask_bits, const uint8_t* skip) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  const size_t last = nq - (NV - 1) * L;  // lanes of the last vector
  VF acc[MR][NV];
  DirectAccumulate<MR, NV, kLoad>(p, b, q0, last, mask_bits, skip, acc);
  const size_t rows = std::min(MR, p.cout - b * MR);
  if (dst) {
    for (size_t m = 0; m < rows; ++m) {
      float* o = dst + m * p.out_plane;
      for (size_t v = 0; v + 1 < NV; ++v) conv_hn::StoreU(ApplyClamp(d, acc[m][v], p.epilogue), d, o + v * L);
      StoreN(d, ApplyClamp(d, acc[m][NV - 1], p.epilogue), o + (NV - 1) * L, last);
    }
    if (HWY_UNLIKELY(p.epilogue.hard_swish || p.epilogue.affine))
      ApplyActivationRows(d, dst, p.out_plane, rows, nq, p.epilogue);
    return;
  }
  // Each vector's lanes fall in one or more q-space rows; lanes of one row
  // are contiguous in the output, shifted by the dropped columns: one masked
  // store per row, with lanes ox >= ow masked off.
  for (size_t v = 0; v < NV; ++v) {
    const size_t qv = q0 + v * L;
    const size_t nv = v == NV - 1 ? last : L;
    size_t oy = qv / p.wq, ox = qv % p.wq;
    for (size_t a = 0; a < nv;) {
      const size_t in_row = std::min(nv - a, p.wq - ox);   // lanes [a, a + in_row) are row oy
      const size_t valid = ox < p.ow ? std::min(in_row, p.ow - ox) : 0;
      if (valid) {
        const auto store_mask = conv_hn::AndNot(conv_hn::FirstN(d, a), conv_hn::FirstN(d, a + valid));
        // Lane i goes to out[oy * ow + ox + (i - a)].
        const ptrdiff_t base = ptrdiff_t(oy * p.ow + ox) - ptrdiff_t(a);
        for (size_t m = 0; m < rows; ++m)
          conv_hn::BlendedStore(ApplyEpilogue(d, acc[m][v], p.epilogue), store_mask, d,
                                p.out + ptrdiff_t((b * MR + m) * p.out_plane) + base);
      }
      a += in_row;
      ++oy;
      ox = 0;
    }
  }
}

// The masks of one tile of q for every tap (see DirectTile), shared by all
// its blocks of output channels: lanes past nq, and with p.tap_dy the lanes
// whose tap falls on padding, are off.
template <size_t NV>
HWY_INLINE void DirectTileMasks(const conv::DirectParams& p, size_t q0, size_t nq, uint8_t* mask_bits,
                                uint8_t* skip) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  using DI = conv_hn::RebindToSigned<DF>;
  const DI di;
  conv_hn::Vec<DI> oy[NV], ox[NV];
  if (p.tap_dy) {
    // Row and column of every lane of the tile.
    HWY_ALIGN int32_t ys[NV * HWY_MAX_BYTES / sizeof(float)], xs[NV * HWY_MAX_BYTES / sizeof(float)];
    size_t y = q0 / p.wq, x = q0 % p.wq;
    for (size_t i = 0; i < NV * L; ++i) {
      ys[i] = int32_t(y), xs[i] = int32_t(x);
      if (++x == p.wq) x = 0, ++y;
    }
    for (size_t v = 0; v < NV; ++v) oy[v] = conv_hn::Load(di, ys + v * L), ox[v] = conv_hn::Load(di, xs + v * L);
  }
  const auto h = conv_hn::Set(di, int32_t(p.in_h)), wq = conv_hn::Set(di, int32_t(p.wq));
  const auto minus1 = conv_hn::Set(di, -1);  // (Highway 1.0 has no integer Ge)
  for (size_t t = 0; t < p.taps; ++t) {
    bool none = true;
    for (size_t v = 0; v < NV; ++v) {
      auto m = conv_hn::FirstN(d, std::min(L, nq - std::min(nq, v * L)));
      if (p.tap_dy) {
        const auto iy = conv_hn::Add(oy[v], conv_hn::Set(di, p.tap_dy[t]));
        const auto ix = conv_hn::Add(ox[v], conv_hn::Set(di, p.tap_dx[t]));
        const auto inside = conv_hn::And(conv_hn::And(conv_hn::Gt(iy, minus1), conv_hn::Lt(iy, h)),
                                         conv_hn::And(conv_hn::Gt(ix, minus1), conv_hn::Lt(ix, wq)));
        m = conv_hn::And(m, conv_hn::RebindMask(d, inside));
      }
      conv_hn::StoreMaskBits(d, m, mask_bits + (t * NV + v) * kMaskBytes);
      none = none && conv_hn::AllFalse(d, m);
    }
    skip[t] = p.skip_padding && none;
  }
}

// The blocks [b_begin, b_end) of one tile of nq <= NV * lanes q, with as
// many vectors as nq needs. `out_off`: where q0 is in each output plane when
// the tile is contiguous there, else SIZE_MAX.
template <size_t MR, size_t NV>
HWY_INLINE void DirectTiles(const conv::DirectParams& p, size_t q0, size_t nq, size_t b_begin, size_t b_end,
                            size_t out_off) {
  const size_t L = conv_hn::Lanes(DF());
  if constexpr (NV > 1) {
    if (nq <= (NV - 1) * L) return DirectTiles<MR, NV - 1>(p, q0, nq, b_begin, b_end, out_off);
  }
  auto dst = [&](size_t b) { return out_off == SIZE_MAX ? nullptr : p.out + b * MR * p.out_plane + out_off; };
  const bool partial = nq < NV * L;
  if constexpr (kMaskedLoadsSafe) {
    if (p.tap_dy || partial) {
      // Bits, not Mask objects: a std::vector of AVX2 masks (__m256) was
      // allocated 16-byte aligned and stored to with aligned moves.
      static_assert(NV * kMaskBytes <= conv::kDirectMaskBytesPerTap);
      DirectTileMasks<NV>(p, q0, nq, p.mask_bits, p.skip);
      for (size_t b = b_begin; b < b_end; ++b) DirectTile<MR, NV, kMasked>(p, b, q0, nq, dst(b), p.mask_bits, p.skip);
      return;
    }
  } else {
    if (partial) {
      for (size_t b = b_begin; b < b_end; ++b) DirectTile<MR, NV, kTail>(p, b, q0, nq, dst(b), nullptr, nullptr);
      return;
    }
  }
  for (size_t b = b_begin; b < b_end; ++b) DirectTile<MR, NV, kFull>(p, b, q0, nq, dst(b), nullptr, nullptr);
}

template <size_t MR>
HWY_NOINLINE void DirectNchwImpl(const conv::DirectParams& p) {
  constexpr size_t NV = DirectNV<MR>();
  const size_t tw = NV * conv_hn::Lanes(DF());
  const size_t b_end = std::min(p.block_end, (p.cout + MR - 1) / MR);
  if (p.row_mode) {
    // Whole output rows [q_begin, q_end), tiles never cross a row: direct stores.
    for (size_t oy = p.q_begin; oy < p.q_end; ++oy)
      for (size_t ox = 0; ox < p.ow; ox += tw)
        DirectTiles<MR, NV>(p, oy * p.wq + ox, std::min(tw, p.ow - ox), p.block_begin, b_end, oy * p.ow + ox);
    return;
  }
  for (size_t q0 = p.q_begin; q0 < p.q_end; q0 += tw)
    DirectTiles<MR, NV>(p, q0, std::min(tw, p.q_end - q0), p.block_begin, b_end, p.wq == p.ow ? q0 : SIZE_MAX);
}

// The depthwise nchw tiles' R x NV accumulators, started at the channel's
// bias (or 0), and stored clamped to output rows oy0.. from column ox with
// `last` lanes in each row's last vector.
template <size_t R, size_t NV>
HWY_INLINE void DepthwiseInit(const conv::DepthwiseRowsParams& p, VF (&acc)[R][NV]) {
  const VF init = p.bias ? conv_hn::Set(DF(), *p.bias) : conv_hn::Zero(DF());
  for (size_t r = 0; r < R; ++r)
    for (size_t v = 0; v < NV; ++v) acc[r][v] = init;
}
// NV vectors of a row from `in`, `last` lanes in the last one (kPartial).
template <size_t NV, bool kPartial>
HWY_INLINE void DepthwiseLoad(const float* HWY_RESTRICT in, size_t last, VF (&x)[NV]) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  for (size_t v = 0; v + 1 < NV; ++v) x[v] = conv_hn::LoadU(d, in + v * L);
  if constexpr (kPartial) x[NV - 1] = LoadTail(d, in + (NV - 1) * L, last);
  else x[NV - 1] = conv_hn::LoadU(d, in + (NV - 1) * L);
}
template <size_t R, size_t NV>
HWY_INLINE void DepthwiseStore(const conv::DepthwiseRowsParams& p, size_t oy0, size_t ox, size_t last,
                               const VF (&acc)[R][NV]) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  for (size_t r = 0; r < R; ++r) {
    float* o = p.out + (oy0 + r) * p.ow + ox;
    for (size_t v = 0; v + 1 < NV; ++v) conv_hn::StoreU(ApplyClamp(d, acc[r][v], p.epilogue), d, o + v * L);
    StoreN(d, ApplyClamp(d, acc[r][NV - 1], p.epilogue), o + (NV - 1) * L, last);
  }
}

template <size_t R, size_t NV, bool kPartial>
HWY_INLINE void DepthwiseRowsTile(const conv::DepthwiseRowsParams& p, size_t oy0, size_t ox, size_t nq) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  VF acc[R][NV];
  DepthwiseInit(p, acc);
  const size_t last = nq - (NV - 1) * L;
  for (size_t py = 0; py < p.phases; ++py) {
    const int64_t nrr = p.rows_in_phase[py];
    const int32_t* ky_of = p.ky_of + py * p.max_ry;
    for (int64_t y = 0; y < int64_t(R) - 1 + nrr; ++y) {
      const float* HWY_RESTRICT row = p.src + p.phase_base[py] + (int64_t(oy0) + y) * int64_t(p.wq) + int64_t(ox);
      // Filter row of each output row r for this input row, or null.
      const float* wrow[R];
      for (size_t r = 0; r < R; ++r) {
        const int64_t rr = y - int64_t(r);
        const int32_t ky = rr >= 0 && rr < nrr ? ky_of[rr] : -1;
        wrow[r] = ky >= 0 ? p.weights + size_t(ky) * p.kw : nullptr;
      }
      for (size_t kx = 0; kx < p.kw; ++kx) {
        const float* HWY_RESTRICT in = row + p.xoff[kx];
        VF x[NV];
        DepthwiseLoad<NV, kPartial>(in, last, x);
        HWY_UNROLL(8)
        for (size_t r = 0; r < R; ++r) {
          if (!wrow[r]) continue;
          const VF wv = conv_hn::Set(d, wrow[r][kx]);
          for (size_t v = 0; v < NV; ++v) acc[r][v] = conv_hn::MulAdd(wv, x[v], acc[r][v]);
        }
      }
    }
  }
  DepthwiseStore(p, oy0, ox, kPartial ? last : L, acc);
}

template <size_t R, size_t NV>
HWY_INLINE void DepthwiseRowsTileN(const conv::DepthwiseRowsParams& p, size_t oy0, size_t ox, size_t nq) {
  const size_t L = conv_hn::Lanes(DF());
  if constexpr (NV > 1) {
    if (nq <= (NV - 1) * L) return DepthwiseRowsTileN<R, NV - 1>(p, oy0, ox, nq);
  }
  if (nq == NV * L) DepthwiseRowsTile<R, NV, false>(p, oy0, ox, nq);
  else DepthwiseRowsTile<R, NV, true>(p, oy0, ox, nq);
}

template <size_t R>
HWY_INLINE void DepthwiseRowsBlock(const conv::DepthwiseRowsParams& p, size_t oy0) {
  // R * NV accumulators + NV inputs + 1 weight.
  constexpr size_t NV = kVecRegs == 32 ? (R >= 4 ? 4 : 6) : (R >= 4 ? 2 : 3);
  const size_t tw = NV * conv_hn::Lanes(DF());
  for (size_t ox = 0; ox < p.ow; ox += tw) DepthwiseRowsTileN<R, NV>(p, oy0, ox, std::min(tw, p.ow - ox));
}

// DepthwiseRows for a K x K filter at vertical stride SH (1 or 2) and any
// horizontal stride the phase planes hold (p.xoff), without dilation, fully
// unrolled: which filter row meets which output row is known at compile
// time, so each (input row, tap column) is NV loads, then per output row it
// reaches one broadcast weight and NV FMAs, with no branches or index
// arithmetic between them. The general loops spent ~4x the FMAs' time on
// that bookkeeping on small planes (PP-OCR rec's 5x5 over 240 planes of
// 12 x 80: 0.7 us per plane).
//
// Vertical phase PY holds the padded rows PY, PY + SH, ...: its taps are the
// filter rows ky = PY + SH * ry, and output row oy0 + r reads its row
// oy0 + r + ry.
template <size_t K, size_t SH, size_t PY, size_t R, size_t NV, bool kPartial>
HWY_INLINE void DepthwiseFixedPhase(const conv::DepthwiseRowsParams& p, size_t oy0, size_t ox, size_t last,
                                    VF (&acc)[R][NV]) {
  constexpr size_t kRows = (K - PY + SH - 1) / SH;  // its filter rows
  const DF d;
  const float* HWY_RESTRICT base = p.src + p.phase_base[PY] + oy0 * p.wq + ox;
  const float* HWY_RESTRICT w = p.weights;
  HWY_UNROLL(16)
  for (size_t y = 0; y < R + kRows - 1; ++y) {
    HWY_UNROLL(8)
    for (size_t kx = 0; kx < K; ++kx) {
      const float* HWY_RESTRICT in = base + y * p.wq + p.xoff[kx];
      VF x[NV];
      DepthwiseLoad<NV, kPartial>(in, last, x);
      HWY_UNROLL(8)
      for (size_t r = 0; r < R; ++r) {
        if (y < r || y - r >= kRows) continue;  // filter row PY + SH * (y - r)
        const VF wv = conv_hn::Set(d, w[(PY + SH * (y - r)) * K + kx]);
        for (size_t v = 0; v < NV; ++v) acc[r][v] = conv_hn::MulAdd(wv, x[v], acc[r][v]);
      }
    }
  }
  if constexpr (PY + 1 < SH) DepthwiseFixedPhase<K, SH, PY + 1, R, NV, kPartial>(p, oy0, ox, last, acc);
}

template <size_t K, size_t SH, size_t R, size_t NV, bool kPartial>
HWY_INLINE void DepthwiseFixedTile(const conv::DepthwiseRowsParams& p, size_t oy0, size_t ox, size_t last) {
  VF acc[R][NV];
  DepthwiseInit(p, acc);
  DepthwiseFixedPhase<K, SH, 0, R, NV, kPartial>(p, oy0, ox, last, acc);
  DepthwiseStore(p, oy0, ox, kPartial ? last : conv_hn::Lanes(DF()), acc);
}

template <size_t K, size_t SH, size_t R, size_t NV>
HWY_INLINE void DepthwiseFixedTileN(const conv::DepthwiseRowsParams& p, size_t oy0, size_t ox, size_t nv,
                                    size_t last) {
  if constexpr (NV > 1) {
    if (nv < NV) return DepthwiseFixedTileN<K, SH, R, NV - 1>(p, oy0, ox, nv, last);
  }
  if (last == conv_hn::Lanes(DF())) DepthwiseFixedTile<K, SH, R, NV, false>(p, oy0, ox, last);
  else DepthwiseFixedTile<K, SH, R, NV, true>(p, oy0, ox, last);
}

// Output rows per tile, and vectors per tile row at most: R * NV
// accumulators + NV inputs + weights within the registers. Measured on
// AVX-512 (Xeon, 1 thread, min of 40; 5x5 over 240 x 12 x 80, 96 x 40 x 40;
// 3x3 over 32 x 112 x 112, 64 x 24 x 160, 16 x 320 x 320), against the
// general loops: R 3 x NV 5 -29%, -12%, -17%, -17%, -15%; R 4 x NV 5 -19%,
// -22%, -10%, -2%, -10%; R 4 x NV 4 -26%, -17%, -13%, -11%, -12% (GCC 12
// spills at 20 accumulators).
constexpr size_t kDepthwiseFixedRows = 3;
constexpr size_t kDepthwiseFixedMaxNV = kVecRegs == 32 ? 5 : 3;

// R output rows: the row's vectors in tiles of at most kMaxNV, as even as
// they go (80 columns: one tile of 5 vectors rather than 4 + 1), so that few
// tiles are narrow (a 1-vector tile is load-bound: a broadcast per FMA).
template <size_t K, size_t SH, size_t R>
HWY_INLINE void DepthwiseFixedRows(const conv::DepthwiseRowsParams& p, size_t oy0) {
  constexpr size_t kMaxNV = kDepthwiseFixedMaxNV;
  const size_t L = conv_hn::Lanes(DF());
  const size_t vectors = (p.ow + L - 1) / L;
  const size_t tiles = (vectors + kMaxNV - 1) / kMaxNV;
  for (size_t t = 0, v0 = 0; t < tiles; ++t) {
    const size_t v1 = (t + 1) * vectors / tiles;
    const size_t ox = v0 * L, n = std::min(v1 * L, p.ow) - ox;
    DepthwiseFixedTileN<K, SH, R, kMaxNV>(p, oy0, ox, v1 - v0, n - (v1 - v0 - 1) * L);
    v0 = v1;
  }
}

template <size_t K, size_t SH>
HWY_INLINE void DepthwiseFixed(const conv::DepthwiseRowsParams& p) {
  size_t oy = p.oy_begin;
  constexpr size_t R = kDepthwiseFixedRows;
  for (; oy + R <= p.oy_end; oy += R) DepthwiseFixedRows<K, SH, R>(p, oy);
  for (; oy < p.oy_end; ++oy) DepthwiseFixedRows<K, SH, 1>(p, oy);
}

inline HWY_NOINLINE void DepthwiseRowsImpl(const conv::DepthwiseRowsParams& p) {
  if (p.fixed_k == 3) return p.phases == 1 ? DepthwiseFixed<3, 1>(p) : DepthwiseFixed<3, 2>(p);
  if (p.fixed_k == 5) return p.phases == 1 ? DepthwiseFixed<5, 1>(p) : DepthwiseFixed<5, 2>(p);
  size_t oy = p.oy_begin;
  for (; oy + 4 <= p.oy_end; oy += 4) DepthwiseRowsBlock<4>(p, oy);
  for (; oy + 2 <= p.oy_end; oy += 2) DepthwiseRowsBlock<2>(p, oy);
  for (; oy < p.oy_end; ++oy) DepthwiseRowsBlock<1>(p, oy);
}

// Block of PX output pixels x NV channel vectors per weight load.
template <size_t PX, size_t NV, bool kPartial>
HWY_INLINE void DepthwiseNhwcBlock(const conv::DepthwiseNhwcParams& p, size_t x0, size_t xc, size_t c0) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  VF acc[PX][NV];
  for (size_t v = 0; v < NV; ++v) {
    const VF init = p.bias ? conv_hn::LoadU(d, p.bias + c0 + v * L) : conv_hn::Zero(d);
    for (size_t j = 0; j < PX; ++j) acc[j][v] = init;
  }
  size_t n[NV];
  for (size_t v = 0; v < NV; ++v) n[v] = p.channels > c0 + v * L ? std::min(L, p.channels - c0 - v * L) : 0;
  const float* const* ind = p.ind + x0 * p.taps;
  for (size_t t = 0; t < p.taps; ++t) {
    VF wv[NV];
    for (size_t v = 0; v < NV; ++v) wv[v] = conv_hn::LoadU(d, p.weights + t * p.cp + c0 + v * L);
    for (size_t j = 0; j < PX; ++j) {
      const float* HWY_RESTRICT a = ind[std::min(j, xc - 1) * p.taps + t] + c0;
      for (size_t v = 0; v < NV; ++v) {
        const VF x = kPartial ? (n[v] == L ? conv_hn::LoadU(d, a + v * L) : LoadTail(d, a + v * L, n[v]))
                              : conv_hn::LoadU(d, a + v * L);
        acc[j][v] = conv_hn::MulAdd(x, wv[v], acc[j][v]);
      }
    }
  }
  for (size_t j = 0; j < xc; ++j) {
    float* o = p.out + (x0 + j) * p.channels + c0;
    for (size_t v = 0; v < NV; ++v)
      if (n[v]) StoreN(d, ApplyClamp(d, acc[j][v], p.epilogue), o + v * L, n[v]);
  }
}

// Sliding window along the row: for each tap row, the input vector of
// column u serves output pixels j = (u - kx) / SW for every kx that divides
// evenly, with the kw weight vectors of the row held in registers. Loads per
// FMA at stride 1: (KW * NV + (PX + KW - 1) * NV) / (PX * KW * NV), 0.54 for
// 3x3 against 1.25 with one load per tap; at stride 2 (3x3) 0.79.
// kEdge: some column of the block's window lies in the padding, or a tap row
// is padding that must be multiplied (non-finite weights): each column is
// checked. Interior blocks (most of a row) load without checks, and with
// finite weights skip padding rows: measured on MobileNetV2's 32-channel 3x3
// at 112x112, the checks and their spilled flags cost ~20% of the kernel.
template <size_t KW, size_t SW, size_t PX, size_t NV, bool kPartial, bool kEdge>
HWY_INLINE void DepthwiseNhwcSlideBlock(const conv::DepthwiseNhwcParams& p, size_t x0, size_t xc, size_t c0) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  size_t n[NV];
  for (size_t v = 0; v < NV; ++v) n[v] = p.channels > c0 + v * L ? std::min(L, p.channels - c0 - v * L) : 0;
  VF acc[PX][NV];
  for (size_t v = 0; v < NV; ++v) {
    const VF init = p.bias ? conv_hn::LoadU(d, p.bias + c0 + v * L) : conv_hn::Zero(d);
    for (size_t j = 0; j < PX; ++j) acc[j][v] = init;
  }
  const int64_t ix0 = int64_t(x0 * SW) - int64_t(p.pad_left);
  for (size_t ky = 0; ky < p.kh; ++ky) {
    const float* HWY_RESTRICT row = p.rows[ky];
    if (!kEdge && !row) continue;  // only where skip_padding allows it (see the caller)
    VF w[KW][NV];
    for (size_t kx = 0; kx < KW; ++kx)
      for (size_t v = 0; v < NV; ++v) w[kx][v] = conv_hn::LoadU(d, p.weights + (ky * KW + kx) * p.cp + c0 + v * L);
    // Column u's channels: one pointer stepped by a row of channels (an
    // offset per u would be ten more live registers, and spilled).
    const float* HWY_RESTRICT a = kEdge ? nullptr : row + ix0 * int64_t(p.channels) + int64_t(c0);
    // Fully unrolled: acc[u - kx] must name registers.
    HWY_UNROLL(24)
    for (size_t u = 0; u < (PX - 1) * SW + KW; ++u) {
      VF x[NV];
      if constexpr (kEdge) {
        const int64_t ix = ix0 + int64_t(u);
        a = row && ix >= 0 && ix < int64_t(p.in_w) ? row + ix * int64_t(p.channels) + int64_t(c0) : nullptr;
      }
      for (size_t v = 0; v < NV; ++v) {
        if (kEdge && !a) x[v] = conv_hn::Zero(d);
        else if (kPartial && n[v] < L) x[v] = n[v] ? LoadTail(d, a + v * L, n[v]) : conv_hn::Zero(d);
        else x[v] = conv_hn::LoadU(d, a + v * L);
      }
      if constexpr (!kEdge) a += p.channels;
      HWY_UNROLL(8)
      for (size_t kx = 0; kx < KW; ++kx) {
        if (u < kx || (u - kx) % SW != 0 || (u - kx) / SW >= PX) continue;
        const size_t j = (u - kx) / SW;
        for (size_t v = 0; v < NV; ++v) acc[j][v] = conv_hn::MulAdd(x[v], w[kx][v], acc[j][v]);
      }
    }
  }
  const size_t px = kEdge ? xc : PX;
  for (size_t j = 0; j < px; ++j) {
    float* o = p.out + (x0 + j) * p.channels + c0;
    for (size_t v = 0; v < NV; ++v) {
      if (kPartial) {
        if (n[v]) StoreN(d, ApplyClamp(d, acc[j][v], p.epilogue), o + v * L, n[v]);
      } else {
        conv_hn::StoreU(ApplyClamp(d, acc[j][v], p.epilogue), d, o + v * L);
      }
    }
  }
}

template <size_t KW, size_t SW, size_t PX, size_t NV, bool kEdge>
HWY_INLINE void DepthwiseNhwcSlideColumns(const conv::DepthwiseNhwcParams& p, size_t x0, size_t xc) {
  const size_t L = conv_hn::Lanes(DF());
  size_t c0 = 0;
  for (; c0 + NV * L <= p.channels; c0 += NV * L) DepthwiseNhwcSlideBlock<KW, SW, PX, NV, false, kEdge>(p, x0, xc, c0);
  for (; c0 < p.channels; c0 += L) DepthwiseNhwcSlideBlock<KW, SW, PX, 1, true, kEdge>(p, x0, xc, c0);
}

template <size_t KW, size_t SW>
HWY_INLINE void DepthwiseNhwcSlideRow(const conv::DepthwiseNhwcParams& p) {
  // PX * NV accumulators + KW * NV weights + NV inputs <= 32 (16).
  constexpr size_t NV = kVecRegs == 32 ? 2 : 1;
  constexpr size_t PX = kVecRegs == 32 ? (KW <= 3 ? 8 : 6) : (KW <= 3 ? 6 : 4);
  // Padding rows that must be multiplied make every block an edge block.
  bool padded_rows = false;
  for (size_t ky = 0; ky < p.kh; ++ky) padded_rows = padded_rows || !p.rows[ky];
  const bool all_edge = padded_rows && !p.skip_padding;
  for (size_t x0 = 0; x0 < p.ow; x0 += PX) {
    const size_t xc = std::min(PX, p.ow - x0);
    // Input columns x0 * SW - pad_left .. x0 * SW - pad_left + (PX - 1) * SW + KW - 1.
    const bool edge = all_edge || xc < PX || x0 * SW < p.pad_left ||
                      x0 * SW + (PX - 1) * SW + KW > p.in_w + p.pad_left;
    if (edge) DepthwiseNhwcSlideColumns<KW, SW, PX, NV, true>(p, x0, xc);
    else DepthwiseNhwcSlideColumns<KW, SW, PX, NV, false>(p, x0, xc);
  }
}

inline HWY_NOINLINE void DepthwiseNhwcRowImpl(const conv::DepthwiseNhwcParams& p) {
  if (p.rows) {
    if (p.sw == 2) return p.kw == 3 ? DepthwiseNhwcSlideRow<3, 2>(p) : DepthwiseNhwcSlideRow<5, 2>(p);
    return p.kw == 3 ? DepthwiseNhwcSlideRow<3, 1>(p) : DepthwiseNhwcSlideRow<5, 1>(p);
  }
  constexpr size_t PX = 4;
  constexpr size_t NV = kVecRegs == 32 ? 4 : 2;
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  for (size_t x0 = 0; x0 < p.ow; x0 += PX) {
    const size_t xc = std::min(PX, p.ow - x0);
    size_t c0 = 0;
    for (; c0 + NV * L <= p.channels; c0 += NV * L) DepthwiseNhwcBlock<PX, NV, false>(p, x0, xc, c0);
    for (; c0 < p.channels; c0 += L) DepthwiseNhwcBlock<PX, 1, true>(p, x0, xc, c0);
  }
}

#else  // WEBNN_CONV_ONE_VECTOR (scalable vectors): sizeless vectors cannot form arrays; one accumulator per loop.

inline HWY_NOINLINE void IgemmNhwcScalable(const conv::IgemmParams& p) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  const size_t nb = p.nv * L;
  const size_t blocks = (p.cout + nb - 1) / nb;
  const size_t kdepth = p.taps * p.cin;
  for (size_t px = 0; px < p.pixels; ++px) {
    for (size_t b = 0; b < blocks; ++b) {
      for (size_t v = 0; v < p.nv; ++v) {
        const size_t c0 = b * nb + v * L;
        if (c0 >= p.cout) break;
        VF acc = p.bias ? conv_hn::LoadU(d, p.bias + c0) : conv_hn::Zero(d);
        const float* w = p.weights + b * kdepth * nb + v * L;
        for (size_t t = 0; t < p.taps; ++t) {
          const float* a = p.ind[px * p.taps + t] + p.a_offset;
          for (size_t ci = 0; ci < p.cin; ++ci, w += nb) acc = conv_hn::MulAdd(conv_hn::Set(d, a[ci]), conv_hn::LoadU(d, w), acc);
        }
        StoreN(d, ApplyEpilogue(d, acc, p.epilogue), p.out + px * p.out_stride + c0, p.cout - c0);
      }
    }
  }
}

inline HWY_NOINLINE void DirectNchwScalable(const conv::DirectParams& p) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  HWY_ALIGN float tile[HWY_MAX_BYTES / sizeof(float)];
  const size_t co_begin = p.block_begin * p.mr;
  const size_t co_end = p.block_end >= p.cout ? p.cout : std::min(p.cout, p.block_end * p.mr);
  auto run = [&](size_t q0, size_t nq) {
    for (size_t co = co_begin; co < co_end; ++co) {
      const size_t b = co / p.mr, m = co % p.mr;
      VF acc = p.bias ? conv_hn::Set(d, p.bias[co]) : conv_hn::Zero(d);
      const float* w = p.weights + b * p.taps * p.cin * p.mr + m;
      for (size_t t = 0; t < p.taps; ++t) {
        const float* row = p.src + p.tap_off[t] + q0;
        for (size_t ci = 0; ci < p.cin; ++ci, row += p.chan, w += p.mr)
          acc = conv_hn::MulAdd(conv_hn::Set(d, *w), LoadTail(d, row, nq), acc);
      }
      conv_hn::Store(ApplyEpilogue(d, acc, p.epilogue), d, tile);
      for (size_t i = 0; i < nq; ++i) {
        const size_t q = q0 + i, oy = q / p.wq, ox = q % p.wq;
        if (ox < p.ow) p.out[co * p.out_plane + oy * p.ow + ox] = tile[i];
      }
    }
  };
  if (p.row_mode) {
    for (size_t oy = p.q_begin; oy < p.q_end; ++oy)
      for (size_t ox = 0; ox < p.ow; ox += L) run(oy * p.wq + ox, std::min(L, p.ow - ox));
    return;
  }
  for (size_t q0 = p.q_begin; q0 < p.q_end; q0 += L) run(q0, std::min(L, p.q_end - q0));
}

inline HWY_NOINLINE void DepthwiseRowsScalable(const conv::DepthwiseRowsParams& p) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  for (size_t oy = p.oy_begin; oy < p.oy_end; ++oy)
    for (size_t ox = 0; ox < p.ow; ox += L) {
      const size_t n = std::min(L, p.ow - ox);
      VF acc = p.bias ? conv_hn::Set(d, *p.bias) : conv_hn::Zero(d);
      for (size_t py = 0; py < p.phases; ++py)
        for (int32_t rr = 0; rr < p.rows_in_phase[py]; ++rr) {
          const int32_t ky = p.ky_of[py * p.max_ry + rr];
          if (ky < 0) continue;
          const float* row = p.src + p.phase_base[py] + int64_t(oy + rr) * int64_t(p.wq) + int64_t(ox);
          for (size_t kx = 0; kx < p.kw; ++kx)
            acc = conv_hn::MulAdd(conv_hn::Set(d, p.weights[size_t(ky) * p.kw + kx]), LoadTail(d, row + p.xoff[kx], n), acc);
        }
      StoreN(d, ApplyClamp(d, acc, p.epilogue), p.out + oy * p.ow + ox, n);
    }
}

inline HWY_NOINLINE void DepthwiseNhwcRowScalable(const conv::DepthwiseNhwcParams& p) {
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  for (size_t x = 0; x < p.ow; ++x) {
    for (size_t c0 = 0; c0 < p.channels; c0 += L) {
      const size_t n = std::min(L, p.channels - c0);
      VF acc = p.bias ? conv_hn::LoadU(d, p.bias + c0) : conv_hn::Zero(d);
      for (size_t t = 0; t < p.taps; ++t)
        acc = conv_hn::MulAdd(LoadTail(d, p.ind[x * p.taps + t] + c0, n), conv_hn::LoadU(d, p.weights + t * p.cp + c0), acc);
      StoreN(d, ApplyClamp(d, acc, p.epilogue), p.out + x * p.channels + c0, n);
    }
  }
}

#endif  // WEBNN_CONV_ONE_VECTOR

}  // namespace conv_detail

// ---- entry points (called through HWY_DYNAMIC_DISPATCH by the family files) ----

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && !WEBNN_CONV_ONE_VECTOR
namespace conv_detail {

// The tall tile (conv::kIgemmTall): kIgemmTallMR pixels x one vector of output
// channels, for thin layers: few channels per tap (a 3-channel stem's merged
// row: 9) and at most one vector of output channels (16). The default 8 x 1
// tile loads a weight vector and 8 pointers for every 8 FMAs, and the half
// tile runs 8-lane FMAs, half the throughput of 16-lane ones where 512-bit
// FMAs issue at full rate (an Intel Xeon); measured on PP-OCR's 3 -> 16 stem
// (NHWC, Xeon) the half tile did 20 GFLOP/s. Here a tap's CIN weight vectors
// stay in registers while 16 pixels pass: 16 accumulators + CIN weights + 1
// broadcast <= 29 registers, one broadcast load per FMA. Its tile loop and
// padding-tap test repeat IgemmNhwcImpl's on purpose: moving them into shared
// helpers made IgemmNhwcImpl 2.2x slower on ResNet's 3x3 (NHWC, Xeon).
template <size_t CIN>
HWY_NOINLINE void IgemmNhwcTallImpl(const conv::IgemmParams& p) {
  constexpr size_t MR = conv::kIgemmTallMR;
  const DF d;
  const size_t L = conv_hn::Lanes(d);
  const size_t blocks = (p.cout + L - 1) / L;
  const size_t kdepth = p.taps * CIN;
  const size_t tiles = (p.pixels + MR - 1) / MR;
  for (size_t i = 0; i < tiles * blocks; ++i) {
    const size_t b = p.blocks_outer ? i / tiles : i % blocks;
    const size_t p0 = (p.blocks_outer ? i % tiles : i / blocks) * MR;
    const size_t mc = std::min(MR, p.pixels - p0);
    const float* const* ind = p.ind + p0 * p.taps;
    const float* HWY_RESTRICT w = p.weights + b * kdepth * L;
    VF acc[MR];
    const VF init = p.bias ? conv_hn::LoadU(d, p.bias + b * L) : conv_hn::Zero(d);
    for (size_t m = 0; m < MR; ++m) acc[m] = init;
    for (size_t t = 0; t < p.taps; ++t, w += CIN * L) {
      if (p.skip_zeros) {
        bool padding = true;
        for (size_t m = 0; m < mc; ++m) padding = padding && ind[m * p.taps + t] == p.skip_zeros;
        if (padding) continue;
      }
      VF wv[CIN];
      for (size_t ci = 0; ci < CIN; ++ci) wv[ci] = conv_hn::LoadU(d, w + ci * L);
      HWY_UNROLL(16)
      for (size_t m = 0; m < MR; ++m) {
        const float* HWY_RESTRICT a = ind[std::min(m, mc - 1) * p.taps + t] + p.a_offset;
        for (size_t ci = 0; ci < CIN; ++ci) acc[m] = conv_hn::MulAdd(conv_hn::Set(d, a[ci]), wv[ci], acc[m]);
      }
    }
    for (size_t m = 0; m < mc; ++m)
      StoreN(d, ApplyEpilogue(d, acc[m], p.epilogue), p.out + (p0 + m) * p.out_stride + b * L, p.cout - b * L);
  }
}

template <size_t CIN = 1>
HWY_INLINE void IgemmNhwcTall(const conv::IgemmParams& p) {
  if constexpr (CIN < conv::kIgemmTallMaxCin) {
    if (p.cin != CIN) return IgemmNhwcTall<CIN + 1>(p);
  }
  IgemmNhwcTallImpl<CIN>(p);
}
}  // namespace conv_detail
#endif

// Lanes of float32 and the tile shapes the packing and work split follow:
// out[0] = lanes, out[1] = IgemmNhwc's max NV, out[2] = DirectNchw's max MR,
// out[3] = IgemmNhwc's MR, out[4..7] = DirectNchw's NV for MR = 1, 2, 4, 8.
HWY_INLINE void ConvTilingImpl(size_t* out) {
  out[0] = conv_hn::Lanes(conv_detail::DF());
#if WEBNN_CONV_ONE_VECTOR
  for (size_t i = 1; i < 8; ++i) out[i] = 1;
#else
  out[1] = conv_detail::kIgemmMaxNV;
  out[2] = conv_detail::kDirectMaxMR;
  out[3] = conv_detail::kIgemmMR;
  out[4] = conv_detail::DirectNV<1>();
  out[5] = conv_detail::DirectNV<2>();
  out[6] = conv_detail::DirectNV<4>();
  out[7] = conv_detail::DirectNV<8>();
#endif
}

HWY_INLINE void IgemmNhwcImpl(const conv::IgemmParams& p) {
#if WEBNN_CONV_ONE_VECTOR
  conv_detail::IgemmNhwcScalable(p);
#else
  using conv_detail::DF;
  constexpr size_t MR = conv_detail::kIgemmMR;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  using conv_detail::DHalf;
  if (p.variant == conv::kIgemmWide) return conv_detail::IgemmNhwcImpl<DF, 7, 4>(p);
  if (p.variant == conv::kIgemmTall) return conv_detail::IgemmNhwcTall(p);
  if (p.variant == conv::kIgemmHalf) {
    switch (p.nv) {
      case 1: return conv_detail::IgemmNhwcImpl<DHalf, 8, 1>(p);
      case 2: return conv_detail::IgemmNhwcImpl<DHalf, 8, 2>(p);
      default: return conv_detail::IgemmNhwcImpl<DHalf, 8, 3>(p);
    }
  }
#endif
  switch (p.nv) {
    case 1: conv_detail::IgemmNhwcImpl<DF, MR, 1>(p); break;
    case 2: conv_detail::IgemmNhwcImpl<DF, MR, 2>(p); break;
    default:
      if constexpr (conv_detail::kIgemmMaxNV >= 3) conv_detail::IgemmNhwcImpl<DF, MR, 3>(p);
      break;
  }
#endif
}

// Whether IgemmNhwcImpl has the kIgemmWide and kIgemmHalf tiles on this target.
HWY_INLINE bool IgemmExtraTilesImpl() { return conv_detail::kIgemmExtraTiles; }

// Time of a run of 8-lane FMAs over the time of as many full-width (16-lane)
// ones, measured (the half tiles' cost; 1 where they do not exist): ~1 where
// 512-bit FMAs issue at full rate (measured on an Intel Xeon), expected ~0.5
// where a 512-bit FMA issues as two 256-bit halves (Zen 4). 12 independent
// chains of 2048 FMAs per width, best of 5 runs: 2 x 5 x 24576 FMAs, tens of
// microseconds, once per process.
HWY_INLINE double HalfVectorFmaCostImpl() {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && !WEBNN_CONV_ONE_VECTOR
  const auto seconds = [](auto d) {
    using V = conv_hn::Vec<decltype(d)>;
    double best = INFINITY;
    for (int run = 0; run < 5; ++run) {
      V acc[12];
      for (size_t c = 0; c < 12; ++c) acc[c] = conv_hn::Set(d, float(c));
      const V m = conv_hn::Set(d, 0.999f), a = conv_hn::Set(d, 1e-3f);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 2048; ++i)
        for (size_t c = 0; c < 12; ++c) acc[c] = conv_hn::MulAdd(acc[c], m, a);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      V sum = acc[0];
      for (size_t c = 1; c < 12; ++c) sum = conv_hn::Add(sum, acc[c]);
      volatile float sink = conv_hn::GetLane(sum);  // the chains are used
      (void)sink;
      best = std::min(best, s);
    }
    return best;
  };
  return seconds(conv_detail::DHalf()) / seconds(conv_detail::DF());
#else
  return 1.0;
#endif
}

// Whether DirectNchwImpl reads padding in place (conv::DirectParams::tap_dy).
HWY_INLINE bool DirectInPlaceImpl() {
#if WEBNN_CONV_ONE_VECTOR
  return false;
#else
  return conv_detail::kMaskedLoadsSafe;
#endif
}

HWY_INLINE void DirectNchwImpl(const conv::DirectParams& p) {
#if WEBNN_CONV_ONE_VECTOR
  conv_detail::DirectNchwScalable(p);
#else
  switch (p.mr) {
    case 1: conv_detail::DirectNchwImpl<1>(p); break;
    case 2: conv_detail::DirectNchwImpl<2>(p); break;
    case 4: conv_detail::DirectNchwImpl<4>(p); break;
    default:
      if constexpr (conv_detail::kDirectMaxMR >= 8) conv_detail::DirectNchwImpl<8>(p);
      break;
  }
#endif
}

HWY_INLINE void DepthwiseRowsNchwImpl(const conv::DepthwiseRowsParams& p) {
#if WEBNN_CONV_ONE_VECTOR
  conv_detail::DepthwiseRowsScalable(p);
#else
  conv_detail::DepthwiseRowsImpl(p);
#endif
}

HWY_INLINE void DepthwiseNhwcRowImpl(const conv::DepthwiseNhwcParams& p) {
#if WEBNN_CONV_ONE_VECTOR
  conv_detail::DepthwiseNhwcRowScalable(p);
#else
  conv_detail::DepthwiseNhwcRowImpl(p);
#endif
}

// out[i] += in[i]
HWY_INLINE void AddRowImpl(float* HWY_RESTRICT out, const float* HWY_RESTRICT in, size_t n) {
  const conv_detail::DF d;
  const size_t L = conv_hn::Lanes(d);
  size_t i = 0;
  for (; i + L <= n; i += L) conv_hn::StoreU(conv_hn::Add(conv_hn::LoadU(d, out + i), conv_hn::LoadU(d, in + i)), d, out + i);
  for (; i < n; ++i) out[i] += in[i];
}

HWY_INLINE void Col2imRowImpl(const conv::Col2imParams& p) {
  const size_t taps = p.kh * p.kw;
  for (size_t ky = 0; ky < p.kh; ++ky) {
    const int64_t t = int64_t(p.oy + p.pt) - int64_t(ky * p.dh);
    if (t < 0 || t % int64_t(p.sh) != 0) continue;
    const size_t iy = size_t(t) / p.sh;
    if (iy < p.iy0 || iy >= p.iy1) continue;
    const float* row = p.cols + (iy - p.iy0) * p.in_w * p.ncols;
    for (size_t kx = 0; kx < p.kw; ++kx) {
      for (size_t ix = 0; ix < p.in_w; ++ix) {
        const int64_t ox = int64_t(ix * p.sw + kx * p.dw) - int64_t(p.pl);
        if (ox < 0) continue;
        if (ox >= int64_t(p.ow)) break;
        const float* src = row + ix * p.ncols + (ky * p.kw + kx) * p.cout_g;
        float* dst = p.out_row + size_t(ox) * p.cout;
        for (size_t g = 0; g < p.groups; ++g) AddRowImpl(dst + g * p.cout_g, src + g * taps * p.cout_g, p.cout_g);
      }
    }
  }
}

// dst[c * dst_stride + r] = src[r * src_stride + c] for rows [r0, r1) and
// columns [c0, c1): 4 x 4 blocks through 128-bit unpacks (16 floats in 4
// loads, 8 shuffles and 4 stores), the edges one element at a time. Columns
// outermost: the 4 destination rows of a column block fill sequentially
// (destination rows a multiple of 4 KB apart, as channel planes often are,
// would otherwise all compete for one L1 set).
HWY_INLINE void TransposeBlockImpl(const float* HWY_RESTRICT src, size_t src_stride, float* HWY_RESTRICT dst,
                                   size_t dst_stride, size_t r0, size_t r1, size_t c0, size_t c1) {
  size_t c = c0;
#if !WEBNN_CONV_ONE_VECTOR && HWY_TARGET != HWY_SCALAR
  const conv_hn::Full128<float> d4;
  const conv_hn::Repartition<double, decltype(d4)> d2;
  for (; c + 4 <= c1; c += 4) {
    size_t r = r0;
    for (; r + 4 <= r1; r += 4) {
      const float* s = src + r * src_stride + c;
      const auto a = conv_hn::LoadU(d4, s), b = conv_hn::LoadU(d4, s + src_stride);
      const auto e = conv_hn::LoadU(d4, s + 2 * src_stride), f = conv_hn::LoadU(d4, s + 3 * src_stride);
      const auto ab_lo = conv_hn::BitCast(d2, conv_hn::InterleaveLower(d4, a, b));  // a0 b0 a1 b1
      const auto ef_lo = conv_hn::BitCast(d2, conv_hn::InterleaveLower(d4, e, f));  // e0 f0 e1 f1
      const auto ab_hi = conv_hn::BitCast(d2, conv_hn::InterleaveUpper(d4, a, b));  // a2 b2 a3 b3
      const auto ef_hi = conv_hn::BitCast(d2, conv_hn::InterleaveUpper(d4, e, f));  // e2 f2 e3 f3
      float* o = dst + c * dst_stride + r;
      conv_hn::StoreU(conv_hn::BitCast(d4, conv_hn::InterleaveLower(d2, ab_lo, ef_lo)), d4, o);
      conv_hn::StoreU(conv_hn::BitCast(d4, conv_hn::InterleaveUpper(d2, ab_lo, ef_lo)), d4, o + dst_stride);
      conv_hn::StoreU(conv_hn::BitCast(d4, conv_hn::InterleaveLower(d2, ab_hi, ef_hi)), d4, o + 2 * dst_stride);
      conv_hn::StoreU(conv_hn::BitCast(d4, conv_hn::InterleaveUpper(d2, ab_hi, ef_hi)), d4, o + 3 * dst_stride);
    }
    for (; r < r1; ++r)
      for (size_t i = 0; i < 4; ++i) dst[(c + i) * dst_stride + r] = src[r * src_stride + c + i];
  }
#endif
  for (; c < c1; ++c)
    for (size_t r = r0; r < r1; ++r) dst[c * dst_stride + r] = src[r * src_stride + c];
}

// Even and odd elements of in[0, 2n) (n evens, n odds; in has 2n elements).
HWY_INLINE void Deinterleave2Impl(const float* HWY_RESTRICT in, float* HWY_RESTRICT even, float* HWY_RESTRICT odd,
                                  size_t n) {
  size_t i = 0;
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  const conv_detail::DF d;
  const size_t L = conv_hn::Lanes(d);
  for (; i + L <= n; i += L) {
    const auto lo = conv_hn::LoadU(d, in + 2 * i);
    const auto hi = conv_hn::LoadU(d, in + 2 * i + L);
    conv_hn::StoreU(conv_hn::ConcatEven(d, hi, lo), d, even + i);
    conv_hn::StoreU(conv_hn::ConcatOdd(d, hi, lo), d, odd + i);
  }
#endif
  for (; i < n; ++i) {
    even[i] = in[2 * i];
    odd[i] = in[2 * i + 1];
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#endif  // WEBNN_OPS_CPU_CONV_KERNELS_INL_H_
