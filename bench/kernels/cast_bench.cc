// Microbenchmarks of cast (cpu device): the conversions real graphs use
// (float32 <-> float16 around float16 models, float32 -> int8 and int32 ->
// int64 for quantized and index tensors, int64 -> float32, uint4 -> float32
// for 4-bit weights), 1M-16M elements, 1 and 2 threads. GB/s counts the bytes
// read plus written.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

struct Pair {
  T from, to;
  const char* name;
};
constexpr Pair kPairs[] = {{T::kFloat32, T::kFloat16, "f32->f16"}, {T::kFloat16, T::kFloat32, "f16->f32"},
                           {T::kFloat32, T::kInt8, "f32->i8"},     {T::kInt32, T::kInt64, "i32->i64"},
                           {T::kInt64, T::kFloat32, "i64->f32"},   {T::kUint4, T::kFloat32, "u4->f32"},
                           {T::kInt64, T::kInt32, "i64->i32"},     {T::kUint8, T::kFloat32, "u8->f32"}};

double BitsOf(T t) {
  switch (t) {
    case T::kFloat16: return 16;
    case T::kInt8:
    case T::kUint8: return 8;
    case T::kInt64:
    case T::kUint64: return 64;
    case T::kInt4:
    case T::kUint4: return 4;
    default: return 32;
  }
}

// Args: pair, elements, threads.
void BM_Cast(benchmark::State& state) {
  const Pair& p = kPairs[state.range(0)];
  const uint32_t n = static_cast<uint32_t>(state.range(1));
  state.SetLabel(p.name);
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{p.from, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.cast(in[0], p.to)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, (BitsOf(p.from) + BitsOf(p.to)) / 8 * n);
}
BENCHMARK(BM_Cast)->ArgNames({"pair", "elements", "threads"})->ArgsProduct({{0, 1}, {1 << 20, 1 << 22, 1 << 24}, {1, 2}})->UseRealTime();
BENCHMARK(BM_Cast)->ArgNames({"pair", "elements", "threads"})->ArgsProduct({{2, 3, 4, 5, 6, 7}, {1 << 22}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
