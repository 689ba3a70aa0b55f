// The device's kernels of the reduce family against the reference device: every
// reduction x every data type it allows, random shapes and axis sets (inner,
// outer, middle, non-adjacent, unsorted, empty, all), special values, and
// shapes large enough to split windows across threads.
#include <hwy/targets.h>

#include <algorithm>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

MLOperand Reduce(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const MLReduceOptions& o) {
  if (op == "reduceL1") return b.reduceL1(x, o);
  if (op == "reduceL2") return b.reduceL2(x, o);
  if (op == "reduceLogSum") return b.reduceLogSum(x, o);
  if (op == "reduceLogSumExp") return b.reduceLogSumExp(x, o);
  if (op == "reduceMax") return b.reduceMax(x, o);
  if (op == "reduceMean") return b.reduceMean(x, o);
  if (op == "reduceMin") return b.reduceMin(x, o);
  if (op == "reduceProduct") return b.reduceProduct(x, o);
  if (op == "reduceSum") return b.reduceSum(x, o);
  return b.reduceSumSquare(x, o);
}

// WPT's tolerance of each reduction for a window of n elements (ULP).
double WptUlp(const std::string& op, uint64_t n) {
  const double N = static_cast<double>(n);
  if (op == "reduceMax" || op == "reduceMin") return 0;
  if (op == "reduceL2") return 2 * N + 2;
  if (op == "reduceLogSum") return N + 18;
  if (op == "reduceLogSumExp") return 2 * N + 18;
  if (op == "reduceMean") return N + 2;
  if (op == "reduceSumSquare") return 2 * N;
  return N;  // L1, product, sum
}

std::vector<T> TypesOf(const std::string& op) {
  if (op == "reduceL2" || op == "reduceLogSum" || op == "reduceLogSumExp" || op == "reduceMean")
    return {T::kFloat32, T::kFloat16};
  if (op == "reduceMax" || op == "reduceMin")
    return {T::kFloat32, T::kFloat16, T::kInt32, T::kUint32, T::kInt64, T::kUint64, T::kInt8, T::kUint8};
  return {T::kFloat32, T::kFloat16, T::kInt32, T::kUint32, T::kInt64, T::kUint64};
}

InputSpec SpecFor(T type, const std::string& op, std::vector<uint32_t> shape, double special) {
  InputSpec s{type, std::move(shape)};
  s.special_fraction = special;
  if (type == T::kFloat32 || type == T::kFloat16) {
    // logSum needs positive sums; products of values near 1 stay in range.
    if (op == "reduceLogSum") s.lo = 0, s.hi = 2;
    else if (op == "reduceProduct") s.lo = -2, s.hi = 2;
    else s.lo = -10, s.hi = 10;
  } else if (type == T::kInt8) {
    s.lo = -128, s.hi = 127;
  } else if (type == T::kUint8) {
    s.lo = 0, s.hi = 255;
  } else if (type == T::kInt32 || type == T::kInt64) {
    s.lo = -100000, s.hi = 100000;
  } else {
    s.lo = 0, s.hi = 200000;
  }
  return s;
}

uint64_t WindowSize(const std::vector<uint32_t>& shape, const std::optional<std::vector<uint32_t>>& axes) {
  uint64_t n = 1;
  if (!axes) {
    for (uint32_t d : shape) n *= d;
    return n;
  }
  for (uint32_t a : *axes) n *= shape[a];
  return n;
}

void Check(const std::string& op, T type, const std::vector<uint32_t>& shape,
           const std::optional<std::vector<uint32_t>>& axes, bool keep, double special, uint64_t seed) {
  const bool is_float = type == T::kFloat32 || type == T::kFloat16;
  const uint64_t window = WindowSize(shape, axes);
  const double tol = is_float ? WptUlp(op, window) : 0;
  // A float64 product of more than 8 float32 values can overflow or underflow
  // on the way, and then whether 0 * Inf (NaN) happens depends on the order of
  // the factors: not a question of ULPs. Specials go to short windows only.
  if (is_float && op == "reduceProduct" && window > 8) special = 0;
  std::string what = op + " " + std::string(ToString(type)) + " shape";
  for (uint32_t s : shape) what += " " + std::to_string(s);
  what += axes ? " axes" : " all axes";
  if (axes)
    for (uint32_t a : *axes) what += " " + std::to_string(a);
  CheckAgainstReference(DeviceUnderTest(), what, {SpecFor(type, op, shape, special)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLReduceOptions o;
                          o.axes = axes;
                          o.keepDimensions = keep;
                          return MLNamedOperands{{"out", Reduce(g, op, in[0], o)}};
                        },
                        Tolerance::Ulp(tol), seed);
}

// Runs `body` once per SIMD target compiled in and supported by this CPU
// (e.g. AVX3, AVX2, SSE4 and the scalar fallback), so every target's code runs.
template <class F>
void ForEachSimdTarget(F&& body) {
  struct Restore {  // back to runtime dispatch even when a check throws
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("SIMD target " << hwy::TargetName(target));
    body();
  }
}

const char* const kOps[] = {"reduceL1",  "reduceL2",  "reduceLogSum",  "reduceLogSumExp", "reduceMax",
                            "reduceMean", "reduceMin", "reduceProduct", "reduceSum",       "reduceSumSquare"};

}  // namespace

