// tile: repeating a feature map along batch and spatial axes, and a short
// vector many times. Memory-bound: GB/s counts output bytes written (the input
// stays in cache).
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct TileCase {
  const char* label;
  std::vector<uint32_t> shape, repetitions;
};

const TileCase kCases[] = {
    {"f32 1x64x56x56 x(4,1,1,1)", {1, 64, 56, 56}, {4, 1, 1, 1}},
    {"f32 1x64x56x56 x(1,1,2,2)", {1, 64, 56, 56}, {1, 1, 2, 2}},
    {"f32 1x7 x(1,131072)", {1, 7}, {1, 131072}},
};

void BM_Tile(benchmark::State& state) {
  const TileCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.tile(in[0], c.repetitions)}};
               });
  for (auto _ : state) g.Dispatch();
  uint64_t out_elements = 1;
  for (size_t d = 0; d < c.shape.size(); ++d) out_elements *= uint64_t{c.shape[d]} * c.repetitions[d];
  SetRates(state, 0, 4.0 * out_elements);
  state.SetLabel(c.label);
}
BENCHMARK(BM_Tile)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
