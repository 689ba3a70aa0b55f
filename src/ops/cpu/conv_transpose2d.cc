// cpu kernels of convTranspose2d: float32, and float16 computed in float32.
//
// GEMM + col2im on NHWC data: per group, cols[pixel][tap][co] =
// sum_ci x[pixel][ci] * w[ci][co][tap] is the IgemmNhwc micro-kernel with one
// tap per pixel (the filter, packed once at prepare as a [Cin/g, taps * Cout/g]
// matrix, is its B), then every output row gathers the cols of the input
// pixels that reach it. Only taps that land on the output contribute, exactly
// as the reference's sum (no multiplication by padding), so NaN or infinite
// weights behave identically. The input is processed in bands of rows so
// that cols stays within ~2 MB. nchw input is transposed to nhwc; the output
// goes back to nchw row by row from cache when every output row is reached
// from one input row only ((kh - 1) * dh < stride: 2x2 stride-2 upsampling),
// else by a transpose of the whole nhwc result.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/conv_transpose2d.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/conv_kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {

void ConvTranspose2dTiling(size_t* out) { ConvTilingImpl(out); }
void ConvTranspose2dGemm(const conv::IgemmParams& p) { IgemmNhwcImpl(p); }
void ConvTranspose2dCol2imRow(const conv::Col2imParams& p) { Col2imRowImpl(p); }
void ConvTranspose2dTransposeBlock(const float* src, size_t ss, float* dst, size_t ds, size_t r0, size_t r1, size_t c0,
                       size_t c1) {
  TransposeBlockImpl(src, ss, dst, ds, r0, r1, c0, c1);
}

