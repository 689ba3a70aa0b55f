// The device's kernels of add, sub, mul, div, max, min, pow against the reference
// device, for every data type, on random broadcast shapes with NaN/Inf/-0 and
// integer extremes. Tolerances are WPT's (ULP; integers exact).
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

MLOperand Binary(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const MLOperand& y) {
  if (op == "add") return b.add(x, y);
  if (op == "sub") return b.sub(x, y);
  if (op == "mul") return b.mul(x, y);
  if (op == "div") return b.div(x, y);
  if (op == "max") return b.max(x, y);
  if (op == "min") return b.min(x, y);
  return b.pow(x, y);
}

const std::vector<T> kAllTypes = {T::kFloat32, T::kFloat16, T::kInt8,  T::kUint8,
                                  T::kInt32,   T::kUint32,  T::kInt64, T::kUint64};
const std::vector<std::string> kOps = {"add", "sub", "mul", "div", "max", "min", "pow"};

bool IsFloat(T t) { return t == T::kFloat32 || t == T::kFloat16; }

// WPT's tolerances (tests/data/wpt/<op>.json).
Tolerance BinaryTolerance(const std::string& op, T type) {
  if (!IsFloat(type)) return Tolerance::Ulp(0);
  if (op == "add" || op == "sub" || op == "mul") return Tolerance::Ulp(1);
  if (op == "div") return Tolerance::Ulp(2);
  if (op == "pow") return Tolerance::Ulp(type == T::kFloat32 ? 32 : 2);
  return Tolerance::Ulp(0);
}

// Value ranges per op and type: pow keeps exponents small so results stay
// meaningful; integer division sees 0 and -1 divisors.
void Ranges(const std::string& op, T type, InputSpec& a, InputSpec& b) {
  const bool is_signed = type == T::kInt8 || type == T::kInt32 || type == T::kInt64;
  if (IsFloat(type)) {
    a.lo = -10, a.hi = 10, b.lo = -10, b.hi = 10;
    if (op == "pow") a.lo = -3, a.hi = 3, b.lo = -4, b.hi = 4;
    a.special_fraction = b.special_fraction = 0.05;
    return;
  }
  const double lo = is_signed ? -100 : 0;
  a.lo = lo, a.hi = 100, b.lo = lo, b.hi = 100;
  if (op == "div") b.lo = is_signed ? -3 : 0, b.hi = 3;
  if (op == "pow") a.lo = is_signed ? -4 : 0, a.hi = 4, b.lo = is_signed ? -3 : 0, b.hi = 12;
  a.special_fraction = b.special_fraction = 0.05;  // type extremes: wrap-around
}

// Random broadcastable shapes of rank 0-4 (dims up to max_dim).
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> BroadcastPair(std::mt19937_64& rng, uint32_t max_dim,
                                                                      int trial) {
  const uint32_t rank = static_cast<uint32_t>(rng() % 5);
  std::vector<uint32_t> a = RandomShape(rng, rank, max_dim);
  std::vector<uint32_t> b = a;
  for (auto& d : b)
    if (rng() % 3 == 0) d = 1;
  if (rng() % 2 && !b.empty()) b.erase(b.begin());
  if (trial % 2) std::swap(a, b);
  return {a, b};
}

}  // namespace

TEST_CASE("binary ops match reference for every op and type on random broadcast shapes",
          "[device][elementwise_binary]") {
  std::mt19937_64 rng(7);
  for (const T type : kAllTypes) {
    for (const std::string& op : kOps) {
      for (int trial = 0; trial < 8; ++trial) {
        auto [sa, sb] = BroadcastPair(rng, 19, trial);
        InputSpec a{type, sa}, b{type, sb};
        Ranges(op, type, a, b);
        CheckAgainstReference(DeviceUnderTest(), op + " " + std::to_string(static_cast<int>(type)), {a, b},
                              [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                                return MLNamedOperands{{"out", Binary(g, op, in[0], in[1])}};
                              },
                              BinaryTolerance(op, type), rng());
      }
    }
  }
}

TEST_CASE("binary ops: size-1 tensors, scalars and odd tails", "[device][elementwise_binary]") {
  std::mt19937_64 rng(3);
  for (const T type : kAllTypes) {
    for (const std::string& op : kOps) {
      for (const auto& [sa, sb] : std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>>{
               {{1}, {1}}, {{}, {}}, {{}, {37}}, {{67}, {}}, {{131}, {131}}, {{3, 1, 5}, {1, 7, 1}}}) {
        InputSpec a{type, sa}, b{type, sb};
        Ranges(op, type, a, b);
        CheckAgainstReference(DeviceUnderTest(), op, {a, b},
                              [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                                return MLNamedOperands{{"out", Binary(g, op, in[0], in[1])}};
                              },
                              BinaryTolerance(op, type), rng());
      }
    }
  }
}

