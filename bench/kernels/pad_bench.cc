// pad of conv inputs: 1-pixel spatial padding of NCHW and NHWC feature maps
// (constant, edge, reflection) and of an image. Memory-bound: GB/s counts the
// input read once and the output written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct PadCase {
  const char* label;
  std::vector<uint32_t> shape, begin, end;
  MLPaddingMode mode;
};

const PadCase kCases[] = {
    {"f32 NCHW 1x64x112x112 +1 constant", {1, 64, 112, 112}, {0, 0, 1, 1}, {0, 0, 1, 1}, MLPaddingMode::kConstant},
    {"f32 NCHW 1x64x112x112 +1 edge", {1, 64, 112, 112}, {0, 0, 1, 1}, {0, 0, 1, 1}, MLPaddingMode::kEdge},
    {"f32 NCHW 1x64x112x112 +1 reflection", {1, 64, 112, 112}, {0, 0, 1, 1}, {0, 0, 1, 1},
     MLPaddingMode::kReflection},
    {"f32 NHWC 1x112x112x64 +1 constant", {1, 112, 112, 64}, {0, 1, 1, 0}, {0, 1, 1, 0}, MLPaddingMode::kConstant},
    {"f32 NCHW 1x256x56x56 +3 reflection", {1, 256, 56, 56}, {0, 0, 3, 3}, {0, 0, 3, 3},
     MLPaddingMode::kReflection},
    {"f32 NCHW 1x3x224x224 +3 constant", {1, 3, 224, 224}, {0, 0, 3, 3}, {0, 0, 3, 3}, MLPaddingMode::kConstant},
};

void BM_Pad(benchmark::State& state) {
  const PadCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLPadOptions options;
                 options.mode = c.mode;
                 return MLNamedOperands{{"out", b.pad(in[0], c.begin, c.end, options)}};
               });
  for (auto _ : state) g.Dispatch();
  uint64_t in_elements = 1, out_elements = 1;
  for (size_t d = 0; d < c.shape.size(); ++d) {
    in_elements *= c.shape[d];
    out_elements *= c.shape[d] + c.begin[d] + c.end[d];
  }
  SetRates(state, 0, 4.0 * (in_elements + out_elements));
  state.SetLabel(c.label);
}
BENCHMARK(BM_Pad)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
