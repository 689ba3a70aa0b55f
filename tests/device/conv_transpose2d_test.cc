// The device's kernels of the conv_transpose2d family against the reference device.
//
// Tolerance is WPT's for convTranspose2d: ULP = 2 * (input channels / groups)
// * filter height * filter width, for float32 and float16 alike. Inputs are
// drawn from [0, 1) as WPT's are (mixed signs cancel to near zero, where any
// float32 rounding is many ULP of the result).
#include <algorithm>
#include <optional>
#include <tuple>
#include <sstream>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

struct ConvTCase {
  uint32_t batch = 1, cin = 1, h = 1, w = 1, cout_g = 1, kh = 1, kw = 1;
  uint32_t groups = 1;
  std::vector<uint32_t> padding = {0, 0, 0, 0}, strides = {1, 1}, dilations = {1, 1}, output_padding = {0, 0};
  std::optional<std::vector<uint32_t>> output_sizes;
  bool nhwc = false;
  MLConvTranspose2dFilterOperandLayout filter_layout = MLConvTranspose2dFilterOperandLayout::kIohw;
  bool bias = false;
  bool constant_filter = true;
  MLOperandDataType type = MLOperandDataType::kFloat32;
  double special_fraction = 0, filter_special_fraction = 0;
};

std::vector<uint32_t> FilterShape(const ConvTCase& c) {
  switch (c.filter_layout) {
    case MLConvTranspose2dFilterOperandLayout::kIohw: return {c.cin, c.cout_g, c.kh, c.kw};
    case MLConvTranspose2dFilterOperandLayout::kHwoi: return {c.kh, c.kw, c.cout_g, c.cin};
    case MLConvTranspose2dFilterOperandLayout::kOhwi: return {c.cout_g, c.kh, c.kw, c.cin};
  }
  return {};
}

std::string Describe(const ConvTCase& c) {
  std::ostringstream os;
  os << "convTranspose2d n" << c.batch << " cin" << c.cin << " " << c.h << "x" << c.w << " cout/g" << c.cout_g << " k"
     << c.kh << "x" << c.kw << " g" << c.groups << " pad" << c.padding[0] << c.padding[1] << c.padding[2]
     << c.padding[3] << " s" << c.strides[0] << c.strides[1] << " d" << c.dilations[0] << c.dilations[1] << " op"
     << c.output_padding[0] << c.output_padding[1] << (c.output_sizes ? " sizes" : "") << (c.nhwc ? " nhwc" : " nchw")
     << " filter" << int(c.filter_layout) << (c.bias ? " bias" : "") << (c.constant_filter ? " const" : " nonconst")
     << (c.type == MLOperandDataType::kFloat16 ? " f16" : " f32");
  return os.str();
}

// With +-65504 and 3e38 among the values, sums cancel: +-65504 * w - 65504 * w'
// leaves float32 rounding of 65504 on a small result. These cases check where
// NaN and +-Inf appear; finite values only to 1e32 (3e38 * 2^-23).
const Tolerance kSpecialTolerance = Tolerance::Atol(1e32);

void Check(const ConvTCase& c, uint64_t seed, std::optional<Tolerance> tolerance = std::nullopt) {
  const std::vector<uint32_t> in_shape =
      c.nhwc ? std::vector<uint32_t>{c.batch, c.h, c.w, c.cin} : std::vector<uint32_t>{c.batch, c.cin, c.h, c.w};
  std::vector<InputSpec> specs = {
      InputSpec{c.type, in_shape, 0, 1, c.special_fraction, false},
      InputSpec{c.type, FilterShape(c), 0, 1, c.filter_special_fraction, c.constant_filter},
  };
  if (c.bias) specs.push_back(InputSpec{c.type, {c.cout_g * c.groups}, 0, 1, 0, c.constant_filter});
  const double ulp = 2.0 * (c.cin / c.groups) * c.kh * c.kw;
  CheckAgainstReference(DeviceUnderTest(), Describe(c), specs,
                        [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                          MLConvTranspose2dOptions o;
                          o.padding = c.padding;
                          o.strides = c.strides;
                          o.dilations = c.dilations;
                          o.outputPadding = c.output_padding;
                          o.outputSizes = c.output_sizes;
                          o.groups = c.groups;
                          o.inputLayout = c.nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                          o.filterLayout = c.filter_layout;
                          if (c.bias) o.bias = in[2];
                          return MLNamedOperands{{"out", b.convTranspose2d(in[0], in[1], o)}};
                        },
                        tolerance.value_or(Tolerance::Ulp(ulp)), seed);
}

constexpr MLConvTranspose2dFilterOperandLayout kLayouts[] = {MLConvTranspose2dFilterOperandLayout::kIohw,
                                                             MLConvTranspose2dFilterOperandLayout::kHwoi,
                                                             MLConvTranspose2dFilterOperandLayout::kOhwi};

