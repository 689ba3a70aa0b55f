// cpu kernels of conv2d: float32, and float16 computed in float32.
//
// The filter (and bias) is packed once, at prepare, into the panel layout of
// the micro-kernel the convolution will run (conv_kernels-inl.h); a filter
// that is not a constant is packed on every dispatch instead. Paths:
//  - depthwise (groups == input channels == output channels):
//      nchw: DepthwiseRowsNchw, blocks of 4 output rows x vectors along the
//            width, over a zero-padded (and for strides, phase-split) copy of
//            each channel plane made in cache; 3x3 and 5x5 at strides 1
//            and 2 unrolled (DepthwiseFixed: 3 rows x up to 5 vectors);
//      nhwc: DepthwiseNhwcRow, vectors along channels, a sliding window along
//            the row for kernel widths 3 and 5 at horizontal stride 1 or 2.
//  - everything else:
//      nchw: DirectNchw, MR output channels x NV vectors of output pixels,
//            reading the input in place at stride 1 (1x1 convolutions are
//            then a plain GEMM over the input planes; padding taps are
//            masked-off loads on AVX2/AVX-512), else from a padded/phase-
//            split copy (per band of rows for wide rows, as a network's
//            stem); small output planes (deep layers: 14x14, 7x7) instead go
//            through nhwc and IgemmNhwc (kIgemmNchw), the output transposed
//            back by each thread as it is computed;
//      nhwc: IgemmNhwc over an indirection buffer (1x1 stride 1 included:
//            one pointer per pixel; few input channels: a filter row's taps
//            merged into one longer reduction). Its tile is chosen per layer
//            (ChooseIgemmTile) and, on AVX-512, per host: half-width tiles
//            are weighed by the measured cost of 8-lane against 16-lane
//            FMAs; thin layers (<= 16 output channels, <= 12 channels per
//            tap) take the tall tile, a tap's filter held in registers.
// Which path and tile (ConvPlan) a layer takes is the built-in model's
// choice above unless a tuning table (`webnn tune`, ops/cpu/tuning.h),
// measured on this machine, names another of the layer's candidates.
// Padding: the reference multiplies the filter by zeros there, so NaN or
// infinite weights on padding taps give NaN. Every path does the same (a
// zero-filled copy, a zero buffer or zero loads) unless the whole filter is
// finite: then IgemmNhwc skips the taps that are padding for every pixel of
// a tile, and DirectNchw in place for every lane (0 * w adds nothing). On
// 14x14 3x3 layers that is 5% of the work.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/conv2d.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/conv_kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {

