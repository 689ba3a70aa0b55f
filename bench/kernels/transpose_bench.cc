// transpose on the layouts models convert between: NCHW <-> NHWC of ResNet/
// MobileNet activations, an RGB image to NHWC, and a large 2D matrix.
// Memory-bound: GB/s counts each element read once and written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct TransposeCase {
  const char* label;
  MLOperandDataType type;
  std::vector<uint32_t> shape;
  std::vector<uint32_t> permutation;
};

const TransposeCase kCases[] = {
    {"f32 1x64x112x112 NCHW->NHWC", MLOperandDataType::kFloat32, {1, 64, 112, 112}, {0, 2, 3, 1}},
    {"f32 1x112x112x64 NHWC->NCHW", MLOperandDataType::kFloat32, {1, 112, 112, 64}, {0, 3, 1, 2}},
    {"f32 1x256x56x56 NCHW->NHWC", MLOperandDataType::kFloat32, {1, 256, 56, 56}, {0, 2, 3, 1}},
    {"f32 1x56x56x256 NHWC->NCHW", MLOperandDataType::kFloat32, {1, 56, 56, 256}, {0, 3, 1, 2}},
    {"f32 4096x4096", MLOperandDataType::kFloat32, {4096, 4096}, {1, 0}},
    {"f16 1x64x112x112 NCHW->NHWC", MLOperandDataType::kFloat16, {1, 64, 112, 112}, {0, 2, 3, 1}},
    {"u8 1x3x224x224 NCHW->NHWC", MLOperandDataType::kUint8, {1, 3, 224, 224}, {0, 2, 3, 1}},
    {"f32 1x224x224x3 NHWC->NCHW", MLOperandDataType::kFloat32, {1, 224, 224, 3}, {0, 3, 1, 2}},
    {"i64 1024x1024", MLOperandDataType::kInt64, {1024, 1024}, {1, 0}},
    {"u8 2048x2048", MLOperandDataType::kUint8, {2048, 2048}, {1, 0}},
};

void BM_Transpose(benchmark::State& state) {
  const TransposeCase& c = kCases[state.range(0)];
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{c.type, c.shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLTransposeOptions options;
                 options.permutation = c.permutation;
                 return MLNamedOperands{{"out", b.transpose(in[0], options)}};
               });
  for (auto _ : state) g.Dispatch();
  uint64_t elements = 1;
  for (uint32_t d : c.shape) elements *= d;
  SetRates(state, 0, 2.0 * elements * (BitsPerElement(c.type) / 8));
  state.SetLabel(c.label);
}
BENCHMARK(BM_Transpose)
    ->ArgNames({"case", "threads"})
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1), {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
