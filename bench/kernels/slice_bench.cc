// slice of model-sized tensors: a channel range of an NCHW map (row copies),
// a spatial crop (short rows), and a stride-2 subsample of the innermost axis
// (gathers). Memory-bound: GB/s counts output bytes written and read once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct SliceCase {
  const char* label;
  std::vector<uint32_t> shape, starts, sizes, strides;
};

const SliceCase kCases[] = {
    {"f32 1x256x56x56 channels 64..191", {1, 256, 56, 56}, {0, 64, 0, 0}, {1, 128, 56, 56}, {1, 1, 1, 1}},
    {"f32 1x64x112x112 crop 100x100", {1, 64, 112, 112}, {0, 0, 6, 6}, {1, 64, 100, 100}, {1, 1, 1, 1}},
    {"f32 1x64x112x112 stride 2 (H, W)", {1, 64, 112, 112}, {0, 0, 0, 0}, {1, 64, 112, 112}, {1, 1, 2, 2}},
    {"f32 4096x1024 rows 0..2047", {4096, 1024}, {0, 0}, {2048, 1024}, {1, 1}},
};

void BM_Slice(benchmark::State& state) {
  const SliceCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLSliceOptions options;
                 options.strides = c.strides;
                 return MLNamedOperands{{"out", b.slice(in[0], c.starts, c.sizes, options)}};
               });
  for (auto _ : state) g.Dispatch();
  uint64_t elements = 1;
  for (size_t d = 0; d < c.sizes.size(); ++d) elements *= (c.sizes[d] + c.strides[d] - 1) / c.strides[d];
  SetRates(state, 0, 2.0 * 4 * elements);
  state.SetLabel(c.label);
}
BENCHMARK(BM_Slice)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
