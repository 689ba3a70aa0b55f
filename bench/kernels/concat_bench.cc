// concat of model-sized activations: channel concat of NCHW feature maps
// (DenseNet/Inception/PP-OCR FPN: blocks per input), concat on the innermost
// axis of NHWC maps (many short rows), and axis 0 (one long copy per input).
// Memory-bound: GB/s counts every byte read once and written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct ConcatCase {
  const char* label;
  std::vector<std::vector<uint32_t>> shapes;
  uint32_t axis;
};

const ConcatCase kCases[] = {
    {"f32 NCHW channels 1x64x56x56 + 1x64x56x56", {{1, 64, 56, 56}, {1, 64, 56, 56}}, 1},
    {"f32 NCHW channels 1x256x28x28 x4", {{1, 256, 28, 28}, {1, 256, 28, 28}, {1, 256, 28, 28}, {1, 256, 28, 28}}, 1},
    {"f32 NHWC channels 1x56x56x64 + 1x56x56x64", {{1, 56, 56, 64}, {1, 56, 56, 64}}, 3},
    {"f32 axis 0 2x 1024x1024", {{1024, 1024}, {1024, 1024}}, 0},
};

void BM_Concat(benchmark::State& state) {
  const ConcatCase& c = kCases[state.range(0)];
  std::vector<BenchInput> inputs;
  uint64_t elements = 0;
  for (const auto& s : c.shapes) {
    inputs.push_back({MLOperandDataType::kFloat32, s});
    uint64_t n = 1;
    for (uint32_t d : s) n *= d;
    elements += n;
  }
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), inputs,
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.concat(in, c.axis)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 2.0 * 4 * elements);
  state.SetLabel(c.label);
}
BENCHMARK(BM_Concat)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