void Conv2dTiling(size_t* out) { ConvTilingImpl(out); }
void Conv2dIgemmNhwc(const conv::IgemmParams& p) { IgemmNhwcImpl(p); }
bool Conv2dIgemmExtraTiles() { return IgemmExtraTilesImpl(); }
double Conv2dHalfVectorFmaCost() { return HalfVectorFmaCostImpl(); }
bool Conv2dDirectInPlace() { return DirectInPlaceImpl(); }
void Conv2dDirectNchw(const conv::DirectParams& p) { DirectNchwImpl(p); }
void Conv2dDepthwiseNhwcRow(const conv::DepthwiseNhwcParams& p) { DepthwiseNhwcRowImpl(p); }
void Conv2dDepthwiseRowsNchw(const conv::DepthwiseRowsParams& p) { DepthwiseRowsNchwImpl(p); }
void Conv2dDeinterleave2(const float* in, float* even, float* odd, size_t n) { Deinterleave2Impl(in, even, odd, n); }
void Conv2dTransposeBlock(const float* src, size_t ss, float* dst, size_t ds, size_t r0, size_t r1, size_t c0,
                       size_t c1) {
  TransposeBlockImpl(src, ss, dst, ds, r0, r1, c0, c1);
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <limits>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/strings.h"
#include "memory/workspace.h"
#include "ops/conv2d.h"
#include "ops/device.h"
#include "ops/cpu/activation.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/tuning.h"

namespace webnn::ops::cpu {

HWY_EXPORT(Conv2dTiling);
HWY_EXPORT(Conv2dIgemmNhwc);
HWY_EXPORT(Conv2dIgemmExtraTiles);
HWY_EXPORT(Conv2dHalfVectorFmaCost);
HWY_EXPORT(Conv2dDirectInPlace);
HWY_EXPORT(Conv2dDirectNchw);
HWY_EXPORT(Conv2dDepthwiseNhwcRow);
HWY_EXPORT(Conv2dDepthwiseRowsNchw);
HWY_EXPORT(Conv2dDeinterleave2);
HWY_EXPORT(Conv2dTransposeBlock);

namespace {

struct Tiling {
  size_t lanes, igemm_max_nv, direct_max_mr, igemm_mr;
  size_t direct_nv[9];  // DirectNchw's vectors per tile, by MR
  bool igemm_extra_tiles;  // IgemmNhwc's conv::kIgemmWide and conv::kIgemmHalf tiles exist
  bool direct_in_place;    // DirectNchw can read padding in place (conv::DirectParams::tap_dy)
  // A half tile's lanes cost relative to full ones: 1 where 8-lane FMAs issue
  // twice as often as 16-lane ones (expected on Zen 4), 2 where both issue at
  // one rate (measured on an Intel Xeon). Measured (HalfVectorFmaCostImpl), then rounded to one or
  // the other so that a noisy start-up cannot pick something in between.
  double half_lane_cost = 1;
};

const Tiling& GetTiling() {
  static const Tiling t = [] {
    size_t o[8];
    HWY_DYNAMIC_DISPATCH(Conv2dTiling)(o);
    Tiling r{o[0], o[1], o[2], o[3], {}, HWY_DYNAMIC_DISPATCH(Conv2dIgemmExtraTiles)(),
             HWY_DYNAMIC_DISPATCH(Conv2dDirectInPlace)()};
    // WEBNN_CONV_HALF_LANE_COST=1|2 replaces the measurement: the test suite
    // runs the conv2d tests with 1 too, so that every host runs the half
    // tiles that a Zen 4 would choose.
    const char* env = std::getenv("WEBNN_CONV_HALF_LANE_COST");
    if (env && (std::string_view(env) == "1" || std::string_view(env) == "2")) r.half_lane_cost = env[0] - '0';
    else if (r.igemm_extra_tiles) r.half_lane_cost = HWY_DYNAMIC_DISPATCH(Conv2dHalfVectorFmaCost)() > 0.75 ? 2 : 1;
    r.direct_nv[1] = o[4], r.direct_nv[2] = o[5], r.direct_nv[4] = o[6], r.direct_nv[8] = o[7];
    return r;
  }();
  return t;
}

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }
size_t CeilDiv(size_t x, size_t m) { return (x + m - 1) / m; }

// kIgemmNchw: nchw input transposed to nhwc around IgemmNhwc, for small
// output planes where DirectNchw's vectors along pixels would be mostly empty
// (14x14, 7x7: deep layers), while IgemmNhwc's vectors run along channels.
// 1x1 stride-1 nhwc convolutions run IgemmNhwc too (one pointer per pixel):
// measured against the shared GEMM core (GemmF32 with the filter PackB'ed at
// prepare) on ResNet-50's 1x1 256->64 at 56x56, IgemmNhwc did ~105 GFLOP/s
// per core and GemmF32 86-94 (it packs A, the whole input, per call).
enum class Path { kDepthwiseNchw, kDepthwiseNhwc, kDirectNchw, kIgemmNhwc, kIgemmNchw };

// The filter (and bias) in the order one path's micro-kernel reads them.
struct PackedFilter {
  Path path;
  uint32_t out_channels = 0, in_per_group = 0, kernel_h = 0, kernel_w = 0, groups = 0;
  size_t block = 0;         // IgemmNhwc: vectors per block (nv); DirectNchw: rows per block (mr)
  size_t igemm_variant = 0, igemm_mr = 0;  // IgemmNhwc: tile variant and its pixels per tile
  bool finite = false;      // every weight is finite: padding taps may be skipped
  size_t group_stride = 0;  // floats of `weights` per group
  size_t bias_stride = 0;   // floats of a packed bias per group
  std::vector<float> weights;
};

struct Conv2dPrepared {
  std::optional<PackedFilter> filter;
  std::optional<std::vector<float>> bias;  // packed for filter's path
};

// Few input channels: each tap is a short reduction, and per-tap pointer
// loads dominate; merging a filter row's taps makes reductions kw times longer.
struct IgemmTaps {
  bool merge;
  size_t ptaps, pcin;  // pointers per pixel, channels per pointer
  explicit IgemmTaps(const Conv2dGeometry& g) {
    const size_t cin_g = g.in_channels / g.groups;
    merge = g.groups == 1 && g.dilation_w == 1 && g.kernel_w > 1 && size_t{g.kernel_w} * cin_g <= 64;
    ptaps = merge ? g.kernel_h : size_t{g.kernel_h} * g.kernel_w;
    pcin = merge ? size_t{g.kernel_w} * cin_g : cin_g;
  }
};

// An IgemmNhwc tile: `mr` pixels x `nv` vectors of `lanes` channels.
struct IgemmTile {
  size_t variant, mr, nv, lanes;
  size_t channels() const { return nv * lanes; }
};

// Share of the FMA throughput a tile's inner loop gets, from its accumulator
// count: 24-28 hide the FMA latency with broadcasts to spare; 16 (8 x 32)
// measured ~5% slower on Zen 4; 8 leave one broadcast per FMA. A half-width
// tile's lanes cost Tiling::half_lane_cost full ones: the same on Zen 4 (two
// 256-bit FMAs issue per cycle where one 512-bit does), twice as much where
// 512-bit FMAs issue at full rate.
double IgemmTileSpeed(const IgemmTile& tile, const Tiling& t) {
  if (tile.variant == conv::kIgemmTall) return 1.0;  // its filter is in registers: one load per FMA
  const size_t acc = tile.mr * tile.nv;
  const double speed = acc >= 24 ? 1.0 : acc >= 16 ? 0.95 : acc >= 12 ? 0.9 : 0.8;
  return tile.variant == conv::kIgemmHalf ? speed / t.half_lane_cost : speed;
}

// Share of a tile's lanes that compute real outputs, times its speed.
double IgemmTileEfficiency(const IgemmTile& tile, size_t pixels, size_t cout_g, const Tiling& t) {
  return double(pixels) / double(RoundUp(pixels, tile.mr)) * double(cout_g) /
         double(RoundUp(cout_g, tile.channels())) * IgemmTileSpeed(tile, t);
}

// The IgemmNhwc tiles for `pixels` output pixels, `cout_g` output channels
// per group and `pcin` channels per tap (IgemmTaps): the default tiles
// (kIgemmMR pixels x 1..igemm_max_nv vectors), plus on AVX-512 the wide and
// half tiles, and the tall one for at most one vector of output channels and
// a tap's filter that fits in registers.
std::vector<IgemmTile> IgemmTileCandidates(size_t cout_g, size_t pcin, const Tiling& t) {
  std::vector<IgemmTile> candidates;
  for (size_t nv = t.igemm_max_nv; nv >= 1; --nv) candidates.push_back({0, t.igemm_mr, nv, t.lanes});
  if (t.igemm_extra_tiles) {
    candidates.push_back({conv::kIgemmWide, 7, 4, t.lanes});
    for (size_t nv = 3; nv >= 1; --nv) candidates.push_back({conv::kIgemmHalf, 8, nv, t.lanes / 2});
    if (pcin <= conv::kIgemmTallMaxCin && cout_g <= t.lanes)
      candidates.push_back({conv::kIgemmTall, conv::kIgemmTallMR, 1, t.lanes});
  }
  return candidates;
}

// The model's tile: the most efficient candidate, ties going to the default
// tiles and then to the wider one.
IgemmTile ChooseIgemmTile(size_t pixels, size_t cout_g, size_t pcin, const Tiling& t) {
  const std::vector<IgemmTile> candidates = IgemmTileCandidates(cout_g, pcin, t);
  IgemmTile best = candidates[0];
  double best_eff = IgemmTileEfficiency(best, pixels, cout_g, t);
  for (const IgemmTile& c : candidates) {
    const double eff = IgemmTileEfficiency(c, pixels, cout_g, t);
    if (eff > best_eff * 1.001) best = c, best_eff = eff;
  }
  return best;
}

// The smallest of 1, 2, 4, 8 rows per DirectNchw block covering the group's
// output channels, at most the target's maximum: the tallest block worth
// measuring (PlanCandidates).
size_t CoveringDirectMr(size_t cout_g, const Tiling& t) {
  size_t mr = 1;
  while (mr < cout_g && mr < t.direct_max_mr) mr *= 2;
  return mr;
}

// The model's rows per DirectNchw block: of 2 up to the covering height, the
// one with the best share of computed rows that are real output channels
// times its tile's speed (by accumulators, as IgemmTileSpeed), ties to the
// taller. Taking the covering height whatever it wasted ran PP-OCR det's
// 48 -> 12 1x1 at 160x160 as 8 + 8 rows for 12; `webnn tune` measured the
// 2-row tile 2.4x faster there, and the 4-row one 30% faster for 192 -> 42
// (Xeon): both waste no row. 1-row blocks (a broadcast per FMA, load-bound)
// only where one row covers.
size_t ChooseDirectMr(size_t cout_g, const Tiling& t) {
  const size_t covering = CoveringDirectMr(cout_g, t);
  size_t best = covering;
  double best_score = 0;
  for (size_t mr = covering; mr >= 2; mr /= 2) {
    const size_t acc = mr * t.direct_nv[mr];
    const double speed = acc >= 24 ? 1.0 : acc >= 16 ? 0.95 : acc >= 12 ? 0.9 : 0.8;
    const double score = double(cout_g) / double(RoundUp(cout_g, mr)) * speed;
    if (score > best_score * 1.001) best = mr, best_score = score;
  }
  return best;
}

// Padded (and, for strides > 1, phase-split) copy of one H x W plane: phase
// (py, px) holds padded rows py, py + sh, ... and columns px, px + sw, ...
// as an hq x wq plane, zero where the padded input has no data.
// At horizontal stride 1, rows share up to min(pl, pr, (kw - 1) * dw)
// padding columns: a row is pl zeros, the W values, then zeros up to wq, and
// the rest of its right padding is read from the next row's left padding.
// Every DirectNchw q-space row then computes fewer dropped columns (ResNet's
// 56-wide 3x3: 57 against 58 per 56 outputs). The last row's right padding
// reads `slack()` floats past the last plane: a buffer of planes ends with
// that many zeros.
struct PhaseLayout {
  size_t hp, wp, hq, wq, sh, sw, pt, pl;
  // Horizontal stride 2: phase px's rows start shift[px] floats into its
  // plane, and planes are plane_pad floats longer than their rows (see
  // DepthwisePhaseLayout); 0 elsewhere.
  size_t shift[2] = {0, 0};
  size_t plane_pad = 0;
  size_t plane() const { return hq * wq + plane_pad; }
  size_t channel() const { return sh * sw * plane(); }
  size_t slack() const { return sw == 1 ? wp - wq : 0; }
};

// Scratch for `planes` floats of phase planes and the slack after them
// (zeroed); none for no planes.
struct PhasePlanes {
  memory::Scratch<float> buf;
  PhasePlanes(size_t planes, const PhaseLayout& l)
      : buf(planes ? planes + l.slack() : 0, "conv2d: padded input planes") {
    std::fill(buf.begin() + planes, buf.end(), 0.0f);
  }
  float* data() const { return buf.data(); }
};

PhaseLayout MakePhaseLayout(const Conv2dGeometry& g) {
  PhaseLayout l{};
  l.hp = size_t{g.in_h} + g.pad_top + g.pad_bottom;
  l.wp = size_t{g.in_w} + g.pad_left + g.pad_right;
  l.sh = g.stride_h;
  l.sw = g.stride_w;
  l.hq = CeilDiv(l.hp, l.sh);
  // Shared padding columns (stride 1): at most the kernel's extent past its
  // first column, so that output columns stay within the row (ow <= wq).
  const size_t shared = std::min<size_t>({g.pad_left, g.pad_right, (size_t{g.kernel_w} - 1) * g.dilation_w});
  l.wq = l.sw == 1 ? l.wp - shared : CeilDiv(l.wp, l.sw);
  l.pt = g.pad_top;
  l.pl = g.pad_left;
  return l;
}

bool UseRowMode(size_t ow, size_t wq, size_t lanes);

// RunDepthwiseNchw's phase planes: at horizontal strides above 1, rows a
// multiple of 16 floats apart, and at stride 2 each phase's first input
// column on a 64-byte boundary (its rows shifted by up to 15 floats), so that
// the deinterleave's 64-byte stores each fill one cache line. PP-OCR det's 32
// x 320 x 320 3x3 stride 2, 1 thread, Xeon: 1.55 ms with padding 1 (a row
// pitch of 161 floats, one phase's columns from index 1) or 2, 0.93 ms
// unpadded (pitch 160, both phases from index 0); an aligned pitch alone took
// padding 1 to 1.19 ms.
PhaseLayout DepthwisePhaseLayout(const Conv2dGeometry& g) {
  PhaseLayout l = MakePhaseLayout(g);
  if (l.sw > 1) l.wq = RoundUp(l.wq, 16);
  if (l.sw == 2) {
    // As BuildPhasePlanes writes them: even input columns to phase pl % 2
    // from index pl / 2, odd ones to the other phase from (pl + 1) / 2.
    const size_t odd = l.pl % 2, first[2] = {l.pl / 2, (l.pl + 1) / 2};
    l.shift[odd] = (16 - first[0] % 16) % 16;
    l.shift[1 - odd] = (16 - first[1] % 16) % 16;
    l.plane_pad = 16;
  }
  return l;
}

// Whether DirectNchw reads the input planes as they are, with a q-space pitch
// of the input width: at stride 1 when the output is no wider than the input
// (so its rows fit the pitch), without padding or where the target's masked
// loads read the padding taps as zeros in place. Otherwise it makes padded
// (phase-split) copies of the planes.
bool DirectInPlace(const Conv2dGeometry& g, const Tiling& t) {
  const bool padded = g.pad_top || g.pad_bottom || g.pad_left || g.pad_right;
  return g.stride_h == 1 && g.stride_w == 1 && g.out_w <= g.in_w && (!padded || t.direct_in_place);
}

// Share of computed lanes that are real outputs, for DirectNchw and for
// IgemmNhwc; IgemmNhwc's also counts its tile's speed (IgemmTileSpeed) and is
// discounted for the two transposes (0.95).
double DirectEfficiency(const Conv2dGeometry& g, const Tiling& t, size_t mr) {
  const size_t wq = DirectInPlace(g, t) ? g.in_w : MakePhaseLayout(g).wq;
  const size_t ow = g.out_w;
  if (UseRowMode(ow, wq, t.lanes)) return double(ow) / double(RoundUp(ow, t.lanes));
  const size_t q = (size_t{g.out_h} - 1) * wq + ow;
  const size_t tw = t.direct_nv[mr] * t.lanes;
  const size_t cout_g = g.out_channels / g.groups;
  return double(size_t{g.out_h} * ow) / double(RoundUp(q, tw)) * double(cout_g) / double(RoundUp(cout_g, mr));
}

double IgemmEfficiency(const Conv2dGeometry& g, const Tiling& t) {
  const size_t pixels = size_t{g.batch} * g.out_h * g.out_w;
  const size_t cout_g = g.out_channels / g.groups;
  // Without the tall tile (SIZE_MAX channels per tap): which path an nchw
  // layer takes was measured before it existed.
  return 0.95 * IgemmTileEfficiency(ChooseIgemmTile(pixels, cout_g, SIZE_MAX, t), pixels, cout_g, t);
}

Path ChoosePath(const Conv2dAttrs& attrs, const Conv2dGeometry& g) {
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  if (g.groups == g.in_channels && g.out_channels == g.groups) return nhwc ? Path::kDepthwiseNhwc : Path::kDepthwiseNchw;
  if (nhwc) return Path::kIgemmNhwc;
  const Tiling& t = GetTiling();
  const size_t mr = ChooseDirectMr(g.out_channels / g.groups, t);
  return IgemmEfficiency(g, t) > DirectEfficiency(g, t, mr) ? Path::kIgemmNchw : Path::kDirectNchw;
}

// One way to run a convolution: its path and, for DirectNchw, the output
// channels per block, for IgemmNhwc and IgemmNchw, the tile. The model above
// picks one (ModelPlan); kernel tuning (ops/cpu/tuning.h) names the others a
// layer could take and measures them, and a tuning table's choice replaces
// the model's for the layers it names (ChoosePlan).
struct ConvPlan {
  Path path;
  size_t direct_mr = 0;
  IgemmTile tile{};

  std::string Name(const Tiling& t) const {
    const char* variant[] = {"std", "wide", "half", "tall"};
    switch (path) {
      case Path::kDepthwiseNchw: return "depthwise-nchw";
      case Path::kDepthwiseNhwc: return "depthwise-nhwc";
      case Path::kDirectNchw:
        return core::StrCat("direct-nchw ", direct_mr, "ch*", t.direct_nv[direct_mr] * t.lanes, "px");
      case Path::kIgemmNhwc:
      case Path::kIgemmNchw:
        return core::StrCat(path == Path::kIgemmNhwc ? "igemm-nhwc " : "igemm-nchw ", variant[tile.variant], " ",
                            tile.mr, "px*", tile.channels(), "ch");
    }
    return "";
  }
};

ConvPlan ModelPlan(const Conv2dAttrs& attrs, const Conv2dGeometry& g) {
  const Tiling& t = GetTiling();
  const size_t cout_g = g.out_channels / g.groups;
  ConvPlan plan{ChoosePath(attrs, g)};
  if (plan.path == Path::kDirectNchw) plan.direct_mr = ChooseDirectMr(cout_g, t);
  if (plan.path == Path::kIgemmNhwc || plan.path == Path::kIgemmNchw)
    plan.tile = ChooseIgemmTile(size_t{g.batch} * g.out_h * g.out_w, cout_g, IgemmTaps(g).pcin, t);
  return plan;
}

// The plans worth measuring for a layer, the model's first: every DirectNchw
// block height up to the one that covers the group's output channels (nchw),
// and every implicit-GEMM tile whose share of useful lanes (by the model's
// reckoning) is at least half the best one's. Depthwise layers have one path
// per layout.
std::vector<ConvPlan> PlanCandidates(const Conv2dAttrs& attrs, const Conv2dGeometry& g) {
  const Tiling& t = GetTiling();
  std::vector<ConvPlan> plans = {ModelPlan(attrs, g)};
  const auto add = [&](const ConvPlan& p) {
    for (const ConvPlan& q : plans)
      if (q.Name(t) == p.Name(t)) return;
    plans.push_back(p);
  };
  if (plans[0].path == Path::kDepthwiseNchw || plans[0].path == Path::kDepthwiseNhwc) return plans;
  const size_t cout_g = g.out_channels / g.groups;
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  if (!nhwc)
    for (size_t mr = 1; mr <= CoveringDirectMr(cout_g, t); mr *= 2) add({Path::kDirectNchw, mr});
  const size_t pixels = size_t{g.batch} * g.out_h * g.out_w;
  const std::vector<IgemmTile> tiles = IgemmTileCandidates(cout_g, IgemmTaps(g).pcin, t);
  double best = 0;
  for (const IgemmTile& tile : tiles) best = std::max(best, IgemmTileEfficiency(tile, pixels, cout_g, t));
  for (const IgemmTile& tile : tiles)
    if (IgemmTileEfficiency(tile, pixels, cout_g, t) >= 0.5 * best)
      add({nhwc ? Path::kIgemmNhwc : Path::kIgemmNchw, 0, tile});
  return plans;
}

std::string TuningKey(const Conv2dAttrs& attrs, const Conv2dGeometry& g) {
  return core::StrCat("conv2d ", attrs.inputLayout == MLInputOperandLayout::kNhwc ? "nhwc " : "nchw ", g.batch, "x",
                      g.in_channels, "x", g.in_h, "x", g.in_w, " -> ", g.out_channels, " k", g.kernel_h, "x",
                      g.kernel_w, " g", g.groups, " s", g.stride_h, ",", g.stride_w, " d", g.dilation_h, ",",
                      g.dilation_w, " p", g.pad_top, ",", g.pad_bottom, ",", g.pad_left, ",", g.pad_right);
}

// The tuning table's plan for this layer when it names one of the layer's
// candidates on this target, else the model's.
ConvPlan ChoosePlan(const Conv2dAttrs& attrs, const Conv2dGeometry& g) {
  const std::shared_ptr<const TuningTable> table = CurrentTuningTable();
  if (table) {
    const auto it = table->choices.find(TuningKey(attrs, g));
    if (it != table->choices.end())
      for (const ConvPlan& p : PlanCandidates(attrs, g))
        if (p.Name(GetTiling()) == it->second) return p;
  }
  return ModelPlan(attrs, g);
}

// Reads filter element (o, i, ky, kx) of any layout as float.
class FilterReader {
 public:
  FilterReader(const TensorView& f, MLConv2dFilterOperandLayout layout, uint32_t o, uint32_t i, uint32_t kh,
               uint32_t kw)
      : f_(f), layout_(layout), o_(o), i_(i), kh_(kh), kw_(kw) {}
  float operator()(uint64_t o, uint64_t i, uint64_t ky, uint64_t kx) const {
    uint64_t k = 0;
    switch (layout_) {
      case MLConv2dFilterOperandLayout::kOihw: k = ((o * i_ + i) * kh_ + ky) * kw_ + kx; break;
      case MLConv2dFilterOperandLayout::kHwio: k = ((ky * kw_ + kx) * i_ + i) * o_ + o; break;
      case MLConv2dFilterOperandLayout::kOhwi: k = ((o * kh_ + ky) * kw_ + kx) * i_ + i; break;
      case MLConv2dFilterOperandLayout::kIhwo: k = ((i * kh_ + ky) * kw_ + kx) * o_ + o; break;
    }
    if (f_.type == DataType::kFloat16) return core::HalfBitsToFloat(f_.as<uint16_t>()[k]);
    return f_.as<float>()[k];
  }

 private:
  const TensorView& f_;
  MLConv2dFilterOperandLayout layout_;
  uint64_t o_, i_, kh_, kw_;
};

// `g`: the geometry with the input's (maximum) shape, to choose the path.
PackedFilter PackFilter(const Conv2dAttrs& attrs, const TensorView& filter, const Conv2dGeometry& g) {
  // Filter dims from the layout (input shape does not matter here).
  const std::vector<uint32_t>& s = filter.shape;
  uint32_t o = 0, i = 0, kh = 0, kw = 0;
  switch (attrs.filterLayout) {
    case MLConv2dFilterOperandLayout::kOihw: o = s[0], i = s[1], kh = s[2], kw = s[3]; break;
    case MLConv2dFilterOperandLayout::kHwio: kh = s[0], kw = s[1], i = s[2], o = s[3]; break;
    case MLConv2dFilterOperandLayout::kOhwi: o = s[0], kh = s[1], kw = s[2], i = s[3]; break;
    case MLConv2dFilterOperandLayout::kIhwo: i = s[0], kh = s[1], kw = s[2], o = s[3]; break;
  }
  const Tiling& t = GetTiling();
  PackedFilter p;
  p.out_channels = o;
  p.in_per_group = i;
  p.kernel_h = kh;
  p.kernel_w = kw;
  p.groups = attrs.groups;
  const ConvPlan plan = ChoosePlan(attrs, g);
  p.path = plan.path;
  const FilterReader w(filter, attrs.filterLayout, o, i, kh, kw);
  const size_t taps = size_t{kh} * kw;
  const size_t groups = attrs.groups;
  const size_t cout_g = o / groups;
  switch (p.path) {
    case Path::kDepthwiseNchw:  // [c][tap]
      p.block = 1;
      p.group_stride = taps;
      p.bias_stride = 1;
      p.weights.resize(size_t{o} * taps);
      for (size_t c = 0; c < o; ++c)
        for (size_t ky = 0; ky < kh; ++ky)
          for (size_t kx = 0; kx < kw; ++kx) p.weights[c * taps + ky * kw + kx] = w(c, 0, ky, kx);
      break;
    case Path::kDepthwiseNhwc: {  // [tap][cp]
      const size_t cp = RoundUp(o, t.lanes);
      p.block = cp;
      p.weights.assign(taps * cp, 0.0f);
      for (size_t ky = 0; ky < kh; ++ky)
        for (size_t kx = 0; kx < kw; ++kx)
          for (size_t c = 0; c < o; ++c) p.weights[(ky * kw + kx) * cp + c] = w(c, 0, ky, kx);
      p.bias_stride = cp;
      break;
    }
    case Path::kDirectNchw: {  // [group][block][tap][ci][mr]
      const size_t mr = plan.direct_mr;
      const size_t blocks = CeilDiv(cout_g, mr);
      const size_t kdepth = i * taps;
      p.block = mr;
      p.group_stride = blocks * kdepth * mr;
      p.bias_stride = blocks * mr;
      p.weights.assign(groups * p.group_stride, 0.0f);
      for (size_t g = 0; g < groups; ++g)
        for (size_t co = 0; co < cout_g; ++co) {
          float* dst = p.weights.data() + g * p.group_stride + (co / mr) * kdepth * mr + co % mr;
          for (size_t ky = 0; ky < kh; ++ky)
            for (size_t kx = 0; kx < kw; ++kx)
              for (size_t ci = 0; ci < i; ++ci) dst[((ky * kw + kx) * i + ci) * mr] = w(g * cout_g + co, ci, ky, kx);
        }
      break;
    }
    case Path::kIgemmNhwc:
    case Path::kIgemmNchw: {  // [group][block][tap][ci][nb]
      const IgemmTile& tile = plan.tile;
      const size_t nb = tile.channels();
      const size_t blocks = CeilDiv(cout_g, nb);
      const size_t kdepth = taps * i;
      p.block = tile.nv;
      p.igemm_variant = tile.variant;
      p.igemm_mr = tile.mr;
      p.group_stride = blocks * kdepth * nb;
      p.bias_stride = blocks * nb;
      p.weights.assign(groups * p.group_stride, 0.0f);
      for (size_t g = 0; g < groups; ++g)
        for (size_t co = 0; co < cout_g; ++co) {
          float* dst = p.weights.data() + g * p.group_stride + (co / nb) * kdepth * nb + co % nb;
          for (size_t ky = 0; ky < kh; ++ky)
            for (size_t kx = 0; kx < kw; ++kx)
              for (size_t ci = 0; ci < i; ++ci) dst[((ky * kw + kx) * i + ci) * nb] = w(g * cout_g + co, ci, ky, kx);
        }
      break;
    }
  }
  // Subnormal weights as signed zeros (FloatBehaviour::float32_denormal_filters):
  // measured on PP-OCR rec's 480 -> 120 SE conv (22% subnormal weights) on a
  // Xeon, 1.1 ms -> 0.01 ms.
  for (float& v : p.weights)
    if (std::fpclassify(v) == FP_SUBNORMAL) v = std::copysign(0.0f, v);
  p.finite = std::all_of(p.weights.begin(), p.weights.end(), [](float v) { return std::isfinite(v); });
  return p;
}

// Bias per group, zero-padded to the filter's blocks.
std::vector<float> PackBias(const PackedFilter& p, const TensorView& bias) {
  const size_t groups = p.path == Path::kDepthwiseNchw ? p.out_channels : p.path == Path::kDepthwiseNhwc ? 1 : p.groups;
  const size_t per_group = p.out_channels / groups;
  std::vector<float> out(groups * p.bias_stride, 0.0f);
  for (size_t g = 0; g < groups; ++g)
    for (size_t c = 0; c < per_group; ++c) {
      const size_t k = g * per_group + c;
      out[g * p.bias_stride + c] =
          bias.type == DataType::kFloat16 ? core::HalfBitsToFloat(bias.as<uint16_t>()[k]) : bias.as<float>()[k];
    }
  return out;
}

memory::WorkspaceSize Conv2dWorkspace(const Conv2dAttrs& attrs, const Conv2dGeometry& g, const PackedFilter* pf,
                                      bool exact, bool f16, uint64_t input_elements, uint64_t output_elements);

std::shared_ptr<const void> PrepareConv2d(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<Conv2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& filter = ctx.inputs[1];
  const Conv2dGeometry g = ComputeConv2dGeometry(attrs, input.shape, filter.shape);
  const bool f16 = input.type == DataType::kFloat16;
  const uint64_t out_elements = ctx.outputs[0].elements();
  if (!filter.present()) {  // not a constant: packed per dispatch
    ctx.workspace = Conv2dWorkspace(attrs, g, nullptr, ctx.static_shapes, f16, input.elements(), out_elements);
    return nullptr;
  }
  auto prepared = std::make_shared<Conv2dPrepared>();
  prepared->filter = PackFilter(attrs, filter, g);
  ctx.workspace =
      Conv2dWorkspace(attrs, g, &*prepared->filter, ctx.static_shapes, f16, input.elements(), out_elements);
  if (const TensorView* bias = OptionalInput(ctx.inputs, 2))
    prepared->bias = PackBias(*prepared->filter, *bias);
  ctx.prepared_bytes += prepared->filter->weights.capacity() * sizeof(float) +
                        (prepared->bias ? prepared->bias->capacity() * sizeof(float) : 0);
  // RunConv2d reads the filter's shape only. (Not the bias: its presence in
  // the inputs says whether there is one.)
  ctx.packed_inputs |= 1u << 1;
  return prepared;
}

// Work split: core::ChunksForFlops (about 4 chunks per thread, none longer
// than about half a millisecond at the tiles' GEMM-like rate, one chunk below
// ~100K flops). Chunks of core::kFlopsPerChunk (~60 us here) each streamed
// their share of the filter again: PP-OCR at 2 threads, 3 interleaved runs,
// det 31.1-32.6 -> 30.3-31.4 ms, rec 7.54-8.33 -> 7.25-7.52 ms (Xeon).
size_t ChunkCount(double flops, size_t max_chunks, size_t threads) {
  return core::ChunksForFlops(flops, max_chunks, threads, core::kFastFlopsPerChunk);
}

// A fused activation the kernels apply in registers as they store: relu and
// clamp (a clamp of the accumulator, NaN kept), hardSwish, and the post affine
// map after them. Other activations run over the finished output
// (ApplyFusedActivation); `in_registers` says which.
conv::Epilogue EpilogueFor(const std::optional<FusedActivation>& act, bool* in_registers) {
  conv::Epilogue ep;
  *in_registers = !act;
  if (!act || (act->op != OpKind::relu && act->op != OpKind::clamp && act->op != OpKind::hardSwish)) return ep;
  *in_registers = true;
  if (act->op == OpKind::hardSwish) {
    ep.hard_swish = true;
  } else {
    const ActivationF32 bounds = MakeActivationF32(act->op, act->attrs);
    ep.clamp = true;
    ep.lo = act->op == OpKind::relu ? 0.0f : bounds.min_value;
    ep.hi = act->op == OpKind::relu ? std::numeric_limits<float>::infinity() : bounds.max_value;
  }
  ep.affine = act->HasPostAffine();
  ep.scale = static_cast<float>(act->post_scale);
  ep.shift = static_cast<float>(act->post_shift);
  return ep;
}

// The hardSwish / affine part of `ep` over a block the depthwise kernels (which
// only clamp in registers) just wrote, while it is still in cache.
void ApplyEpilogueAfter(const conv::Epilogue& ep, float* out, size_t n) {
  if (ep.hard_swish) {
    ActivationF32 hs;
    hs.op = OpKind::hardSwish;
    ApplyActivationF32(hs, out, n);
  }
  if (ep.affine) {
    ActivationF32 affine;
    affine.op = OpKind::linear;
    affine.alpha = ep.scale;
    affine.beta = ep.shift;
    ApplyActivationF32(affine, out, n);
  }
}

// Phase rows [i0, i0 + l.hq) (a band when i0 > 0 or l.hq is short of the
// plane's), as an l.hq-row plane per phase. `borders_ready`: `out` already
// holds this layout's zeros (the last call built the same layout), so only
// the input's own values are written (strides 1 and 2). `row`: RowFloats(l)
// floats of scratch.
size_t RowFloats(const PhaseLayout& l) { return l.sw > 2 ? l.wq * l.sw : 0; }
void BuildPhasePlanes(const float* in, size_t h, size_t w, const PhaseLayout& l, float* out, float* row,
                      size_t i0 = 0, bool borders_ready = false) {
  for (size_t rr = 0; rr < l.hq * l.sh; ++rr) {
    const size_t py = rr % l.sh, i = rr / l.sh;
    const size_t r = (i0 + i) * l.sh + py;  // padded row
    const bool inside = r >= l.pt && r - l.pt < h;
    if (l.sw == 1) {
      float* dst = out + (py * l.hq + i) * l.wq;
      if (!inside) {
        if (!borders_ready) std::fill(dst, dst + l.wq, 0.0f);
        continue;
      }
      if (!borders_ready) std::fill(dst, dst + l.pl, 0.0f);
      std::memcpy(dst + l.pl, in + (r - l.pt) * w, w * sizeof(float));
      if (!borders_ready) std::fill(dst + l.pl + w, dst + l.wq, 0.0f);
      continue;
    }
    if (l.sw == 2) {
      // Input column x is padded column x + pl: phase (x + pl) % 2, index (x + pl) / 2.
      float* ph[2] = {out + py * 2 * l.plane() + l.shift[0] + i * l.wq,
                      out + (py * 2 + 1) * l.plane() + l.shift[1] + i * l.wq};
      if (!inside) {
        if (borders_ready) continue;
        std::fill(ph[0], ph[0] + l.wq, 0.0f);
        std::fill(ph[1], ph[1] + l.wq, 0.0f);
        continue;
      }
      const float* src = in + (r - l.pt) * w;
      const size_t e = l.pl / 2, odd = l.pl % 2;
      // Even input columns go to phase `odd` from index e; odd ones to phase
      // 1 - odd from index e + odd.
      float* even_dst = ph[odd] + e;
      float* odd_dst = ph[1 - odd] + e + odd;
      const size_t pairs = w / 2;
      HWY_DYNAMIC_DISPATCH(Conv2dDeinterleave2)(src, even_dst, odd_dst, pairs);
      size_t end_even = e + pairs, end_odd = e + odd + pairs;  // next free index in each destination
      if (w % 2) even_dst[pairs] = src[w - 1], ++end_even;
      if (borders_ready) continue;
      std::fill(ph[0], ph[0] + e + (odd ? 1 : 0), 0.0f);
      std::fill(ph[1], ph[1] + e, 0.0f);
      float* even_row = ph[odd];
      float* odd_row = ph[1 - odd];
      std::fill(even_row + std::min(end_even, l.wq), even_row + l.wq, 0.0f);
      std::fill(odd_row + std::min(end_odd, l.wq), odd_row + l.wq, 0.0f);
      continue;
    }
    // Padded row in `row` (wq * sw wide), then one strided pick per phase column.
    std::fill(row, row + l.wq * l.sw, 0.0f);
    if (inside) std::memcpy(row + l.pl, in + (r - l.pt) * w, w * sizeof(float));
    for (size_t px = 0; px < l.sw; ++px) {
      float* dst = out + ((py * l.sw + px) * l.hq + i) * l.wq;
      for (size_t j = 0; j < l.wq; ++j) dst[j] = row[j * l.sw + px];
    }
  }
}

// Offset of tap (ky, kx) in a channel's phase planes.
int64_t TapOffset(const Conv2dGeometry& g, const PhaseLayout& l, size_t ky, size_t kx) {
  const size_t y = ky * g.dilation_h, x = kx * g.dilation_w;
  return static_cast<int64_t>(((y % l.sh) * l.sw + x % l.sw) * l.plane() + (y / l.sh) * l.wq + x / l.sw);
}

// DirectNchw's mask scratch (conv::DirectParams::mask_bits and skip) for a
// parallel-for body.
struct DirectMasks {
  memory::Scratch<uint8_t> bits, skip;
  explicit DirectMasks(size_t taps)
      : bits(taps * conv::kDirectMaskBytesPerTap, "conv2d: tile masks"), skip(taps, "conv2d: padding taps") {}
  void Set(conv::DirectParams& p) const {
    p.mask_bits = bits.data();
    p.skip = skip.data();
  }
};
// Row mode (tiles within output rows) or q-space mode (tiles across rows of
// the padded width, dropped columns masked off at the store): row mode when
// it wastes no more lanes (the last vector of each row against the wq - ow
// dropped columns) and rows hold at least two vectors (narrower rows make
// narrow tiles with too few accumulators).
bool UseRowMode(size_t ow, size_t wq, size_t lanes) {
  const double row_eff = double(ow) / double(RoundUp(ow, lanes));
  const double q_eff = double(ow) / double(wq);
  return ow >= 2 * lanes && row_eff >= q_eff;
}

// ---- depthwise, nchw ----
void RunDepthwiseNchw(const KernelContext& ctx, const Conv2dGeometry& g, const PackedFilter& pf, const float* bias,
                      const conv::Epilogue& ep, const float* x, float* y) {
  // Padding and strides go through a zero-padded, phase-split copy of each
  // plane (per item, in cache). Reading the raw plane with the padding taps
  // skipped was slower: the edge tiles are narrow (few accumulators).
  const bool copy = g.stride_h != 1 || g.stride_w != 1 || g.pad_top || g.pad_bottom || g.pad_left || g.pad_right;
  PhaseLayout l = DepthwisePhaseLayout(g);
  if (!copy) l.wq = g.in_w, l.hq = g.in_h, l.sh = l.sw = 1;
  const size_t taps = size_t{g.kernel_h} * g.kernel_w;
  // Tap rows per vertical phase, tap columns as offsets (see DepthwiseRowsParams).
  const size_t phases = l.sh;
  size_t max_ry = 1;
  for (size_t ky = 0; ky < g.kernel_h; ++ky) max_ry = std::max(max_ry, ky * g.dilation_h / l.sh + 1);
  std::vector<int32_t> ky_of(phases * max_ry, -1), rows_in_phase(phases, 0);
  std::vector<int64_t> phase_base(phases), xoff(g.kernel_w);
  for (size_t ky = 0; ky < g.kernel_h; ++ky) {
    const size_t yy = ky * g.dilation_h, py = yy % l.sh, ry = yy / l.sh;
    ky_of[py * max_ry + ry] = static_cast<int32_t>(ky);
    rows_in_phase[py] = std::max<int32_t>(rows_in_phase[py], static_cast<int32_t>(ry + 1));
  }
  for (size_t py = 0; py < phases; ++py) phase_base[py] = static_cast<int64_t>(py * l.sw * l.plane());
  for (size_t kx = 0; kx < g.kernel_w; ++kx) {
    const size_t xx = kx * g.dilation_w;
    xoff[kx] = static_cast<int64_t>((xx % l.sw) * l.plane() + (l.sw == 2 ? l.shift[xx % 2] : 0) + xx / l.sw);
  }
  const size_t out_plane = size_t{g.out_h} * g.out_w;
  const size_t planes = size_t{g.batch} * g.in_channels;
  // The unrolled kernels: 3x3 and 5x5 at strides 1 or 2 without dilation.
  const bool unrolled = g.stride_h <= 2 && g.stride_w <= 2 && g.dilation_h == 1 && g.dilation_w == 1;
  const size_t fixed_k =
      unrolled && g.kernel_h == g.kernel_w && (g.kernel_h == 3 || g.kernel_h == 5) ? g.kernel_h : 0;
  const size_t threads = ctx.parallel.NumThreads();
  // Few large planes: split each plane's rows too (each piece copies the plane).
  const size_t pieces =
      planes >= 2 * threads ? 1 : std::max<size_t>(1, std::min<size_t>(CeilDiv(2 * threads, planes), g.out_h / 8));
  const double flops = 2.0 * planes * out_plane * taps;
  const size_t items = planes * pieces;
  const size_t chunks = ChunkCount(flops, items, threads);
  ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
    // The plane copy: every plane has the same zero borders, written once.
    const PhasePlanes planes_copy(copy ? l.channel() : 0, l);
    const memory::Scratch<float> row(copy ? RowFloats(l) : 0, "conv2d: a padded row");
    bool borders_ready = false;
    for (size_t item = cb * items / chunks; item < ce * items / chunks; ++item) {
      const size_t plane = item / pieces, piece = item % pieces;
      const size_t c = plane % g.in_channels;
      const float* src = x + plane * size_t{g.in_h} * g.in_w;
      if (copy) {
        BuildPhasePlanes(src, g.in_h, g.in_w, l, planes_copy.data(), row.data(), 0, borders_ready);
        borders_ready = true;
        src = planes_copy.data();
      }
      conv::DepthwiseRowsParams p;
      p.src = src;
      p.wq = l.wq;
      p.ow = g.out_w;
      p.oy_begin = piece * g.out_h / pieces;
      p.oy_end = (piece + 1) * g.out_h / pieces;
      p.phases = phases;
      p.max_ry = max_ry;
      p.phase_base = phase_base.data();
      p.rows_in_phase = rows_in_phase.data();
      p.ky_of = ky_of.data();
      p.kw = g.kernel_w;
      p.xoff = xoff.data();
      p.weights = pf.weights.data() + c * taps;
      p.bias = bias ? bias + c : nullptr;
      p.out = y + plane * out_plane;
      p.epilogue = ep;
      p.fixed_k = fixed_k;
      HWY_DYNAMIC_DISPATCH(Conv2dDepthwiseRowsNchw)(p);
      ApplyEpilogueAfter(ep, p.out + p.oy_begin * g.out_w, (p.oy_end - p.oy_begin) * g.out_w);
    }
  });
}

