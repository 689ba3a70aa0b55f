// The device's kernels of the matmul family against the reference device.
//
// Tolerance is WPT's for matmul: ULP = 2 * K, for float32 and float16 alike.
// That metric needs sums without cancellation (with mixed signs a sum can
// cancel to near zero, where any float32 rounding is many ULP of the result),
// so ULP cases draw from [0, 1) as WPT's vectors do; mixed-sign cases use an
// absolute bound of K * 2^-21 (|terms| <= 1, float32 accumulation).
#include <array>
#include <cstring>
#include <sstream>

#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

struct MatmulCase {
  std::vector<uint32_t> a, b;  // full shapes
  MLOperandDataType type = MLOperandDataType::kFloat32;
  bool constant_b = false;
  double lo = 0, hi = 1;
  double special_fraction = 0;
};

std::string Describe(const MatmulCase& c) {
  std::ostringstream os;
  os << "matmul a[";
  for (uint32_t d : c.a) os << d << ",";
  os << "] b[";
  for (uint32_t d : c.b) os << d << ",";
  os << "]" << (c.type == MLOperandDataType::kFloat16 ? " f16" : " f32") << (c.constant_b ? " const" : "")
     << " range " << c.lo << ".." << c.hi << " special " << c.special_fraction;
  return os.str();
}

void Check(const MatmulCase& c, uint64_t seed) {
  const uint32_t k = c.a.back();
  const Tolerance tol = c.lo >= 0 ? Tolerance::Ulp(2.0 * k)
                                  : Tolerance::Atol(k * (c.type == MLOperandDataType::kFloat16 ? 2e-3 : 5e-7));
  CheckAgainstReference(DeviceUnderTest(), Describe(c),
                        {InputSpec{c.type, c.a, c.lo, c.hi, c.special_fraction, false},
                         InputSpec{c.type, c.b, c.lo, c.hi, c.special_fraction, c.constant_b}},
                        [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.matmul(in[0], in[1])}};
                        },
                        tol, seed);
}

}  // namespace

TEST_CASE("matmul matches reference on random 2D shapes", "[device][matmul]") {
  std::mt19937_64 rng(101);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 24; ++trial) {
      const auto s = RandomShape(rng, 3, 40);
      MatmulCase c;
      c.a = {s[0], s[1]};
      c.b = {s[1], s[2]};
      c.type = type;
      c.constant_b = trial % 2;
      Check(c, rng());
    }
  }
}

TEST_CASE("matmul edge tiles: every M and N around the cpu's register tile", "[device][matmul]") {
  // AVX-512 tiles are 14 x 32, AVX2 6 x 16: sweep M over 1..30 and N across
  // two panel widths so every panel height and every masked tail runs.
  std::mt19937_64 rng(7);
  for (uint32_t m = 1; m <= 30; m += 1) {
    MatmulCase c;
    c.a = {m, 19};
    c.b = {19, 1 + static_cast<uint32_t>(rng() % 70)};
    c.constant_b = m % 2;
    Check(c, rng());
  }
}

TEST_CASE("matmul batch broadcasting", "[device][matmul]") {
  const std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> shapes = {
      {{2, 3, 4}, {2, 4, 5}},          {{2, 3, 4}, {1, 4, 5}},          {{2, 3, 4}, {4, 5}},
      {{3, 4}, {2, 4, 5}},             {{2, 2, 3, 4}, {1, 1, 4, 5}},    {{2, 1, 3, 4}, {1, 3, 4, 5}},
      {{2, 2, 1, 3, 4}, {1, 2, 1, 4, 5}}, {{5, 1, 7, 9}, {3, 9, 1}},    {{4, 1, 33}, {4, 33, 17}},
      {{6, 17, 40}, {40, 35}},         {{1, 6, 17, 40}, {6, 40, 35}},
  };
  uint64_t seed = 1;
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (const auto& [a, b] : shapes) {
      for (bool constant : {false, true}) {
        MatmulCase c{a, b, type, constant};
        Check(c, seed++);
      }
    }
  }
}

