// cpu kernel of attention (src/ops/attention.h): flash attention. The [S, T]
// scores never exist in memory: per block of up to kRows query rows, key
// positions go by in tiles of kTile, and each tile's scores, softmax weights
// and value rows are consumed while they are in registers / L1, with the
// online softmax (running max m, running sum l, output rescaled by
// exp(m_old - m_new) when the max grows).
//
// Layout and loops:
//  - The query heads that share a key/value head (GQA) are processed
//    together: their rows (G heads x S positions) form the row blocks, so a
//    decode step (S = 1) still has G rows per block and reads K and V once
//    per key/value head.
//  - K is transposed into [D, T] (padded to whole tiles) by each chunk of
//    work for the key/value head it covers (chunks are whole heads, or runs
//    of one head's row blocks when there are more chunks than heads), so a
//    tile of scores is a small GEMM: per d, one
//    broadcast of q[r, d] and kTileVectors loads, kRows x kTileVectors FMAs
//    (16 accumulators).
//  - The value product is a GEMM too: per key position j, the value row's
//    vectors are loaded once and FMA'd into kRows output rows (up to 4 x 4
//    accumulators per pass over Dv).
//  - A tile whose mask is -Inf for every row of the block (causal attention's
//    upper triangle) is skipped when its keys and values are finite (where
//    they are not, the unfused graph's 0 * Inf / NaN products give NaN, and
//    the tile runs to give it too). So causal prefill does about half the
//    work.
// Semantics follow the unfused graph: the scores are (q . k) * scale (or /
// scale) + mask; a row whose scores are all -Inf gives NaN (softmax's 0 / 0);
// a NaN score makes its row NaN. float16 runs in float32 with one rounding at
// the end.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/attention.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/attention.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/kernel_registry.h"

#ifndef WEBNN_ATTENTION_ONCE
#define WEBNN_ATTENTION_ONCE
namespace webnn::ops::cpu::attention_detail {

constexpr size_t kRows = 4;         // query rows per block
constexpr size_t kTileVectors = 4;  // key positions per tile: this many vectors

// One dispatch's operands, in float32, and where each row's mask starts.
struct Problem {
  size_t batch, q_heads, kv_heads, s, t, d, dv;
  const float* q;      // [B, Hq, S, D]
  const float* key;    // [B, Hkv, T, D] or [B, Hkv, D, T]
  bool key_transposed;
  const float* value;  // [B, Hkv, T, Dv]
  const float* mask;   // null, or broadcast by the strides below
  size_t mask_stride[4];  // along B, Hq, S, T (0 where broadcast)
  float scale;
  bool divide;
  float* out;  // [B, Hq, S, Dv]
  // K rows padded to whole tiles (the transposed K is [D, t_pad]).
  size_t t_pad;
};

}  // namespace webnn::ops::cpu::attention_detail
#endif  // WEBNN_ATTENTION_ONCE

#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

using attention_detail::kRows;
using attention_detail::kTileVectors;
using attention_detail::Problem;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

// K of (b, kv head) `bh` transposed to kt [D, t_pad] (zero past T), eight
// keys at a time so the reads stay within a few cache lines.
void TransposeKeys(const Problem& p, size_t bh, float* kt) {
  const float* k = p.key + bh * p.t * p.d;
  if (p.key_transposed) {
    for (size_t dd = 0; dd < p.d; ++dd) std::memcpy(kt + dd * p.t_pad, k + dd * p.t, p.t * sizeof(float));
  } else {
    size_t j0 = 0;
    for (; j0 + 8 <= p.t; j0 += 8)
      for (size_t dd = 0; dd < p.d; ++dd)
        for (size_t j = 0; j < 8; ++j) kt[dd * p.t_pad + j0 + j] = k[(j0 + j) * p.d + dd];
    for (; j0 < p.t; ++j0)
      for (size_t dd = 0; dd < p.d; ++dd) kt[dd * p.t_pad + j0] = k[j0 * p.d + dd];
  }
  for (size_t dd = 0; dd < p.d; ++dd) std::fill(kt + dd * p.t_pad + p.t, kt + (dd + 1) * p.t_pad, 0.0f);
}

// True when `count` floats are all finite.
bool AllFinite(const float* x, size_t count) {
  const DF df;
  const size_t N = hn::Lanes(df);
  auto bad = hn::Lt(hn::Zero(df), hn::Zero(df));  // all false
  size_t i = 0;
  for (; i + N <= count; i += N) bad = hn::Or(bad, hn::Not(hn::IsFinite(hn::LoadU(df, x + i))));
  bool finite = hn::AllFalse(df, bad);
  for (; i < count; ++i) finite &= std::isfinite(x[i]);
  return finite;
}

