// The device's kernels of the conv2d family against the reference device.
//
// Tolerance is WPT's for conv2d: ULP = 2 * (input channels / groups) *
// filter height * filter width, for float32 and float16 alike. Inputs are
// drawn from [0, 1) (as WPT's are) unless a case says otherwise: with mixed
// signs a sum can cancel to near zero, where any float32 rounding is many ULP
// of the result.
#include <algorithm>
#include <optional>
#include <sstream>

#include "cross_device.h"
#include "ops/cpu/tuning.h"

using namespace webnn;
using namespace webnn::test;

namespace {

struct ConvCase {
  uint32_t batch = 1, cin = 1, h = 1, w = 1, cout = 1, kh = 1, kw = 1;
  uint32_t groups = 1;
  std::vector<uint32_t> padding = {0, 0, 0, 0}, strides = {1, 1}, dilations = {1, 1};
  bool nhwc = false;
  MLConv2dFilterOperandLayout filter_layout = MLConv2dFilterOperandLayout::kOihw;
  bool bias = false;
  bool constant_filter = true;
  MLOperandDataType type = MLOperandDataType::kFloat32;
  double lo = 0, hi = 1;
  double special_fraction = 0;
  double filter_special_fraction = 0;
};

std::vector<uint32_t> FilterShape(const ConvCase& c) {
  const uint32_t i = c.cin / c.groups;
  switch (c.filter_layout) {
    case MLConv2dFilterOperandLayout::kOihw: return {c.cout, i, c.kh, c.kw};
    case MLConv2dFilterOperandLayout::kHwio: return {c.kh, c.kw, i, c.cout};
    case MLConv2dFilterOperandLayout::kOhwi: return {c.cout, c.kh, c.kw, i};
    case MLConv2dFilterOperandLayout::kIhwo: return {i, c.kh, c.kw, c.cout};
  }
  return {};
}

std::string Describe(const ConvCase& c) {
  std::ostringstream os;
  os << "conv2d n" << c.batch << " cin" << c.cin << " " << c.h << "x" << c.w << " cout" << c.cout << " k" << c.kh
     << "x" << c.kw << " g" << c.groups << " pad" << c.padding[0] << c.padding[1] << c.padding[2] << c.padding[3]
     << " s" << c.strides[0] << c.strides[1] << " d" << c.dilations[0] << c.dilations[1]
     << (c.nhwc ? " nhwc" : " nchw") << " filter" << int(c.filter_layout) << (c.bias ? " bias" : "")
     << (c.constant_filter ? " const" : " nonconst") << (c.type == MLOperandDataType::kFloat16 ? " f16" : " f32");
  return os.str();
}

// With +-65504 and 3e38 among the values, sums cancel: +-65504 * w - 65504 * w'
// leaves float32 rounding of 65504 on a small result. These cases check where
// NaN and +-Inf appear; finite values only to 1e32 (3e38 * 2^-23).
const Tolerance kSpecialTolerance = Tolerance::Atol(1e32);

void Check(const ConvCase& c, uint64_t seed, std::optional<Tolerance> tolerance = std::nullopt,
           MLDeviceType device = DeviceUnderTest()) {
  const std::vector<uint32_t> in_shape =
      c.nhwc ? std::vector<uint32_t>{c.batch, c.h, c.w, c.cin} : std::vector<uint32_t>{c.batch, c.cin, c.h, c.w};
  std::vector<InputSpec> specs = {
      InputSpec{c.type, in_shape, c.lo, c.hi, c.special_fraction, false},
      InputSpec{c.type, FilterShape(c), c.lo, c.hi, c.filter_special_fraction, c.constant_filter},
  };
  if (c.bias) specs.push_back(InputSpec{c.type, {c.cout}, c.lo, c.hi, 0, c.constant_filter});
  const double ulp = 2.0 * (c.cin / c.groups) * c.kh * c.kw;
  CheckAgainstReference(device, Describe(c), specs,
                        [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                          MLConv2dOptions o;
                          o.padding = c.padding;
                          o.strides = c.strides;
                          o.dilations = c.dilations;
                          o.groups = c.groups;
                          o.inputLayout = c.nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                          o.filterLayout = c.filter_layout;
                          if (c.bias) o.bias = in[2];
                          return MLNamedOperands{{"out", b.conv2d(in[0], in[1], o)}};
                        },
                        tolerance.value_or(Tolerance::Ulp(ulp)), seed);
}

constexpr MLConv2dFilterOperandLayout kLayouts[] = {
    MLConv2dFilterOperandLayout::kOihw, MLConv2dFilterOperandLayout::kHwio, MLConv2dFilterOperandLayout::kOhwi,
    MLConv2dFilterOperandLayout::kIhwo};

// A random valid convolution: channels, groups, kernel, padding, strides and
// dilations such that the output has at least one pixel.
ConvCase RandomCase(std::mt19937_64& rng, bool depthwise) {
  ConvCase c;
  auto pick = [&](uint32_t lo, uint32_t hi) { return lo + static_cast<uint32_t>(rng() % (hi - lo + 1)); };
  c.batch = pick(1, 2);
  c.groups = depthwise ? pick(1, 20) : (rng() % 3 == 0 ? pick(1, 3) : 1);
  c.cin = c.groups * (depthwise ? 1 : pick(1, 9));
  c.cout = c.groups * (depthwise ? 1 : pick(1, 21));
  c.kh = pick(1, 5);
  c.kw = pick(1, 5);
  c.strides = {pick(1, 3), pick(1, 3)};
  c.dilations = {rng() % 4 == 0 ? 2u : 1u, rng() % 4 == 0 ? 2u : 1u};
  c.padding = {pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2)};
  const uint32_t eff_h = (c.kh - 1) * c.dilations[0] + 1, eff_w = (c.kw - 1) * c.dilations[1] + 1;
  c.h = std::max<uint32_t>(pick(1, 19), eff_h > c.padding[0] + c.padding[1] ? eff_h - c.padding[0] - c.padding[1] : 1);
  c.w = std::max<uint32_t>(pick(1, 37), eff_w > c.padding[2] + c.padding[3] ? eff_w - c.padding[2] - c.padding[3] : 1);
  c.nhwc = rng() % 2;
  c.filter_layout = kLayouts[rng() % 4];
  c.bias = rng() % 2;
  c.constant_filter = rng() % 4 != 0;
  return c;
}

}  // namespace

