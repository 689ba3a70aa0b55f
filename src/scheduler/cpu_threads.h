// The process's cpu threads and the two queues that feed them.
//
// One pool per process, sized to the machine (SetCpuThreadCount before first
// use changes it), shared by every context: two contexts no longer start a
// pool each and oversubscribe the cores. Work arrives as Jobs (a dispatch, a
// tensor read) on one of two queues:
//   - latency: real-time work (MLLatencyHint::kLow, webnn#898/#902), earliest
//     deadline first;
//   - throughput: bulk work, first in first out.
// A thread looking for work takes, in this order: a chunk of a latency job's
// parallel-for, a ready latency job, a chunk of a throughput job's
// parallel-for, a ready throughput job. A thread running a throughput job also
// serves latency work between its parallel-for chunks and between ops
// (ParallelFor::Yield), so latency work waits for at most one chunk, not for
// a whole job; the kernels size their chunks to about a millisecond or less
// (core::ChunksForFlops).
//
// A job runs once the jobs it depends on are done (the timeline: a tensor's
// last writer and readers, a graph's previous run). A job that reads the data
// of a job that failed fails with the same error without running.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/parallel.h"

namespace webnn::scheduler {

enum class Priority : uint8_t { kLatency = 0, kThroughput = 1 };

// The pool's threads: call before any context runs work; false (and no
// change) once the pool has started. 0 = the cores available (the default).
bool SetCpuThreadCount(size_t threads);
// The pool's threads (starting it if need be).
size_t CpuThreadCount();
// Jobs submitted to the pool and not yet done, in the whole process (the
// load a DAOP QoS monitor weighs its estimate by).
size_t JobsInFlight();

class Job {
 public:
  using Clock = std::chrono::steady_clock;
  using Work = std::function<void(core::ParallelFor& parallel)>;

  // `max_threads`: the most threads its parallel-fors use (a context's
  // numThreads; 0 = the pool's). `deadline` orders latency jobs. `expected`:
  // how long its work, one step (one kernel), should take, e.g. the graph's
  // last run; 0 = unknown or several steps. A RunHere caller waiting for a
  // short one spins rather than sleeps.
  Job(Work work, Priority priority, size_t max_threads = 0, std::optional<Clock::time_point> deadline = {},
      std::chrono::nanoseconds expected = {});
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  Priority priority() const { return priority_; }
  bool done() const { return done_.load(std::memory_order_acquire); }
  // Blocks until the job is done (ran, failed or was skipped). Never throws.
  void Wait();
  // The job's error once done (null if it succeeded).
  std::exception_ptr error() const;

 private:
  friend class CpuPool;
  Work work_;
  Priority priority_;
  size_t max_threads_;
  std::optional<Clock::time_point> deadline_;
  std::chrono::nanoseconds expected_;
  uint64_t seq_ = 0;
  bool caller_runs_ = false;
  // Guarded by the pool's mutex.
  size_t pending_ = 0;
  std::vector<std::pair<std::shared_ptr<Job>, bool>> dependents_;  // (job, reads our data)
  std::exception_ptr inherited_;  // a data dependency's error
  std::atomic<bool> ready_{false};  // caller_runs_ jobs: dependencies done (set under the pool's lock)
  // Completion.
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<bool> done_{false};
  std::exception_ptr error_;
};
using JobPtr = std::shared_ptr<Job>;

// Queues `job`: it runs on a pool thread once every job in `data_from` and
// `after` is done. Done or null entries are ignored.
void Submit(const JobPtr& job, const std::vector<JobPtr>& data_from, const std::vector<JobPtr>& after);
// Runs `job` on the calling thread once its dependencies are done (a blocking
// readTensor or writeTensor), then completes it; its parallel-fors take the
// pool's threads as helpers (a large read is split: memory::CopyOut).
// Rethrows its error.
void RunHere(const JobPtr& job, const std::vector<JobPtr>& data_from, const std::vector<JobPtr>& after);

}  // namespace webnn::scheduler
