// gather family: embedding lookups (rows of a [vocab, hidden] table), an
// innermost-axis gather (one element per index), gatherElements along an
// inner axis, and gatherND of rows. Memory-bound: GB/s counts output bytes
// written plus the bytes read for them (indices excluded).
#include <random>

#include "bench_util.h"

namespace webnn::bench {
namespace {

// Random int32 indices within [0, dim): BenchGraph fills integer inputs with
// 0..3, so indices are a constant built here.
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

// Embedding: [30522, 768] table, 512 token ids (BERT-base).
void BM_GatherEmbedding(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0), {{MLOperandDataType::kFloat32, {30522, 768}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.gather(in[0], RandomIndices(b, {1, 512}, 30522, 1))}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 2.0 * 4 * 512 * 768);
}
BENCHMARK(BM_GatherEmbedding)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

// Innermost axis: [1024, 4096] -> [1024, 1024] (one element per index).
void BM_GatherInnermost(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0), {{MLOperandDataType::kFloat32, {1024, 4096}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLGatherOptions options;
                 options.axis = 1;
                 return MLNamedOperands{{"out", b.gather(in[0], RandomIndices(b, {1024}, 4096, 2), options)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 2.0 * 4 * 1024 * 1024);
}
BENCHMARK(BM_GatherInnermost)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

// gatherElements along axis 1 of [64, 256, 256]: indices [64, 256, 256].
void BM_GatherElements(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0), {{MLOperandDataType::kFloat32, {64, 256, 256}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLGatherOptions options;
                 options.axis = 1;
                 return MLNamedOperands{
                     {"out", b.gatherElements(in[0], RandomIndices(b, {64, 256, 256}, 256, 3), options)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 2.0 * 4 * 64 * 256 * 256);
}
BENCHMARK(BM_GatherElements)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

// gatherND of 4096 rows of 256 from [64, 64, 256].
void BM_GatherNd(benchmark::State& state) {
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 0), {{MLOperandDataType::kFloat32, {64, 64, 256}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.gatherND(in[0], RandomIndices(b, {4096, 2}, 64, 4))}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 2.0 * 4 * 4096 * 256);
}
BENCHMARK(BM_GatherNd)->ArgNames({"threads"})->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
}  // namespace webnn::bench