TEST_CASE("conv2d float32 matches reference on random shapes", "[device][conv2d]") {
  std::mt19937_64 rng(1234);
  for (int trial = 0; trial < 60; ++trial) {
    const ConvCase c = RandomCase(rng, false);
    Check(c, rng());
  }
}

TEST_CASE("conv2d depthwise float32 matches reference on random shapes", "[device][conv2d]") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const ConvCase c = RandomCase(rng, true);
    Check(c, rng());
  }
}

TEST_CASE("conv2d float16 matches reference", "[device][conv2d]") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 24; ++trial) {
    ConvCase c = RandomCase(rng, trial % 3 == 0);
    c.type = MLOperandDataType::kFloat16;
    Check(c, rng());
  }
}

TEST_CASE("conv2d size-1 and 1x1 cases", "[device][conv2d]") {
  for (const bool nhwc : {false, true}) {
    ConvCase c;
    c.nhwc = nhwc;
    Check(c, 1);  // 1x1x1x1 * 1x1x1x1
    c.cin = 37, c.cout = 19, c.h = 5, c.w = 7, c.bias = true;
    Check(c, 2);  // 1x1 convolution = GEMM, odd channel counts
    c.padding = {1, 0, 0, 2};
    Check(c, 3);  // 1x1 with padding
    c.strides = {2, 3};
    Check(c, 4);
    // Left and right padding at horizontal stride 1: rows of the padded copy
    // share padding columns only as far as the kernel reaches past its first
    // column (none for 1x1: the padding columns are output columns).
    c.padding = {1, 0, 1, 1}, c.strides = {2, 1};
    Check(c, 5);
    c.kh = 3, c.kw = 2, c.padding = {0, 0, 2, 2}, c.strides = {1, 1};
    Check(c, 6);
  }
}

