// The cpu device's float32 GEMM core (see gemm.h for the interface).
//
// Structure (the GotoBLAS/BLIS loop nest, with B packed ahead of time):
//   B: packed once into panels of NR columns, K-major (panel p holds
//      B[0:K, p*NR:(p+1)*NR] as K rows of NR floats, zero-padded on the right),
//      64-byte aligned. Row-major B that is not packed can be read in place
//      (the tiles take a row stride), which wins up to M ~ 512; with rows a
//      page or more apart each micro-panel is copied into an L1 buffer first
//      (kCopyPanelsFromStride).
//   A: packed into panels of at most MR rows (heights balanced to within 1),
//      K-major (one float per row per k), so the micro-kernel reads A
//      sequentially and rows at a large power-of-2 leading dimension cannot
//      collide in one L1 set.
//   Or A packed beforehand for all of K (GemmPackLhsF32) and B made one
//      micro-panel at a time by a GemmPanelSource into an L1 buffer
//      (GemmF32Sourced: quantizedMatmul's weights, dequantized on the way).
//   Micro-kernel: an MR x NR tile of C in registers (MR x NV vectors), one
//      broadcast of A and NV loads of B per k; the epilogue (alpha, C or bias,
//      NaN-preserving clamp) is applied in registers, masked at the right edge.
//   Loop nest per task:  row block (MC rows) > K block (KC) > B panel > A panel:
//      the B micro-panel (KC x NR) is reused by every A panel of the row block
//      from L1/L2; the packed A block (MC x KC) stays in L2 across all B panels.
//      Few rows (A for all of K fits in half of L2): B panel > K block > A
//      panel instead, so B streams from memory front to back.
//   Threads: one task per thread, splitting rows (large M: each thread streams
//      all of B) or columns (small M: each thread streams its share of B).
//   M = 1 is a memory-bound GEMV over the packed panels or straight from B;
//   N = 1 is a GEMV over A's rows.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/gemm_core.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/aligned_allocator.h>
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "memory/workspace.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/gemm.h"

#ifndef WEBNN_GEMM_CORE_ONCE
#define WEBNN_GEMM_CORE_ONCE
namespace webnn::ops::cpu::gemm_detail {

// Geometry of the packed panels, shared by every target.
inline size_t CeilDiv(size_t a, size_t b) { return (a + b - 1) / b; }
// Floats that a memory::Scratch of `floats` floats occupies (whole cache lines).
inline size_t ScratchFloats(size_t floats) { return memory::ScratchBytes(floats * sizeof(float)) / sizeof(float); }

}  // namespace webnn::ops::cpu::gemm_detail
#endif  // WEBNN_GEMM_CORE_ONCE

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using gemm_detail::CeilDiv;
using gemm_detail::ScratchFloats;

using DF = hn::ScalableTag<float>;

// ---- Tile configuration per target ------------------------------------------
// kMR rows x kNV vectors of accumulators. The register budget decides:
//   AVX-512 (32 zmm): 14 x 2 = 28 accumulators + 2 B vectors + 1 broadcast = 31.
//     One 512-bit FMA per cycle with 4-cycle latency (Zen4: two 256-bit FMA
//     pipes) needs >= 4 independent chains; 28 hide latency and the 14 A
//     broadcasts + 2 B loads per 28 FMAs stay well under the 2-3 loads/cycle.
//   AVX2 (16 ymm): 6 x 2 = 12 accumulators + 2 B + 1 broadcast = 15
//     (2 FMA/cycle x 5-cycle latency -> >= 10 chains).
//   SSE4 (16 xmm): 6 x 2 = 12 accumulators, NR = 8.
//   NEON / SVE (32 registers): 8 x 3 = 24 accumulators + 3 B + 1 (NEON NR = 12).
//   Scalar fallbacks: 4 x 4.
// KC: the B micro-panel (KC x NR floats) is reused by every A panel of a row
// block, so it should live in L1/L2 next to the streaming A panel:
//   AVX-512: KC = 256 -> 256 x 32 x 4 B = 32 KiB (B) + 14 KiB (A panel); the
//   L1 (32 KiB on Zen4/Skylake) keeps most of it, L2 the rest, and a C tile
//   is loaded and stored once per 256 x 28 FMAs (< 1% overhead). On Zen4,
//   KC = 128/256/384 and 8 x 48 or 6 x 64 tiles measured within 2% of this.
//   AVX2/SSE4: 256 x 16 x 4 = 16 KiB, 256 x 8 x 4 = 8 KiB.
// MC: the packed A block (MC x KC) stays in L2 while every B panel streams by:
//   AVX-512: 336 x 256 x 4 B = 336 KiB of a 1 MiB (Zen4) / 1-2 MiB L2.
//   AVX2: 144 x 256 x 4 = 144 KiB of a >= 256 KiB L2.
#if HWY_TARGET == HWY_SCALAR
constexpr size_t kMR = 4, kNV = 4, kKC = 256, kMC = 64;
#elif HWY_TARGET == HWY_EMU128
constexpr size_t kMR = 4, kNV = 2, kKC = 256, kMC = 64;
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
constexpr size_t kMR = 14, kNV = 2, kKC = 256, kMC = 336;
#elif HWY_ARCH_X86
constexpr size_t kMR = 6, kNV = 2, kKC = 256, kMC = 144;
#else  // NEON, SVE and other ISAs with 32 vector registers
constexpr size_t kMR = 8, kNV = 3, kKC = 256, kMC = 128;
#endif
static_assert(kMR >= 1 && kMR <= 14 && kNV >= 1 && kNV <= 4, "tile macros cover 14 rows x 4 vectors");

HWY_INLINE size_t PanelWidth() { return kNV * hn::Lanes(DF()); }

// ---- Micro-kernel -------------------------------------------------------------

struct TileParams {
  size_t kc;
  const float* a;  // packed A panel: kc steps of MR floats
  const float* b;  // B: kc rows of NR floats, `ldb` floats apart
  size_t ldb;
  float* c;
  size_t ldc;
  size_t cols;        // valid columns, 1..NR (the rest are padding: not stored)
  const float* bias;  // bias at the tile's first column, or null
  bool add_c;         // add C's current contents
  bool scale;         // multiply the product by alpha
  float alpha;
  bool clamp;
  float lo, hi;
  // kPrefetchNext tiles: `next_lines` cache lines from `next_b` (a share of
  // the micro-panel the task uses next), one per k-step, into L2.
  const float* next_b;
  size_t next_lines;
};

// Loads/stores of the first `count` (< Lanes) floats at p, touching no memory
// past them. Highway 1.0.3's MaskedLoad reads a whole aligned vector where
// HWY_MEM_OPS_MIGHT_FAULT (SSE4, NEON, emulation) and BlendedStore may write
// the untouched lanes back: both go through a stack buffer there.
template <class D>
HWY_INLINE hn::Vec<D> LoadFirst(D d, const float* HWY_RESTRICT p, size_t count) {
#if HWY_MEM_OPS_MIGHT_FAULT
  HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)] = {};
  std::memcpy(buf, p, count * sizeof(float));
  return hn::Load(d, buf);
#else
  return hn::MaskedLoad(hn::FirstN(d, count), d, p);
#endif
}

template <class D>
HWY_INLINE void StoreFirst(D d, hn::Vec<D> v, float* HWY_RESTRICT p, size_t count) {
#if HWY_MEM_OPS_MIGHT_FAULT
  HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, d, buf);
  std::memcpy(p, buf, count * sizeof(float));
#else
  hn::BlendedStore(v, hn::FirstN(d, count), d, p);
#endif
}

// NaN stays NaN (as relu/clamp do); x86 max/min would return the bound.
template <class D, class V>
HWY_INLINE V ClampKeepNaN(D d, V v, float lo, float hi) {
  const V clamped = hn::Min(hn::Max(v, hn::Set(d, lo)), hn::Set(d, hi));
  return hn::IfThenElse(hn::IsNaN(v), v, clamped);
}

