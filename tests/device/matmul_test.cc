// The device's kernels of the matmul family against the reference device.
//
// Tolerance is WPT's for matmul: ULP = 2 * K, for float32 and float16 alike.
// That metric needs sums without cancellation (with mixed signs a sum can
// cancel to near zero, where any float32 rounding is many ULP of the result),
// so ULP cases draw from [0, 1) as WPT's vectors do; mixed-sign cases use an
// absolute bound of K * 2^-21 (|terms| <= 1, float32 accumulation).
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
      // M = 1: GEMV from packed panels (constant) and straight from B.
      {{1, 1500}, {1500, 700}, MLOperandDataType::kFloat32, true},
      {{1, 1500}, {1500, 700}, MLOperandDataType::kFloat32, false},
      {{4, 1, 300}, {4, 300, 129}, MLOperandDataType::kFloat32, false},
      // Small products per batch: one product per thread.
      {{64, 9, 11}, {64, 11, 13}, MLOperandDataType::kFloat32, false},
      {{64, 9, 11}, {64, 11, 13}, MLOperandDataType::kFloat32, true},
      {{2, 100, 300}, {2, 300, 120}, MLOperandDataType::kFloat16, true},
      {{1, 700}, {700, 300}, MLOperandDataType::kFloat16, false},
  };
  uint64_t seed = 11;
  for (const auto& c : cases) Check(c, seed++);
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
