// Microbenchmarks of the activations (cpu device): 1M-16M float32 elements
// (and float16), 1 and 2 threads; GB/s counts 1 read + 1 write per element,
// the "GFLOP" counter is G elements/s. ApplyActivationF32 (the fused-epilogue
// entry point) is measured in place on an L1-resident block, where only its
// arithmetic counts (plus a 16 KiB L1 copy that restores the arguments).
#include <algorithm>
#include <random>

#include "bench_util.h"
#include "ops/cpu/activation.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

MLOperand Activation(MLGraphBuilder& b, int op, const MLOperand& x) {
  switch (op) {
    case 0: return b.relu(x);
    case 1: return b.sigmoid(x);
    case 2: return b.gelu(x);
    case 3: return b.tanh(x);
    case 4: return b.hardSwish(x);
    case 5: return b.elu(x);
    case 6: return b.softplus(x);
    case 7: return b.leakyRelu(x);
    default: {
      MLClampOptions o;
      o.minValue = MLNumber(0.0);
      o.maxValue = MLNumber(6.0);
      return b.clamp(x, o);
    }
  }
}
constexpr const char* kNames[] = {"relu", "sigmoid", "gelu", "tanh", "hardSwish", "elu", "softplus", "leakyRelu", "clamp"};
constexpr ops::OpKind kKinds[] = {ops::OpKind::relu, ops::OpKind::sigmoid,  ops::OpKind::gelu,
                                  ops::OpKind::tanh, ops::OpKind::hardSwish, ops::OpKind::elu,
                                  ops::OpKind::softplus, ops::OpKind::leakyRelu, ops::OpKind::clamp};

// Args: op, elements, threads, float16.
void BM_Activation(benchmark::State& state) {
  const int op = static_cast<int>(state.range(0));
  const uint32_t n = static_cast<uint32_t>(state.range(1));
  const bool half = state.range(3) != 0;
  state.SetLabel(std::string(kNames[op]) + (half ? " f16" : ""));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{half ? T::kFloat16 : T::kFloat32, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", Activation(b, op, in[0])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, static_cast<double>(n), (half ? 4.0 : 8.0) * n);
}
BENCHMARK(BM_Activation)
    ->ArgNames({"op", "elements", "threads", "f16"})
    ->ArgsProduct({{0, 1, 2, 3}, {1 << 20, 1 << 22, 1 << 24}, {1, 2}, {0}})
    ->UseRealTime();
BENCHMARK(BM_Activation)
    ->ArgNames({"op", "elements", "threads", "f16"})
    ->ArgsProduct({{4, 5, 6, 7, 8}, {1 << 22}, {1, 2}, {0}})
    ->UseRealTime();
BENCHMARK(BM_Activation)
    ->ArgNames({"op", "elements", "threads", "f16"})
    ->ArgsProduct({{0, 1, 2}, {1 << 22}, {1, 2}, {1}})
    ->UseRealTime();

// In-place on 4096 floats (16 KiB, in L1): the cost a fused conv/gemm
// epilogue pays per output tile.
void BM_ApplyActivationF32(benchmark::State& state) {
  const int op = static_cast<int>(state.range(0));
  state.SetLabel(kNames[op]);
  std::vector<float> data(4096);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-4, 4);
  for (float& v : data) v = u(rng);
  const std::vector<float> original = data;
  ops::ActivationAttrs attrs;
  attrs.alpha = 0.01;
  attrs.minValue = MLNumber(0.0);
  attrs.maxValue = MLNumber(6.0);
  const ops::cpu::ActivationF32 act = ops::cpu::MakeActivationF32(kKinds[op], attrs);
  for (auto _ : state) {
    // Fresh arguments each time (repeated gelu/tanh would decay into
    // subnormals): a 16 KiB copy within L1, a few percent of the time.
    std::copy(original.begin(), original.end(), data.begin());
    ops::cpu::ApplyActivationF32(act, data.data(), data.size());
    benchmark::DoNotOptimize(data.data());
  }
  SetRates(state, static_cast<double>(data.size()), 0);
}
BENCHMARK(BM_ApplyActivationF32)->ArgNames({"op"})->DenseRange(0, 8);

}  // namespace
}  // namespace webnn::bench