TEST_CASE("conv2d real layer shapes", "[device][conv2d]") {
  for (const bool nhwc : {false, true}) {
    ConvCase c;  // ResNet 3x3
    c.nhwc = nhwc;
    c.cin = 64, c.cout = 64, c.h = 28, c.w = 28, c.kh = 3, c.kw = 3, c.padding = {1, 1, 1, 1}, c.bias = true;
    Check(c, 10);
    ConvCase p = c;  // 1x1 bottleneck
    p.cin = 256, p.kh = 1, p.kw = 1, p.padding = {0, 0, 0, 0};
    Check(p, 11);
    ConvCase d = c;  // MobileNet depthwise, stride 2
    d.cin = 32, d.cout = 32, d.groups = 32, d.h = 56, d.w = 56, d.strides = {2, 2};
    Check(d, 12);
    d.strides = {1, 1}, d.kh = 5, d.kw = 5, d.padding = {2, 2, 2, 2}, d.cin = d.cout = d.groups = 96, d.h = d.w = 40;
    Check(d, 13);
    ConvCase deep = c;  // ResNet conv4_x 3x3 at 14x14 (nchw goes through nhwc)
    deep.cin = 96, deep.cout = 80, deep.h = deep.w = 14;
    Check(deep, 15);
    deep.h = deep.w = 7, deep.strides = {2, 2}, deep.padding = {0, 1, 0, 1};
    Check(deep, 16);
    ConvCase s = c;  // PP-OCR det stem: 3 -> 16, stride 2
    s.cin = 3, s.cout = 16, s.h = 160, s.w = 160, s.strides = {2, 2};
    Check(s, 14);
  }
}

// IgemmNhwc's tiles by channel and pixel count (AVX-512): 7 pixels x 64
// channels where pixels are multiples of 7 and channels of 64, 8 pixels x
// 8-lane vectors for channel counts of 8, 16, 24 per group; with tails of
// pixels and channels, groups, dilation, strides, padding and batch 2, in both
// layouts (nchw reaches IgemmNhwc for small output planes).
TEST_CASE("conv2d shapes of the cpu's implicit-GEMM tile variants", "[device][conv2d]") {
  uint64_t seed = 60;
  for (const bool nhwc : {false, true}) {
    ConvCase wide;  // 14x14 -> 196 pixels = 28 x 7, 64 channels
    wide.nhwc = nhwc;
    wide.cin = 40, wide.cout = 64, wide.h = wide.w = 14, wide.kh = wide.kw = 3, wide.padding = {1, 1, 1, 1};
    wide.bias = true;
    Check(wide, ++seed);
    ConvCase w2 = wide;  // channel tail (125 = 64 + 61), pixel tail (2 x 13 x 10 = 260 = 37 x 7 + 1)
    w2.cout = 125, w2.h = 13, w2.w = 11, w2.batch = 2, w2.padding = {0, 2, 1, 0};
    Check(w2, ++seed);
    ConvCase w3 = wide;  // groups of 64 output channels, dilation, stride
    w3.cin = 24, w3.cout = 128, w3.groups = 2, w3.h = w3.w = 15, w3.dilations = {2, 1}, w3.strides = {1, 2};
    Check(w3, ++seed);
    ConvCase half;  // PP-OCR det 96 -> 24 (a smaller plane)
    half.nhwc = nhwc;
    half.cin = 96, half.cout = 24, half.h = half.w = 20, half.kh = half.kw = 3, half.padding = {1, 1, 1, 1};
    half.bias = true;
    Check(half, ++seed);
    for (const uint32_t cout : {8u, 16u, 13u}) {  // one, two, two vectors with a tail
      ConvCase h2 = half;
      h2.cin = 7, h2.cout = cout, h2.h = 9, h2.w = 10, h2.batch = 2, h2.padding = {2, 0, 0, 1}, h2.strides = {2, 1};
      Check(h2, ++seed);
    }
    ConvCase h3 = half;  // groups of 8 output channels, dilation
    h3.cin = 9, h3.cout = 24, h3.groups = 3, h3.h = 11, h3.w = 12, h3.dilations = {1, 2};
    Check(h3, ++seed);
  }
}