// ---- general, nchw ----
// Output rows per band (wide rows: RunDirectNchw), and the phase planes of
// the input rows a band reads.
constexpr size_t kBand = 8;
PhaseLayout BandLayout(const Conv2dGeometry& g, const PhaseLayout& l) {
  PhaseLayout lb = l;
  lb.hq = kBand + (size_t{g.kernel_h} - 1) * g.dilation_h / l.sh + 1;
  return lb;
}

void RunDirectNchw(const KernelContext& ctx, const Conv2dGeometry& g, const PackedFilter& pf, const float* bias,
                   const conv::Epilogue& ep, const float* x, float* y) {
  const Tiling& t = GetTiling();
  const bool in_place = DirectInPlace(g, t);
  const bool padded = g.pad_top || g.pad_bottom || g.pad_left || g.pad_right;
  PhaseLayout l = MakePhaseLayout(g);
  if (in_place) l.wq = g.in_w, l.hq = g.in_h;
  const size_t chan = in_place ? size_t{g.in_h} * g.in_w : l.channel();
  const size_t groups = g.groups;
  const size_t cin_g = g.in_channels / groups, cout_g = g.out_channels / groups;
  const size_t taps = size_t{g.kernel_h} * g.kernel_w;
  const size_t kdepth = cin_g * taps;
  // Tap offsets in the source planes; in place, also the row and column
  // offsets the kernel masks the padding taps with.
  std::vector<int64_t> tap_off(taps);
  std::vector<int32_t> tap_dy(taps), tap_dx(taps);
  for (size_t ky = 0; ky < g.kernel_h; ++ky)
    for (size_t kx = 0; kx < g.kernel_w; ++kx) {
      const size_t tap = ky * g.kernel_w + kx;
      tap_dy[tap] = int32_t(ky * g.dilation_h) - int32_t(g.pad_top);
      tap_dx[tap] = int32_t(kx * g.dilation_w) - int32_t(g.pad_left);
      tap_off[tap] = in_place ? int64_t{tap_dy[tap]} * int64_t(g.in_w) + tap_dx[tap] : TapOffset(g, l, ky, kx);
    }
  const size_t out_plane = size_t{g.out_h} * g.out_w;
  const bool row_mode = UseRowMode(g.out_w, l.wq, t.lanes);
  const size_t q_total = (size_t{g.out_h} - 1) * l.wq + g.out_w;
  const size_t tw = t.direct_nv[pf.block] * t.lanes;
  const size_t threads = ctx.parallel.NumThreads();
  const size_t in_image = size_t{g.in_channels} * g.in_h * g.in_w;
  // The kernel's parameters but for the source, output and work range.
  conv::DirectParams base;
  base.tap_off = tap_off.data();
  base.taps = taps;
  base.cin = cin_g;
  base.chan = chan;
  if (in_place && padded) {
    base.tap_dy = tap_dy.data(), base.tap_dx = tap_dx.data(), base.in_h = g.in_h;
    base.skip_padding = pf.finite;
  }
  base.cout = cout_g;
  base.mr = pf.block;
  base.row_mode = row_mode;
  base.wq = l.wq;
  base.ow = g.out_w;
  base.out_plane = out_plane;
  base.epilogue = ep;
  if (!in_place && row_mode) {
    // Wide rows (few channels, as a network's stem): bands of output rows,
    // each copying just the input rows it reads into per-thread phase planes
    // (in L2), instead of a whole padded copy going out to memory and back.
    const size_t bands = CeilDiv(g.out_h, kBand);
    const PhaseLayout lb = BandLayout(g, l);
    const size_t chan_b = lb.channel();
    std::vector<int64_t> tap_off_b(taps);
    for (size_t ky = 0; ky < g.kernel_h; ++ky)
      for (size_t kx = 0; kx < g.kernel_w; ++kx) tap_off_b[ky * g.kernel_w + kx] = TapOffset(g, lb, ky, kx);
    base.tap_off = tap_off_b.data();
    base.chan = chan_b;
    const size_t items = size_t{g.batch} * groups * bands;
    const double flops = 2.0 * g.batch * g.out_channels * out_plane * kdepth;
    const size_t chunks = ChunkCount(flops, items, threads);
    ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
      const PhasePlanes band_planes(cin_g * chan_b, lb);
      const memory::Scratch<float> row(RowFloats(lb), "conv2d: a padded row");
      const DirectMasks masks(taps);
      for (size_t item = cb * items / chunks; item < ce * items / chunks; ++item) {
        const size_t n = item / (groups * bands), grp = item / bands % groups, band = item % bands;
        const size_t oy0 = band * kBand, rows = std::min<size_t>(kBand, g.out_h - oy0);
        const float* in = x + n * in_image + grp * cin_g * size_t{g.in_h} * g.in_w;
        for (size_t ci = 0; ci < cin_g; ++ci)
          BuildPhasePlanes(in + ci * size_t{g.in_h} * g.in_w, g.in_h, g.in_w, lb, band_planes.data() + ci * chan_b,
                           row.data(), oy0);
        conv::DirectParams p = base;
        masks.Set(p);
        p.src = band_planes.data();
        p.weights = pf.weights.data() + grp * pf.group_stride;
        p.bias = bias ? bias + grp * pf.bias_stride : nullptr;
        p.q_begin = 0;
        p.q_end = rows;
        p.out = y + (n * g.out_channels + grp * cout_g) * out_plane + oy0 * g.out_w;
        HWY_DYNAMIC_DISPATCH(Conv2dDirectNchw)(p);
      }
    });
    return;
  }
  // Units of work: output rows (row mode) or tiles of q; each unit runs over
  // a range of the group's blocks of mr output channels.
  const size_t units = row_mode ? g.out_h : CeilDiv(q_total, tw);
  const size_t blocks = CeilDiv(cout_g, pf.block);
  const PhasePlanes padded_planes(in_place ? 0 : size_t{g.in_channels} * chan, l);
  for (size_t n = 0; n < g.batch; ++n) {
    const float* src = x + n * in_image;
    if (!in_place) {
      const size_t cc = ChunkCount(double(g.in_channels) * chan * 4, g.in_channels, threads);
      ctx.parallel.Run(cc, 1, [&](size_t cb, size_t ce) {
        const memory::Scratch<float> row(RowFloats(l), "conv2d: a padded row");
        for (size_t c = cb * g.in_channels / cc; c < ce * g.in_channels / cc; ++c)
          BuildPhasePlanes(src + c * g.in_h * g.in_w, g.in_h, g.in_w, l, padded_planes.data() + c * chan, row.data());
      });
      src = padded_planes.data();
    }
    float* out = y + n * size_t{g.out_channels} * out_plane;
    // Items (group, unit, block), block fastest: a chunk keeps a unit's input
    // in cache across the blocks it covers.
    const size_t items = groups * units * blocks;
    const double flops = 2.0 * g.out_channels * out_plane * kdepth;
    const size_t chunks = ChunkCount(flops, items, threads);
    ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
      const DirectMasks masks(taps);
      const size_t ib = cb * items / chunks, ie = ce * items / chunks;
      for (size_t item = ib; item < ie;) {
        const size_t grp = item / (units * blocks), unit = item / blocks % units, b = item % blocks;
        const size_t b_end = std::min(blocks, b + (ie - item));
        conv::DirectParams p = base;
        masks.Set(p);
        p.src = src + grp * cin_g * chan;
        p.weights = pf.weights.data() + grp * pf.group_stride;
        p.bias = bias ? bias + grp * pf.bias_stride : nullptr;
        p.block_begin = b;
        p.block_end = b_end;
        p.q_begin = row_mode ? unit : unit * tw;
        p.q_end = row_mode ? unit + 1 : std::min(q_total, (unit + 1) * tw);
        p.out = out + grp * cout_g * out_plane;
        HWY_DYNAMIC_DISPATCH(Conv2dDirectNchw)(p);
        item += b_end - b;
      }
    });
  }
}