// Epilogue of one accumulator vector: columns [col, col + N) of a C row.
template <class D, class V>
HWY_INLINE void StoreTileVector(D d, const TileParams& t, float* HWY_RESTRICT crow, size_t col, V v) {
  const size_t N = hn::Lanes(d);
  if (col >= t.cols) return;
  if (t.scale) v = hn::Mul(v, hn::Set(d, t.alpha));
  if (HWY_LIKELY(col + N <= t.cols)) {
    if (t.add_c) v = hn::Add(v, hn::LoadU(d, crow + col));
    if (t.bias) v = hn::Add(v, hn::LoadU(d, t.bias + col));
    if (t.clamp) v = ClampKeepNaN(d, v, t.lo, t.hi);
    hn::StoreU(v, d, crow + col);
  } else {
    const size_t count = t.cols - col;
    if (t.add_c) v = hn::Add(v, LoadFirst(d, crow + col, count));
    if (t.bias) v = hn::Add(v, LoadFirst(d, t.bias + col, count));
    if (t.clamp) v = ClampKeepNaN(d, v, t.lo, t.hi);
    StoreFirst(d, v, crow + col, count);
  }
}

// Accumulators are named variables, not arrays: SVE vectors are sizeless
// types that cannot live in arrays, and named variables are what the register
// allocator sees best anyway. Rows >= MR and vectors >= kNV are dead code.
#define WEBNN_GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)
#define WEBNN_GEMM_DECLARE(r) \
  [[maybe_unused]] auto c##r##_0 = hn::Zero(d), c##r##_1 = hn::Zero(d), c##r##_2 = hn::Zero(d), c##r##_3 = hn::Zero(d);
#define WEBNN_GEMM_FMA(r)                                                  \
  if constexpr (MR > r) {                                                  \
    const auto ar = hn::Set(d, ap[r]);                                     \
    c##r##_0 = hn::MulAdd(ar, b0, c##r##_0);                               \
    if constexpr (kNV > 1) c##r##_1 = hn::MulAdd(ar, b1, c##r##_1);        \
    if constexpr (kNV > 2) c##r##_2 = hn::MulAdd(ar, b2, c##r##_2);        \
    if constexpr (kNV > 3) c##r##_3 = hn::MulAdd(ar, b3, c##r##_3);        \
  }