ConvTCase RandomCase(std::mt19937_64& rng) {
  ConvTCase c;
  auto pick = [&](uint32_t lo, uint32_t hi) { return lo + static_cast<uint32_t>(rng() % (hi - lo + 1)); };
  c.batch = pick(1, 2);
  c.groups = rng() % 3 == 0 ? pick(1, 4) : 1;
  c.cin = c.groups * pick(1, 7);
  c.cout_g = pick(1, 19);
  c.kh = pick(1, 4);
  c.kw = pick(1, 4);
  c.strides = {pick(1, 3), pick(1, 3)};
  c.dilations = {rng() % 4 == 0 ? 2u : 1u, rng() % 4 == 0 ? 2u : 1u};
  c.h = pick(1, 13);
  c.w = pick(1, 23);
  // Padding below the full output size so that at least one row remains.
  const uint32_t full_h = (c.h - 1) * c.strides[0] + (c.kh - 1) * c.dilations[0] + 1;
  const uint32_t full_w = (c.w - 1) * c.strides[1] + (c.kw - 1) * c.dilations[1] + 1;
  c.padding = {pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2)};
  while (c.padding[0] + c.padding[1] >= full_h) c.padding[0] = c.padding[1] = 0;
  while (c.padding[2] + c.padding[3] >= full_w) c.padding[2] = c.padding[3] = 0;
  c.output_padding = {pick(0, c.strides[0] - 1), pick(0, c.strides[1] - 1)};
  if (rng() % 5 == 0) {
    c.output_sizes = std::vector<uint32_t>{full_h - c.padding[0] - c.padding[1] + pick(0, c.strides[0] - 1),
                                           full_w - c.padding[2] - c.padding[3] + pick(0, c.strides[1] - 1)};
    c.output_padding = {0, 0};
  }
  c.nhwc = rng() % 2;
  c.filter_layout = kLayouts[rng() % 3];
  c.bias = rng() % 2;
  c.constant_filter = rng() % 4 != 0;
  return c;
}

}  // namespace

TEST_CASE("convTranspose2d float32 matches reference on random shapes", "[device][conv_transpose2d]") {
  std::mt19937_64 rng(4321);
  for (int trial = 0; trial < 60; ++trial) Check(RandomCase(rng), rng());
}

TEST_CASE("convTranspose2d float16 matches reference", "[device][conv_transpose2d]") {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 20; ++trial) {
    ConvTCase c = RandomCase(rng);
    c.type = MLOperandDataType::kFloat16;
    Check(c, rng());
  }
}

TEST_CASE("convTranspose2d size 1 and decoder shapes", "[device][conv_transpose2d]") {
  for (const bool nhwc : {false, true}) {
    ConvTCase c;
    c.nhwc = nhwc;
    Check(c, 1);
    ConvTCase up = c;  // DB-head upsampling: 2x2 stride 2
    up.cin = 64, up.h = up.w = 40, up.cout_g = 32, up.kh = up.kw = 2, up.strides = {2, 2}, up.bias = true;
    Check(up, 2);
    ConvTCase dec = c;  // 3x3 stride 2 with output padding
    dec.cin = 48, dec.h = dec.w = 28, dec.cout_g = 24, dec.kh = dec.kw = 3, dec.strides = {2, 2};
    dec.padding = {1, 1, 1, 1}, dec.output_padding = {1, 1}, dec.bias = true;
    Check(dec, 3);
    ConvTCase dw = c;  // depthwise-style groups
    dw.cin = 16, dw.groups = 16, dw.h = dw.w = 30, dw.cout_g = 1, dw.kh = dw.kw = 4, dw.strides = {2, 2};
    dw.padding = {1, 1, 1, 1};
    Check(dw, 4);
  }
}

TEST_CASE("convTranspose2d NaN, infinities and signed zeros", "[device][conv_transpose2d]") {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 20; ++trial) {
    ConvTCase c = RandomCase(rng);
    c.cin = c.groups;  // small sums: float32 overflow only where float64 overflows too
    c.kh = std::min<uint32_t>(c.kh, 2), c.kw = std::min<uint32_t>(c.kw, 2);
    c.output_sizes.reset();
    c.padding = {0, 0, 0, 0};
    // Specials in the input or in the filter, never both: 3e38 * 65504
    // overflows float32 but not the float64 reference.
    c.special_fraction = trial % 2 ? 0 : 0.05;
    c.filter_special_fraction = trial % 2 ? 0.2 : 0;  // NaN weights on taps past the output stay unused
    Check(c, rng(), kSpecialTolerance);
  }
}

TEST_CASE("convTranspose2d 2x2 stride 2 (pixel shuffle path)", "[device][conv_transpose2d]") {
  // kernel == stride 2. nchw: one GEMM on the planes and an interleave; odd
  // widths leave interleave tails, tall images make several row bands. nhwc:
  // a GEMM per tap row straight into the output rows; 2 * cout columns from
  // 2 (one vector, mostly masked) to 48 and 34 (a partial last vector).
  uint64_t seed = 30;
  for (const bool nhwc : {false, true}) {
    for (auto layout : {MLConvTranspose2dFilterOperandLayout::kIohw, MLConvTranspose2dFilterOperandLayout::kHwoi,
                        MLConvTranspose2dFilterOperandLayout::kOhwi}) {
      for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
        for (const auto& [batch, cin, h, w, cout, bias] :
             std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, bool>>{{1, 1, 1, 1, 1, false},
                                                                                          {2, 3, 5, 17, 4, true},
                                                                                          {1, 24, 70, 33, 1, true},
                                                                                          {1, 7, 9, 160, 24, false},
                                                                                          {2, 33, 6, 11, 17, true}}) {
          ConvTCase c;
          c.batch = batch, c.cin = cin, c.h = h, c.w = w, c.cout_g = cout, c.kh = c.kw = 2, c.strides = {2, 2};
          c.nhwc = nhwc, c.filter_layout = layout, c.bias = bias, c.type = type;
          c.constant_filter = seed % 3 != 0;
          Check(c, seed++);
        }
      }
    }
  }
}