// dst[x * 2 + j] = rows[j][x] + bias, j = 0, 1, x < w: one output row of a
// stride-2 pixel shuffle.
void ConvTranspose2dInterleave2(const float* HWY_RESTRICT row0, const float* HWY_RESTRICT row1, float bias,
                                float* HWY_RESTRICT dst, size_t w) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> d;
  const size_t n = hn::Lanes(d);
  const auto b = hn::Set(d, bias);
  size_t x = 0;
  for (; x + n <= w; x += n)
    hn::StoreInterleaved2(hn::Add(hn::LoadU(d, row0 + x), b), hn::Add(hn::LoadU(d, row1 + x), b), d, dst + 2 * x);
  for (; x < w; ++x) {  // the tail: fewer than one vector of columns
    dst[2 * x] = row0[x] + bias;
    dst[2 * x + 1] = row1[x] + bias;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "core/float16.h"
#include "core/strings.h"
#include "memory/workspace.h"
#include "ops/conv_transpose2d.h"
#include "ops/cpu/activation.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/gemm.h"
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {

HWY_EXPORT(ConvTranspose2dTiling);
HWY_EXPORT(ConvTranspose2dGemm);
HWY_EXPORT(ConvTranspose2dCol2imRow);
HWY_EXPORT(ConvTranspose2dTransposeBlock);
HWY_EXPORT(ConvTranspose2dInterleave2);

namespace {

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }
size_t CeilDiv(size_t x, size_t m) { return (x + m - 1) / m; }

struct Tiling {
  size_t lanes, max_nv, mr;
};

const Tiling& GetTiling() {
  static const Tiling t = [] {
    size_t o[8];
    HWY_DYNAMIC_DISPATCH(ConvTranspose2dTiling)(o);
    return Tiling{o[0], o[1], o[3]};
  }();
  return t;
}

// The filter as GEMM B per group, [Cin/g][taps * Cout/g] (column = tap *
// Cout/g + co), packed in IgemmNhwc panels [block][ci][nv * lanes].
struct PackedFilter {
  uint32_t in_channels = 0, out_per_group = 0, kernel_h = 0, kernel_w = 0, groups = 0;
  size_t nv = 1;
  size_t group_stride = 0;
  std::vector<float> weights;
};

struct ConvTranspose2dPrepared {
  std::optional<PackedFilter> filter;
  std::optional<std::vector<float>> bias;
};

size_t ChooseNv(size_t n, const Tiling& t) {
  size_t best = 1;
  for (size_t nv = 2; nv <= t.max_nv; ++nv)
    if (RoundUp(n, nv * t.lanes) <= RoundUp(n, best * t.lanes)) best = nv;
  return best;
}

// A filter in any layout: its dimensions, and element (input channel c,
// output channel co of its group, ky, kx) as float32.
struct FilterReader {
  const TensorView& filter;
  MLConvTranspose2dFilterOperandLayout layout;
  uint32_t i = 0, o = 0, kh = 0, kw = 0;  // input channels, output channels per group
  FilterReader(const ConvTranspose2dAttrs& attrs, const TensorView& f) : filter(f), layout(attrs.filterLayout) {
    const std::vector<uint32_t>& s = f.shape;
    switch (layout) {
      case MLConvTranspose2dFilterOperandLayout::kIohw: i = s[0], o = s[1], kh = s[2], kw = s[3]; break;
      case MLConvTranspose2dFilterOperandLayout::kHwoi: kh = s[0], kw = s[1], o = s[2], i = s[3]; break;
      case MLConvTranspose2dFilterOperandLayout::kOhwi: o = s[0], kh = s[1], kw = s[2], i = s[3]; break;
    }
  }
  float operator()(size_t c, size_t co, size_t ky, size_t kx) const {
    size_t k = 0;
    switch (layout) {
      case MLConvTranspose2dFilterOperandLayout::kIohw: k = ((c * o + co) * kh + ky) * kw + kx; break;
      case MLConvTranspose2dFilterOperandLayout::kHwoi: k = ((ky * kw + kx) * o + co) * i + c; break;
      case MLConvTranspose2dFilterOperandLayout::kOhwi: k = ((co * kh + ky) * kw + kx) * i + c; break;
    }
    return filter.type == DataType::kFloat16 ? core::HalfBitsToFloat(filter.as<uint16_t>()[k]) : filter.as<float>()[k];
  }
};

PackedFilter PackFilter(const ConvTranspose2dAttrs& attrs, const TensorView& filter) {
  const FilterReader f(attrs, filter);
  const Tiling& t = GetTiling();
  PackedFilter p;
  p.in_channels = f.i;
  p.out_per_group = f.o;
  p.kernel_h = f.kh;
  p.kernel_w = f.kw;
  p.groups = attrs.groups;
  const size_t taps = size_t{f.kh} * f.kw;
  const size_t groups = attrs.groups;
  const size_t cin_g = f.i / groups;
  const size_t ncols = taps * f.o;
  p.nv = ChooseNv(ncols, t);
  const size_t nb = p.nv * t.lanes;
  const size_t blocks = CeilDiv(ncols, nb);
  p.group_stride = blocks * cin_g * nb;
  p.weights.assign(groups * p.group_stride, 0.0f);
  for (size_t c = 0; c < f.i; ++c)
    for (size_t co = 0; co < f.o; ++co)
      for (size_t ky = 0; ky < f.kh; ++ky)
        for (size_t kx = 0; kx < f.kw; ++kx) {
          const size_t g = c / cin_g, ci = c % cin_g;
          const size_t col = (ky * f.kw + kx) * f.o + co;
          p.weights[g * p.group_stride + (col / nb) * cin_g * nb + ci * nb + col % nb] = f(c, co, ky, kx);
        }
  return p;
}

std::vector<float> PackBias(const TensorView& bias) {
  std::vector<float> out(bias.elements());
  for (size_t c = 0; c < out.size(); ++c)
    out[c] = bias.type == DataType::kFloat16 ? core::HalfBitsToFloat(bias.as<uint16_t>()[c]) : bias.as<float>()[c];
  return out;
}

memory::WorkspaceSize ConvTranspose2dWorkspace(const ConvTranspose2dAttrs& attrs, const ConvTranspose2dGeometry& g,
                                               bool exact, bool f16, uint64_t input_elements,
                                               uint64_t output_elements);

std::shared_ptr<const void> PrepareConvTranspose2d(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<ConvTranspose2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& filter = ctx.inputs[1];
  if (attrs.groups != 0)
    ctx.workspace = ConvTranspose2dWorkspace(attrs, ComputeConvTranspose2dGeometry(attrs, input.shape, filter.shape),
                                             ctx.static_shapes, input.type == DataType::kFloat16, input.elements(),
                                             ctx.outputs[0].elements());
  if (!filter.present() || attrs.groups == 0) return nullptr;
  const uint32_t in_channels = attrs.filterLayout == MLConvTranspose2dFilterOperandLayout::kIohw ? filter.shape[0]
                                                                                                  : filter.shape[3];
  if (in_channels % attrs.groups != 0) return nullptr;  // rejected at dispatch, as by the reference
  auto prepared = std::make_shared<ConvTranspose2dPrepared>();
  prepared->filter = PackFilter(attrs, filter);
  if (const TensorView* bias = OptionalInput(ctx.inputs, 2)) prepared->bias = PackBias(*bias);
  ctx.prepared_bytes += prepared->filter->weights.capacity() * sizeof(float) +
                        (prepared->bias ? prepared->bias->capacity() * sizeof(float) : 0);
  return prepared;
}

size_t ChunkCount(double work, size_t max_chunks, size_t threads) {
  return core::ChunksForFlops(work, max_chunks, threads);
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
        HWY_DYNAMIC_DISPATCH(ConvTranspose2dTransposeBlock)(src, cols, dst, rows, r0, r1, c0, std::min(cols, c0 + kBlock));
    }
  });
}