TEST_CASE("conv2d NaN, infinities and signed zeros", "[device][conv2d]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 24; ++trial) {
    ConvCase c = RandomCase(rng, (trial / 2) % 2 == 0);
    // Small reductions: extreme finite values must not meet in one sum (the
    // float64 reference does not overflow where float32 does).
    c.cin = c.groups;
    c.kh = std::min<uint32_t>(c.kh, 2), c.kw = std::min<uint32_t>(c.kw, 2);
    // Specials in the input or in the filter, never both: 3e38 * 65504
    // overflows float32 but not the float64 reference. NaN/Inf weights on
    // padding taps must give NaN, as in the reference.
    c.special_fraction = trial % 2 ? 0 : 0.05;
    c.filter_special_fraction = trial % 2 ? 0.2 : 0;
    Check(c, rng(), kSpecialTolerance);
  }
}

TEST_CASE("conv2d NaN and infinite weights on padding taps give NaN", "[device][conv2d]") {
  // The reference multiplies padding as zeros: 0 * NaN and 0 * Inf are NaN.
  for (const bool nhwc : {false, true})
    for (const bool depthwise : {false, true})
      for (const uint32_t stride : {1u, 2u}) {
        ConvCase c;
        c.nhwc = nhwc;
        c.cin = c.cout = 24;
        c.groups = depthwise ? 24 : 1;
        c.h = 9, c.w = 21, c.kh = c.kw = 3, c.padding = {1, 1, 2, 1}, c.strides = {stride, stride};
        c.filter_special_fraction = 0.1;
        c.bias = true;
        Check(c, 40 + stride, kSpecialTolerance);
      }
}

// Depthwise nhwc at horizontal stride 1 or 2 with kernel width 3 or 5 (the
// cpu's sliding-window kernel): rows long enough for interior blocks (no padding
// in their window; padding rows skipped for finite weights) between the edge
// blocks, channel counts with full two-vector blocks and a tail, asymmetric
// padding, vertical stride 2 and dilation, and NaN/Inf weights (every block
// then multiplies its padding, as the reference does).
TEST_CASE("conv2d depthwise nhwc sliding window: interior and edge blocks", "[device][conv2d]") {
  uint64_t seed = 60;
  for (const uint32_t k : {3u, 5u})
    for (const uint32_t channels : {32u, 35u, 67u})
      for (const bool special : {false, true}) {
        ConvCase c;
        c.nhwc = true;
        c.filter_layout = MLConv2dFilterOperandLayout::kOhwi;
        c.cin = c.cout = c.groups = channels;
        c.h = 7, c.w = 41, c.kh = k, c.kw = k;
        c.padding = {k / 2, k / 2 + 1, k / 2 + 1, k / 2};
        c.bias = true;
        c.filter_special_fraction = special ? 0.05 : 0;
        Check(c, ++seed, special ? std::optional(kSpecialTolerance) : std::nullopt);
        c.strides = {2, 1}, c.dilations = {2, 1}, c.h = 12;
        Check(c, ++seed, special ? std::optional(kSpecialTolerance) : std::nullopt);
        c.strides = {1, 2}, c.dilations = {1, 1}, c.w = 45;  // horizontal stride 2: odd and even tails
        Check(c, ++seed, special ? std::optional(kSpecialTolerance) : std::nullopt);
        c.strides = {2, 2}, c.w = 38;
        Check(c, ++seed, special ? std::optional(kSpecialTolerance) : std::nullopt);
      }
}