// Output pixels [p0, ...) (flattened n, oy, ox) in order, for filling
// indirection pointers: the coordinates are stepped, not divided out per
// pixel, and the input row of each filter row ky is found once per output
// row. Three 64-bit divisions per pixel cost as much as the pointers
// themselves: FillPointers dividing was 36% of a 1x1 16 -> 32 NHWC conv at
// 320x320 (Xeon), as long as the kernel; FillMergedPointers was 41% of
// PP-OCR's NHWC stem before it stepped.
class PixelWalk {
 public:
  PixelWalk(const Conv2dGeometry& g, const float* x, size_t p0) : g_(g), x_(x), rows_(g.kernel_h) {
    const size_t ohw = size_t{g.out_h} * g.out_w;
    n_ = p0 / ohw, oy_ = (p0 / g.out_w) % g.out_h, ox_ = p0 % g.out_w;
    FindRows();
  }
  // The current pixel's first input column (before the horizontal padding).
  int64_t ix0() const { return int64_t(ox_ * g_.stride_w) - g_.pad_left; }
  // Filter row ky's input row (channel 0 of column 0), or null on padding.
  const float* row(size_t ky) const { return rows_[ky]; }
  void Next() {
    if (++ox_ < g_.out_w) return;
    ox_ = 0;
    if (++oy_ == g_.out_h) oy_ = 0, ++n_;
    FindRows();
  }