// Each output row reached by taps of one input row only: (kh - 1) * dh <
// stride (2x2 stride-2 upsampling, the common decoder case). Then a band's
// output rows are complete when its cols are, and can be finished in place.
bool RowsDoNotOverlap(const ConvTranspose2dGeometry& g) {
  return (size_t{g.kernel_h} - 1) * g.dilation_h < g.stride_h;
}

// Input rows per band of RunNhwc: cols of at most ~512K floats (2 MB).
size_t BandRows(const ConvTranspose2dGeometry& g, size_t ncols) {
  return std::max<size_t>(1, std::min<size_t>(g.in_h, (size_t{1} << 19) / std::max<size_t>(1, size_t{g.in_w} * ncols)));
}
size_t Ncols(const ConvTranspose2dGeometry& g) { return size_t{g.kernel_h} * g.kernel_w * g.out_channels; }

// x: nhwc input. y: nhwc output, or, when `nchw_out` (rows must not overlap),
// the nchw output, each row gathered nhwc in cache and transposed into place.
void RunNhwc(const KernelContext& ctx, const ConvTranspose2dGeometry& g, const PackedFilter& pf, const float* bias,
             const float* x, float* y, bool nchw_out = false) {
  const Tiling& t = GetTiling();
  const size_t groups = g.groups;
  const size_t cin_g = g.in_channels / groups, cout_g = g.out_channels / groups;
  const size_t taps = size_t{g.kernel_h} * g.kernel_w;
  const size_t ncols = Ncols(g);
  const size_t threads = ctx.parallel.NumThreads();
  const size_t out_pixels = size_t{g.out_h} * g.out_w;
  // Bias (or zero) everywhere; every tap then adds to it (nchw_out: rows
  // that no band reaches keep it).
  auto fill_nhwc_row = [&](float* row) {
    if (!bias) {
      std::fill(row, row + size_t{g.out_w} * g.out_channels, 0.0f);
      return;
    }
    for (size_t ox = 0; ox < g.out_w; ++ox) std::memcpy(row + ox * g.out_channels, bias, g.out_channels * 4);
  };
  const size_t band_rows = BandRows(g, ncols);
  // Output rows [first, last] a band of input rows [iy0, iy1) reaches.
  auto band_rows_out = [&](size_t iy0, size_t iy1, int64_t& first, int64_t& last) {
    const int64_t lo = int64_t(iy0 * g.stride_h) - g.pad_top;
    const int64_t hi = int64_t((iy1 - 1) * g.stride_h + (g.kernel_h - 1) * size_t{g.dilation_h}) - g.pad_top;
    first = std::max<int64_t>(0, lo), last = std::min<int64_t>(int64_t(g.out_h) - 1, hi);
  };
  {
    // nchw_out: rows some band writes whole need no fill (it would be a
    // second write pass over the output).
    std::vector<char> fill_row(g.out_h, 1);
    if (nchw_out)
      for (size_t iy0 = 0; iy0 < g.in_h; iy0 += band_rows) {
        int64_t first, last;
        band_rows_out(iy0, std::min<size_t>(g.in_h, iy0 + band_rows), first, last);
        for (int64_t oy = first; oy <= last; ++oy) fill_row[oy] = 0;
      }
    const size_t rows = nchw_out ? size_t{g.batch} * g.out_channels : size_t{g.batch} * g.out_h;
    const size_t chunks = ChunkCount(double(g.batch) * out_pixels * g.out_channels, rows, threads);
    ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
      for (size_t r = cb * rows / chunks; r < ce * rows / chunks; ++r) {
        if (!nchw_out) {
          fill_nhwc_row(y + r * g.out_w * g.out_channels);
          continue;
        }
        float* plane = y + r * out_pixels;  // r = n * out_channels + c
        for (size_t oy = 0; oy < g.out_h; ++oy)
          if (fill_row[oy])
            std::fill(plane + oy * g.out_w, plane + (oy + 1) * g.out_w, bias ? bias[r % g.out_channels] : 0.0f);
      }
    });
  }
  const memory::Scratch<float> cols_buf(band_rows * g.in_w * ncols, "convTranspose2d: columns of a band");
  const memory::Scratch<const float*> pointers_buf(band_rows * g.in_w, "convTranspose2d: input pointers");
  float* cols = cols_buf.data();
  const float** pointers = pointers_buf.data();
  const size_t mr = t.mr;
  for (size_t n = 0; n < g.batch; ++n) {
    const float* xn = x + n * size_t{g.in_h} * g.in_w * g.in_channels;
    float* yn = y + n * out_pixels * g.out_channels;
    for (size_t iy0 = 0; iy0 < g.in_h; iy0 += band_rows) {
      const size_t iy1 = std::min<size_t>(g.in_h, iy0 + band_rows);
      const size_t pixels = (iy1 - iy0) * g.in_w;
      for (size_t p = 0; p < pixels; ++p) pointers[p] = xn + (iy0 * g.in_w + p) * g.in_channels;
      const size_t tiles = CeilDiv(pixels, mr);
      const size_t chunks = ChunkCount(2.0 * pixels * ncols * cin_g, tiles, threads);
      ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
        const size_t p0 = cb * tiles / chunks * mr, p1 = std::min(pixels, ce * tiles / chunks * mr);
        if (p0 >= p1) return;
        for (size_t grp = 0; grp < groups; ++grp) {
          conv::IgemmParams p;
          p.ind = pointers + p0;
          p.pixels = p1 - p0;
          p.taps = 1;
          p.cin = cin_g;
          p.a_offset = grp * cin_g;
          p.weights = pf.weights.data() + grp * pf.group_stride;
          p.cout = taps * cout_g;
          p.nv = pf.nv;
          p.out = cols + p0 * ncols + grp * taps * cout_g;
          p.out_stride = ncols;
          HWY_DYNAMIC_DISPATCH(ConvTranspose2dGemm)(p);
        }
      });
      // Output rows this band reaches.
      int64_t oy0, oy1;
      band_rows_out(iy0, iy1, oy0, oy1);
      if (oy0 > oy1) continue;
      const size_t rows = size_t(oy1 - oy0 + 1);
      const size_t rchunks = ChunkCount(double(pixels) * ncols, rows, threads);
      ctx.parallel.Run(rchunks, 1, [&](size_t cb, size_t ce) {
        conv::Col2imParams p;
        p.cols = cols;
        p.iy0 = iy0, p.iy1 = iy1, p.in_w = g.in_w, p.ncols = ncols;
        p.kh = g.kernel_h, p.kw = g.kernel_w, p.sh = g.stride_h, p.sw = g.stride_w;
        p.dh = g.dilation_h, p.dw = g.dilation_w, p.pt = g.pad_top, p.pl = g.pad_left;
        p.ow = g.out_w, p.cout = g.out_channels, p.groups = groups, p.cout_g = cout_g;
        const memory::Scratch<float> row_buf(nchw_out ? size_t{g.out_w} * g.out_channels : 0,
                                             "convTranspose2d: an output row as nhwc");
        float* row_nhwc = row_buf.data();
        for (size_t r = cb * rows / rchunks; r < ce * rows / rchunks; ++r) {
          p.oy = size_t(oy0) + r;
          if (!nchw_out) {
            p.out_row = yn + p.oy * g.out_w * g.out_channels;
            HWY_DYNAMIC_DISPATCH(ConvTranspose2dCol2imRow)(p);
            continue;
          }
          fill_nhwc_row(row_nhwc);
          p.out_row = row_nhwc;
          HWY_DYNAMIC_DISPATCH(ConvTranspose2dCol2imRow)(p);
          HWY_DYNAMIC_DISPATCH(ConvTranspose2dTransposeBlock)(row_nhwc, g.out_channels, yn + p.oy * g.out_w,
                                                             out_pixels, 0, g.out_w, 0, g.out_channels);
        }
      });
    }
  }
}

