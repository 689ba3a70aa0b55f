// Microbenchmarks of add, sub, mul, div, max, min, pow (cpu device). Binary
// ops are memory-bound: GB/s counts 2 reads + 1 write per output element (no
// write-allocate traffic), 1M-16M elements (1M float32 tensors fit in L3,
// 16M do not), 1 and 2 threads; plus the per-channel bias add of a
// ResNet/MobileNet NCHW activation, other data types, and pow (compute-bound,
// float64 lanes) with GFLOP/s-style element rates.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

MLOperand Binary(MLGraphBuilder& b, int op, const MLOperand& x, const MLOperand& y) {
  switch (op) {
    case 0: return b.add(x, y);
    case 1: return b.sub(x, y);
    case 2: return b.mul(x, y);
    case 3: return b.div(x, y);
    case 4: return b.max(x, y);
    case 5: return b.min(x, y);
    default: return b.pow(x, y);
  }
}
constexpr const char* kNames[] = {"add", "sub", "mul", "div", "max", "min", "pow"};

uint32_t Bytes(T t) {
  switch (t) {
    case T::kFloat16: return 2;
    case T::kInt8:
    case T::kUint8: return 1;
    case T::kInt64:
    case T::kUint64: return 8;
    default: return 4;
  }
}

// Args: op, elements, threads, type.
void BM_Binary(benchmark::State& state) {
  const int op = static_cast<int>(state.range(0));
  const uint32_t n = static_cast<uint32_t>(state.range(1));
  const T type = static_cast<T>(state.range(3));
  state.SetLabel(kNames[op]);
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{type, {n}}, {type, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", Binary(b, op, in[0], in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 3.0 * Bytes(type) * n);
}
BENCHMARK(BM_Binary)
    ->ArgNames({"op", "elements", "threads", "type"})
    ->ArgsProduct({{0, 2, 3, 4}, {1 << 20, 1 << 22, 1 << 24}, {1, 2}, {static_cast<int>(T::kFloat32)}})
    ->UseRealTime();
BENCHMARK(BM_Binary)
    ->ArgNames({"op", "elements", "threads", "type"})
    ->ArgsProduct({{0, 2},
                   {1 << 24},
                   {1, 2},
                   {static_cast<int>(T::kFloat16), static_cast<int>(T::kInt8), static_cast<int>(T::kInt32),
                    static_cast<int>(T::kInt64)}})
    ->UseRealTime();
// Integer division (float lanes; 64-bit per element).
BENCHMARK(BM_Binary)
    ->ArgNames({"op", "elements", "threads", "type"})
    ->ArgsProduct({{3},
                   {1 << 22},
                   {1, 2},
                   {static_cast<int>(T::kInt8), static_cast<int>(T::kInt32), static_cast<int>(T::kInt64)}})
    ->UseRealTime();
// pow: float64 exp(b * log a).
BENCHMARK(BM_Binary)
    ->ArgNames({"op", "elements", "threads", "type"})
    ->ArgsProduct({{6}, {1 << 22}, {1, 2}, {static_cast<int>(T::kFloat32), static_cast<int>(T::kFloat16)}})
    ->UseRealTime();

// Per-channel bias over NCHW (rows of H*W with one scalar each) and NHWC (a
// channel vector repeated per pixel): ResNet-50 conv1 output [1, 64, 112, 112],
// MobileNetV2 [1, 32, 112, 112] and the last ResNet stage [1, 2048, 7, 7]
// (short rows: per-row overhead shows).
void BM_BiasAdd(benchmark::State& state) {
  const uint32_t c = static_cast<uint32_t>(state.range(0));
  const uint32_t hw = static_cast<uint32_t>(state.range(1));
  const bool nhwc = state.range(3) != 0;
  state.SetLabel(nhwc ? "nhwc" : "nchw");
  const std::vector<uint32_t> x = nhwc ? std::vector<uint32_t>{1, hw, hw, c} : std::vector<uint32_t>{1, c, hw, hw};
  const std::vector<uint32_t> bias = nhwc ? std::vector<uint32_t>{c} : std::vector<uint32_t>{c, 1, 1};
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{T::kFloat32, x}, {T::kFloat32, bias, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.add(in[0], in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 8.0 * c * hw * hw);
}
BENCHMARK(BM_BiasAdd)
    ->ArgNames({"channels", "hw", "threads", "nhwc"})
    ->ArgsProduct({{32, 64}, {112}, {1, 2}, {0, 1}})
    ->UseRealTime();
BENCHMARK(BM_BiasAdd)->ArgNames({"channels", "hw", "threads", "nhwc"})->ArgsProduct({{2048}, {7}, {1, 2}, {0, 1}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
