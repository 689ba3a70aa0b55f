// reverse: the innermost axis (lane reversal in registers) and an outer axis
// (row copies) of a 1x64x112x112 map, float32 and uint8. Memory-bound: GB/s
// counts every byte read once and written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct ReverseCase {
  const char* label;
  MLOperandDataType type;
  std::vector<uint32_t> axes;
};

const ReverseCase kCases[] = {
    {"f32 1x64x112x112 axis 3", MLOperandDataType::kFloat32, {3}},
    {"f32 1x64x112x112 axis 1", MLOperandDataType::kFloat32, {1}},
    {"u8 1x64x112x112 axis 3", MLOperandDataType::kUint8, {3}},
};

void BM_Reverse(benchmark::State& state) {
  const ReverseCase& c = kCases[state.range(0)];
  const std::vector<uint32_t> shape = {1, 64, 112, 112};
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{c.type, shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLReverseOptions options;
                 options.axes = c.axes;
                 return MLNamedOperands{{"out", b.reverse(in[0], options)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 2.0 * (BitsPerElement(c.type) / 8) * 64 * 112 * 112);
  state.SetLabel(c.label);
}
BENCHMARK(BM_Reverse)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
