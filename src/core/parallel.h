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
};

// Runs everything on the calling thread.
class SerialFor final : public ParallelFor {
 public:
  void Run(size_t n, size_t, const std::function<void(size_t, size_t)>& body) override {
    if (n) body(0, n);
  }
  size_t NumThreads() const override { return 1; }
};

}  // namespace webnn::core
