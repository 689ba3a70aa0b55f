// resample2d 2x upsampling of a 1x64x56x56 feature map (FPN/YOLO necks), both
// layouts, nearest and linear: GB/s of input read plus output written.
#include "bench_util.h"

namespace webnn::bench {
namespace {

// range(0): linear, range(1): nhwc, range(2): threads.
template <MLOperandDataType kType>
void BM_Resample2d(benchmark::State& state) {
  const bool linear = state.range(0) != 0;
  const bool nhwc = state.range(1) != 0;
  const std::vector<uint32_t> shape = nhwc ? std::vector<uint32_t>{1, 56, 56, 64} : std::vector<uint32_t>{1, 64, 56, 56};
  MLResample2dOptions o;
  o.mode = linear ? MLInterpolationMode::kLinear : MLInterpolationMode::kNearestNeighbor;
  o.scales = std::vector<float>{2.0f, 2.0f};
  o.axes = nhwc ? std::vector<uint32_t>{1, 2} : std::vector<uint32_t>{2, 3};
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{kType, shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.resample2d(in[0], o)}};
               });
  for (auto _ : state) g.Dispatch();
  const double elem = kType == MLOperandDataType::kFloat32 ? 4.0 : kType == MLOperandDataType::kFloat16 ? 2.0 : 1.0;
  SetRates(state, 0, elem * 64.0 * 56 * 56 * 5);  // input + 4x output
}

BENCHMARK(BM_Resample2d<MLOperandDataType::kFloat32>)
    ->ArgNames({"linear", "nhwc", "threads"})
    ->ArgsProduct({{0, 1}, {0, 1}, {1, 2}})
    ->UseRealTime();
BENCHMARK(BM_Resample2d<MLOperandDataType::kFloat16>)
    ->ArgNames({"linear", "nhwc", "threads"})
    ->ArgsProduct({{0, 1}, {0, 1}, {1}})
    ->UseRealTime();
BENCHMARK(BM_Resample2d<MLOperandDataType::kUint8>)
    ->ArgNames({"linear", "nhwc", "threads"})
    ->ArgsProduct({{0, 1}, {0, 1}, {1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
