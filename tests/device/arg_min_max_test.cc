// The device's argMin/argMax against the reference device: every input type, int32 and
// int64 indices, every axis position, ties (small integer ranges), NaN, and
// shapes that use both threads. Exact.
#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

void Check(const std::string& op, T type, T out_type, const std::vector<uint32_t>& shape, uint32_t axis, bool keep,
           double lo, double hi, double special, uint64_t seed) {
  InputSpec s{type, shape, lo, hi, special};
  CheckAgainstReference(DeviceUnderTest(), op + " " + std::string(ToString(type)) + " axis " + std::to_string(axis),
                        {s},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLArgMinMaxOptions o;
                          o.keepDimensions = keep;
                          o.outputDataType = out_type;
                          return MLNamedOperands{
                              {"out", op == "argMax" ? g.argMax(in[0], axis, o) : g.argMin(in[0], axis, o)}};
                        },
                        Tolerance::Ulp(0), seed);
}

const T kTypes[] = {T::kFloat32, T::kFloat16, T::kInt32, T::kUint32, T::kInt64, T::kUint64, T::kInt8, T::kUint8};

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

}  // namespace

TEST_CASE("argMin/argMax match reference on random shapes", "[device][arg_min_max]") {
  std::mt19937_64 rng(21);
  for (const std::string op : {"argMin", "argMax"}) {
    for (T type : kTypes) {
      for (int trial = 0; trial < 12; ++trial) {
        const uint32_t rank = 1 + static_cast<uint32_t>(rng() % 4);
        const std::vector<uint32_t> shape = RandomShape(rng, rank, trial < 6 ? 9 : 60);
        const uint32_t axis = static_cast<uint32_t>(rng() % rank);
        const bool is_float = type == T::kFloat32 || type == T::kFloat16;
        const bool unsigned_type = type == T::kUint32 || type == T::kUint64 || type == T::kUint8;
        // Narrow ranges make ties; specials bring NaN, +-Inf and integer extremes.
        const double hi = trial % 2 ? 3 : 100;
        const double lo = unsigned_type ? 0 : -hi;
        Check(op, type, trial % 3 ? T::kInt32 : T::kInt64, shape, axis, trial % 2, lo, hi,
              trial % 4 == 1 ? 0.05 : (is_float ? 0 : 0.02), rng());
      }
    }
  }
}

TEST_CASE("argMin/argMax on large rows and columns", "[device][arg_min_max]") {
  std::mt19937_64 rng(22);
  for (const std::string op : {"argMin", "argMax"}) {
    for (T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kUint64}) {
      Check(op, type, T::kInt64, {100, 1001}, 1, false, 0, 100, 0.001, rng());
      Check(op, type, T::kInt32, {1001, 100}, 0, false, 0, 100, 0.001, rng());
      Check(op, type, T::kInt32, {3, 400, 1100}, 1, true, 0, 100, 0, rng());
      Check(op, type, T::kInt32, {2, 70001}, 1, true, 0, 100, 0, rng());
    }
  }
}

TEST_CASE("cpu argMin/argMax on every SIMD target", "[cpu][arg_min_max]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(23);
  ForEachSimdTarget([&] {
    for (const std::string op : {"argMin", "argMax"}) {
      for (T type : kTypes) {
        Check(op, type, T::kInt32, {5, 37}, 1, false, 0, 5, 0.05, rng());
        Check(op, type, T::kInt64, {37, 5, 3}, 1, false, 0, 5, 0.05, rng());
      }
    }
  });
}