// The keys and values of tile [j0, j0 + width) are finite (a fully masked
// tile of finite ones contributes exactly nothing).
bool TileFinite(const Problem& p, const float* kt, const float* v, size_t j0, size_t width) {
  for (size_t dd = 0; dd < p.d; ++dd)
    if (!AllFinite(kt + dd * p.t_pad + j0, width)) return false;
  return AllFinite(v + j0 * p.dv, width * p.dv);
}

// True when mask row m (stride 1, or one value when `broadcast`) is -Inf at
// every one of the tile's `width` positions.
bool RowMaskedOut(const float* m, bool broadcast, size_t width) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  if (broadcast) return m[0] == neg_inf;
  const DF df;
  const size_t N = hn::Lanes(df);
  const VF ninf = hn::Set(df, neg_inf);
  size_t j = 0;
  for (; j + N <= width; j += N)
    if (!hn::AllTrue(df, hn::Eq(hn::LoadU(df, m + j), ninf))) return false;
  for (; j < width; ++j)
    if (m[j] != neg_inf) return false;
  return true;
}

// o[r][e0 : e0 + V vectors) = o[r][...] * alpha[r] + sum_j w[r][j] v[j][...]
// over the tile's `width` value rows; kPartial: one vector of the last
// dv - e0 < N lanes.
template <size_t R, size_t V, bool kPartial>
HWY_INLINE void AccumulateValues(size_t dv, size_t e0, const float* vtile, size_t width, const float* pw, size_t tile,
                                 const float* alpha, float* o) {
  const DF df;
  constexpr size_t N = hn::MaxLanes(DF());
  const size_t last = dv - e0;  // lanes of the partial vector
  auto load = [&](const float* x) HWY_ATTR { return kPartial ? LoadPart(df, x, last) : hn::LoadU(df, x); };
  VF ov[R][V];
  for (size_t r = 0; r < R; ++r)
    for (size_t c = 0; c < V; ++c) ov[r][c] = hn::Mul(load(o + r * dv + e0 + c * N), hn::Set(df, alpha[r]));
  for (size_t j = 0; j < width; ++j) {
    const float* vrow = vtile + j * dv + e0;
    VF vv[V];
#pragma GCC unroll 4
    for (size_t c = 0; c < V; ++c) vv[c] = load(vrow + c * N);
#pragma GCC unroll 4
    for (size_t r = 0; r < R; ++r) {
      const VF wj = hn::Set(df, pw[r * tile + j]);
#pragma GCC unroll 4
      for (size_t c = 0; c < V; ++c) ov[r][c] = hn::MulAdd(wj, vv[c], ov[r][c]);
    }
  }
  for (size_t r = 0; r < R; ++r)
    for (size_t c = 0; c < V; ++c) {
      if (kPartial) StorePart(ov[r][c], df, o + r * dv + e0 + c * N, last);
      else hn::StoreU(ov[r][c], df, o + r * dv + e0 + c * N);
    }
}

// Per key tile of the head: whether its keys and values are all finite, found
// when first asked (fully masked tiles are skipped only then).
enum TileState : uint8_t { kUnknown, kFinite, kNotFinite };