TEST_CASE("matmul mixed signs", "[device][matmul]") {
  std::mt19937_64 rng(3);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 10; ++trial) {
      const auto s = RandomShape(rng, 4, 50);
      MatmulCase c{{s[0], s[1], s[2]}, {s[0], s[2], s[3]}, type, trial % 2 == 0, -1, 1};
      Check(c, rng());
    }
  }
}

TEST_CASE("matmul NaN, Inf and signed zeros", "[device][matmul]") {
  std::mt19937_64 rng(5);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 8; ++trial) {
      MatmulCase c{{2, 9, 6}, {2, 6, 21}, type, trial % 2 == 0, 0, 1, 0.05};
      Check(c, rng());
    }
  }
}

TEST_CASE("matmul large products, GEMV and packed-B shapes", "[device][matmul]") {
  const std::vector<MatmulCase> cases = {
      // Folded batch (B shared): one [3 * 70, 130] x [130, 93] product.
      {{3, 70, 130}, {130, 93}, MLOperandDataType::kFloat32, false},
      {{3, 70, 130}, {130, 93}, MLOperandDataType::kFloat32, true},
      // K blocking (K > 256) with several row blocks and column panels.
      {{300, 600}, {600, 200}, MLOperandDataType::kFloat32, true},
      {{130, 520}, {520, 70}, MLOperandDataType::kFloat32, false},
      // B an input with rows a page or more apart (N >= 1024 floats): the cpu
      // copies each micro-panel before its tiles; K blocks, row blocks and a
      // partial last panel.
      {{50, 600}, {600, 1030}, MLOperandDataType::kFloat32, false},
      {{2, 20, 300}, {2, 300, 1100}, MLOperandDataType::kFloat16, false},
      // M = 1: GEMV from packed panels (constant) and straight from B.
      {{1, 1500}, {1500, 700}, MLOperandDataType::kFloat32, true},
      {{1, 1500}, {1500, 700}, MLOperandDataType::kFloat32, false},
      {{4, 1, 300}, {4, 300, 129}, MLOperandDataType::kFloat32, false},
      // Small products per batch: one product per thread.
      {{64, 9, 11}, {64, 11, 13}, MLOperandDataType::kFloat32, false},
      {{64, 9, 11}, {64, 11, 13}, MLOperandDataType::kFloat32, true},
      {{2, 100, 300}, {2, 300, 120}, MLOperandDataType::kFloat16, true},
      {{1, 700}, {700, 300}, MLOperandDataType::kFloat16, false},
      // Float16 in whole 16-byte rows (K, N multiples of 8), the words the
      // cooperative-matrix shader loads directly: tiles of 128 rows and
      // columns with partial last ones, K past its 32-element steps, batches.
      {{200, 72}, {72, 264}, MLOperandDataType::kFloat16, true},
      {{3, 136, 256}, {3, 256, 200}, MLOperandDataType::kFloat16, false},
      {{129, 1000}, {1000, 128}, MLOperandDataType::kFloat16, false},
      // The gpu's 64x128 tile (matmul_wide, taken from 256 such tiles on):
      // 16 x 17 and 9 x 9 x 4 tiles, partial last rows and columns, short K.
      {{1000, 19}, {19, 2050}, MLOperandDataType::kFloat32, false},
      {{1000, 19}, {19, 2050}, MLOperandDataType::kFloat32, true},
      {{4, 520, 12}, {4, 12, 1100}, MLOperandDataType::kFloat16, false},
  };
  uint64_t seed = 11;
  for (const auto& c : cases) Check(c, seed++);
}

