// split of model-sized activations: channel split of NCHW maps (ShuffleNet,
// CSP blocks), innermost-axis split of NHWC maps, and axis 0.
// Memory-bound: GB/s counts every byte read once and written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct SplitCase {
  const char* label;
  std::vector<uint32_t> shape;
  uint32_t parts, axis;
};

const SplitCase kCases[] = {
    {"f32 NCHW 1x128x56x56 into 2 on channels", {1, 128, 56, 56}, 2, 1},
    {"f32 NHWC 1x56x56x128 into 2 on channels", {1, 56, 56, 128}, 2, 3},
    {"f32 2048x1024 into 2 on axis 0", {2048, 1024}, 2, 0},
};

void BM_Split(benchmark::State& state) {
  const SplitCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLSplitOptions options;
                 options.axis = c.axis;
                 const std::vector<MLOperand> parts = b.split(in[0], c.parts, options);
                 MLNamedOperands outs;
                 for (size_t k = 0; k < parts.size(); ++k) outs["out" + std::to_string(k)] = parts[k];
                 return outs;
               });
  for (auto _ : state) g.Dispatch();
  uint64_t elements = 1;
  for (uint32_t d : c.shape) elements *= d;
  SetRates(state, 0, 2.0 * 4 * elements);
  state.SetLabel(c.label);
}
BENCHMARK(BM_Split)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
