// Pooling layers of CNNs: the ResNet stem's 3x3 stride-2 max pool on
// 1x64x112x112, the same window averaged, and global average pooling of
// 1x2048x7x7. Memory-bound: GB/s of input read plus output written.
#include "bench_util.h"

namespace webnn::bench {
namespace {

enum Kind { kMax, kAverage, kL2 };

// range(0): kind, range(1): nhwc, range(2): global, range(3): threads.
template <MLOperandDataType kType>
void BM_Pool2d(benchmark::State& state) {
  const auto kind = static_cast<Kind>(state.range(0));
  const bool nhwc = state.range(1) != 0;
  const bool global = state.range(2) != 0;
  const uint32_t c = global ? 2048 : 64, hw = global ? 7 : 112;
  const std::vector<uint32_t> shape = nhwc ? std::vector<uint32_t>{1, hw, hw, c} : std::vector<uint32_t>{1, c, hw, hw};
  MLPool2dOptions o;
  if (!global) {
    o.windowDimensions = std::vector<uint32_t>{3, 3};
    o.strides = std::vector<uint32_t>{2, 2};
    o.padding = std::vector<uint32_t>{1, 1, 1, 1};
  }
  o.layout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 3), {{kType, shape}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLOperand y = kind == kMax ? b.maxPool2d(in[0], o) : kind == kAverage ? b.averagePool2d(in[0], o) : b.l2Pool2d(in[0], o);
                 return MLNamedOperands{{"out", y}};
               });
  for (auto _ : state) g.Dispatch();
  const double elem = kType == MLOperandDataType::kFloat32 ? 4.0 : 2.0;
  const double in = static_cast<double>(c) * hw * hw;
  const double out = global ? static_cast<double>(c) : static_cast<double>(c) * 56 * 56;
  SetRates(state, 0, elem * (in + out));
}

BENCHMARK(BM_Pool2d<MLOperandDataType::kFloat32>)
    ->ArgNames({"kind", "nhwc", "global", "threads"})
    ->ArgsProduct({{kMax, kAverage}, {0, 1}, {0}, {1, 2}})
    ->ArgsProduct({{kAverage}, {0, 1}, {1}, {1, 2}})
    ->UseRealTime();
BENCHMARK(BM_Pool2d<MLOperandDataType::kFloat16>)
    ->ArgNames({"kind", "nhwc", "global", "threads"})
    ->ArgsProduct({{kMax, kAverage}, {0, 1}, {0}, {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