// Depthwise nchw 3x3 and 5x5 at strides 1 and 2 without dilation (the cpu's
// unrolled kernels): row widths from one lane to several tiles of up to 5
// vectors, with and without a partial last vector (16-, 8- and 4-lane
// targets), heights that leave 0, 1 and 2 rows after blocks of 3, no padding
// (at stride 1 the plane read in place) and asymmetric padding, batch 2,
// float16, and NaN/Inf in the input and the weights (padding taps multiply
// them too).
TEST_CASE("conv2d depthwise nchw 3x3 and 5x5 at strides 1 and 2: tile widths and row remainders",
          "[device][conv2d]") {
  uint64_t seed = 120;
  const std::vector<std::vector<uint32_t>> strides = {{1, 1}, {2, 2}, {2, 1}, {1, 2}};
  for (const uint32_t k : {3u, 5u})
    for (const uint32_t w : {1u, 3u, 16u, 17u, 33u, 48u, 80u, 81u, 97u, 161u})
      for (const uint32_t h : {1u, 5u, 6u, 7u}) {
        ConvCase c;
        c.cin = c.cout = c.groups = 3;
        c.strides = strides[(w + h + k) % strides.size()];
        c.h = c.strides[0] == 2 ? 2 * h + 1 : h, c.w = c.strides[1] == 2 ? 2 * w + 1 : w, c.kh = c.kw = k;
        c.bias = (w + h) % 2 == 0;
        const bool pad = w % 2 == 1 || c.w + 1 < k;
        if (pad) c.padding = {k / 2, k / 2 + 1, k / 2 + 1, k / 2};
        if (!pad && c.h + 1 < k) c.h = k;
        c.batch = w == 33 ? 2 : 1;
        c.type = h == 6 && w == 48 ? MLOperandDataType::kFloat16 : MLOperandDataType::kFloat32;
        Check(c, ++seed);
      }
  // Specials in the input or in the weights, not both: 3e38 * 3e38 terms
  // overflow float32 sums in an order-dependent way (Inf or NaN) where the
  // float64 reference does not.
  for (const uint32_t k : {3u, 5u})
    for (const bool in_input : {false, true}) {
      ConvCase c;
      c.cin = c.cout = c.groups = 4;
      c.h = 8, c.w = 37, c.kh = c.kw = k, c.padding = {k / 2, k / 2, k / 2, k / 2}, c.bias = true;
      if (in_input) c.strides = {2, 2};
      (in_input ? c.special_fraction : c.filter_special_fraction) = 0.05;
      Check(c, ++seed, kSpecialTolerance);
    }
}

// Thin nhwc layers (the cpu's tall IgemmNhwc tile on AVX-512: at most 16
// output channels, a filter row's merged taps of at most 12 channels): 1-4
// input channels, 5 and 16 output channels, strides 1 and 2, pixel counts
// that leave a partial tile, batch 2 (the pointers step across rows and
// images), finite and NaN/Inf weights.
TEST_CASE("conv2d thin nhwc layers", "[device][conv2d]") {
  uint64_t seed = 80;
  for (const uint32_t cin : {1u, 2u, 3u, 4u})
    for (const uint32_t cout : {5u, 16u})
      for (const uint32_t stride : {1u, 2u}) {
        ConvCase c;
        c.nhwc = true;
        c.filter_layout = MLConv2dFilterOperandLayout::kOhwi;
        c.batch = 2, c.cin = cin, c.cout = cout, c.h = 13, c.w = 27, c.kh = c.kw = 3;
        c.padding = {1, 1, 1, 1}, c.strides = {stride, stride}, c.bias = true;
        Check(c, ++seed);
        c.filter_special_fraction = 0.05;
        Check(c, ++seed, kSpecialTolerance);
      }
}

