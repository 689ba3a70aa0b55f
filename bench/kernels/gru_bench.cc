// Microbenchmarks of gru (cpu device): a speech/text encoder layer (input 256,
// hidden 256, 64 steps) at batch 1 (GEMV steps, bound by reading R once per
// step) and batch 16, forward and bidirectional, constant weights, 1 and 2
// threads. GFLOP/s counts the products: 2 * steps * dirs * batch * 3H * (I + H).
#include "bench_util.h"

namespace webnn::bench {
namespace {

void BM_GruF32(benchmark::State& state) {
  const uint32_t batch = static_cast<uint32_t>(state.range(0));
  const bool both = state.range(2) != 0;
  const uint32_t steps = 64, input = 256, hidden = 256, dirs = both ? 2 : 1;
  state.SetLabel(both ? "bidirectional" : "forward");
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1),
               {{MLOperandDataType::kFloat32, {steps, batch, input}},
                {MLOperandDataType::kFloat32, {dirs, 3 * hidden, input}, true},
                {MLOperandDataType::kFloat32, {dirs, 3 * hidden, hidden}, true},
                {MLOperandDataType::kFloat32, {dirs, 3 * hidden}, true},
                {MLOperandDataType::kFloat32, {dirs, 3 * hidden}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLGruOptions o;
                 o.bias = in[3];
                 o.recurrentBias = in[4];
                 o.returnSequence = true;
                 o.direction = both ? MLRecurrentNetworkDirection::kBoth : MLRecurrentNetworkDirection::kForward;
                 const auto r = b.gru(in[0], in[1], in[2], steps, hidden, o);
                 return MLNamedOperands{{"h", r[0]}, {"seq", r[1]}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 2.0 * steps * dirs * batch * 3.0 * hidden * (input + hidden), 0);
}
BENCHMARK(BM_GruF32)->ArgNames({"batch", "threads", "both"})->ArgsProduct({{1, 16}, {1, 2}, {0, 1}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
