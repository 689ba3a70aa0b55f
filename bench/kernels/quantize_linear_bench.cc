// Microbenchmarks of quantizeLinear/dequantizeLinear (cpu device): per-tensor
// and per-channel uint8/int8 (QDQ activations of a ResNet stage, NCHW
// [1, 256, 56, 56]), int4 weights with blocks of 32 along the input channels
// ([4096, 4096], as in LLM weight-only quantization), and int32 (float64
// lanes). 1 and 2 threads; GB/s counts the bytes read plus written.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

struct Case {
  const char* name;
  bool quantize;
  T int_type;
  std::vector<uint32_t> shape, params;
};

const Case kCases[] = {
    {"q u8 per-tensor", true, T::kUint8, {1, 256, 56, 56}, {1, 1, 1, 1}},
    {"q i8 per-channel", true, T::kInt8, {1, 256, 56, 56}, {1, 256, 1, 1}},
    {"dq u8 per-tensor", false, T::kUint8, {1, 256, 56, 56}, {1, 1, 1, 1}},
    {"dq i8 per-channel", false, T::kInt8, {1, 256, 56, 56}, {1, 256, 1, 1}},
    {"dq i4 block32", false, T::kInt4, {4096, 4096}, {4096, 128}},
    {"q i4 block32", true, T::kInt4, {4096, 4096}, {4096, 128}},
    {"q i32 per-tensor", true, T::kInt32, {1, 256, 56, 56}, {1, 1, 1, 1}},
    {"dq i32 per-tensor", false, T::kInt32, {1, 256, 56, 56}, {1, 1, 1, 1}},
};

double BitsOf(T t) {
  switch (t) {
    case T::kInt8:
    case T::kUint8: return 8;
    case T::kInt4:
    case T::kUint4: return 4;
    default: return 32;
  }
}

// Args: case, threads.
void BM_QuantizeLinear(benchmark::State& state) {
  const Case& c = kCases[state.range(0)];
  state.SetLabel(c.name);
  const T data_type = c.quantize ? T::kFloat32 : c.int_type;
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1),
               {{data_type, c.shape}, {T::kFloat32, c.params, true}, {c.int_type, c.params, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", c.quantize ? b.quantizeLinear(in[0], in[1], in[2])
                                                           : b.dequantizeLinear(in[0], in[1], in[2])}};
               });
  for (auto _ : state) g.Dispatch();
  double n = 1;
  for (uint32_t d : c.shape) n *= d;
  SetRates(state, 0, (32 + BitsOf(c.int_type)) / 8 * n);
}
BENCHMARK(BM_QuantizeLinear)->ArgNames({"case", "threads"})->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