// Subnormal float32 filter values: a device keeps them or treats them as
// zeros, as its FloatBehaviour says (the cpu device flushes them, and a
// device that does not keep float32 denormals at all, the gpu on an NVIDIA
// driver, may do either). Inputs of ~1e37 make their products ~0.01, so the
// two readings differ by far more than the tolerance, whichever path (nchw,
// nhwc, depthwise) runs.
TEST_CASE("conv2d subnormal filter values", "[device][conv2d]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> in_values(1e37f, 2e37f), sub(1e-39f, 1.1e-38f);
  for (const bool nhwc : {false, true})
    for (const uint32_t groups : {1u, 4u}) {
      const uint32_t c = 4, h = 5, w = 6, oc = 4, k = 3;
      std::vector<float> x(c * h * w), f(oc * (c / groups) * k * k);
      for (float& v : x) v = in_values(rng);
      for (size_t i = 0; i < f.size(); ++i) f[i] = (i % 3 ? 1.0f : -1.0f) * (i % 5 == 4 ? 0.0f : sub(rng));
      const std::vector<uint32_t> in_shape = nhwc ? std::vector<uint32_t>{1, h, w, c} : std::vector<uint32_t>{1, c, h, w};
      const std::vector<uint32_t> f_shape = nhwc ? std::vector<uint32_t>{oc, k, k, c / groups}
                                                 : std::vector<uint32_t>{oc, c / groups, k, k};
      auto body = [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        MLConv2dOptions o;
        o.padding = std::vector<uint32_t>{1, 1, 1, 1};
        o.groups = groups;
        o.inputLayout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
        o.filterLayout = nhwc ? MLConv2dFilterOperandLayout::kOhwi : MLConv2dFilterOperandLayout::kOihw;
        return MLNamedOperands{{"out", b.conv2d(in[0], in[1], o)}};
      };
      HostTensor filter = Tensor(MLOperandDataType::kFloat32, f_shape, f);
      const HostTensor input = Tensor(MLOperandDataType::kFloat32, in_shape, x);
      const std::vector<float> got = FromBytes<float>(Run(DeviceUnderTest(), {input, filter}, body).at("out").data);
      const std::vector<float> kept =
          FromBytes<float>(Run(MLDeviceType::kReference, {input, filter}, body).at("out").data);
      FlushFloat32Denormals(filter.data);
      const std::vector<float> flushed =
          FromBytes<float>(Run(MLDeviceType::kReference, {input, filter}, body).at("out").data);
      REQUIRE(got.size() == kept.size());
      auto matches = [&](const std::vector<float>& want) {
        for (size_t i = 0; i < got.size(); ++i)
          if (!(std::abs(got[i] - want[i]) <= 1e-5 * (std::abs(want[i]) + 1e-3))) return false;
        return true;
      };
      INFO((nhwc ? "nhwc" : "nchw") << " groups " << groups);
      // Every output has a subnormal tap, so the readings differ everywhere.
      REQUIRE(std::count(kept.begin(), kept.end(), 0.0f) == 0);
      REQUIRE(std::count(flushed.begin(), flushed.end(), 0.0f) == static_cast<std::ptrdiff_t>(flushed.size()));
      if (DeviceKeepsFloat32DenormalFilters())
        CHECK(matches(kept));
      else if (DeviceKeepsFloat32Denormals())  // flushes filters on purpose: always
        CHECK(matches(flushed));
      else
        CHECK((matches(kept) || matches(flushed)));
    }
}

