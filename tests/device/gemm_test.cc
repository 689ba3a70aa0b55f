// The device's kernels of gemm against the reference device, and the float32 GEMM
// core (ops/cpu/gemm.h) itself against a float64 product.
//
// gemm tolerance is WPT's: ULP = 2 * K (+1 with alpha != 1, +1 with C, as the
// WPT vectors' values grow), on sums without cancellation: positive data,
// alpha and beta. Mixed signs use an absolute bound.
#include <cmath>
#include <limits>
#include <sstream>

#include "core/parallel.h"
#include "cross_device.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/gemm.h"
#include "scheduler/thread_pool.h"

#include <hwy/targets.h>

using namespace webnn;
using namespace webnn::test;

namespace {

struct GemmCase {
  uint32_t m = 1, n = 1, k = 1;
  bool a_transpose = false, b_transpose = false;
  std::vector<uint32_t> c;  // empty with has_c: scalar
  bool has_c = false;
  double alpha = 1, beta = 1;
  MLOperandDataType type = MLOperandDataType::kFloat32;
  bool constant_b = false;
  double lo = 0, hi = 1;
  double special_fraction = 0;
};

std::string Describe(const GemmCase& c) {
  std::ostringstream os;
  os << "gemm m" << c.m << " n" << c.n << " k" << c.k << (c.a_transpose ? " aT" : "") << (c.b_transpose ? " bT" : "");
  if (c.has_c) {
    os << " c[";
    for (uint32_t d : c.c) os << d << ",";
    os << "]";
  }
  os << " alpha " << c.alpha << " beta " << c.beta << (c.type == MLOperandDataType::kFloat16 ? " f16" : " f32")
     << (c.constant_b ? " const" : "") << " range " << c.lo << ".." << c.hi << " special " << c.special_fraction;
  return os.str();
}

void Check(const GemmCase& c, uint64_t seed) {
  std::vector<InputSpec> specs = {
      InputSpec{c.type, c.a_transpose ? std::vector<uint32_t>{c.k, c.m} : std::vector<uint32_t>{c.m, c.k}, c.lo, c.hi,
                c.special_fraction, false},
      InputSpec{c.type, c.b_transpose ? std::vector<uint32_t>{c.n, c.k} : std::vector<uint32_t>{c.k, c.n}, c.lo, c.hi,
                c.special_fraction, c.constant_b},
  };
  if (c.has_c) specs.push_back(InputSpec{c.type, c.c, c.lo, c.hi, c.special_fraction, false});
  const bool f16 = c.type == MLOperandDataType::kFloat16;
  const Tolerance tol = c.lo >= 0 && c.alpha >= 0 && c.beta >= 0
                            ? Tolerance::Ulp(2.0 * c.k + 2)
                            : Tolerance::Atol((c.k + 1) * (f16 ? 2e-3 : 5e-7) * std::max(1.0, std::fabs(c.alpha)));
  CheckAgainstReference(DeviceUnderTest(), Describe(c), specs,
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLGemmOptions o;
                          o.alpha = c.alpha;
                          o.beta = c.beta;
                          o.aTranspose = c.a_transpose;
                          o.bTranspose = c.b_transpose;
                          if (c.has_c) o.c = in[2];
                          return MLNamedOperands{{"out", g.gemm(in[0], in[1], o)}};
                        },
                        tol, seed);
}

}  // namespace

TEST_CASE("gemm matches reference over options, transposes and C broadcasts", "[device][gemm]") {
  std::mt19937_64 rng(21);
  const std::vector<std::vector<uint32_t>> c_shapes = {{}, {1}, {0}, {1, 0}, {0, 1}, {0, 0}, {1, 1}};
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      GemmCase c;
      const auto s = RandomShape(rng, 3, 45);
      c.m = s[0];
      c.n = s[1];
      c.k = s[2];
      c.a_transpose = rng() % 2;
      c.b_transpose = rng() % 2;
      c.constant_b = rng() % 2;
      c.type = type;
      c.alpha = std::vector<double>{1, 0.5, 2, 0}[rng() % 4];
      c.beta = std::vector<double>{1, 0.25, 0}[rng() % 3];
      if (rng() % 3) {
        c.has_c = true;
        c.c = c_shapes[rng() % c_shapes.size()];
        for (auto& d : c.c) d = d == 0 ? (&d == &c.c.back() ? c.n : c.m) : 1;
      }
      Check(c, rng());
    }
  }
}

