// Persistent worker threads and the parallel-for that kernels receive.
//
// Run(n, grain, body) splits [0, n) into chunks of at least `grain` items; the
// calling thread works too, so a loop that fits in one chunk never wakes a
// worker (small ops pay nothing for threading). Workers spin briefly before
// sleeping: the kernels of one graph run back to back, and a spinning worker
// picks up the next loop in well under a microsecond instead of paying a
// futex wake-up (~5-20 us) per kernel.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/parallel.h"
#include "memory/workspace.h"

namespace webnn::scheduler {

class ThreadPool final : public core::ParallelFor {
 public:
  // The most threads a pool may have (MLContextOptions::numThreads is checked
  // against it): 4x the largest core counts of today's servers (256), and low
  // enough that a bad value (e.g. -1 read as 4294967295) is refused up front
  // instead of starting threads until the OS refuses one.
  static constexpr size_t kMaxThreads = 1024;

  // Starts one worker running `body`; std::thread's constructor by default.
  // Tests replace it to make a start fail as an exhausted OS would.
  using StartThread = std::function<std::thread(std::function<void()> body)>;

  // `threads` includes the caller; 0 = the cores available to this process
  // (at most kMaxThreads). If a worker cannot be started (std::system_error),
  // the workers already running are stopped and joined, then it is rethrown.
  explicit ThreadPool(size_t threads = 0, const StartThread& start = {});
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Run(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body) override;
  size_t NumThreads() const override { return workers_.size() + 1; }

  // Cores available to this process (sched_getaffinity), at least 1.
  static size_t AvailableCores();

 private:
  // One Run's work. Immutable but for the counters; a worker that arrives late
  // finds every chunk claimed and never touches `body`.
  struct Job {
    const std::function<void(size_t, size_t)>* body;
    size_t n, chunk, chunks;
    std::atomic<size_t> next{0};
    std::atomic<size_t> remaining;
    // The caller's kernel workspace: each chunk takes a worker slot of it.
    memory::Workspace* workspace = nullptr;
    // The first exception a chunk threw (a workspace over the memoryLimit):
    // the remaining chunks are skipped and Run rethrows it on the caller.
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // written by the one that set `failed`
  };

  void WorkerLoop();
  void StopWorkers();
  void Work(Job& job);

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one Run at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::shared_ptr<Job> job_;           // guarded by mutex_
  std::atomic<uint64_t> generation_{0};
  bool stop_ = false;                  // guarded by mutex_
};

}  // namespace webnn::scheduler