#define WEBNN_GEMM_STORE(r)                                                       \
  if constexpr (MR > r) {                                                         \
    float* crow = t.c + r * t.ldc;                                                \
    StoreTileVector(d, t, crow, 0, c##r##_0);                                     \
    if constexpr (kNV > 1) StoreTileVector(d, t, crow, N, c##r##_1);              \
    if constexpr (kNV > 2) StoreTileVector(d, t, crow, 2 * N, c##r##_2);          \
    if constexpr (kNV > 3) StoreTileVector(d, t, crow, 3 * N, c##r##_3);          \
  }
// Both cache lines of a 32-float tile row (a second prefetch of the same line is free).
#define WEBNN_GEMM_PREFETCH_C(r)                  \
  if constexpr (MR > r) {                         \
    hwy::Prefetch(t.c + r * t.ldc);               \
    hwy::Prefetch(t.c + r * t.ldc + kNV * N - 1); \
  }

// C[0:MR, 0:cols] (op)= A panel x B micro-panel. kPrefetchB: the B
// micro-panel is cold (first A panel to use it): prefetch it ahead.
// kPrefetchNext: also bring a share of the next micro-panel into L2.
template <size_t MR, bool kPrefetchB, bool kPrefetchNext = false>
HWY_NOINLINE void Tile(const TileParams& t) {
  const DF d;
  const size_t N = hn::Lanes(d);
  WEBNN_GEMM_ROWS(WEBNN_GEMM_DECLARE)
  WEBNN_GEMM_ROWS(WEBNN_GEMM_PREFETCH_C)
  const float* HWY_RESTRICT ap = t.a;
  const float* HWY_RESTRICT bp = t.b;
  const size_t ldb = t.ldb;
  // 16 k-steps (2 KiB of a packed 32-wide panel) ahead of the loads.
  const size_t ahead = 16 * ldb;
  // Two k-steps per loop turn halve the pointer and counter updates (4 scalar
  // ops per 28 FMAs, which can take an FMA port's slot): +2 % on 128 x 896 x
  // 4864 and 480^3 (Xeon, 12 interleaved pairs, 7-8 of them won).
  HWY_UNROLL(2)
  for (size_t p = 0; p < t.kc; ++p) {
    if constexpr (kPrefetchB) {
      hwy::Prefetch(bp + ahead);
      if (kNV * N > 16) hwy::Prefetch(bp + ahead + 16);
    }
    if constexpr (kPrefetchNext) {
      if (p < t.next_lines) __builtin_prefetch(t.next_b + p * 16, 0, 2);
    }
    // Offsets of unused vectors are clamped to 0 so that the dead loads stay in bounds.
    const auto b0 = hn::LoadU(d, bp);
    [[maybe_unused]] const auto b1 = hn::LoadU(d, bp + (kNV > 1 ? N : 0));
    [[maybe_unused]] const auto b2 = hn::LoadU(d, bp + (kNV > 2 ? 2 * N : 0));
    [[maybe_unused]] const auto b3 = hn::LoadU(d, bp + (kNV > 3 ? 3 * N : 0));
    WEBNN_GEMM_ROWS(WEBNN_GEMM_FMA)
    ap += MR;
    bp += ldb;
  }
  WEBNN_GEMM_ROWS(WEBNN_GEMM_STORE)
}

#undef WEBNN_GEMM_DECLARE
#undef WEBNN_GEMM_FMA
#undef WEBNN_GEMM_STORE
#undef WEBNN_GEMM_PREFETCH_C
#undef WEBNN_GEMM_ROWS

using TileFn = void (*)(const TileParams&);
template <bool kPrefetchB, bool kPrefetchNext, size_t... I>
constexpr std::array<TileFn, sizeof...(I) + 1> MakeTileTable(std::index_sequence<I...>) {
  return {nullptr, &Tile<I + 1, kPrefetchB, kPrefetchNext>...};
}
// kTiles[h]: the kernel for a panel of h rows (1..kMR); kTilesPrefetch: the
// same, prefetching a cold B micro-panel; kTilesNext: prefetching a share of
// the next packed micro-panel.
constexpr std::array<TileFn, kMR + 1> kTiles = MakeTileTable<false, false>(std::make_index_sequence<kMR>());
constexpr std::array<TileFn, kMR + 1> kTilesPrefetch = MakeTileTable<true, false>(std::make_index_sequence<kMR>());
constexpr std::array<TileFn, kMR + 1> kTilesNext = MakeTileTable<false, true>(std::make_index_sequence<kMR>());

// ---- A packing ---------------------------------------------------------------

// Packs rows [0, h) x k-steps [0, kc) of A into dst (kc steps of h floats).
// Non-transposed: element (r, p) is a[r * lda + p]; transposed: a[p * lda + r].
// The non-transposed layout is a transpose: 4 x 4 blocks through 128-bit
// shuffles (one load and one store per 4 floats; element by element it took
// 3-5% of a 1024^3 product).
void PackAPanel(const float* HWY_RESTRICT a, size_t lda, bool transposed, size_t h, size_t kc,
                float* HWY_RESTRICT dst) {
  if (transposed) {
    for (size_t p = 0; p < kc; ++p) std::memcpy(dst + p * h, a + p * lda, h * sizeof(float));
    return;
  }
  size_t r = 0;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
  const hn::FixedTag<float, 4> d4;
  for (; r + 4 <= h; r += 4) {
    const float* HWY_RESTRICT a0 = a + r * lda;
    const float* HWY_RESTRICT a1 = a0 + lda;
    const float* HWY_RESTRICT a2 = a1 + lda;
    const float* HWY_RESTRICT a3 = a2 + lda;
    size_t p = 0;
    for (; p + 4 <= kc; p += 4) {
      if (p % 16 == 0) {  // two cache lines ahead on each of the four rows
        hwy::Prefetch(a0 + p + 64);
        hwy::Prefetch(a1 + p + 64);
        hwy::Prefetch(a2 + p + 64);
        hwy::Prefetch(a3 + p + 64);
      }
      const auto v0 = hn::LoadU(d4, a0 + p), v1 = hn::LoadU(d4, a1 + p);
      const auto v2 = hn::LoadU(d4, a2 + p), v3 = hn::LoadU(d4, a3 + p);
      const auto t0 = hn::InterleaveLower(d4, v0, v1);  // a0 b0 a1 b1
      const auto t1 = hn::InterleaveLower(d4, v2, v3);  // c0 d0 c1 d1
      const auto t2 = hn::InterleaveUpper(d4, v0, v1);  // a2 b2 a3 b3
      const auto t3 = hn::InterleaveUpper(d4, v2, v3);  // c2 d2 c3 d3
      float* HWY_RESTRICT out = dst + p * h + r;
      hn::StoreU(hn::ConcatLowerLower(d4, t1, t0), d4, out);
      hn::StoreU(hn::ConcatUpperUpper(d4, t1, t0), d4, out + h);
      hn::StoreU(hn::ConcatLowerLower(d4, t3, t2), d4, out + 2 * h);
      hn::StoreU(hn::ConcatUpperUpper(d4, t3, t2), d4, out + 3 * h);
    }
    for (; p < kc; ++p) {
      dst[p * h + r] = a0[p];
      dst[p * h + r + 1] = a1[p];
      dst[p * h + r + 2] = a2[p];
      dst[p * h + r + 3] = a3[p];
    }
  }
#endif
  for (; r < h; ++r) {
    const float* HWY_RESTRICT row = a + r * lda;
    for (size_t p = 0; p < kc; ++p) dst[p * h + r] = row[p];
  }
}

// ---- Row panels: M split into panels of at most kMR rows, heights within 1 --

struct RowPanels {
  size_t count, base, extra;  // panels; the first `extra` have base + 1 rows, the rest base
  explicit RowPanels(size_t m) : count(CeilDiv(m, kMR)), base(m / count), extra(m % count) {}
  size_t Start(size_t i) const { return i * base + std::min(i, extra); }
  size_t Height(size_t i) const { return base + (i < extra ? 1 : 0); }
};

struct GemmArgs {
  size_t m, n, k;
  const float* a;
  size_t lda;
  bool a_transposed;
  const float* panels;  // packed B (or row-major B, see b_row_stride)
  // Where panel j's k-th row of NR floats starts: panels + j * b_panel_stride +
  // k * b_row_stride. Packed: (K * NR, NR). Unpacked row-major B: (NR, ldb),
  // with the last, partial panel packed apart into `edge_panel`.
  size_t b_panel_stride, b_row_stride;
  const float* edge_panel;
  float* c;
  size_t ldc;
  const float* bias;
  bool clamp;
  float lo, hi;
  bool scale;
  float alpha;
  bool accumulate;
  // A packed beforehand (GemmPackLhsF32) for all M rows and K blocks of
  // packed_kc, or null (GemmTask packs A itself).
  const float* packed_a;
  size_t packed_kc;
  // B's micro-panels made on demand, or null (B is in `panels`).
  const GemmPanelSource* source;
};

// Points `t` at B's column panel j, K block starting at k0.
HWY_INLINE void SetTileB(const GemmArgs& g, size_t NR, size_t j, size_t k0, TileParams& t) {
  if (g.edge_panel && j + 1 == CeilDiv(g.n, NR)) {
    t.b = g.edge_panel + k0 * NR;
    t.ldb = NR;
  } else {
    t.b = g.panels + j * g.b_panel_stride + k0 * g.b_row_stride;
    t.ldb = g.b_row_stride;
  }
}

// K blocks of about kKC, balanced (K = 300 is two blocks of 150, not 256 + 44),
// each a multiple of `align` (a block the B source makes whole) when that is > 1.
HWY_INLINE size_t KBlockSize(size_t k, size_t align) {
  const size_t balanced = std::max<size_t>(1, CeilDiv(k, std::max<size_t>(1, CeilDiv(k, kKC))));
  return align > 1 ? std::min(CeilDiv(balanced, align) * align, std::max(k, size_t{1})) : balanced;
}

// Packs row panel i of A, k-steps [k0, k0 + kc), into dst.
void PackLhsPanel(const GemmArgs& g, const RowPanels& rows, size_t i, size_t k0, size_t kc, float* dst) {
  const size_t r0 = rows.Start(i);
  const float* src = g.a_transposed ? g.a + k0 * g.lda + r0 : g.a + r0 * g.lda + k0;
  PackAPanel(src, g.lda, g.a_transposed, rows.Height(i), kc, dst);
}

// Packs panels [p0, p1) of A for all of K, K block by K block, into a layout
// of `layout_rows` rows from row `layout_first`: block kb of panel i at
// dst + (kb * layout_rows + rows.Start(i) - layout_first) * kc.
void PackLhsBlocks(const GemmArgs& g, const RowPanels& rows, size_t p0, size_t p1, size_t kc, float* dst,
                   size_t layout_first, size_t layout_rows) {
  for (size_t i = p0; i < p1; ++i)
    for (size_t kb = 0, k0 = 0; k0 < g.k; ++kb, k0 += kc)
      PackLhsPanel(g, rows, i, k0, std::min(kc, g.k - k0),
                   dst + (kb * layout_rows + rows.Start(i) - layout_first) * kc);
}

// Rows of panels [p0, p1) x column panels [j0, j1).
void GemmTask(const GemmArgs& g, const RowPanels& rows, size_t p0, size_t p1, size_t j0, size_t j1) {
  const size_t NR = PanelWidth();
  const size_t kc_max = g.packed_a ? g.packed_kc : KBlockSize(g.k, 1);
  const size_t k_blocks = std::max<size_t>(1, CeilDiv(g.k, kc_max));
  // A B source fills one micro-panel here right before the A panels use it:
  // it is then read from L1 by every tile of the column.
  const memory::Scratch<float> source_panel(g.source ? kc_max * NR : 0, "gemm: a B micro-panel from its source");
  const auto make_b = [&](size_t j, size_t kb) {
    if (g.source) {
      const size_t k0 = kb * kc_max;
      g.source->fill(g.source->context, j, k0, std::min(kc_max, g.k - k0), source_panel.data());
    }
  };
  // The source's reads for the micro-panel made next: from memory they would
  // stall the fill (~5 % of a 128-row product) while the hardware prefetchers,
  // idle during the tiles, ramp up again.
  const auto prefetch_b = [&](size_t j, size_t kb) {
    if (g.source && g.source->prefetch) {
      const size_t k0 = kb * kc_max;
      g.source->prefetch(g.source->context, j, k0, std::min(kc_max, g.k - k0));
    }
  };
  TileParams t{};
  t.scale = g.scale;
  t.alpha = g.alpha;
  t.lo = g.lo;
  t.hi = g.hi;
  t.ldc = g.ldc;
  // Few rows stream packed B from memory once, front to back: the tiles of
  // the current column bring the next micro-panel (contiguous: kc rows of NR
  // floats) into L2, a share each; fetched by the first tile alone it stalls
  // that tile on memory (128 x 896 x 4864, Xeon, 1 thread: 143-156 -> 162-171
  // GFLOP/s). Not with many rows: B is then reused from the caches, and the
  // prefetches cost det's 3 x 3 convolutions 3 %.
  const size_t r_first = rows.Start(p0), task_rows = rows.Start(p1) - r_first;
  const bool few_rows = task_rows * k_blocks * kc_max * sizeof(float) <= 512 * 1024;
  const bool prefetch_next = few_rows && !g.source && g.b_row_stride == NR;
  const float* next_panel = nullptr;
  size_t next_lines = 0;
  // `next`: the micro-panel the task uses next; `after` gives the one after it.
  const auto set_next = [&](std::pair<size_t, size_t> next, const auto& after) {
    const auto [j, kb] = next;
    prefetch_b(j, kb);
    // The source's reads two micro-panels ahead too: with one ahead the
    // decoder's prefill, its weights coming from memory, was 3-7 % slower
    // at 1 thread (three ahead gained nothing more).
    const auto [j2, kb2] = after(j, kb);
    prefetch_b(j2, kb2);
    next_lines = 0;
    if (!prefetch_next || j >= j1) return;  // no next micro-panel in this task
    const size_t k0 = kb * kc_max;
    next_panel = g.panels + j * g.b_panel_stride + k0 * NR;
    next_lines = CeilDiv(std::min(kc_max, g.k - k0) * NR, 16);
  };
  // Tile q of a column of `count` tiles prefetches lines [q L / count, (q + 1) L / count).
  const auto tile = [&](size_t i, size_t kb, size_t j, const float* a_panel, bool first_of_column, size_t q,
                        size_t count) {
    const size_t k0 = kb * kc_max;
    const bool first = kb == 0;
    t.kc = std::min(kc_max, g.k - k0);
    t.add_c = !first || g.accumulate;
    t.clamp = kb + 1 == k_blocks && g.clamp;
    if (g.source) {
      t.b = source_panel.data();
      t.ldb = NR;
    } else {
      SetTileB(g, NR, j, k0, t);
    }
    t.cols = std::min(NR, g.n - j * NR);
    t.bias = first && g.bias ? g.bias + j * NR : nullptr;
    t.a = a_panel;
    t.c = g.c + rows.Start(i) * g.ldc + j * NR;
    // The first A panel to use a stored B micro-panel finds it cold.
    if (first_of_column && !g.source) {
      kTilesPrefetch[rows.Height(i)](t);
    } else if (next_lines != 0) {
      const size_t from = q * next_lines / count;
      t.next_b = next_panel + from * 16;
      t.next_lines = (q + 1) * next_lines / count - from;
      kTilesNext[rows.Height(i)](t);
    } else {
      kTiles[rows.Height(i)](t);
    }
  };

  // Few rows (A for every K fits in half of L2): pack A once for all of K and
  // run K blocks innermost, so each B panel is read front to back and all of B
  // is one sequential stream (small M is bound by streaming B).
  // A packed beforehand covers all M rows: its panels sit at their absolute rows.
  const size_t a_rows = g.packed_a ? g.m : task_rows, a_first = g.packed_a ? 0 : r_first;
  const auto a_offset = [&](size_t kb, size_t i) { return kb * a_rows * kc_max + (rows.Start(i) - a_first) * kc_max; };
  if (few_rows) {
    const memory::Scratch<float> apack_scratch(g.packed_a ? 0 : k_blocks * task_rows * kc_max, "gemm: packing A");
    const float* apack = g.packed_a;
    if (!apack) {
      PackLhsBlocks(g, rows, p0, p1, kc_max, apack_scratch.data(), r_first, task_rows);
      apack = apack_scratch.data();
    }
    // The micro-panel after (j, kb) in this order ((j1, 0) past the last).
    const auto after = [&](size_t j, size_t kb) -> std::pair<size_t, size_t> {
      if (j >= j1) return {j1, 0};
      return kb + 1 < k_blocks ? std::pair{j, kb + 1} : std::pair{j + 1, size_t{0}};
    };
    for (size_t j = j0; j < j1; ++j)
      for (size_t kb = 0; kb < k_blocks; ++kb) {
        make_b(j, kb);
        set_next(after(j, kb), after);
        for (size_t i = p0; i < p1; ++i) tile(i, kb, j, apack + a_offset(kb, i), i == p0, i - p0, p1 - p0);
      }
    return;
  }

  // Row blocks of kMC rows: the packed A block stays in L2 while every B
  // panel's K block streams by, reused from L1 by each A panel.
  const size_t panels_per_block = std::max<size_t>(1, kMC / kMR);
  const memory::Scratch<float> apack_scratch(g.packed_a ? 0 : panels_per_block * kMR * kc_max, "gemm: packing A");
  float* apack = apack_scratch.data();
  for (size_t pb = p0; pb < p1; pb += panels_per_block) {
    const size_t pe = std::min(p1, pb + panels_per_block);
    for (size_t kb = 0; kb < k_blocks; ++kb) {
      const size_t k0 = kb * kc_max, kc = std::min(kc_max, g.k - k0);
      const auto a_panel = [&](size_t i) -> const float* {
        return g.packed_a ? g.packed_a + a_offset(kb, i) : apack + (rows.Start(i) - rows.Start(pb)) * kc_max;
      };
      for (size_t i = pb; !g.packed_a && i < pe; ++i)
        PackLhsPanel(g, rows, i, k0, kc, apack + (rows.Start(i) - rows.Start(pb)) * kc_max);
      const auto after = [&](size_t j, size_t kb) -> std::pair<size_t, size_t> {
        if (j >= j1) return {j1, 0};
        if (j + 1 < j1) return {j + 1, kb};
        if (kb + 1 < k_blocks) return {j0, kb + 1};
        return {pe < p1 ? j0 : j1, 0};  // the next row block's first, or past the last
      };
      for (size_t j = j0; j < j1; ++j) {
        make_b(j, kb);
        set_next(after(j, kb), after);
        for (size_t i = pb; i < pe; ++i) tile(i, kb, j, a_panel(i), i == pb, i - pb, pe - pb);
      }
    }
  }
}

// M = 1: y = x B over packed panels [j0, j1). Memory-bound (every B element is
// used once): one pass over each panel (the NR floats of a k-step are one or
// two whole cache lines) and two k-phases of accumulators so the FMA chains
// never wait. The panels are one contiguous stream, which the hardware
// prefetchers follow best alone: a software prefetch 512 B - 2 KiB ahead
// halved the throughput on Zen4 (29 -> 16 GB/s).
void GemvPanels(const GemmArgs& g, const float* x, size_t j0, size_t j1) {
  const DF d;
  const size_t N = hn::Lanes(d);
  const size_t NR = PanelWidth();
  TileParams t{};
  t.add_c = g.accumulate;
  t.scale = g.scale;
  t.alpha = g.alpha;
  t.clamp = g.clamp;
  t.lo = g.lo;
  t.hi = g.hi;
  for (size_t j = j0; j < j1; ++j) {
    const float* HWY_RESTRICT bp = g.panels + j * g.k * NR;
    const size_t o1 = kNV > 1 ? N : 0, o2 = kNV > 2 ? 2 * N : 0, o3 = kNV > 3 ? 3 * N : 0;
    auto s00 = hn::Zero(d), s01 = hn::Zero(d), s02 = hn::Zero(d), s03 = hn::Zero(d);
    auto s10 = hn::Zero(d), s11 = hn::Zero(d), s12 = hn::Zero(d), s13 = hn::Zero(d);
    size_t p = 0;
    for (; p + 2 <= g.k; p += 2) {
      const float* HWY_RESTRICT r0 = bp + p * NR;
      const float* HWY_RESTRICT r1 = r0 + NR;
      const auto x0 = hn::Set(d, x[p]), x1 = hn::Set(d, x[p + 1]);
      s00 = hn::MulAdd(x0, hn::LoadU(d, r0), s00);
      s10 = hn::MulAdd(x1, hn::LoadU(d, r1), s10);
      if constexpr (kNV > 1) {
        s01 = hn::MulAdd(x0, hn::LoadU(d, r0 + o1), s01);
        s11 = hn::MulAdd(x1, hn::LoadU(d, r1 + o1), s11);
      }
      if constexpr (kNV > 2) {
        s02 = hn::MulAdd(x0, hn::LoadU(d, r0 + o2), s02);
        s12 = hn::MulAdd(x1, hn::LoadU(d, r1 + o2), s12);
      }
      if constexpr (kNV > 3) {
        s03 = hn::MulAdd(x0, hn::LoadU(d, r0 + o3), s03);
        s13 = hn::MulAdd(x1, hn::LoadU(d, r1 + o3), s13);
      }
    }
    if (p < g.k) {
      const float* HWY_RESTRICT r0 = bp + p * NR;
      const auto x0 = hn::Set(d, x[p]);
      s00 = hn::MulAdd(x0, hn::LoadU(d, r0), s00);
      if constexpr (kNV > 1) s01 = hn::MulAdd(x0, hn::LoadU(d, r0 + o1), s01);
      if constexpr (kNV > 2) s02 = hn::MulAdd(x0, hn::LoadU(d, r0 + o2), s02);
      if constexpr (kNV > 3) s03 = hn::MulAdd(x0, hn::LoadU(d, r0 + o3), s03);
    }
    t.cols = std::min(NR, g.n - j * NR);
    t.bias = g.bias ? g.bias + j * NR : nullptr;
    float* y = g.c + j * NR;
    StoreTileVector(d, t, y, 0, hn::Add(s00, s10));
    if constexpr (kNV > 1) StoreTileVector(d, t, y, N, hn::Add(s01, s11));
    if constexpr (kNV > 2) StoreTileVector(d, t, y, 2 * N, hn::Add(s02, s12));
    if constexpr (kNV > 3) StoreTileVector(d, t, y, 3 * N, hn::Add(s03, s13));
  }
}

// ---- GEMV straight from an unpacked B ----------------------------------------

// y[j0:j1) = x B[:, j0:j1) for row-major B, j1 - j0 <= kGemvChunk: the chunk
// of y (16 KiB) stays in L1 while B streams by in row runs of up to 16 KiB,
// four rows at a time (4 FMAs per load/store of y). Long sequential runs are
// what the hardware prefetchers need: 8-vector column strips at a 16 KiB row
// stride ran at a third of this bandwidth (K = N = 4096 on Zen4).
constexpr size_t kGemvChunk = 4096;

void GemvRowMajorColumns(const GemmArgs& g, const float* x, const float* b, size_t ldb, size_t j0, size_t j1) {
  const DF d;
  const size_t N = hn::Lanes(d);
  HWY_ALIGN float y[kGemvChunk + HWY_MAX_BYTES / sizeof(float)];
  const size_t cols = j1 - j0;
  const size_t full = cols / N * N;  // columns in whole vectors
  for (size_t v = 0; v < cols; v += N) hn::Store(hn::Zero(d), d, y + v);
  size_t p = 0;
  for (; p + 4 <= g.k; p += 4) {
    const float* HWY_RESTRICT r0 = b + p * ldb + j0;
    const float* HWY_RESTRICT r1 = r0 + ldb;
    const float* HWY_RESTRICT r2 = r1 + ldb;
    const float* HWY_RESTRICT r3 = r2 + ldb;
    const auto x0 = hn::Set(d, x[p]), x1 = hn::Set(d, x[p + 1]), x2 = hn::Set(d, x[p + 2]), x3 = hn::Set(d, x[p + 3]);
    size_t v = 0;
    for (; v < full; v += N) {
      auto acc = hn::MulAdd(x0, hn::LoadU(d, r0 + v), hn::Load(d, y + v));
      acc = hn::MulAdd(x1, hn::LoadU(d, r1 + v), acc);
      acc = hn::MulAdd(x2, hn::LoadU(d, r2 + v), acc);
      hn::Store(hn::MulAdd(x3, hn::LoadU(d, r3 + v), acc), d, y + v);
    }
    if (v < cols) {
      const size_t n = cols - v;
      auto acc = hn::MulAdd(x0, LoadFirst(d, r0 + v, n), hn::Load(d, y + v));
      acc = hn::MulAdd(x1, LoadFirst(d, r1 + v, n), acc);
      acc = hn::MulAdd(x2, LoadFirst(d, r2 + v, n), acc);
      hn::Store(hn::MulAdd(x3, LoadFirst(d, r3 + v, n), acc), d, y + v);
    }
  }
  for (; p < g.k; ++p) {
    const float* HWY_RESTRICT r0 = b + p * ldb + j0;
    const auto x0 = hn::Set(d, x[p]);
    size_t v = 0;
    for (; v < full; v += N) hn::Store(hn::MulAdd(x0, hn::LoadU(d, r0 + v), hn::Load(d, y + v)), d, y + v);
    if (v < cols) hn::Store(hn::MulAdd(x0, LoadFirst(d, r0 + v, cols - v), hn::Load(d, y + v)), d, y + v);
  }
  TileParams t{};
  t.add_c = g.accumulate;
  t.scale = g.scale;
  t.alpha = g.alpha;
  t.clamp = g.clamp;
  t.lo = g.lo;
  t.hi = g.hi;
  t.cols = cols;
  t.bias = g.bias ? g.bias + j0 : nullptr;
  for (size_t v = 0; v < cols; v += N) StoreTileVector(d, t, g.c + j0, v, hn::Load(d, y + v));
}

// y[j0:j1) = x B for B given transposed (row j of bt is column j of B): dot
// products, four rows at a time.
void GemvTransposedRows(const GemmArgs& g, const float* x, const float* bt, size_t ldb, size_t j0, size_t j1) {
  const DF d;
  const size_t N = hn::Lanes(d);
  const size_t k = g.k;
  const auto finish = [&](size_t j, float sum) {
    if (g.scale) sum *= g.alpha;
    if (g.accumulate) sum += g.c[j];
    if (g.bias) sum += g.bias[j];
    if (g.clamp && !(sum != sum)) sum = std::min(std::max(sum, g.lo), g.hi);
    g.c[j] = sum;
  };
  size_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const float* r0 = bt + j * ldb;
    const float* r1 = r0 + ldb;
    const float* r2 = r1 + ldb;
    const float* r3 = r2 + ldb;
    auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d), s3 = hn::Zero(d);
    size_t p = 0;
    for (; p + N <= k; p += N) {
      const auto xv = hn::LoadU(d, x + p);
      s0 = hn::MulAdd(xv, hn::LoadU(d, r0 + p), s0);
      s1 = hn::MulAdd(xv, hn::LoadU(d, r1 + p), s1);
      s2 = hn::MulAdd(xv, hn::LoadU(d, r2 + p), s2);
      s3 = hn::MulAdd(xv, hn::LoadU(d, r3 + p), s3);
    }
    if (p < k) {
      const auto xv = LoadFirst(d, x + p, k - p);
      s0 = hn::MulAdd(xv, LoadFirst(d, r0 + p, k - p), s0);
      s1 = hn::MulAdd(xv, LoadFirst(d, r1 + p, k - p), s1);
      s2 = hn::MulAdd(xv, LoadFirst(d, r2 + p, k - p), s2);
      s3 = hn::MulAdd(xv, LoadFirst(d, r3 + p, k - p), s3);
    }
    finish(j, hn::GetLane(hn::SumOfLanes(d, s0)));
    finish(j + 1, hn::GetLane(hn::SumOfLanes(d, s1)));
    finish(j + 2, hn::GetLane(hn::SumOfLanes(d, s2)));
    finish(j + 3, hn::GetLane(hn::SumOfLanes(d, s3)));
  }
  for (; j < j1; ++j) {
    const float* r0 = bt + j * ldb;
    auto s0 = hn::Zero(d);
    size_t p = 0;
    for (; p + N <= k; p += N) s0 = hn::MulAdd(hn::LoadU(d, x + p), hn::LoadU(d, r0 + p), s0);
    if (p < k) s0 = hn::MulAdd(LoadFirst(d, x + p, k - p), LoadFirst(d, r0 + p, k - p), s0);
    finish(j, hn::GetLane(hn::SumOfLanes(d, s0)));
  }
}

// y = x B for one row x, B row-major or transposed, split over threads.
void GemvSplit(const GemmArgs& g, const float* x, const float* b, size_t ldb, bool b_transposed,
               core::ParallelFor& parallel) {
  const size_t threads = 2.0 * g.n * g.k < 1e6 ? 1 : parallel.NumThreads();
  if (b_transposed) {
    const size_t grain = std::max<size_t>(4, 32768 / std::max<size_t>(g.k, 1));
    if (threads == 1) return GemvTransposedRows(g, x, b, ldb, 0, g.n);
    parallel.Run(g.n, grain, [&](size_t j0, size_t j1) { GemvTransposedRows(g, x, b, ldb, j0, j1); });
    return;
  }
  // Column chunks of at most kGemvChunk, at least one per thread.
  const size_t N = hn::Lanes(DF());
  const size_t width = std::min(kGemvChunk, CeilDiv(CeilDiv(g.n, threads), N) * N);
  const size_t chunks = CeilDiv(g.n, width);
  const auto body = [&](size_t c0, size_t c1) {
    for (size_t c = c0; c < c1; ++c) GemvRowMajorColumns(g, x, b, ldb, c * width, std::min(g.n, (c + 1) * width));
  };
  if (threads == 1) return body(0, chunks);
  parallel.Run(chunks, 1, body);
}

void GemmPackedImpl(const GemmArgs& g, core::ParallelFor& parallel) {
  const size_t NR = PanelWidth();
  const size_t col_panels = CeilDiv(g.n, NR);
  // Below ~1 MFLOP (~10 us) a second thread costs more than it saves.
  const double flops = 2.0 * static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.k);
  const size_t threads = flops < 1e6 ? 1 : std::max<size_t>(1, parallel.NumThreads());

  if (g.m == 1) {  // (packed B only: unpacked M = 1 goes to GemvUnpackedF32)
    const float* x = g.a;
    const memory::Scratch<float> xs(g.a_transposed && g.lda != 1 ? g.k : 0, "gemm: a strided row of A");
    if (xs.size()) {
      for (size_t p = 0; p < g.k; ++p) xs[p] = g.a[p * g.lda];
      x = xs.data();
    }
    // Chunks of >= 256 KiB of B per thread wake-up.
    const size_t grain = std::max<size_t>(1, (64 * 1024) / std::max<size_t>(1, g.k * NR));
    if (threads == 1) return GemvPanels(g, x, 0, col_panels);
    parallel.Run(col_panels, grain, [&](size_t b, size_t e) { GemvPanels(g, x, b, e); });
    return;
  }

  if (g.n == 1 && g.ldc == 1) {
    // A times one column: dot products with A's rows (GEMV over A^T's rows
    // when transposed); tiles would waste NR - 1 of every NR lanes. The bias
    // (one value) and the clamp follow in a pass over the M results.
    const memory::Scratch<float> column(g.k, "gemm: B's column");
    const float* first = g.edge_panel ? g.edge_panel : g.panels;  // panel 0, rows NR apart
    for (size_t p = 0; p < g.k; ++p) column[p] = first[p * NR];
    GemmArgs h = g;
    h.n = g.m;
    h.bias = nullptr;
    h.clamp = false;
    GemvSplit(h, column.data(), g.a, g.lda, !g.a_transposed, parallel);
    if (g.bias || g.clamp) {
      for (size_t i = 0; i < g.m; ++i) {
        float v = g.c[i];
        if (g.bias) v += g.bias[0];
        if (g.clamp && !(v != v)) v = std::min(std::max(v, g.lo), g.hi);
        g.c[i] = v;
      }
    }
    return;
  }

  const RowPanels rows(g.m);
  // One task per thread: rows when there are enough row panels to keep every
  // thread's A block big (each thread then streams all of B from L3), else
  // columns (each thread streams its share of B: small M is bound by B's bandwidth).
  size_t row_tasks = std::min(threads, std::max<size_t>(1, rows.count / 4));
  while (threads % row_tasks) --row_tasks;
  const size_t col_tasks = std::min(col_panels, threads / row_tasks);
  // Long products split their rows further, so that tasks run about half a
  // millisecond (core::kFastFlopsPerChunk) and latency work can take the cores
  // between them; but each extra row task streams its B share again, so a task
  // keeps at least kMinTaskPanels row panels (112 rows on AVX-512: 56 flops
  // per byte of B), and very long products get longer tasks (4096^3 at 2
  // threads: ~20 ms). With tasks of core::kFlopsPerChunk and of single row
  // panels, each streamed all of B for 14 rows (Xeon, 2 threads: 1024^3
  // 276-298 GFLOP/s, 4096^3 178-185; now 346-358 and 281-294).
  constexpr size_t kMinTaskPanels = 8;
  if (threads > 1) {
    const double per_task = flops / static_cast<double>(row_tasks * col_tasks);
    const size_t split = std::min<size_t>(std::max<size_t>(1, rows.count / row_tasks / kMinTaskPanels),
                                          static_cast<size_t>(std::ceil(per_task / core::kFastFlopsPerChunk)));
    row_tasks *= std::max<size_t>(1, split);
  }
  const size_t tasks = row_tasks * col_tasks;
  auto run = [&](size_t task) {
    const size_t rt = task / col_tasks, ct = task % col_tasks;
    GemmTask(g, rows, rows.count * rt / row_tasks, rows.count * (rt + 1) / row_tasks, col_panels * ct / col_tasks,
             col_panels * (ct + 1) / col_tasks);
  };
  if (tasks == 1) return run(0);
  parallel.Run(tasks, 1, [&](size_t b, size_t e) {
    for (size_t task = b; task < e; ++task) run(task);
  });
}

// What happens to C: bias, clamp, alpha scaling, accumulation onto C.
void SetOutputOps(GemmArgs& g, const GemmEpilogue& epilogue, float alpha, bool accumulate) {
  g.bias = epilogue.bias;
  g.lo = epilogue.min;
  g.hi = epilogue.max;
  g.clamp = g.lo > -std::numeric_limits<float>::infinity() || g.hi < std::numeric_limits<float>::infinity();
  g.alpha = alpha;
  g.scale = alpha != 1.0f;
  g.accumulate = accumulate;
}

void GemmPackedF32(size_t m, size_t n, size_t k, const float* a, size_t lda, bool a_transposed, const float* panels,
                   float* c, size_t ldc, const GemmEpilogue* epilogue, float alpha, bool accumulate,
                   core::ParallelFor* parallel) {
  GemmArgs g{};
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.lda = lda;
  g.a_transposed = a_transposed;
  g.panels = panels;
  g.b_panel_stride = k * PanelWidth();
  g.b_row_stride = PanelWidth();
  g.c = c;
  g.ldc = ldc;
  SetOutputOps(g, *epilogue, alpha, accumulate);
  GemmPackedImpl(g, *parallel);
}

// Rows of B a page or more apart: a micro-panel read in place spans kc pages
// (256 at kKC), four times the L1 DTLB, and every A panel of the row block
// walks them again. Then each micro-panel is copied into an L1 buffer right
// before its tiles (GemmPanelSource) instead. Matmul with B an input, median
// kernel times over 4 interleaved rounds (Xeon), 1 / 2 threads: 128 x 4096 x
// 4096 -10 % / -17 %, 64 x 4096 x 4096 -10 %, 256 x 2048 x 2048 -15 % / -16 %,
// 128 x 1024 x 1024 -6 % / -7 %, 512 x 64 x 2048 -7 %. With rows 768-960
// floats apart copying measured +6 % to -5 %, at 480-512 within 2 %: those
// stay in place.
constexpr size_t kCopyPanelsFromStride = 4096 / sizeof(float);

struct InPlaceB {
  const GemmArgs* g;
};
void CopyPanelFromB(const void* context, size_t j, size_t k0, size_t kc, float* dst) {
  const GemmArgs& g = *static_cast<const InPlaceB*>(context)->g;
  const size_t NR = PanelWidth();
  TileParams t{};
  SetTileB(g, NR, j, k0, t);
  for (size_t p = 0; p < kc; ++p) std::memcpy(dst + p * NR, t.b + p * t.ldb, NR * sizeof(float));
}

// Row-major B not packed, M <= 512: the tiles read B in place with its row
// stride (B micro-panels then come from L2 rather than L1, which costs less
// than packing: ~20 / M of the product at 20 GB/s and 100 GFLOP/s), or from a
// copy of each micro-panel where B's rows are far apart
// (kCopyPanelsFromStride). Only the last, partial panel is copied
// (zero-padded) beforehand, so no load runs past B.
void GemmSmallMUnpackedF32(size_t m, size_t n, size_t k, const float* a, size_t lda, bool a_transposed,
                           const float* b, size_t ldb, float* c, size_t ldc, const GemmEpilogue* epilogue,
                           float alpha, bool accumulate, core::ParallelFor* parallel) {
  const size_t NR = PanelWidth();
  GemmArgs g{};
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.lda = lda;
  g.a_transposed = a_transposed;
  g.panels = b;
  g.b_panel_stride = NR;
  g.b_row_stride = ldb;
  const memory::Scratch<float> edge(n % NR ? k * NR : 0, 0.0f, "gemm: B's last, partial panel");
  if (n % NR) {
    const size_t c0 = n / NR * NR;
    for (size_t p = 0; p < k; ++p) std::memcpy(edge.data() + p * NR, b + p * ldb + c0, (n - c0) * sizeof(float));
    g.edge_panel = edge.data();
  }
  g.c = c;
  g.ldc = ldc;
  SetOutputOps(g, *epilogue, alpha, accumulate);
  const InPlaceB in_place{&g};
  const GemmPanelSource copy{&CopyPanelFromB, &in_place};
  if (ldb >= kCopyPanelsFromStride) g.source = &copy;
  GemmPackedImpl(g, *parallel);
}

void GemvUnpackedF32(size_t n, size_t k, const float* a, size_t lda, bool a_transposed, const float* b, size_t ldb,
                     bool b_transposed, float* c, const GemmEpilogue* epilogue, float alpha, bool accumulate,
                     core::ParallelFor* parallel) {
  GemmArgs g{};
  g.m = 1;
  g.n = n;
  g.k = k;
  g.c = c;
  SetOutputOps(g, *epilogue, alpha, accumulate);
  const float* x = a;
  const memory::Scratch<float> xs(a_transposed && lda != 1 ? k : 0, "gemm: a strided row of A");
  if (xs.size()) {
    for (size_t p = 0; p < k; ++p) xs[p] = a[p * lda];
    x = xs.data();
  }
  GemvSplit(g, x, b, ldb, b_transposed, *parallel);
}

// ---- Workspace -----------------------------------------------------------------

// The scratch (memory::Scratch) of a product, in floats: what the calling
// thread takes (`caller`) and what each task takes to pack A (`task`), for
// this product and every smaller one (a graph's maximum shapes declare for
// the shapes it runs with).
void GemmScratchFloats(size_t m, size_t n, size_t k, bool b_packed, bool b_transposed, size_t* caller, size_t* task) {
  const size_t NR = PanelWidth();
  *caller = 0;
  *task = 0;
  if (m == 0 || n == 0) return;
  // A strided row of A (M = 1) or B's column (N = 1), then for B not packed
  // its last, partial panel (M <= 512, read in place) or all of it packed.
  *caller = ScratchFloats(k);
  if (!b_packed)
    *caller += b_transposed || m > 512 ? ScratchFloats(CeilDiv(n, NR) * k * NR) : ScratchFloats(k * NR);
  // GemmTask packs all of a task's K at once when that fits in 512 KiB
  // (k_blocks * kc_max < k + k_blocks), else a block of kMC rows at a time.
  const size_t k_blocks = std::max<size_t>(1, CeilDiv(k, kKC));
  const size_t all_at_once = m * (k + k_blocks);
  const size_t block = std::max<size_t>(1, kMC / kMR) * kMR * kKC;
  *task = ScratchFloats(std::min(all_at_once, std::max<size_t>(512 * 1024 / sizeof(float), block)));
  // B read in place may be copied one micro-panel at a time (the leading
  // dimension is not known here: kCopyPanelsFromStride).
  if (!b_packed && !b_transposed && m <= 512) *task += ScratchFloats(kKC * NR);
}

// ---- A packed once, B from a source (GemmF32Sourced) ------------------------------

void LhsLayoutExport(size_t m, size_t k, size_t k_align, PackedLhs* layout) {
  const size_t kc = KBlockSize(k, k_align);
  layout->m = m;
  layout->k = k;
  layout->kc = kc;
  layout->panel_rows = kMR;
  layout->floats = m * std::max<size_t>(1, CeilDiv(k, kc)) * kc;
  layout->data = nullptr;
}

// Row panels [p0, p1) of A into the layout (the panels sit at their rows).
void PackLhsExport(const PackedLhs* layout, const float* a, size_t lda, float* dst, size_t p0, size_t p1) {
  GemmArgs g{};
  g.m = layout->m;
  g.k = layout->k;
  g.a = a;
  g.lda = lda;
  PackLhsBlocks(g, RowPanels(g.m), p0, p1, layout->kc, dst, 0, g.m);
}

void GemmSourcedExport(const PackedLhs* a, size_t n, const GemmPanelSource* source, float* c, size_t ldc,
                       const GemmEpilogue* epilogue) {
  GemmArgs g{};
  g.m = a->m;
  g.n = n;
  g.k = a->k;
  g.packed_a = a->data;
  g.packed_kc = a->kc;
  g.source = source;
  g.c = c;
  g.ldc = ldc;
  SetOutputOps(g, *epilogue, 1.0f, false);
  const RowPanels rows(g.m);
  GemmTask(g, rows, 0, rows.count, 0, CeilDiv(n, PanelWidth()));
}

// ---- B packing ---------------------------------------------------------------

size_t PanelWidthExport() { return PanelWidth(); }

// out[q * out_stride + r] = in[r * in_stride + q] for q, r < 4: four
// 16-byte loads, four interleaves, four concatenations, four stores.
HWY_INLINE void Transpose4x4(const float* HWY_RESTRICT in, size_t in_stride, float* HWY_RESTRICT out,
                             size_t out_stride) {
#if HWY_TARGET == HWY_SCALAR  // one lane: no 128-bit vectors
  for (size_t q = 0; q < 4; ++q)
    for (size_t r = 0; r < 4; ++r) out[q * out_stride + r] = in[r * in_stride + q];
#else
  const hn::FixedTag<float, 4> d4;
  const auto r0 = hn::LoadU(d4, in), r1 = hn::LoadU(d4, in + in_stride);
  const auto r2 = hn::LoadU(d4, in + 2 * in_stride), r3 = hn::LoadU(d4, in + 3 * in_stride);
  const auto t0 = hn::InterleaveLower(d4, r0, r1), t1 = hn::InterleaveLower(d4, r2, r3);  // a0 b0 a1 b1, c0 d0 c1 d1
  const auto t2 = hn::InterleaveUpper(d4, r0, r1), t3 = hn::InterleaveUpper(d4, r2, r3);  // a2 b2 a3 b3, c2 d2 c3 d3
  hn::StoreU(hn::ConcatLowerLower(d4, t1, t0), d4, out);
  hn::StoreU(hn::ConcatUpperUpper(d4, t1, t0), d4, out + out_stride);
  hn::StoreU(hn::ConcatLowerLower(d4, t3, t2), d4, out + 2 * out_stride);
  hn::StoreU(hn::ConcatUpperUpper(d4, t3, t2), d4, out + 3 * out_stride);
#endif
}

// Packs column panels [j0, j1) of B into `panels`.
void PackBPanels(const float* b, size_t k, size_t n, size_t ldb, bool transposed, float* panels, size_t j0, size_t j1) {
  const size_t NR = PanelWidth();
  for (size_t j = j0; j < j1; ++j) {
    float* HWY_RESTRICT dst = panels + j * k * NR;
    const size_t c0 = j * NR;
    const size_t cols = std::min(NR, n - c0);
    if (cols < NR) std::fill(dst, dst + k * NR, 0.0f);
    if (!transposed) {
      for (size_t p = 0; p < k; ++p) std::memcpy(dst + p * NR, b + p * ldb + c0, cols * sizeof(float));
      continue;
    }
    // B^T rows are B columns: 4 x 4 blocks (4 k of 4 columns) transposed in
    // 128-bit registers, so both sides move in 16-byte runs; the last columns
    // and k one at a time.
    const size_t cols4 = cols & ~size_t{3}, k4 = k & ~size_t{3};
    for (size_t c = 0; c < cols4; c += 4) {
      const float* HWY_RESTRICT src = b + (c0 + c) * ldb;
      for (size_t p = 0; p < k4; p += 4) Transpose4x4(src + p, ldb, dst + p * NR + c, NR);
      for (size_t p = k4; p < k; ++p)
        for (size_t q = 0; q < 4; ++q) dst[p * NR + c + q] = src[q * ldb + p];
    }
    for (size_t c = cols4; c < cols; ++c)
      for (size_t p = 0; p < k; ++p) dst[p * NR + c] = b[(c0 + c) * ldb + p];
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(PanelWidthExport);
HWY_EXPORT(PackBPanels);
HWY_EXPORT(GemmPackedF32);
HWY_EXPORT(GemvUnpackedF32);
HWY_EXPORT(GemmSmallMUnpackedF32);
HWY_EXPORT(GemmScratchFloats);
HWY_EXPORT(LhsLayoutExport);
HWY_EXPORT(PackLhsExport);
HWY_EXPORT(GemmSourcedExport);

namespace {

class SerialParallel final : public core::ParallelFor {
 public:
  void Run(size_t n, size_t, const std::function<void(size_t, size_t)>& body) override {
    if (n) body(0, n);
  }
  size_t NumThreads() const override { return 1; }
};

// Allocates panels for B [k, n] aligned to 64 bytes.
PackedB AllocatePacked(size_t k, size_t n) {
  PackedB p;
  p.k = k;
  p.n = n;
  p.panel_width = GemmPanelWidth();
  const size_t panels = gemm_detail::CeilDiv(n, p.panel_width);
  p.data.resize(panels * k * p.panel_width + 16);
  const uintptr_t addr = reinterpret_cast<uintptr_t>(p.data.data());
  p.offset = ((64 - addr % 64) % 64) / sizeof(float);
  return p;
}

void PackInto(PackedB& p, const float* b, size_t ldb, bool transposed, core::ParallelFor& parallel) {
  float* panels = p.data.data() + p.offset;
  const size_t count = gemm_detail::CeilDiv(p.n, p.panel_width);
  const size_t grain = std::max<size_t>(1, 32768 / std::max<size_t>(1, p.k * p.panel_width));
  parallel.Run(count, grain, [&](size_t j0, size_t j1) {
    HWY_DYNAMIC_DISPATCH(PackBPanels)(b, p.k, p.n, ldb, transposed, panels, j0, j1);
  });
}

void CheckPacked(const PackedB& b, size_t n, size_t k) {
  if (b.k != k || b.n != n || b.panel_width != GemmPanelWidth())
    throw std::logic_error("GemmF32: packed B does not match the product's shape or this CPU's kernels");
}

}  // namespace

// Not cached: the dispatched target can change (tests iterate over targets),
// and PackedB records the width it was packed for.
size_t GemmPanelWidth() { return HWY_DYNAMIC_DISPATCH(PanelWidthExport)(); }

PackedB PackB(const float* b, size_t k, size_t n, size_t ldb, bool transposed, core::ParallelFor& parallel) {
  PackedB p = AllocatePacked(k, n);
  PackInto(p, b, ldb, transposed, parallel);
  return p;
}

PackedB PackB(const float* b, size_t k, size_t n, size_t ldb, bool transposed) {
  SerialParallel serial;
  return PackB(b, k, n, ldb, transposed, serial);
}

PackedB PackBF16(const uint16_t* b, size_t k, size_t n, size_t ldb, bool transposed, core::ParallelFor& parallel) {
  // Widen row by row into a dense float32 copy, then pack that.
  const size_t rows = transposed ? n : k, cols = transposed ? k : n;
  const memory::Charge charge = memory::ChargeRunMemory(rows * cols * sizeof(float), "gemm: float16 B widened to pack");
  std::vector<float> wide(rows * cols);
  parallel.Run(rows, std::max<size_t>(1, 32768 / std::max<size_t>(cols, 1)), [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; ++r) ConvertF16ToF32(b + r * ldb, wide.data() + r * cols, cols);
  });
  return PackB(wide.data(), k, n, cols, transposed, parallel);
}

void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const PackedB& b, float* c, size_t ldc,
             const GemmEpilogue& epilogue, const GemmOptions& options, core::ParallelFor& parallel) {
  if (m == 0 || n == 0) return;
  CheckPacked(b, n, k);
  HWY_DYNAMIC_DISPATCH(GemmPackedF32)(m, n, k, a, lda, options.a_transposed, b.panels(), c, ldc, &epilogue,
                                      options.alpha, options.accumulate, &parallel);
}

PackedLhs GemmLhsLayout(size_t m, size_t k, size_t k_align) {
  PackedLhs layout;
  HWY_DYNAMIC_DISPATCH(LhsLayoutExport)(m, k, k_align, &layout);
  return layout;
}

namespace {
// A packed for other kernels than the ones running now (tests switch targets).
void CheckLhsLayout(const PackedLhs& a) {
  PackedLhs now;
  HWY_DYNAMIC_DISPATCH(LhsLayoutExport)(a.m, a.k, 1, &now);
  if (now.panel_rows != a.panel_rows)
    throw std::logic_error("GemmF32Sourced: A was packed for another CPU target's kernels");
}
}  // namespace

PackedLhs GemmPackLhsF32(const PackedLhs& layout, const float* a, size_t lda, float* dst,
                         core::ParallelFor& parallel) {
  CheckLhsLayout(layout);
  // Row panels split over the threads, at least ~64 KiB of A each.
  const size_t panels = gemm_detail::CeilDiv(layout.m, layout.panel_rows);
  const size_t grain = std::max<size_t>(1, 16384 / std::max<size_t>(1, layout.panel_rows * layout.k));
  parallel.Run(panels, grain,
               [&](size_t p0, size_t p1) { HWY_DYNAMIC_DISPATCH(PackLhsExport)(&layout, a, lda, dst, p0, p1); });
  PackedLhs packed = layout;
  packed.data = dst;
  return packed;
}

void GemmF32Sourced(const PackedLhs& a, size_t n, const GemmPanelSource& b, float* c, size_t ldc,
                    const GemmEpilogue& epilogue) {
  if (a.m == 0 || n == 0) return;
  CheckLhsLayout(a);
  HWY_DYNAMIC_DISPATCH(GemmSourcedExport)(&a, n, &b, c, ldc, &epilogue);
}

void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const PackedB& b, float* c, size_t ldc,
             const GemmEpilogue& epilogue, core::ParallelFor& parallel) {
  GemmF32(m, n, k, a, lda, b, c, ldc, epilogue, GemmOptions{}, parallel);
}

