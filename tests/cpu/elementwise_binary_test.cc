// cpu kernels of add, sub, mul, div, max, min, pow against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLOperand Binary(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const MLOperand& y) {
  if (op == "add") return b.add(x, y);
  if (op == "sub") return b.sub(x, y);
  if (op == "mul") return b.mul(x, y);
  if (op == "div") return b.div(x, y);
  if (op == "max") return b.max(x, y);
  if (op == "min") return b.min(x, y);
  return b.pow(x, y);
}
}  // namespace

TEST_CASE("cpu binary float32 matches reference on random broadcast shapes", "[cpu][elementwise_binary]") {
  std::mt19937_64 rng(7);
  for (const std::string op : {"add", "sub", "mul", "div", "max", "min", "pow"}) {
    for (int trial = 0; trial < 12; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 5);
      std::vector<uint32_t> a = RandomShape(rng, rank, 9);
      std::vector<uint32_t> b = a;
      for (auto& d : b)
        if (rng() % 3 == 0) d = 1;  // broadcast some dims
      if (rng() % 2 && !b.empty()) b.erase(b.begin());
      if (trial % 2) std::swap(a, b);
      InputSpec sa{MLOperandDataType::kFloat32, a, op == "pow" ? 0.1 : -10.0, 10.0, 0.05};
      InputSpec sb{MLOperandDataType::kFloat32, b, op == "pow" ? -3.0 : -10.0, op == "pow" ? 3.0 : 10.0, 0.05};
      CheckAgainstReference(MLDeviceType::kCpu, op, {sa, sb},
                            [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                              return MLNamedOperands{{"out", Binary(g, op, in[0], in[1])}};
                            },
                            Tolerance::Ulp(op == "pow" ? 2 : 0), rng());
    }
  }
}

TEST_CASE("cpu binary float32 on large tensors uses every thread", "[cpu][elementwise_binary]") {
  InputSpec a{MLOperandDataType::kFloat32, {3, 257, 1031}};
  InputSpec b{MLOperandDataType::kFloat32, {257, 1}};
  CheckAgainstReference(MLDeviceType::kCpu, "add large", {a, b},
                        [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.add(in[0], in[1])}};
                        },
                        Tolerance::Ulp(0), 11);
}