 private:
  void FindRows() {
    if (n_ >= g_.batch) return;  // past the last pixel
    for (size_t ky = 0; ky < g_.kernel_h; ++ky) {
      const int64_t iy = int64_t(oy_ * g_.stride_h + ky * g_.dilation_h) - g_.pad_top;
      rows_[ky] = iy >= 0 && iy < g_.in_h ? x_ + (n_ * g_.in_h + size_t(iy)) * g_.in_w * g_.in_channels : nullptr;
    }
  }
  const Conv2dGeometry& g_;
  const float* x_;
  size_t n_, oy_, ox_;
  std::vector<const float*> rows_;
};

// Pointers of output pixels [p0, p0 + count) for every tap: NHWC input
// channel 0 at the tap, or `zeros` on padding.
void FillPointers(const Conv2dGeometry& g, const float* x, const float* zeros, size_t p0, size_t count,
                  const float** ind) {
  const size_t c = g.in_channels;
  if (g.kernel_h == 1 && g.kernel_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 &&
      g.pad_bottom == 0 && g.pad_left == 0 && g.pad_right == 0) {
    // Output pixel p reads input pixel p (a pointwise layer: the walk's
    // loops were still 14% of a 1x1 16 -> 32 layer at 320x320).
    for (size_t i = 0; i < count; ++i) ind[i] = x + (p0 + i) * c;
    return;
  }
  PixelWalk walk(g, x, p0);
  for (size_t i = 0; i < count; ++i, walk.Next()) {
    const int64_t ix0 = walk.ix0();
    for (size_t ky = 0; ky < g.kernel_h; ++ky) {
      const float* row = walk.row(ky);
      for (size_t kx = 0; kx < g.kernel_w; ++kx) {
        const int64_t ix = ix0 + int64_t(kx * g.dilation_w);
        *ind++ = row && ix >= 0 && ix < g.in_w ? row + size_t(ix) * c : zeros;
      }
    }
  }
}