TEST_CASE("gemm negative alpha/beta and mixed signs", "[device][gemm]") {
  std::mt19937_64 rng(22);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 12; ++trial) {
      GemmCase c;
      c.m = 1 + rng() % 33;
      c.n = 1 + rng() % 40;
      c.k = 1 + rng() % 30;
      c.a_transpose = trial % 2;
      c.b_transpose = trial % 3 == 0;
      c.has_c = true;
      c.c = trial % 2 ? std::vector<uint32_t>{c.m, c.n} : std::vector<uint32_t>{c.n};
      c.alpha = -1.5;
      c.beta = -0.75;
      c.lo = -1;
      c.type = type;
      c.constant_b = trial % 4 == 1;
      Check(c, rng());
    }
  }
}

TEST_CASE("gemm NaN, Inf and signed zeros", "[device][gemm]") {
  std::mt19937_64 rng(23);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 6; ++trial) {
      GemmCase c;
      c.m = 7;
      c.n = 19;
      c.k = 5;
      c.has_c = true;
      c.c = trial % 2 ? std::vector<uint32_t>{7, 19} : std::vector<uint32_t>{19};
      c.special_fraction = 0.05;
      c.alpha = trial % 3 == 0 ? 0.0 : 1.0;  // 0 * Inf must stay NaN
      c.type = type;
      c.a_transpose = trial % 2;
      c.b_transpose = trial % 3 == 1;
      Check(c, rng());
    }
  }
}

TEST_CASE("gemm large products", "[device][gemm]") {
  std::vector<GemmCase> cases;
  GemmCase big;
  big.m = 150;
  big.n = 301;
  big.k = 600;
  big.has_c = true;
  big.c = {150, 301};
  big.alpha = 0.5;
  big.beta = 2;
  for (int v = 0; v < 4; ++v) {
    GemmCase c = big;
    c.a_transpose = v & 1;
    c.b_transpose = v & 2;
    c.constant_b = v == 3;
    cases.push_back(c);
  }
  GemmCase gemv = big;
  gemv.m = 1;
  gemv.c = {301};
  gemv.b_transpose = true;
  cases.push_back(gemv);
  gemv.b_transpose = false;
  gemv.a_transpose = true;
  cases.push_back(gemv);
  GemmCase half = big;
  half.type = MLOperandDataType::kFloat16;
  half.constant_b = true;
  cases.push_back(half);
  // Enough 64x128 tiles (16 x 17) for the gpu's matmul_wide, both operands
  // transposed and not.
  GemmCase wide = big;
  wide.m = 1000;
  wide.n = 2050;
  wide.k = 21;
  wide.c = {2050};
  for (int v = 0; v < 2; ++v) {
    wide.a_transpose = wide.b_transpose = v == 1;
    cases.push_back(wide);
  }
  uint64_t seed = 31;
  for (const auto& c : cases) Check(c, seed++);
}

// ---- The GEMM core ------------------------------------------------------------
// The cpu device's float32 GEMM (ops/cpu/gemm.h) called directly: [cpu] tests.