TEST_CASE("reductions match reference on random shapes and axes", "[device][reduce]") {
  std::mt19937_64 rng(101);
  for (const std::string op : kOps) {
    for (T type : TypesOf(op)) {
      for (int trial = 0; trial < 10; ++trial) {
        const uint32_t rank = static_cast<uint32_t>(rng() % 5);
        const std::vector<uint32_t> shape = RandomShape(rng, rank, trial < 5 ? 7 : 40);
        std::optional<std::vector<uint32_t>> axes;
        if (trial % 4 != 0) {
          // A random subset in random order; sometimes empty.
          std::vector<uint32_t> a;
          for (uint32_t i = 0; i < rank; ++i)
            if (rng() % 2) a.push_back(i);
          std::shuffle(a.begin(), a.end(), rng);
          axes = a;
        }
        const double special = (trial % 3 == 2) ? 0.05 : 0.0;
        Check(op, type, shape, axes, rng() % 2, special, rng());
      }
    }
  }
}

TEST_CASE("reductions over inner, outer and middle axes of larger tensors", "[device][reduce]") {
  struct Case {
    std::vector<uint32_t> shape;
    std::vector<uint32_t> axes;
  };
  const Case cases[] = {
      {{3, 70001}, {1}},          // few long rows: windows split across threads
      {{70001, 3}, {0}},          // tall and narrow: rows folded, then split across threads
      {{257, 1031}, {1}},         // many inner windows
      {{1031, 257}, {0}},         // vertical over many rows
      {{5, 333, 67}, {1}},        // middle axis: vertical per group
      {{9, 40, 3, 50}, {0, 2}},   // non-adjacent axes, inner kept
      {{9, 40, 3, 50}, {1, 3}},   // non-adjacent axes, inner reduced: several runs per window
      {{200003}, {0}},            // one long window
      {{2, 1500, 1200}, {1}},     // vertical, rows split across threads
      {{1, 40, 16500}, {1}},      // vertical with two column blocks
  };
  std::mt19937_64 rng(202);
  for (const Case& c : cases) {
    for (const std::string op : {"reduceSum", "reduceMax", "reduceLogSumExp", "reduceProduct"})
      Check(op, T::kFloat32, c.shape, c.axes, false, 0.001, rng());
    for (const std::string op : {"reduceMean", "reduceL2", "reduceMin"})
      Check(op, T::kFloat16, c.shape, c.axes, true, 0.001, rng());
    for (const std::string op : {"reduceSum", "reduceProduct"}) Check(op, T::kInt32, c.shape, c.axes, false, 0.01, rng());
    for (const std::string op : {"reduceMin", "reduceSumSquare", "reduceL1"})
      Check(op, T::kUint64, c.shape, c.axes, false, 0.01, rng());
    Check("reduceMax", T::kInt8, c.shape, c.axes, false, 0.01, rng());
    Check("reduceMin", T::kUint8, c.shape, c.axes, true, 0.01, rng());
  }
}

TEST_CASE("reductions over short rows and narrow columns", "[device][reduce]") {
  // Short inner windows (transposed, pair-tree for 2/4/8) and narrow outer
  // reductions (rows folded into wide vectors), with tails of both.
  std::mt19937_64 rng(505);
  for (uint32_t w : {2u, 3u, 4u, 7u, 8u, 15u}) {
    for (const std::string op : kOps) {
      for (T type : TypesOf(op)) {
        const bool is_float = type == T::kFloat32 || type == T::kFloat16;
        Check(op, type, {1001, w}, std::vector<uint32_t>{1}, false, is_float ? 0.01 : 0.0, rng());
        Check(op, type, {1001, w}, std::vector<uint32_t>{0}, false, is_float ? 0.01 : 0.0, rng());
      }
    }
    Check("reduceSum", T::kFloat32, {3, 5000, w}, std::vector<uint32_t>{1}, false, 0, rng());
    Check("reduceMean", T::kFloat16, {70001, w}, std::vector<uint32_t>{1}, false, 0, rng());
    Check("reduceL2", T::kFloat32, {70001, w}, std::vector<uint32_t>{0}, false, 0, rng());
  }
}

TEST_CASE("reductions: NaN and infinities in windows", "[device][reduce]") {
  std::mt19937_64 rng(303);
  for (const std::string op : kOps) {
    for (T type : {T::kFloat32, T::kFloat16}) {
      Check(op, type, {16, 37}, std::vector<uint32_t>{1}, false, 0.2, rng());
      Check(op, type, {37, 16}, std::vector<uint32_t>{0}, false, 0.2, rng());
      Check(op, type, {5}, std::nullopt, false, 0.5, rng());
    }
  }
}

TEST_CASE("cpu reductions on every SIMD target", "[cpu][reduce]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(404);
  ForEachSimdTarget([&] {
    for (const std::string op : kOps) {
      for (T type : TypesOf(op)) {
        Check(op, type, {5, 37, 3}, std::vector<uint32_t>{1}, false, 0.02, rng());
        Check(op, type, {37, 21}, std::vector<uint32_t>{1}, false, 0.02, rng());
        Check(op, type, {3, 7, 40}, std::vector<uint32_t>{0, 2}, false, 0.02, rng());
        Check(op, type, {257, 4}, std::vector<uint32_t>{1}, false, 0.02, rng());
        Check(op, type, {300, 3}, std::vector<uint32_t>{0}, false, 0.02, rng());
        Check(op, type, {6, 6}, std::nullopt, false, 0.02, rng());  // one window of all elements
      }
    }
  });
}