TEST_CASE("binary ops on large tensors", "[device][elementwise_binary]") {
  std::mt19937_64 rng(11);
  for (const T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kInt32, T::kInt64}) {
    for (const std::string op : {"add", "mul", "div", "max", "pow"}) {
      // A long row, and per-channel rows (NCHW bias).
      for (const auto& [sa, sb] : std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>>{
               {{70001}, {70001}}, {{3, 67, 1031}, {67, 1}}}) {
        InputSpec a{type, sa}, b{type, sb};
        Ranges(op, type, a, b);
        CheckAgainstReference(DeviceUnderTest(), op + " large", {a, b},
                              [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                                return MLNamedOperands{{"out", Binary(g, op, in[0], in[1])}};
                              },
                              BinaryTolerance(op, type), rng());
      }
    }
  }
}

TEST_CASE("pow with negative bases and integral exponents", "[device][elementwise_binary]") {
  std::mt19937_64 rng(5);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    for (const bool constant_exponent : {false, true}) {
      InputSpec a{type, {5, 97}, -20, 20, 0.05};
      // Integral exponents in [-6, 6] (built in the graph: floor of random values).
      InputSpec b{type, {97}, -6, 7, 0.0, constant_exponent};
      CheckAgainstReference(DeviceUnderTest(), "pow integral", {a, b},
                            [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                              return MLNamedOperands{{"out", g.pow(in[0], g.floor(in[1]))}};
                            },
                            BinaryTolerance("pow", type), rng());
    }
  }
}

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("cpu binary on every SIMD target", "[cpu][elementwise_binary]") {
  std::mt19937_64 rng(13);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const T type : kAllTypes) {
      for (const std::string& op : kOps) {
        InputSpec a{type, {3, 67}}, b{type, {67}};
        Ranges(op, type, a, b);
        CheckAgainstReference(MLDeviceType::kCpu, op + " on " + target, {a, b},
                              [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                                return MLNamedOperands{{"out", Binary(g, op, in[0], in[1])}};
                              },
                              BinaryTolerance(op, type), rng());
      }
    }
  });
}

TEST_CASE("element-wise ops with outputs past the cpu's streaming-store threshold", "[device][elementwise_binary]") {
  // >= 16 MiB outputs are written with streaming stores after an unaligned
  // head; odd sizes put the two threads' chunks on unaligned boundaries.
  std::mt19937_64 rng(17);
  const uint32_t n32 = 4200001, n16 = 8400001;
  auto check = [&](const std::string& what, const std::vector<InputSpec>& in, const GraphBody& body, Tolerance t) {
    CheckAgainstReference(DeviceUnderTest(), what, in, body, t, rng());
  };
  check("add f32", {{T::kFloat32, {n32}, -10, 10}, {T::kFloat32, {n32}, -10, 10}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) { return MLNamedOperands{{"out", g.add(x[0], x[1])}}; },
        Tolerance::Ulp(1));
  check("mul f16 by scalar", {{T::kFloat16, {n16}, -10, 10}, {T::kFloat16, {}, -10, 10}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) { return MLNamedOperands{{"out", g.mul(x[0], x[1])}}; },
        Tolerance::Ulp(1));
  check("exp f32", {{T::kFloat32, {n32}, -10, 10}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) { return MLNamedOperands{{"out", g.exp(x[0])}}; },
        Tolerance::Ulp(32));
  check("relu f16", {{T::kFloat16, {n16}, -10, 10}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) { return MLNamedOperands{{"out", g.relu(x[0])}}; },
        Tolerance::Ulp(0));
  check("prelu f32", {{T::kFloat32, {3, n32 / 3}, -10, 10}, {T::kFloat32, {3, 1}, -1, 1}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) { return MLNamedOperands{{"out", g.prelu(x[0], x[1])}}; },
        Tolerance::Ulp(1));
  check("cast f32->f16", {{T::kFloat32, {n16}, -70000, 70000}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
          return MLNamedOperands{{"out", g.cast(x[0], T::kFloat16)}};
        },
        Tolerance::Ulp(0));
  check("cast f16->f32", {{T::kFloat16, {n32}, -70000, 70000, 0.01}},
        [](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
          return MLNamedOperands{{"out", g.cast(x[0], T::kFloat32)}};
        },
        Tolerance::Ulp(0));
}

TEST_CASE("binary ops with a repeated short row (channels-last per-channel operands)", "[device][elementwise_binary]") {
  // The per-channel vector is tiled into a long row; both operand orders
  // (sub/div/pow are not symmetric), odd channel counts, both threads.
  std::mt19937_64 rng(19);
  for (const T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kInt32}) {
    for (const std::string op : {"add", "sub", "div", "pow", "max"}) {
      for (const uint32_t c : {1u, 3u, 37u, 64u, 1023u}) {
        for (const bool swap : {false, true}) {
          std::vector<uint32_t> full{2, 57, 31, c}, row{c};
          if (swap) std::swap(full, row);
          InputSpec a{type, full}, b{type, row};
          Ranges(op, type, a, b);
          CheckAgainstReference(DeviceUnderTest(), op + " repeated row", {a, b},
                                [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                                  return MLNamedOperands{{"out", Binary(g, op, in[0], in[1])}};
                                },
                                BinaryTolerance(op, type), rng());
        }
      }
    }
  }
}