// kernel == stride 2, no padding, dilation or groups: every output pixel gets
// exactly one tap, so the op is one GEMM on the nchw planes followed by a
// pixel shuffle, with no transposes (PP-OCR det's upsampling head).
bool IsPixelShuffle(const ConvTranspose2dGeometry& g) {
  return g.kernel_h == 2 && g.kernel_w == 2 && g.stride_h == 2 && g.stride_w == 2 && g.dilation_h == 1 &&
         g.dilation_w == 1 && g.groups == 1 && g.pad_top == 0 && g.pad_bottom == 0 && g.pad_left == 0 &&
         g.pad_right == 0 && g.out_h == 2 * g.in_h && g.out_w == 2 * g.in_w;
}

// Input rows per band of RunPixelShufflePlanes: C (m x rows * w floats) stays in L2.
size_t ShuffleBandRows(const ConvTranspose2dGeometry& g, size_t m) {
  return std::max<size_t>(1, (192 * 1024 / sizeof(float)) / (m * g.in_w));
}

// C[(o, ky, kx), p] = sum_i W[i, o, ky, kx] x[i, p] per band of input rows
// (C in L2), then out[o, 2y + ky, 2x + kx] = C[(o, ky, kx), y W + x] + b[o]:
// nchw output planes. `x_nhwc`: x is nhwc, read as the GEMM's transposed B
// (for one output channel, whose nhwc output is its one plane).
void RunPixelShufflePlanes(const KernelContext& ctx, const ConvTranspose2dGeometry& g,
                           const ConvTranspose2dAttrs& attrs, const TensorView& filter, const float* bias,
                           const float* x, bool x_nhwc, float* y) {
  const size_t cin = g.in_channels, cout = g.out_channels, m = cout * 4;
  // A = W as [(o, ky, kx), i], from any filter layout.
  const memory::Scratch<float> a(m * cin, "convTranspose2d: the filter as a matrix");
  const FilterReader f(attrs, filter);
  for (size_t i = 0; i < cin; ++i)
    for (size_t o = 0; o < cout; ++o)
      for (size_t ky = 0; ky < 2; ++ky)
        for (size_t kx = 0; kx < 2; ++kx) a[((o * 2 + ky) * 2 + kx) * cin + i] = f(i, o, ky, kx);
  const size_t plane = size_t{g.in_h} * g.in_w;
  const size_t band = ShuffleBandRows(g, m);
  const size_t bands_per_image = CeilDiv(g.in_h, band);
  const size_t items = size_t{g.batch} * bands_per_image;
  ctx.parallel.Run(items, 1, [&](size_t b0, size_t b1) {
    core::SerialFor serial;
    for (size_t item = b0; item < b1; ++item) {
      const size_t n = item / bands_per_image, y0 = item % bands_per_image * band;
      const size_t rows = std::min<size_t>(band, g.in_h - y0), cols = rows * g.in_w;
      const memory::Scratch<float> c_buf(m * cols, "convTranspose2d: a band's products");
      float* c = c_buf.data();
      const float* b = x_nhwc ? x + (n * plane + y0 * g.in_w) * cin : x + n * cin * plane + y0 * g.in_w;
      GemmF32(m, cols, cin, a.data(), cin, b, x_nhwc ? cin : plane, /*b_transposed=*/x_nhwc, c, cols, GemmEpilogue{},
              GemmOptions{}, serial);
      for (size_t o = 0; o < cout; ++o) {
        const float bo = bias ? bias[o] : 0.0f;
        float* out_plane = y + (n * cout + o) * size_t{g.out_h} * g.out_w;
        for (size_t r = 0; r < rows; ++r)
          for (size_t ky = 0; ky < 2; ++ky) {
            const float* row0 = c + ((o * 2 + ky) * 2 + 0) * cols + r * g.in_w;
            const float* row1 = c + ((o * 2 + ky) * 2 + 1) * cols + r * g.in_w;
            HWY_DYNAMIC_DISPATCH(ConvTranspose2dInterleave2)(row0, row1, bo,
                                                            out_plane + (2 * (y0 + r) + ky) * g.out_w, g.in_w);
          }
      }
    }
  });
}