// The gpu device takes A with at most 16 rows through a column-strip kernel
// (matmul_vec.comp) instead of its 64x64 or 64x128 tiles: whole 16-byte words of B when K
// is a multiple of 4 and N of 4 (float32) or 8 (float16), one element at a
// time otherwise; on lavapipe a strip is 512 (float32) or 1024 (float16)
// columns at M <= 2, 256 or 512 at M = 3..4, 128 or 256 at M = 5..16 (a GPU
// takes narrower strips, down to 32 or 64 columns, and at M = 1 down to 16
// or 32 with 4 lanes per slice, a path the suite reaches only on a GPU).
// These shapes cross each of those edges.
const std::vector<std::array<uint32_t, 3>> kFewRowShapes = {  // M, K, N
    {1, 1, 1},       {1, 3, 17},    {1, 4, 4},     {1, 17, 3},     {1, 36, 516},  {1, 1025, 129},
    {1, 1028, 1032}, {1, 1028, 1025}, {2, 20, 36}, {3, 64, 100},   {4, 100, 260}, {5, 17, 1},
    {8, 36, 520},    {15, 33, 65},  {16, 132, 516}, {16, 1028, 40}, {17, 40, 36},
};

TEST_CASE("matmul with few rows: M up to 16 and past it, K and N tails", "[device][matmul]") {
  uint64_t seed = 201;
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (const auto& [m, k, n] : kFewRowShapes) {
      Check(MatmulCase{{m, k}, {k, n}, type, seed % 2 == 0}, seed);
      ++seed;
    }
  }
}

TEST_CASE("matmul with few rows: broadcast batches, mixed signs, NaN and Inf", "[device][matmul]") {
  const std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> batched = {
      {{2, 3, 1, 64}, {3, 64, 40}}, {{3, 1, 2, 36}, {1, 4, 36, 24}}, {{1, 36}, {6, 36, 20}},
      {{5, 2, 17}, {17, 9}},        {{2, 1, 1, 8}, {1, 3, 8, 16}},   {{4, 16, 12}, {4, 12, 1032}},
  };
  uint64_t seed = 301;
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (const auto& [a, b] : batched) {
      Check(MatmulCase{a, b, type, seed % 2 == 0}, seed);
      ++seed;
    }
    Check(MatmulCase{{1, 300}, {300, 72}, type, false, -1, 1}, seed++);
    Check(MatmulCase{{16, 64}, {64, 40}, type, true, -1, 1}, seed++);
    Check(MatmulCase{{3, 3, 17}, {17, 5}, type, false, -1, 1}, seed++);
    // Short K, as in "matmul NaN, Inf and signed zeros": in float32 a product
    // of two specials can overflow (3e38 * -65504 = -Inf), and meeting +Inf it
    // makes NaN where the float64 reference has +Inf; short K keeps that rare.
    for (int trial = 0; trial < 4; ++trial) {
      Check(MatmulCase{{1, 9}, {9, 36}, type, trial % 2 == 0, 0, 1, 0.05}, seed++);
      Check(MatmulCase{{3, 1, 7}, {3, 7, 21}, type, trial % 2 == 1, 0, 1, 0.05}, seed++);
      Check(MatmulCase{{4, 8}, {8, 64}, type, trial % 2 == 0, 0, 1, 0.05}, seed++);
    }
  }
}

TEST_CASE("matmul plus a bias along N (fused where the device runs the passes)", "[device][matmul]") {
  // add(matmul(a, b), c) with c [N], [1] or [1, N]: the fusion pass makes c
  // the matmul's third input, read by the kernels' epilogue as C with beta 1.
  struct BiasCase {
    std::vector<uint32_t> a, b, bias;
  };
  const std::vector<BiasCase> cases = {
      {{1, 36}, {36, 516}, {516}},       {{1, 17}, {17, 3}, {3}},         {{1, 64}, {64, 40}, {1}},
      {{4, 20}, {20, 1032}, {1, 1032}}, {{16, 132}, {132, 40}, {40}}, {{2, 1, 12}, {2, 12, 24}, {24}},
      {{70, 33}, {33, 65}, {65}},  // M > 16: the gpu's 64x64 tile
  };
  uint64_t seed = 401;
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (const BiasCase& c : cases) {
      const uint32_t k = c.a.back();
      MatmulCase described{c.a, c.b, type, true};
      CheckAgainstReference(DeviceUnderTest(), Describe(described) + " + bias",
                            {InputSpec{type, c.a, 0, 1, 0, false}, InputSpec{type, c.b, 0, 1, 0, true},
                             InputSpec{type, c.bias, 0, 1, 0, true}},
                            [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                              return MLNamedOperands{{"out", g.add(g.matmul(in[0], in[1]), in[2])}};
                            },
                            Tolerance::Ulp(2.0 * k + 1), seed++);
    }
  }
}

