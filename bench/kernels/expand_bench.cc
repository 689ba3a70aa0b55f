// expand: broadcasting a per-channel vector over an NCHW map (row fills), a
// row over many rows (row copies), and a scalar over 4M elements. Memory-bound:
// GB/s counts output bytes written (the input stays in cache).
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct ExpandCase {
  const char* label;
  std::vector<uint32_t> shape, new_shape;
};

const ExpandCase kCases[] = {
    {"f32 1x64x1x1 -> 1x64x112x112", {1, 64, 1, 1}, {1, 64, 112, 112}},
    {"f32 1x1x1x64 -> 1x112x112x64", {1, 1, 1, 64}, {1, 112, 112, 64}},
    {"f32 1 -> 4M", {1}, {4194304}},
};

void BM_Expand(benchmark::State& state) {
  const ExpandCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 std::vector<MLDimension> dims(c.new_shape.begin(), c.new_shape.end());
                 return MLNamedOperands{{"out", b.expand(in[0], dims)}};
               });
  for (auto _ : state) g.Dispatch();
  uint64_t out_elements = 1;
  for (uint32_t d : c.new_shape) out_elements *= d;
  SetRates(state, 0, 4.0 * out_elements);
  state.SetLabel(c.label);
}
BENCHMARK(BM_Expand)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