// DirectNchw at stride 1 reads the padding in place (AVX2 and AVX-512): the
// q-space pitch is the input width and lanes whose tap falls on padding load
// zeros. Same padding, padding on one side only (outputs narrower than the
// input: dropped columns), dilation, one-row planes, rows exactly a multiple
// of the vector (row mode), tails of pixels and of output-channel blocks,
// groups, batch 2, and NaN/Inf weights on padding taps.
TEST_CASE("conv2d nchw stride-1 padding (read in place on cpu)", "[device][conv2d]") {
  ConvCase base;
  base.cin = 16, base.cout = 20, base.h = 30, base.w = 33, base.kh = base.kw = 3, base.padding = {1, 1, 1, 1};
  base.bias = true;
  uint64_t seed = 90;
  Check(base, ++seed);
  ConvCase c = base;
  c.padding = {2, 0, 0, 2};  // all top, all right: ow = w
  Check(c, ++seed);
  c.padding = {0, 1, 1, 0};  // ow = w - 1
  Check(c, ++seed);
  c.padding = {2, 2, 2, 2}, c.dilations = {2, 2};
  Check(c, ++seed);
  c = base;
  c.h = 1, c.w = 70;  // every tap row but the middle on padding
  Check(c, ++seed);
  c = base;
  c.kh = c.kw = 5, c.padding = {2, 2, 2, 2}, c.h = 7, c.w = 32, c.batch = 2, c.cin = 12, c.cout = 18, c.groups = 2;
  Check(c, ++seed);
  c.w = 48, c.h = 5, c.groups = 1, c.cout = 9;
  Check(c, ++seed);
  c = base;
  c.filter_special_fraction = 0.1, c.h = 9, c.w = 21;
  Check(c, ++seed, kSpecialTolerance);
  // Specials in the input: one channel and a 2x2 kernel, so that extreme
  // finite values do not meet in one sum (see the test above).
  c.filter_special_fraction = 0, c.special_fraction = 0.05, c.cin = 1, c.kh = c.kw = 2, c.padding = {1, 0, 0, 1};
  Check(c, ++seed, kSpecialTolerance);
}

// ---- the cpu device's tuning candidates (ops/cpu/tuning.h) ----

namespace {

ops::Conv2dAttrs AttrsOf(const ConvCase& c) {
  ops::Conv2dAttrs a;
  a.padding = c.padding;
  a.strides = c.strides;
  a.dilations = c.dilations;
  a.groups = c.groups;
  a.inputLayout = c.nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
  a.filterLayout = c.filter_layout;
  return a;
}

std::vector<uint32_t> InputShape(const ConvCase& c) {
  return c.nhwc ? std::vector<uint32_t>{c.batch, c.h, c.w, c.cin} : std::vector<uint32_t>{c.batch, c.cin, c.h, c.w};
}

// Puts the process's tuning table back when a test ends, passed or not.
struct RestoreTuningTable {
  std::shared_ptr<const ops::cpu::TuningTable> saved = ops::cpu::CurrentTuningTable();
  ~RestoreTuningTable() { ops::cpu::SetTuningTable(saved); }
};

void ForceTuning(const std::string& key, const std::string& candidate) {
  auto table = std::make_shared<ops::cpu::TuningTable>();
  table->choices[key] = candidate;
  ops::cpu::SetTuningTable(table);
}

}  // namespace