// Pointers for IgemmNhwc with the kw taps of a filter row merged into one
// tap of kw * Cin channels (groups 1, horizontal dilation 1: the row's taps
// are then adjacent pixels, contiguous in NHWC). A run that crosses the left
// or right padding is assembled, zero-filled, in `scratch` (kw * Cin floats
// per run); a row on the padding points to `zeros`.
void FillMergedPointers(const Conv2dGeometry& g, const float* x, const float* zeros, size_t p0, size_t count,
                        const float** ind, float* scratch) {
  const size_t c = g.in_channels, run = size_t{g.kernel_w} * c;
  PixelWalk walk(g, x, p0);
  for (size_t i = 0; i < count; ++i, walk.Next()) {
    const int64_t ix0 = walk.ix0();
    const bool cols_inside = ix0 >= 0 && ix0 + int64_t(g.kernel_w) <= int64_t(g.in_w);
    for (size_t ky = 0; ky < g.kernel_h; ++ky) {
      const float* row = walk.row(ky);
      if (!row) {
        *ind++ = zeros;
        continue;
      }
      if (cols_inside) {
        *ind++ = row + size_t(ix0) * c;
        continue;
      }
      for (size_t kx = 0; kx < g.kernel_w; ++kx) {
        const int64_t ix = ix0 + int64_t(kx);
        if (ix >= 0 && ix < g.in_w) std::memcpy(scratch + kx * c, row + size_t(ix) * c, c * sizeof(float));
        else std::fill(scratch + kx * c, scratch + (kx + 1) * c, 0.0f);
      }
      *ind++ = scratch;
      scratch += run;
    }
  }
}