// Whether a pixel shuffle (IsPixelShuffle) runs on nchw planes
// (RunPixelShufflePlanes) rather than nhwc rows (RunPixelShuffleNhwc).
bool ShuffleOnPlanes(const ConvTranspose2dAttrs& attrs, const ConvTranspose2dGeometry& g) {
  return attrs.inputLayout == MLInputOperandLayout::kNchw || g.out_channels == 1;
}

// Tap row ky's filter for RunPixelShuffleNhwc: columns (kx, o), 2 * cout of
// them, packed in IgemmNhwc panels [block][i][nv * lanes]; nv, floats per tap
// row, and floats of the bias as IgemmNhwc reads it (whole blocks).
struct ShuffleNhwcPacking {
  size_t nv, row_floats, bias_floats;
  ShuffleNhwcPacking(const ConvTranspose2dGeometry& g, const Tiling& t) {
    const size_t n2 = 2 * size_t{g.out_channels};
    nv = ChooseNv(n2, t);
    bias_floats = RoundUp(n2, nv * t.lanes);
    row_floats = bias_floats * g.in_channels;
  }
};

// IsPixelShuffle on nhwc: input pixel (y, x)'s products for tap row ky are
// output row 2y + ky's pixels 2x and 2x + 1, 2 * cout contiguous floats. So
// IgemmNhwc computes each tap row's straight into the output (its rows of
// 2 * cout floats, the bias repeated for kx = 0 and 1): no columns buffer,
// no bias fill, no col2im. RunNhwc's columns, bias fill (a memcpy per pixel)
// and col2im (an add of cout floats per tap) took 4.8 ms for PP-OCR det's
// 24 -> 1 upsampling to 640 x 640 under the nhwc layout pass, against 1.0 ms
// for RunPixelShufflePlanes on nchw planes (1 thread, Xeon). One output
// channel takes RunPixelShufflePlanes instead: 2 columns would leave 14 of
// 16 lanes idle here (3.3 ms).
void RunPixelShuffleNhwc(const KernelContext& ctx, const ConvTranspose2dGeometry& g,
                         const ConvTranspose2dAttrs& attrs, const TensorView& filter, const float* bias,
                         const float* x, float* y) {
  const Tiling& t = GetTiling();
  const size_t cin = g.in_channels, cout = g.out_channels, n2 = 2 * cout;
  const ShuffleNhwcPacking pk(g, t);
  const size_t nb = pk.nv * t.lanes;
  const memory::Scratch<float> w(2 * pk.row_floats, 0.0f, "convTranspose2d: the filter per tap row");
  const FilterReader f(attrs, filter);
  for (size_t ky = 0; ky < 2; ++ky)
    for (size_t i = 0; i < cin; ++i)
      for (size_t kx = 0; kx < 2; ++kx)
        for (size_t o = 0; o < cout; ++o) {
          const size_t col = kx * cout + o;
          w[ky * pk.row_floats + (col / nb) * cin * nb + i * nb + col % nb] = f(i, o, ky, kx);
        }
  const memory::Scratch<float> b2(bias ? pk.bias_floats : 0, 0.0f, "convTranspose2d: the bias per tap row");
  if (bias)
    for (size_t c = 0; c < n2; ++c) b2[c] = bias[c % cout];
  const size_t rows = size_t{g.batch} * g.in_h;
  const size_t chunks = ChunkCount(2.0 * rows * g.in_w * cin * 2 * n2, rows, ctx.parallel.NumThreads());
  ctx.parallel.Run(chunks, 1, [&](size_t cb, size_t ce) {
    const memory::Scratch<const float*> pointers(g.in_w, "convTranspose2d: input pointers");
    for (size_t r = cb * rows / chunks; r < ce * rows / chunks; ++r) {  // r = n * in_h + iy
      for (size_t ix = 0; ix < g.in_w; ++ix) pointers[ix] = x + (r * g.in_w + ix) * cin;
      const size_t n = r / g.in_h, iy = r % g.in_h;
      for (size_t ky = 0; ky < 2; ++ky) {
        conv::IgemmParams p;
        p.ind = pointers.data();
        p.pixels = g.in_w;
        p.taps = 1;
        p.cin = cin;
        p.weights = w.data() + ky * pk.row_floats;
        p.bias = bias ? b2.data() : nullptr;
        p.cout = n2;
        p.nv = pk.nv;
        p.out = y + ((n * g.out_h + 2 * iy + ky) * size_t{g.out_w}) * cout;
        p.out_stride = n2;
        HWY_DYNAMIC_DISPATCH(ConvTranspose2dGemm)(p);
      }
    }
  });
}