// Every path and tile a tuning table can give a layer, each compiled with a
// table that forces it and checked against the reference: random layers,
// plus the shapes that offer the wide, half and tall implicit-GEMM tiles
// (AVX-512) and every DirectNchw block height.
TEST_CASE("cpu conv2d: every tuning candidate matches reference", "[cpu][conv2d][tune]") {
  const RestoreTuningTable restore;
  std::vector<ConvCase> cases;
  std::mt19937_64 rng(4321);
  for (int i = 0; i < 24; ++i) cases.push_back(RandomCase(rng, false));
  for (const bool nhwc : {false, true}) {
    ConvCase wide;  // 14x14, 40 -> 64: wide and std tiles, DirectNchw 1..8 rows
    wide.nhwc = nhwc, wide.cin = 40, wide.cout = 64, wide.h = wide.w = 14, wide.kh = wide.kw = 3;
    wide.padding = {1, 1, 1, 1}, wide.bias = true;
    cases.push_back(wide);
    ConvCase half = wide;  // 96 -> 24 at 20x20, batch 2, channel and pixel tails
    half.cin = 96, half.cout = 24, half.h = 20, half.w = 19, half.batch = 2;
    cases.push_back(half);
    ConvCase stem;  // 3 -> 16 stride 2: the tall tile (a tap's filter in registers)
    stem.nhwc = nhwc, stem.cin = 3, stem.cout = 16, stem.h = stem.w = 33, stem.kh = stem.kw = 3;
    stem.strides = {2, 2}, stem.padding = {1, 1, 1, 1}, stem.bias = true;
    cases.push_back(stem);
    ConvCase grouped = wide;  // groups, dilation, 1x1 pixels
    grouped.cin = 24, grouped.cout = 36, grouped.groups = 3, grouped.dilations = {2, 1}, grouped.h = 9, grouped.w = 7;
    cases.push_back(grouped);
  }
  size_t with_choices = 0;
  uint64_t seed = 900;
  for (const ConvCase& c : cases) {
    const ops::Conv2dAttrs attrs = AttrsOf(c);
    const std::string key = ops::cpu::Conv2dTuningKey(attrs, InputShape(c), FilterShape(c));
    const std::vector<std::string> candidates = ops::cpu::Conv2dTuningCandidates(attrs, InputShape(c), FilterShape(c));
    REQUIRE(!candidates.empty());
    with_choices += candidates.size() > 1;
    for (const std::string& candidate : candidates) {
      INFO(Describe(c) << " forced to " << candidate);
      ForceTuning(key, candidate);
      CHECK(ops::cpu::Conv2dTuningChoice(attrs, InputShape(c), FilterShape(c)) == candidate);
      Check(c, ++seed, std::nullopt, MLDeviceType::kCpu);
    }
  }
  CHECK(with_choices >= 8);  // the fixed cases all have a choice on every target
}

TEST_CASE("cpu conv2d: a tuning table's choice that is not a candidate leaves the model's", "[cpu][conv2d][tune]") {
  const RestoreTuningTable restore;
  ConvCase c;
  c.cin = 40, c.cout = 64, c.h = c.w = 14, c.kh = c.kw = 3, c.padding = {1, 1, 1, 1};
  const ops::Conv2dAttrs attrs = AttrsOf(c);
  const std::string key = ops::cpu::Conv2dTuningKey(attrs, InputShape(c), FilterShape(c));
  CHECK(key == "conv2d nchw 1x40x14x14 -> 64 k3x3 g1 s1,1 d1,1 p1,1,1,1");
  const std::vector<std::string> candidates = ops::cpu::Conv2dTuningCandidates(attrs, InputShape(c), FilterShape(c));
  ops::cpu::SetTuningTable(nullptr);
  CHECK(ops::cpu::Conv2dTuningChoice(attrs, InputShape(c), FilterShape(c)) == candidates.front());
  // A tile another SIMD target has, or a misspelt name: the model decides.
  for (const std::string bogus : {"igemm-nchw std 99px*1ch", "direct-nchw 3ch*1px", ""}) {
    ForceTuning(key, bogus);
    CHECK(ops::cpu::Conv2dTuningChoice(attrs, InputShape(c), FilterShape(c)) == candidates.front());
  }
  // Another layer's entry changes nothing here.
  ForceTuning("conv2d nchw 1x40x14x14 -> 64 k3x3 g1 s1,1 d1,1 p0,0,0,0", candidates.back());
  CHECK(ops::cpu::Conv2dTuningChoice(attrs, InputShape(c), FilterShape(c)) == candidates.front());
  Check(c, 77, std::nullopt, MLDeviceType::kCpu);
}