namespace {

using webnn::ops::cpu::GemmEpilogue;
using webnn::ops::cpu::GemmOptions;

struct CoreCase {
  size_t m, n, k;
  size_t pad = 0;  // extra leading-dimension elements on A, B and C
  bool a_transposed = false, b_transposed = false;
  bool bias = false, clamp = false, accumulate = false, unpacked = false;
  float alpha = 1;
};

// Runs one product through the core and checks every element of C, including
// that the padding between rows (ldc > N) is untouched.
void CheckCore(const CoreCase& c, core::ParallelFor& parallel, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  const size_t lda = (c.a_transposed ? c.m : c.k) + c.pad;
  const size_t ldb = (c.b_transposed ? c.k : c.n) + c.pad;
  const size_t ldc = c.n + c.pad;
  std::vector<float> a((c.a_transposed ? c.k : c.m) * lda), b((c.b_transposed ? c.n : c.k) * ldb), out(c.m * ldc),
      bias(c.n);
  for (auto& x : a) x = u(rng);
  for (auto& x : b) x = u(rng);
  for (auto& x : out) x = u(rng);
  for (auto& x : bias) x = u(rng);
  // A NaN in A's first row must survive the clamp.
  if (c.clamp && c.k > 0) a[0] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> before = out;
  GemmEpilogue e;
  if (c.bias) e.bias = bias.data();
  if (c.clamp) {
    e.min = -0.25f;
    e.max = 0.5f;
  }
  GemmOptions o;
  o.a_transposed = c.a_transposed;
  o.alpha = c.alpha;
  o.accumulate = c.accumulate;
  if (c.unpacked) {
    ops::cpu::GemmF32(c.m, c.n, c.k, a.data(), lda, b.data(), ldb, c.b_transposed, out.data(), ldc, e, o, parallel);
  } else {
    const auto packed = ops::cpu::PackB(b.data(), c.k, c.n, ldb, c.b_transposed, parallel);
    ops::cpu::GemmF32(c.m, c.n, c.k, a.data(), lda, packed, out.data(), ldc, e, o, parallel);
  }
  size_t bad = 0;
  std::ostringstream first;
  for (size_t i = 0; i < c.m; ++i) {
    for (size_t j = 0; j < ldc; ++j) {
      const float got = out[i * ldc + j];
      if (j >= c.n) {
        if (got != before[i * ldc + j] && bad++ == 0) first << "padding (" << i << ", " << j << ") written";
        continue;
      }
      double sum = 0, mag = 0;
      for (size_t p = 0; p < c.k; ++p) {
        const double x = c.a_transposed ? a[p * lda + i] : a[i * lda + p];
        const double y = c.b_transposed ? b[j * ldb + p] : b[p * ldb + j];
        sum += x * y;
        mag += std::fabs(x * y);
      }
      double want = c.alpha * sum;
      if (c.accumulate) want += before[i * ldc + j];
      if (c.bias) want += bias[j];
      if (c.clamp && !std::isnan(want)) want = std::min(std::max(want, -0.25), 0.5);
      const bool ok = std::isnan(want) ? std::isnan(got) : std::fabs(got - want) <= 4e-7 * (mag + 2) * (std::fabs(c.alpha) + 1);
      if (!ok && bad++ == 0) first << "(" << i << ", " << j << "): got " << got << ", want " << want;
    }
  }
  INFO("m " << c.m << " n " << c.n << " k " << c.k << " pad " << c.pad << " aT " << c.a_transposed << " bT "
            << c.b_transposed << " bias " << c.bias << " clamp " << c.clamp << " acc " << c.accumulate << " unpacked "
            << c.unpacked << " alpha " << c.alpha << ": " << first.str());
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("cpu GEMM core: odd shapes, edge tiles, strides and epilogues", "[cpu][gemm][gemm_core]") {
  scheduler::ThreadPool pool(2);
  core::SerialFor serial;
  std::mt19937_64 rng(41);
  const size_t sizes[] = {1, 2, 3, 5, 7, 8, 13, 14, 15, 16, 17, 29, 31, 32, 33, 47, 48, 63, 65, 100};
  for (int trial = 0; trial < 300; ++trial) {
    CoreCase c;
    c.m = sizes[rng() % std::size(sizes)];
    c.n = sizes[rng() % std::size(sizes)];
    c.k = sizes[rng() % std::size(sizes)];
    c.pad = rng() % 3 == 0 ? 3 : 0;
    c.a_transposed = rng() % 2;
    c.b_transposed = rng() % 2;
    c.bias = rng() % 2;
    c.clamp = rng() % 3 == 0;
    c.accumulate = rng() % 4 == 0;
    c.unpacked = rng() % 3 == 0;
    c.alpha = rng() % 3 ? 1.0f : -0.75f;
    CheckCore(c, trial % 2 ? static_cast<core::ParallelFor&>(pool) : serial, rng());
  }
}

TEST_CASE("cpu GEMM core: K blocking, row blocks and threads", "[cpu][gemm][gemm_core]") {
  scheduler::ThreadPool pool(2);
  const std::vector<CoreCase> cases = {
      {700, 333, 777},                                   // several K blocks, row blocks and column panels
      {700, 333, 777, 5, true, true, true, true, true},  // every option at once
      {400, 333, 777, 3, false, false, true, true, true, true, 0.5f},  // B read in place (M <= 512), K blocks
      {600, 100, 300, 0, true, false, false, false, false, true},      // B packed per call (M > 512)
      {16, 1000, 600},                                   // small M: columns split over threads
      {1, 2000, 1500, 0, false, false, true, true},      // GEMV on packed panels
      {1, 2000, 1500, 7, true, false, true, false, false, true},  // GEMV straight from B
      {1, 999, 1500, 2, false, true, true, true, true, true, 2.0f},  // GEMV on B^T rows
      {450, 70, 2},                                      // tiny K
      {900, 1, 700, 0, false, false, true, true},        // N = 1: dot products with A's rows
      {900, 1, 700, 0, true, false, true, true, true, false, -1.5f},  // N = 1 with A^T: GEMV over A^T's rows
  };
  uint64_t seed = 51;
  for (const auto& c : cases) CheckCore(c, pool, seed++);
}

TEST_CASE("cpu GEMM core on every compiled SIMD target", "[cpu][gemm][gemm_core]") {
  // Runtime dispatch picks the best target; the others (AVX2 6 x 16 tiles,
  // SSE4, the 128-bit emulation) only run on other machines, so force each one.
  scheduler::ThreadPool pool(2);
  std::mt19937_64 rng(43);
  const size_t sizes[] = {1, 2, 5, 6, 7, 8, 9, 12, 13, 16, 17, 25, 33, 70};
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("target " << hwy::TargetName(target) << " panel width " << ops::cpu::GemmPanelWidth());
    for (int trial = 0; trial < 40; ++trial) {
      CoreCase c;
      c.m = sizes[rng() % std::size(sizes)];
      c.n = sizes[rng() % std::size(sizes)];
      c.k = trial % 10 == 0 ? 300 : sizes[rng() % std::size(sizes)];
      c.pad = rng() % 2;
      c.a_transposed = rng() % 2;
      c.b_transposed = rng() % 2;
      c.bias = rng() % 2;
      c.clamp = rng() % 3 == 0;
      c.accumulate = rng() % 4 == 0;
      c.unpacked = rng() % 3 == 0;
      CheckCore(c, pool, rng());
    }
    // float16 <-> float32: every half widens exactly; narrowing rounds to
    // nearest even (Highway 1.0.3's emulation truncates on SSE4 and below).
    std::vector<uint16_t> half(65536), again(65536);
    std::vector<float> wide(65536);
    for (size_t i = 0; i < half.size(); ++i) half[i] = static_cast<uint16_t>(i);
    ops::cpu::ConvertF16ToF32(half.data(), wide.data(), half.size());
    ops::cpu::ConvertF32ToF16(wide.data(), again.data(), wide.size());
    size_t bad = 0;
    for (size_t i = 0; i < half.size(); ++i) {
      const double want = core::HalfBitsToDouble(half[i]);
      if (std::isnan(want) ? !std::isnan(wide[i]) || !std::isnan(core::HalfBitsToDouble(again[i]))
                           : wide[i] != static_cast<float>(want) || again[i] != half[i])
        ++bad;
    }
    std::vector<float> values(20000);
    for (auto& v : values) v = static_cast<float>(std::ldexp(std::uniform_real_distribution<double>(-2, 2)(rng),
                                                             static_cast<int>(rng() % 44) - 28));
    values[0] = 65519.996f;
    values[1] = 65520.0f;
    values[2] = std::numeric_limits<float>::infinity();
    values[3] = std::numeric_limits<float>::quiet_NaN();
    std::vector<uint16_t> narrowed(values.size());
    ops::cpu::ConvertF32ToF16(values.data(), narrowed.data(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const uint16_t want = core::DoubleToHalfBits(values[i]);
      if (std::isnan(values[i]) ? !std::isnan(core::HalfBitsToDouble(narrowed[i])) : narrowed[i] != want) ++bad;
    }
    CHECK(bad == 0);
  }
  hwy::SetSupportedTargetsForTest(0);
}