// Attention for R query rows that share key/value head `bh`: rows[r] is the
// row's (b * Hq + h) * S + i. `o` is R x Dv scratch, `pw` R x tile,
// `tile_state` the head's TileStates.
template <size_t R>
void AttendRows(const Problem& p, size_t bh, const float* kt, const size_t* rows, float* o, float* pw,
                uint8_t* tile_state) {
  const DF df;
  constexpr size_t N = hn::MaxLanes(DF());
  const size_t tile = kTileVectors * hn::Lanes(df);
  const size_t tiles = p.t_pad / tile;
  const float* v = p.value + bh * p.t * p.dv;
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const float* q[R];
  const float* mask[R];
  float m[R], l[R];
  bool nan_row[R];
  bool q_finite = true;
  for (size_t r = 0; r < R; ++r) {
    q[r] = p.q + rows[r] * p.d;
    const size_t bhq = rows[r] / p.s, i = rows[r] % p.s;
    mask[r] = p.mask ? p.mask + (bhq / p.q_heads) * p.mask_stride[0] + (bhq % p.q_heads) * p.mask_stride[1] +
                           i * p.mask_stride[2]
                     : nullptr;
    m[r] = neg_inf;
    l[r] = 0;
    nan_row[r] = false;
    for (size_t dd = 0; dd < p.d; ++dd) q_finite &= std::isfinite(q[r][dd]);
    std::fill(o + r * p.dv, o + (r + 1) * p.dv, 0.0f);
  }
  const size_t mask_t = p.mask_stride[3];
  for (size_t ti = 0; ti < tiles; ++ti) {
    const size_t j0 = ti * tile, width = std::min(tile, p.t - j0);
    // Every row masked out (and nothing that would turn 0 into NaN): skip.
    if (p.mask && q_finite && tile_state[ti] != kNotFinite) {
      bool all_masked = true;
      for (size_t r = 0; r < R && all_masked; ++r) all_masked = RowMaskedOut(mask[r] + j0 * mask_t, mask_t == 0, width);
      if (all_masked && tile_state[ti] == kUnknown) tile_state[ti] = TileFinite(p, kt, v, j0, width) ? kFinite : kNotFinite;
      if (all_masked && tile_state[ti] == kFinite) continue;
    }
    // Scores: acc[r][c] = q[r] . k[j0 + c * N ...].
    VF acc[R][kTileVectors];
    for (size_t r = 0; r < R; ++r)
      for (size_t c = 0; c < kTileVectors; ++c) acc[r][c] = hn::Zero(df);
    const float* kcol = kt + j0;
    for (size_t dd = 0; dd < p.d; ++dd, kcol += p.t_pad) {
      VF kv[kTileVectors];
#pragma GCC unroll 4
      for (size_t c = 0; c < kTileVectors; ++c) kv[c] = hn::LoadU(df, kcol + c * N);
#pragma GCC unroll 4
      for (size_t r = 0; r < R; ++r) {
        const VF qd = hn::Set(df, q[r][dd]);
#pragma GCC unroll 4
        for (size_t c = 0; c < kTileVectors; ++c) acc[r][c] = hn::MulAdd(qd, kv[c], acc[r][c]);
      }
    }
    // The raw scores to pw, in fully unrolled stores: read by a loop GCC does
    // not unroll, acc was kept in memory and stored on every step of the loop
    // above (16 stores per 16 FMAs: ~30% of the kernel at S = 512).
#pragma GCC unroll 4
    for (size_t r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (size_t c = 0; c < kTileVectors; ++c) hn::StoreU(acc[r][c], df, pw + r * tile + c * N);
    // Scale, mask, online softmax per row; the weights go to pw.
    float alpha[R];
    const VF scale = hn::Set(df, p.scale);
    for (size_t r = 0; r < R; ++r) {
      float* w = pw + r * tile;
      VF vmax = hn::Set(df, neg_inf);
      auto any_nan = hn::Lt(vmax, vmax);  // all false
      for (size_t c = 0; c < kTileVectors; ++c) {
        const size_t first = c * N;
        const VF raw = hn::LoadU(df, w + first);
        VF s = p.divide ? hn::Div(raw, scale) : hn::Mul(raw, scale);
        const size_t valid = width > first ? std::min(N, width - first) : 0;
        if (mask[r]) {
          const float* mrow = mask[r] + j0 + first;
          s = hn::Add(s, mask_t == 0 ? hn::Set(df, mask[r][0]) : LoadPart(df, mrow, valid));
        }
        s = hn::IfThenElse(hn::FirstN(df, valid), s, hn::Set(df, neg_inf));  // past T: no weight
        any_nan = hn::Or(any_nan, hn::IsNaN(s));
        vmax = hn::Max(vmax, s);
        hn::StoreU(s, df, w + first);
      }
      nan_row[r] |= !hn::AllFalse(df, any_nan);
      const float mx = hn::GetLane(hn::MaxOfLanes(df, vmax));
      const float m_new = std::max(m[r], mx);
      if (m_new == neg_inf) {  // nothing but -Inf so far: zero weights (the values still multiply)
        alpha[r] = 1;
        std::fill(w, w + tile, 0.0f);
        continue;
      }
      alpha[r] = std::exp(m[r] - m_new);
      const VF mv = hn::Set(df, m_new);
      VF sum = hn::Zero(df);
      for (size_t c = 0; c < kTileVectors; ++c) {
        const VF x = hn::LoadU(df, w + c * N);
        // exp(-Inf) is exactly 0 (ExpNonPositive clamps its argument at -104).
        const VF e = hn::IfThenZeroElse(hn::Eq(x, hn::Set(df, neg_inf)), ExpNonPositive(df, hn::Sub(x, mv)));
        hn::StoreU(e, df, w + c * N);
        sum = hn::Add(sum, e);
      }
      l[r] = l[r] * alpha[r] + hn::GetLane(hn::SumOfLanes(df, sum));
      m[r] = m_new;
    }
    // o[r] = o[r] * alpha[r] + sum_j w[r][j] v[j]: whole vectors of Dv 4 at
    // a time (accumulators in registers), then a partial last vector.
    const float* vtile = v + j0 * p.dv;
    size_t e0 = 0;
    for (; e0 + 4 * N <= p.dv; e0 += 4 * N) AccumulateValues<R, 4, false>(p.dv, e0, vtile, width, pw, tile, alpha, o);
    switch ((p.dv - e0) / N) {
      case 3: AccumulateValues<R, 3, false>(p.dv, e0, vtile, width, pw, tile, alpha, o); e0 += 3 * N; break;
      case 2: AccumulateValues<R, 2, false>(p.dv, e0, vtile, width, pw, tile, alpha, o); e0 += 2 * N; break;
      case 1: AccumulateValues<R, 1, false>(p.dv, e0, vtile, width, pw, tile, alpha, o); e0 += N; break;
      default: break;
    }
    if (e0 < p.dv) AccumulateValues<R, 1, true>(p.dv, e0, vtile, width, pw, tile, alpha, o);
  }
  for (size_t r = 0; r < R; ++r) {
    float* out = p.out + rows[r] * p.dv;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (size_t e = 0; e < p.dv; ++e) out[e] = nan_row[r] ? nan : o[r * p.dv + e] / l[r];  // l = 0: 0 / 0, NaN
  }
}

}  // namespace

