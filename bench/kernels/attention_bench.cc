// Scaled dot-product attention on the cpu device as a decoder writes it out,
// grouped-query (14 query heads over 2 key/value heads, head size 64):
//   q k^T (k repeated per group by reshape + expand + reshape, transposed),
//   * 1/8, + mask, softmax, * v
// with the FuseAttention pass (one attention node: flash attention, no
// [S, T] scores in memory) and without it (the ops one by one).
// GFLOP/s counts the product's flops, 2 * 14 * S * T * (64 + 64), whatever
// the mask removes (the fused kernel skips fully masked tiles).
//   s = t (prefill, causal mask: lower triangle 0, upper -Inf), 128 to 2048;
//   s = 1 (decode after t - 1 cached positions, no mask).
#include <cmath>
#include <cstring>

#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;
constexpr uint32_t kHeads = 14, kKvHeads = 2, kHeadSize = 64;

// Args: s, t, threads, fused.
void BM_Attention(benchmark::State& state) {
  const uint32_t s = static_cast<uint32_t>(state.range(0));
  const uint32_t t = static_cast<uint32_t>(state.range(1));
  const bool fused = state.range(3) != 0;
  const bool causal = s > 1;
  state.SetLabel(std::string(causal ? "causal " : "") + (fused ? "fused" : "unfused"));
  const uint32_t g = kHeads / kKvHeads;
  BenchGraph graph(
      MLContextOptions{.device = MLDeviceType::kCpu, .numThreads = ThreadsArg(state, 2), .graphPasses = fused},
      {{T::kFloat32, {1, kHeads, s, kHeadSize}},
       {T::kFloat32, {1, kKvHeads, t, kHeadSize}},
       {T::kFloat32, {1, kKvHeads, t, kHeadSize}}},
      [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        auto repeat = [&](const MLOperand& x) {
          const MLOperand u = b.reshape(x, {1, kKvHeads, 1, t, kHeadSize});
          return b.reshape(b.expand(u, {1, kKvHeads, g, t, kHeadSize}), {1, kHeads, t, kHeadSize});
        };
        MLOperand scores = b.mul(b.matmul(in[0], b.transpose(repeat(in[1]), {.permutation = std::vector<uint32_t>{0, 1, 3, 2}})),
                                 b.constant(T::kFloat32, MLNumber(0.125)));
        if (causal) {
          std::vector<float> ones(static_cast<size_t>(s) * t, 1.0f);
          MLOperandDescriptor desc{T::kFloat32, {s, t}};
          std::vector<std::byte> bytes(ones.size() * sizeof(float));
          std::memcpy(bytes.data(), ones.data(), bytes.size());
          const MLOperand lower = b.triangular(b.constant(desc, MLBufferSource(bytes)), {.upper = false});
          const MLOperand mask = b.where(b.equal(lower, b.constant(T::kFloat32, MLNumber(0.0))),
                                         b.constant(T::kFloat32, MLNumber(-INFINITY)),
                                         b.constant(T::kFloat32, MLNumber(0.0)));
          scores = b.add(scores, mask);
        }
        return MLNamedOperands{{"out", b.matmul(b.softmax(scores, 3), repeat(in[2]))}};
      });
  for (auto _ : state) graph.Dispatch();
  SetRates(state, 2.0 * kHeads * s * t * (2 * kHeadSize), 0);
}
BENCHMARK(BM_Attention)
    ->ArgNames({"s", "t", "threads", "fused"})
    ->ArgsProduct({{128}, {128}, {1}, {0, 1}})  // the decoder bench's prefill
    ->ArgsProduct({{512}, {512}, {1}, {0, 1}})
    ->ArgsProduct({{1024}, {1024}, {1}, {0, 1}})
    ->ArgsProduct({{2048}, {2048}, {1}, {0, 1}})
    ->ArgsProduct({{1}, {513, 2048}, {1, 2}, {0, 1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
