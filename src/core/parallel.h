// The parallel-for that kernels receive. Implemented by the scheduler's thread
// pool; kernels never create threads themselves.
#pragma once

#include <cstddef>
#include <functional>

namespace webnn::core {

class ParallelFor {
 public:
  virtual ~ParallelFor() = default;
  // Calls body(begin, end) over disjoint chunks covering [0, n). Chunks hold at
  // least `grain` items (except the last), so small loops stay on the caller's
  // thread. Returns when every chunk is done.
  virtual void Run(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body) = 0;
  virtual size_t NumThreads() const = 0;
  // Called by a program between its ops: a throughput job lets latency work
  // waiting for the cores run here first (scheduler/cpu_threads.h).
  virtual void Yield() {}
};

// Chunks for a parallel-for over `items` items that together cost about
// `flops`: about 4 per thread, more when that would make a chunk longer than
// about half a millisecond (kFlopsPerChunk at ~20-40 GFLOP/s per core), so
// latency work can take the cores between chunks; none shorter than about
// 5 us (flops_per_chunk / 100: 100K flops, or 1M at GEMM rates), as a
// helper's start and the join cost more than such a split saves: one chunk
// (no wake-ups) below that. At most `items`.
inline constexpr double kFlopsPerChunk = 1e7;
// The same half millisecond for kernels that run at GEMM rates, 150-200
// GFLOP/s per core (the GEMM core's tiles, conv2d's): 1e7-flop chunks of those
// last ~60 us, and each one streams its share of the weights again. Their
// 5 us chunks, 1M flops: PP-OCR cls (83 steps of 1-25 us) at 2 threads, Xeon,
// 3 interleaved rounds, 0.69 -> 0.63 ms with 100K-flop ones, rec and det alike.
inline constexpr double kFastFlopsPerChunk = 1e8;
inline size_t ChunksForFlops(double flops, size_t items, size_t threads, double flops_per_chunk = kFlopsPerChunk) {
  const double min_chunk = flops_per_chunk / 100;
  if (threads <= 1 || flops < min_chunk) return 1;
  const double by_work = flops / min_chunk;
  const double by_length = flops / flops_per_chunk;
  double want = static_cast<double>(threads * 4);
  if (by_length > want) want = by_length;
  if (by_work < want) want = by_work;
  if (want < 1) want = 1;
  return want < static_cast<double>(items) ? static_cast<size_t>(want) : (items ? items : 1);
}

// Runs everything on the calling thread.
class SerialFor final : public ParallelFor {
 public:
  void Run(size_t n, size_t, const std::function<void(size_t, size_t)>& body) override {
    if (n) body(0, n);
  }
  size_t NumThreads() const override { return 1; }
};

}  // namespace webnn::core