size_t AttentionTile() { return kTileVectors * hn::Lanes(DF()); }

// Row blocks [k0, k1) of key/value head `bh`'s G * S rows; `kt` receives
// the head's K transposed first, `tile_state` (t_pad / tile entries) its tiles'
// TileStates.
void AttentionBlocks(const Problem* p, size_t bh, size_t k0, size_t k1, float* kt, float* o, float* pw,
                     uint8_t* tile_state) {
  TransposeKeys(*p, bh, kt);
  std::fill_n(tile_state, p->t_pad / AttentionTile(), kUnknown);
  const size_t group = p->q_heads / p->kv_heads, rows_total = group * p->s;
  const size_t b = bh / p->kv_heads, kvh = bh % p->kv_heads;
  for (size_t blk = k0; blk < k1; ++blk) {
    size_t rows[kRows];
    const size_t first = blk * kRows, count = std::min(kRows, rows_total - first);
    for (size_t r = 0; r < count; ++r) {
      const size_t g = (first + r) / p->s, i = (first + r) % p->s;
      rows[r] = (b * p->q_heads + kvh * group + g) * p->s + i;
    }
    switch (count) {
      case 1: AttendRows<1>(*p, bh, kt, rows, o, pw, tile_state); break;
      case 2: AttendRows<2>(*p, bh, kt, rows, o, pw, tile_state); break;
      case 3: AttendRows<3>(*p, bh, kt, rows, o, pw, tile_state); break;
      default: AttendRows<4>(*p, bh, kt, rows, o, pw, tile_state); break;
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(AttentionTile);
HWY_EXPORT(AttentionBlocks);

namespace {

using attention_detail::kRows;
using attention_detail::Problem;

size_t TilePad(size_t t) {
  const size_t tile = HWY_DYNAMIC_DISPATCH(AttentionTile)();
  return (t + tile - 1) / tile * tile;
}

void RunAttention(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<AttentionAttrs>(ctx.attrs);
  const TensorView& qv = ctx.inputs[0];
  const TensorView& kv = ctx.inputs[1];
  const TensorView& vv = ctx.inputs[2];
  const TensorView* mv = OptionalInput(ctx.inputs, 3);
  const TensorView& out = ctx.outputs[0];
  Problem p{};
  p.batch = qv.shape[0];
  p.q_heads = qv.shape[1];
  p.kv_heads = kv.shape[1];
  p.s = qv.shape[2];
  p.d = qv.shape[3];
  p.t = vv.shape[2];
  p.dv = vv.shape[3];
  p.key_transposed = attrs.key_transposed;
  p.scale = attrs.scale;
  p.divide = attrs.divide;
  if (mv) {
    // Right-aligned strides of the mask against [B, Hq, S, T], 0 where it broadcasts.
    size_t stride = 1;
    for (size_t i = 0; i < 4; ++i) {
      const size_t axis = 3 - i;
      const size_t dim = i < mv->rank() ? mv->shape[mv->rank() - 1 - i] : 1;
      p.mask_stride[axis] = dim == 1 ? 0 : stride;
      stride *= dim;
    }
  }
  const F32Input q32(&qv, ctx.parallel), k32(&kv, ctx.parallel), v32(&vv, ctx.parallel), m32(mv, ctx.parallel);
  p.q = q32.get();
  p.key = k32.get();
  p.value = v32.get();
  p.mask = mv ? m32.get() : nullptr;
  const memory::Scratch<float> out32(out.type == DataType::kFloat32 ? 0 : out.elements(), "attention: float32 output");
  p.out = out.type == DataType::kFloat32 ? out.as<float>() : out32.data();
  const size_t heads = p.batch * p.kv_heads;
  p.t_pad = TilePad(p.t);
  // Chunks of (key/value head, row block) tasks, about 4 per thread
  // (core::ChunksForFlops); each chunk transposes the K of the heads it
  // touches (T x D, against 4 x T x (D + Dv) x 2 flops per block).
  const size_t blocks = (p.q_heads / p.kv_heads * p.s + kRows - 1) / kRows;
  const double flops = 2.0 * p.batch * p.q_heads * p.s * p.t * (p.d + p.dv);
  // Fewer chunks than heads: whole heads (no K transposed twice). Below
  // ~4 MFLOP one chunk: the decoder's decode step (1.8 MFLOP per layer) took
  // 78 us split over 2 threads and 46 us on one (Zen 5, 2 cores).
  const size_t tasks = heads * blocks;
  size_t chunks = flops < 4e6 ? 1 : core::ChunksForFlops(flops, tasks, ctx.parallel.NumThreads());
  if (chunks < heads * 2) chunks = std::min(chunks, heads);
  const size_t dv = p.dv, tile = HWY_DYNAMIC_DISPATCH(AttentionTile)();
  ctx.parallel.Run(chunks, 1, [&](size_t c0, size_t c1) {
    const memory::Scratch<float> kt(p.d * p.t_pad, "attention: a head's keys transposed");
    const memory::Scratch<float> o(kRows * dv, "attention: output rows");
    const memory::Scratch<float> pw(kRows * tile, "attention: a tile's softmax weights");
    const memory::Scratch<uint8_t> tile_state(p.t_pad / tile, "attention: which key tiles are finite");
    const size_t t1 = c1 * tasks / chunks;
    for (size_t t = c0 * tasks / chunks; t < t1;) {
      const size_t bh = t / blocks, b0 = t % blocks, b1 = std::min(blocks, b0 + (t1 - t));
      HWY_DYNAMIC_DISPATCH(AttentionBlocks)(&p, bh, b0, b1, kt.data(), o.data(), pw.data(), tile_state.data());
      t += b1 - b0;
    }
  });
  if (out.type != DataType::kFloat32) ConvertF32ToF16(out32.data(), out.as<uint16_t>(), out32.size(), ctx.parallel);
}

std::shared_ptr<const void> PrepareAttention(const PrepareContext& ctx) {
  const TensorView& q = ctx.inputs[0];
  const TensorView& v = ctx.inputs[2];
  const TensorView& out = ctx.outputs[0];
  memory::WorkspaceSize& ws = ctx.workspace;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) AddF32InputWorkspace(ws, &ctx.inputs[i]);
  if (out.type != DataType::kFloat32) ws.AddShared<float>(out.elements());
  ws.AddPerWorker<float>(q.shape[3] * TilePad(v.shape[2]));
  ws.AddPerWorker<float>(kRows * v.shape[3]);
  ws.AddPerWorker<float>(kRows * HWY_DYNAMIC_DISPATCH(AttentionTile)());
  ws.AddPerWorker<uint8_t>(TilePad(v.shape[2]) / HWY_DYNAMIC_DISPATCH(AttentionTile)());
  return nullptr;
}

}  // namespace

void RegisterAttentionKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    registry.Add(CpuKernel{op, &RunAttention, &PrepareAttention, {s, s, s, s}, {s}});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