// ---- general, nhwc ----
// Tiles of pointers a parallel-for body of IgemmNhwc fills at a time.
constexpr size_t kIgemmStepTiles = 64;

// `y_nchw`: where set, the output is also transposed there (nchw) by the
// thread that computed it, a step of pixels at a time while still in cache.
void RunIgemmNhwc(const KernelContext& ctx, const Conv2dGeometry& g, const PackedFilter& pf, const float* bias,
                  const conv::Epilogue& ep, const float* x, float* y, float* y_nchw = nullptr) {
  const size_t groups = g.groups;
  const size_t cin_g = g.in_channels / groups, cout_g = g.out_channels / groups;
  const size_t taps = size_t{g.kernel_h} * g.kernel_w;
  const IgemmTaps it(g);
  const bool merge = it.merge;
  const size_t ptaps = it.ptaps, pcin = it.pcin;
  const size_t pixels = size_t{g.batch} * g.out_h * g.out_w;
  const size_t mr = pf.igemm_mr;
  const size_t tiles = CeilDiv(pixels, mr);
  const double flops = 2.0 * pixels * g.out_channels * cin_g * taps;
  // One contiguous range of tiles per thread: every chunk streams the whole
  // packed filter through the cache again (2.4 MB for a 256x256 3x3 layer),
  // so more chunks than threads cost filter bandwidth, not just wake-ups.
  // A packed filter that stays in L2 (<= 256 KB) costs little to stream
  // again: such layers take the usual chunks (about half a millisecond each),
  // so latency work can take the cores between them.
  const size_t threads = ctx.parallel.NumThreads();
  const size_t chunks = pf.group_stride * groups * sizeof(float) <= (256u << 10)
                            ? ChunkCount(flops, tiles, threads)
                            : std::min(ChunkCount(flops, tiles, threads), threads);
  // A group's packed filter past half of a 1 MB L2 (ResNet's 256x256 3x3: 2.4
  // MB) would stream from L3 for every pixel tile; blocks outer keep one block
  // of it in L2 instead while the input (a step of pixels) is re-read.
  const bool blocks_outer = pf.group_stride * sizeof(float) > (512u << 10);
  ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
    const size_t p0 = cb * tiles / chunks * mr, p1 = std::min(pixels, ce * tiles / chunks * mr);
    // At most 64 tiles of pointers at a time (a few KB).
    const size_t step = kIgemmStepTiles * mr;
    const memory::Scratch<const float*> pointers(step * ptaps, "conv2d: input pointers");
    const memory::Scratch<float> runs(merge ? step * ptaps * pcin : 0, "conv2d: merged taps on padding");
    const memory::Scratch<float> zero_buf(std::max<size_t>(g.in_channels, pcin), 0.0f, "conv2d: zeros");
    const float* zeros = zero_buf.data();
    for (size_t s = p0; s < p1; s += step) {
      const size_t count = std::min(step, p1 - s);
      if (merge) FillMergedPointers(g, x, zeros, s, count, pointers.data(), runs.data());
      else FillPointers(g, x, zeros, s, count, pointers.data());
      for (size_t grp = 0; grp < groups; ++grp) {
        conv::IgemmParams p;
        p.ind = pointers.data();
        p.pixels = count;
        p.taps = ptaps;
        p.cin = pcin;
        p.a_offset = grp * cin_g;
        p.skip_zeros = pf.finite ? zeros : nullptr;
        p.weights = pf.weights.data() + grp * pf.group_stride;
        p.bias = bias ? bias + grp * pf.bias_stride : nullptr;
        p.cout = cout_g;
        p.nv = pf.block;
        p.variant = pf.igemm_variant;
        p.blocks_outer = blocks_outer;
        p.out = y + s * g.out_channels + grp * cout_g;
        p.out_stride = g.out_channels;
        p.epilogue = ep;
        HWY_DYNAMIC_DISPATCH(Conv2dIgemmNhwc)(p);
      }
      if (!y_nchw) continue;
      const size_t ohw = size_t{g.out_h} * g.out_w, cout = g.out_channels;
      for (size_t a = s; a < s + count;) {  // the step's pixels, an image at a time
        const size_t n = a / ohw, r0 = a % ohw, r1 = std::min(ohw, r0 + (s + count - a));
        for (size_t c0 = 0; c0 < cout; c0 += 64)
          HWY_DYNAMIC_DISPATCH(Conv2dTransposeBlock)(y + n * ohw * cout, cout, y_nchw + n * ohw * cout, ohw, r0, r1,
                                                     c0, std::min(cout, c0 + 64));
        a += r1 - r0;
      }
    }
  });
}

// ---- depthwise, nhwc ----
void RunDepthwiseNhwc(const KernelContext& ctx, const Conv2dGeometry& g, const PackedFilter& pf, const float* bias,
                      const conv::Epilogue& ep, const float* x, float* y) {
  const size_t taps = size_t{g.kernel_h} * g.kernel_w;
  const size_t rows = size_t{g.batch} * g.out_h;
  const size_t c = g.in_channels;
  // Sliding window for horizontal stride 1 or 2, no horizontal dilation, kw
  // 3 or 5 (not on scalable-vector targets, whose kernel takes pointers).
  const bool slide = (g.stride_w == 1 || g.stride_w == 2) && g.dilation_w == 1 &&
                     (g.kernel_w == 3 || g.kernel_w == 5) && GetTiling().igemm_max_nv > 1;
  const double flops = 2.0 * rows * g.out_w * c * taps;
  const size_t chunks = ChunkCount(flops, rows, ctx.parallel.NumThreads());
  ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
    const memory::Scratch<const float*> pointers(slide ? g.kernel_h : g.out_w * taps, "conv2d: input pointers");
    const memory::Scratch<float> zero_buf(pf.block + 64, 0.0f, "conv2d: zeros");
    const float* zeros = zero_buf.data();
    for (size_t r = cb * rows / chunks; r < ce * rows / chunks; ++r) {
      conv::DepthwiseNhwcParams p;
      if (slide) {
        const size_t n = r / g.out_h, oy = r % g.out_h;
        for (size_t ky = 0; ky < g.kernel_h; ++ky) {
          const int64_t iy = int64_t(oy * g.stride_h + ky * g.dilation_h) - g.pad_top;
          pointers[ky] = iy >= 0 && iy < g.in_h ? x + (n * g.in_h + iy) * g.in_w * c : nullptr;
        }
        p.rows = pointers.data();
        p.kh = g.kernel_h, p.kw = g.kernel_w, p.sw = g.stride_w, p.in_w = g.in_w, p.pad_left = g.pad_left;
        p.skip_padding = pf.finite;
      } else {
        FillPointers(g, x, zeros, r * g.out_w, g.out_w, pointers.data());
        p.ind = pointers.data();
      }
      p.ow = g.out_w;
      p.taps = taps;
      p.channels = c;
      p.weights = pf.weights.data();
      p.cp = pf.block;
      p.bias = bias;
      p.out = y + r * g.out_w * c;
      p.epilogue = ep;
      HWY_DYNAMIC_DISPATCH(Conv2dDepthwiseNhwcRow)(p);
      ApplyEpilogueAfter(ep, p.out, size_t{g.out_w} * c);
    }
  });
}

// dst[c][r] = src[r][c] for a rows x cols matrix, in 64 x 64 blocks (32 KB:
// source and destination blocks stay in L1).
void Transpose(const KernelContext& ctx, const float* src, size_t rows, size_t cols, float* dst) {
  constexpr size_t kBlock = 64;
  const size_t row_blocks = CeilDiv(rows, kBlock);
  const size_t chunks = ChunkCount(double(rows) * cols, row_blocks, ctx.parallel.NumThreads());
  ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
    for (size_t rb = cb * row_blocks / chunks; rb < ce * row_blocks / chunks; ++rb) {
      const size_t r0 = rb * kBlock, r1 = std::min(rows, r0 + kBlock);
      for (size_t c0 = 0; c0 < cols; c0 += kBlock)
        HWY_DYNAMIC_DISPATCH(Conv2dTransposeBlock)(src, cols, dst, rows, r0, r1, c0, std::min(cols, c0 + kBlock));
    }
  });
}