void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb, bool b_transposed,
             float* c, size_t ldc, const GemmEpilogue& epilogue, const GemmOptions& options,
             core::ParallelFor& parallel) {
  if (m == 0 || n == 0) return;
  if (m == 1) {
    HWY_DYNAMIC_DISPATCH(GemvUnpackedF32)(n, k, a, lda, options.a_transposed, b, ldb, b_transposed, c, &epilogue,
                                          options.alpha, options.accumulate, &parallel);
    return;
  }
  // Row-major B up to M = 512: the tiles read B in place. Packing costs about
  // 20 / M of the product (K = N = 4096, Zen4: M = 16 ran at 44 vs 18 GFLOP/s
  // packed per dispatch, M = 512 at 95 vs 90); by M = 1024 the two are even.
  if (!b_transposed && m <= 512) {
    HWY_DYNAMIC_DISPATCH(GemmSmallMUnpackedF32)(m, n, k, a, lda, options.a_transposed, b, ldb, c, ldc, &epilogue,
                                                options.alpha, options.accumulate, &parallel);
    return;
  }
  // Packing reads and writes B once: small next to the 2*M*N*K flops for M > 1.
  const size_t width = GemmPanelWidth();
  const size_t panels = gemm_detail::CeilDiv(n, width);
  const memory::Scratch<float> packed(panels * k * width, "gemm: packing B");
  const size_t grain = std::max<size_t>(1, 32768 / std::max<size_t>(1, k * width));
  parallel.Run(panels, grain, [&](size_t j0, size_t j1) {
    HWY_DYNAMIC_DISPATCH(PackBPanels)(b, k, n, ldb, b_transposed, packed.data(), j0, j1);
  });
  HWY_DYNAMIC_DISPATCH(GemmPackedF32)(m, n, k, a, lda, options.a_transposed, packed.data(), c, ldc, &epilogue,
                                      options.alpha, options.accumulate, &parallel);
}

void AddGemmWorkspace(memory::WorkspaceSize& workspace, size_t m, size_t n, size_t k, bool b_packed,
                      bool b_transposed, bool in_body) {
  size_t caller = 0, task = 0;
  HWY_DYNAMIC_DISPATCH(GemmScratchFloats)(m, n, k, b_packed, b_transposed, &caller, &task);
  if (in_body) workspace.AddPerWorker<float>(caller + task);
  else workspace.AddShared<float>(caller), workspace.AddPerWorker<float>(task);
}

void AddGemmSourcedWorkspace(memory::WorkspaceSize& workspace, const PackedLhs& layout) {
  workspace.AddPerWorker<float>(layout.kc * GemmPanelWidth());
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