// What RunConvTranspose2d takes from the workspace (the allocations above)
// for `g`: `exact` (static shapes), on the path `g` takes; else for every
// smaller geometry too, so on either path.
memory::WorkspaceSize ConvTranspose2dWorkspace(const ConvTranspose2dAttrs& attrs, const ConvTranspose2dGeometry& g,
                                               bool exact, bool f16, uint64_t input_elements,
                                               uint64_t output_elements) {
  memory::WorkspaceSize ws;
  const bool nchw = attrs.inputLayout == MLInputOperandLayout::kNchw;
  if (f16) ws.AddShared<float>(input_elements), ws.AddShared<float>(output_elements);
  memory::WorkspaceSize shuffle, general;
  const bool pixel_shuffle = IsPixelShuffle(g);
  const bool planes = ShuffleOnPlanes(attrs, g);
  if (pixel_shuffle && !planes) {
    const ShuffleNhwcPacking pk(g, GetTiling());
    shuffle.AddShared<float>(2 * pk.row_floats);
    shuffle.AddShared<float>(pk.bias_floats);
    shuffle.AddPerWorker<const float*>(g.in_w);
  }
  if (pixel_shuffle && planes) {
    const size_t m = size_t{g.out_channels} * 4;
    // A band's columns: band rows * w <= max(w, 48K / m).
    const size_t cols = std::max<size_t>(g.in_w, (192 * 1024 / sizeof(float)) / m);
    shuffle.AddShared<float>(m * g.in_channels);
    shuffle.AddPerWorker<float>(m * cols);
    AddGemmWorkspace(shuffle, m, cols, g.in_channels, /*b_packed=*/false, /*b_transposed=*/!nchw, /*in_body=*/true);
  }
  if (!exact || !pixel_shuffle) {
    const size_t ncols = Ncols(g);
    const size_t pixels = size_t{g.in_h} * g.in_w;
    // nchw: the input as nhwc, then rows gathered nhwc per worker (rows
    // that do not overlap) or the whole output as nhwc.
    const bool rows_in_place = RowsDoNotOverlap(g);
    if (nchw) general.AddShared<float>(input_elements);
    if (nchw && (!exact || !rows_in_place)) general.AddShared<float>(output_elements);
    if (nchw && (!exact || rows_in_place)) general.AddPerWorker<float>(size_t{g.out_w} * g.out_channels);
    general.AddShared<float>(std::min(pixels * ncols, std::max<size_t>(size_t{g.in_w} * ncols, size_t{1} << 19)));
    general.AddShared<const float*>(pixels);
  }
  general.Max(shuffle);
  ws.shared += general.shared;
  ws.per_worker += general.per_worker;
  return ws;
}