TEST_CASE("matmul sums of -0 products stay -0", "[device][matmul]") {
  // The ULP comparison counts -0 and +0 as equal; here every zero result must
  // have the reference's sign, on the devices whose float behaviour says so:
  // the gpu shaders start the dot product at -0.0 as the reference does; the
  // cpu kernels and tensor cores start at +0 (within WPT's tolerance).
  // A is all -0 but for one +0 in its last row (when M > 1), B positive but
  // for one negative value in column 0: the products are -0 except in column
  // 0 and in that last row, whose sums are +0.
  using T = MLOperandDataType;
  for (const T type : {T::kFloat32, T::kFloat16}) {
    if (!DeviceKeepsNegativeZeroSums(type)) continue;
    // M = 20 takes the gpu's 64x64 tile (float16: the cooperative-matrix
    // 128x128 tile where the device has one), with K a multiple of its K step and
    // not (the partial step's padding must keep a -0 sum -0).
    for (const auto& [m, k, n] : std::vector<std::array<uint32_t, 3>>{
             {1, 4, 8}, {2, 7, 5}, {16, 1028, 24}, {1, 1025, 1032}, {20, 32, 70}, {20, 37, 70}}) {
      std::vector<double> a(size_t{m} * k, -0.0), b(size_t{k} * n, 0.75);
      if (m > 1) a.back() = 0.0;
      b[size_t{k / 2} * n] = -0.5;
      auto tensor = [&](std::vector<uint32_t> shape, const std::vector<double>& v) {
        if (type == T::kFloat16) return Tensor(type, std::move(shape), Half(v));
        return Tensor(type, std::move(shape), std::vector<float>(v.begin(), v.end()));
      };
      const std::vector<HostTensor> inputs = {tensor({m, k}, a), tensor({k, n}, b)};
      auto body = [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        return MLNamedOperands{{"out", g.matmul(in[0], in[1])}};
      };
      std::map<std::string, HostTensor> got;
      const std::string what = "matmul of -0 products " + std::to_string(m) + "x" + std::to_string(k) + "x" +
                               std::to_string(n) + (type == T::kFloat16 ? " f16" : " f32");
      if (!RunUnlessUnsupported(DeviceUnderTest(), what, [&] { got = Run(DeviceUnderTest(), inputs, body); })) continue;
      const HostTensor want = Run(MLDeviceType::kReference, inputs, body).at("out");
      const HostTensor& out = got.at("out");
      // Every result is a zero: equal bits are equal signs.
      size_t differ = 0, first = 0;
      for (size_t i = size_t{m} * n; i-- > 0;) {
        const size_t bytes = type == T::kFloat16 ? 2 : 4;
        if (std::memcmp(out.data.data() + i * bytes, want.data.data() + i * bytes, bytes) != 0) ++differ, first = i;
      }
      INFO(what << ": " << differ << " zeros of the wrong sign, first at element " << first);
      CHECK(differ == 0);
    }
  }
}

TEST_CASE("cpu matmul on every compiled SIMD target", "[cpu][matmul]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  // The best target runs everywhere else in this file; force the others
  // (AVX2, SSE4, emulation): their tiles, panel widths and masked tails differ.
  uint64_t seed = 91;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("target " << hwy::TargetName(target));
    Check(MatmulCase{{2, 13, 29}, {29, 37}, MLOperandDataType::kFloat32, true}, seed++);
    Check(MatmulCase{{3, 9, 17}, {3, 17, 5}, MLOperandDataType::kFloat32, false}, seed++);
    Check(MatmulCase{{1, 300}, {300, 45}, MLOperandDataType::kFloat32, false}, seed++);
    Check(MatmulCase{{7, 33}, {33, 11}, MLOperandDataType::kFloat16, true}, seed++);
  }
  hwy::SetSupportedTargetsForTest(0);
}
