// scatter family: scatterElements along an inner axis and scatterND of rows
// (KV-cache style updates) and of single elements. GB/s counts the input copy
// (read + write) plus the updates read and written.
#include <random>

#include "bench_util.h"

namespace webnn::bench {
namespace {

MLOperand RandomIndices(MLGraphBuilder& b, const std::vector<uint32_t>& shape, uint32_t dim, uint32_t seed) {
  uint64_t n = 1;
  for (uint32_t d : shape) n *= d;
  std::vector<int32_t> values(n);
  std::mt19937 rng(seed);
  for (auto& v : values) v = static_cast<int32_t>(rng() % dim);
  MLOperandDescriptor desc{MLOperandDataType::kInt32, {}};
  for (uint32_t d : shape) desc.shape.emplace_back(d);
  return b.constant(desc, MLBufferSource(values));
}

// [64, 256, 256], updates [64, 64, 256] along axis 1.
void BM_ScatterElements(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0),
               {{MLOperandDataType::kFloat32, {64, 256, 256}}, {MLOperandDataType::kFloat32, {64, 64, 256}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLScatterOptions options;
                 options.axis = 1;
                 return MLNamedOperands{
                     {"out", b.scatterElements(in[0], RandomIndices(b, {64, 64, 256}, 256, 1), in[1], options)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 4.0 * (2.0 * 64 * 256 * 256 + 2.0 * 64 * 64 * 256));
}
BENCHMARK(BM_ScatterElements)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

// Rows: [2048, 1024] cache, 256 rows of 1024 updated.
void BM_ScatterNdRows(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0),
               {{MLOperandDataType::kFloat32, {2048, 1024}}, {MLOperandDataType::kFloat32, {256, 1024}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.scatterND(in[0], RandomIndices(b, {256, 1}, 2048, 2), in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 4.0 * (2.0 * 2048 * 1024 + 2.0 * 256 * 1024));
}
BENCHMARK(BM_ScatterNdRows)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

// Elements: [1024, 1024], 65536 single-element updates.
void BM_ScatterNdElements(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0),
               {{MLOperandDataType::kFloat32, {1024, 1024}}, {MLOperandDataType::kFloat32, {65536}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.scatterND(in[0], RandomIndices(b, {65536, 2}, 1024, 3), in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 4.0 * (2.0 * 1024 * 1024 + 2.0 * 65536));
}
BENCHMARK(BM_ScatterNdElements)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
}  // namespace webnn::bench
