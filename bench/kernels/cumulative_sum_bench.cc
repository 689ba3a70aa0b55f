// cumulativeSum along the innermost axis (transposed line groups) and an outer
// axis (rows of accumulators), float32 (float64 accumulation) and int32.
// GB/s counts the input read once and the output written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct ScanCase {
  const char* label;
  MLOperandDataType type;
  std::vector<uint32_t> shape;
  uint32_t axis;
};

const ScanCase kCases[] = {
    {"f32 1024x4096 axis 1 (innermost)", MLOperandDataType::kFloat32, {1024, 4096}, 1},
    {"f32 1024x4096 axis 0", MLOperandDataType::kFloat32, {1024, 4096}, 0},
    {"f16 1024x4096 axis 1 (innermost)", MLOperandDataType::kFloat16, {1024, 4096}, 1},
    {"i32 1024x4096 axis 1 (innermost)", MLOperandDataType::kInt32, {1024, 4096}, 1},
    {"i32 1024x4096 axis 0", MLOperandDataType::kInt32, {1024, 4096}, 0},
};

void BM_CumulativeSum(benchmark::State& state) {
  const ScanCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{c.type, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.cumulativeSum(in[0], c.axis)}};
               });
  for (auto _ : state) g.Dispatch();
  uint64_t elements = 1;
  for (uint32_t d : c.shape) elements *= d;
  SetRates(state, 0, 2.0 * (BitsPerElement(c.type) / 8) * elements);
  state.SetLabel(c.label);
}
BENCHMARK(BM_CumulativeSum)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