void RunConvTranspose2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ConvTranspose2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& filter = ctx.inputs[1];
  const TensorView* bias_view = OptionalInput(ctx.inputs, 2);
  const TensorView& output = ctx.outputs[0];
  const ConvTranspose2dGeometry g = ComputeConvTranspose2dGeometry(attrs, input.shape, filter.shape);
  if (g.in_channels % g.groups != 0)
    throw NotSupportedError(
        core::StrCat("convTranspose2d: input channels ", g.in_channels, " are not divisible by groups ", g.groups));
  if (output.elements() == 0) return;

  const auto* prepared = static_cast<const ConvTranspose2dPrepared*>(ctx.prepared);
  std::optional<PackedFilter> local_filter;
  const PackedFilter* pf = prepared && prepared->filter ? &*prepared->filter : nullptr;
  if (!pf) pf = &local_filter.emplace(PackFilter(attrs, filter));
  std::optional<std::vector<float>> local_bias;
  const float* bias = nullptr;
  if (bias_view) {
    if (prepared && prepared->bias) bias = prepared->bias->data();
    else bias = local_bias.emplace(PackBias(*bias_view)).data();
  }
  // A filter (or bias) that is not a constant, packed for this dispatch.
  const memory::Charge local_charge = memory::ChargeRunMemory(
      (local_filter ? local_filter->weights.capacity() : 0) * sizeof(float) +
          (local_bias ? local_bias->capacity() : 0) * sizeof(float),
      "convTranspose2d: packing a filter that is not a constant");

  const bool f16 = input.type == DataType::kFloat16;
  const bool nchw = attrs.inputLayout == MLInputOperandLayout::kNchw;
  const float* x = input.as<float>();
  const memory::Scratch<float> x32(f16 ? input.elements() : 0, "convTranspose2d: float16 input as float32");
  if (f16) {
    ConvertF16ToF32(input.as<uint16_t>(), x32.data(), input.elements(), ctx.parallel);
    x = x32.data();
  }
  // The float32 nchw output of a float16 op (converted at the end).
  const memory::Scratch<float> y32(f16 ? output.elements() : 0, "convTranspose2d: float32 output");
  if (IsPixelShuffle(g)) {
    float* y = f16 ? y32.data() : output.as<float>();
    if (ShuffleOnPlanes(attrs, g)) RunPixelShufflePlanes(ctx, g, attrs, filter, bias, x, /*x_nhwc=*/!nchw, y);
    else RunPixelShuffleNhwc(ctx, g, attrs, filter, bias, x, y);
    ApplyFusedActivation(attrs.activation, y, output.elements(), ctx.parallel);
    if (f16) ConvertF32ToF16(y, output.as<uint16_t>(), output.elements(), ctx.parallel);
    return;
  }
  const size_t in_image = size_t{g.in_channels} * g.in_h * g.in_w;
  const size_t out_image = size_t{g.out_channels} * g.out_h * g.out_w;
  const memory::Scratch<float> xt(nchw ? input.elements() : 0, "convTranspose2d: input as nhwc");
  if (nchw) {
    for (size_t n = 0; n < g.batch; ++n)
      Transpose(ctx, x + n * in_image, g.in_channels, size_t{g.in_h} * g.in_w, xt.data() + n * in_image);
    x = xt.data();
  }
  if (nchw && RowsDoNotOverlap(g)) {
    // Rows finished per band, transposed into the nchw output in cache.
    float* y = f16 ? y32.data() : output.as<float>();
    RunNhwc(ctx, g, *pf, bias, x, y, /*nchw_out=*/true);
    ApplyFusedActivation(attrs.activation, y, output.elements(), ctx.parallel);
    if (f16) ConvertF32ToF16(y, output.as<uint16_t>(), output.elements(), ctx.parallel);
    return;
  }
  const memory::Scratch<float> y_nhwc(nchw ? output.elements() : 0, "convTranspose2d: output as nhwc");
  float* y = nchw ? y_nhwc.data() : f16 ? y32.data() : output.as<float>();
  RunNhwc(ctx, g, *pf, bias, x, y);
  if (nchw) {
    float* dst = f16 ? y32.data() : output.as<float>();
    for (size_t n = 0; n < g.batch; ++n)
      Transpose(ctx, y + n * out_image, size_t{g.out_h} * g.out_w, g.out_channels, dst + n * out_image);
    y = dst;
  }
  ApplyFusedActivation(attrs.activation, y, output.elements(), ctx.parallel);
  if (f16) ConvertF32ToF16(y, output.as<uint16_t>(), output.elements(), ctx.parallel);
}

}  // namespace

void RegisterConvTranspose2dKernels(OpKind op, KernelRegistry& registry) {
  for (const DataType type : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{type};
    registry.Add(CpuKernel{op, &RunConvTranspose2d, &PrepareConvTranspose2d, {s, s, s}, {s}});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