// ---- general, nchw through nhwc ----
void RunIgemmNchw(const KernelContext& ctx, const Conv2dGeometry& g, const PackedFilter& pf, const float* bias,
                  const conv::Epilogue& ep, const float* x, float* y) {
  const size_t in_plane = size_t{g.in_h} * g.in_w, out_plane = size_t{g.out_h} * g.out_w;
  const size_t in_image = in_plane * g.in_channels, out_image = out_plane * g.out_channels;
  const memory::Scratch<float> xt(in_image * g.batch, "conv2d: input as nhwc"),
      yt(out_image * g.batch, "conv2d: output as nhwc");
  for (size_t n = 0; n < g.batch; ++n)
    Transpose(ctx, x + n * in_image, g.in_channels, in_plane, xt.data() + n * in_image);
  RunIgemmNhwc(ctx, g, pf, bias, ep, xt.data(), yt.data(), y);
}

// What RunConv2d takes from the workspace (the allocations above) for `g`:
// `exact` (static shapes), the path and mode `g` takes; else for every
// smaller geometry too, so for each path the filter may take (the one
// packed, or with a filter packed per dispatch, any) each of its modes.
memory::WorkspaceSize Conv2dWorkspace(const Conv2dAttrs& attrs, const Conv2dGeometry& g, const PackedFilter* pf,
                                      bool exact, bool f16, uint64_t input_elements, uint64_t output_elements) {
  memory::WorkspaceSize ws;
  if (f16) ws.AddShared<float>(input_elements), ws.AddShared<float>(output_elements);
  const Tiling& t = GetTiling();
  const size_t taps = size_t{g.kernel_h} * g.kernel_w;
  const PhaseLayout l = MakePhaseLayout(g);
  const bool depthwise = g.groups == g.in_channels && g.out_channels == g.groups;
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  std::vector<Path> paths;
  if (pf) paths = {pf->path};
  else if (exact) paths = {ChoosePlan(attrs, g).path};
  else if (depthwise) paths = {nhwc ? Path::kDepthwiseNhwc : Path::kDepthwiseNchw};
  else if (nhwc) paths = {Path::kIgemmNhwc};
  else paths = {Path::kDirectNchw, Path::kIgemmNchw};
  const auto igemm_per_worker = [&] {
    const IgemmTaps it(g);
    const size_t mr = pf ? pf->igemm_mr : std::max<size_t>(t.igemm_mr, conv::kIgemmTallMR);  // the largest tile's
    memory::WorkspaceSize w;
    w.AddPerWorker<const float*>(kIgemmStepTiles * mr * it.ptaps);
    if (it.merge) w.AddPerWorker<float>(kIgemmStepTiles * mr * it.ptaps * it.pcin);
    w.AddPerWorker<float>(std::max<size_t>(g.in_channels, it.pcin));
    return w.per_worker;
  };
  memory::WorkspaceSize most;
  for (const Path path : paths) {
    memory::WorkspaceSize w;
    switch (path) {
      case Path::kDepthwiseNchw: {
        const bool copy = g.stride_h != 1 || g.stride_w != 1 || g.pad_top || g.pad_bottom || g.pad_left || g.pad_right;
        if (exact && !copy) break;  // reads the planes in place
        const PhaseLayout ld = DepthwisePhaseLayout(g);
        w.AddPerWorker<float>(ld.channel() + ld.slack());
        w.AddPerWorker<float>(RowFloats(ld));
        break;
      }
      case Path::kDepthwiseNhwc:
        w.AddPerWorker<const float*>(std::max<size_t>(g.kernel_h, size_t{g.out_w} * taps));
        w.AddPerWorker<float>(RoundUp(g.out_channels, t.lanes) + 64);
        break;
      case Path::kDirectNchw: {
        // Input read in place, in bands (wide rows) or padded whole, as
        // RunDirectNchw chooses; a smaller shape may choose another.
        const bool in_place = DirectInPlace(g, t);
        const bool bands = !in_place && UseRowMode(g.out_w, l.wq, t.lanes);
        const PhaseLayout lb = BandLayout(g, l);
        if (!exact || bands) w.AddPerWorker<float>(size_t{g.in_channels / g.groups} * lb.channel() + lb.slack());
        if (!exact || !in_place) w.AddPerWorker<float>(RowFloats(l));
        w.AddPerWorker<uint8_t>(taps * conv::kDirectMaskBytesPerTap);
        w.AddPerWorker<uint8_t>(taps);
        if (!exact || (!in_place && !bands)) w.AddShared<float>(size_t{g.in_channels} * l.channel() + l.slack());
        break;
      }
      case Path::kIgemmNchw:
        w.AddShared<float>(size_t{g.batch} * g.in_channels * g.in_h * g.in_w);
        w.AddShared<float>(size_t{g.batch} * g.out_channels * g.out_h * g.out_w);
        w.per_worker += igemm_per_worker();
        break;
      case Path::kIgemmNhwc:
        w.per_worker += igemm_per_worker();
        break;
    }
    most.Max(w);
  }
  ws.shared += most.shared;
  ws.per_worker += most.per_worker;
  return ws;
}

void RunConv2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<Conv2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& filter = ctx.inputs[1];
  const TensorView* bias_view = OptionalInput(ctx.inputs, 2);
  const TensorView& output = ctx.outputs[0];
  const Conv2dGeometry g = ComputeConv2dGeometry(attrs, input.shape, filter.shape);
  if (output.elements() == 0) return;

  const auto* prepared = static_cast<const Conv2dPrepared*>(ctx.prepared);
  std::optional<PackedFilter> local_filter;
  const PackedFilter* pf = prepared && prepared->filter ? &*prepared->filter : nullptr;
  if (!pf) pf = &local_filter.emplace(PackFilter(attrs, filter, g));
  std::optional<std::vector<float>> local_bias;
  const float* bias = nullptr;
  if (bias_view) {
    if (prepared && prepared->bias) bias = prepared->bias->data();
    else bias = local_bias.emplace(PackBias(*pf, *bias_view)).data();
  }
  // A filter (or bias) that is not a constant, packed for this dispatch.
  const memory::Charge local_charge = memory::ChargeRunMemory(
      (local_filter ? local_filter->weights.capacity() : 0) * sizeof(float) +
          (local_bias ? local_bias->capacity() : 0) * sizeof(float),
      "conv2d: packing a filter that is not a constant");

  bool in_registers = false;
  const conv::Epilogue ep = EpilogueFor(attrs.activation, &in_registers);
  const bool f16 = input.type == DataType::kFloat16;

  const float* x = input.as<float>();
  float* y = output.as<float>();
  const memory::Scratch<float> x32(f16 ? input.elements() : 0, "conv2d: float16 input as float32"),
      y32(f16 ? output.elements() : 0, "conv2d: float32 output");
  if (f16) {
    ConvertF16ToF32(input.as<uint16_t>(), x32.data(), input.elements(), ctx.parallel);
    x = x32.data();
    y = y32.data();
  }
  switch (pf->path) {
    case Path::kDepthwiseNchw: RunDepthwiseNchw(ctx, g, *pf, bias, ep, x, y); break;
    case Path::kDepthwiseNhwc: RunDepthwiseNhwc(ctx, g, *pf, bias, ep, x, y); break;
    case Path::kDirectNchw: RunDirectNchw(ctx, g, *pf, bias, ep, x, y); break;
    case Path::kIgemmNhwc: RunIgemmNhwc(ctx, g, *pf, bias, ep, x, y); break;
    case Path::kIgemmNchw: RunIgemmNchw(ctx, g, *pf, bias, ep, x, y); break;
  }
  if (!in_registers) ApplyFusedActivation(attrs.activation, y, output.elements(), ctx.parallel);
  if (f16) ConvertF32ToF16(y, output.as<uint16_t>(), output.elements(), ctx.parallel);
}

}  // namespace

void RegisterConv2dKernels(OpKind op, KernelRegistry& registry) {
  for (const DataType type : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{type};
    registry.Add(CpuKernel{op, &RunConv2d, &PrepareConv2d, {s, s, s}, {s}});
  }
}

// The candidates depend on the SIMD target (GetTiling, cached per process),
// which the cpu device caps (WEBNN_CPU_MAX_TARGET) when it is created: a
// query made before any context must create it first.
void EnsureCpuDevice() { static const bool created = FindDevice(MLDeviceType::kCpu) != nullptr; (void)created; }

std::string Conv2dTuningKey(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                            const std::vector<uint32_t>& filter_shape) {
  return TuningKey(attrs, ComputeConv2dGeometry(attrs, input_shape, filter_shape));
}

std::vector<std::string> Conv2dTuningCandidates(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                                                const std::vector<uint32_t>& filter_shape) {
  EnsureCpuDevice();
  std::vector<std::string> names;
  for (const ConvPlan& p : PlanCandidates(attrs, ComputeConv2dGeometry(attrs, input_shape, filter_shape)))
    names.push_back(p.Name(GetTiling()));
  return names;
}

std::string Conv2dTuningChoice(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                               const std::vector<uint32_t>& filter_shape) {
  EnsureCpuDevice();
  return ChoosePlan(attrs, ComputeConv2dGeometry(attrs, input_shape, filter_shape)).Name(GetTiling());
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
