#include "scheduler/thread_pool.h"

#include <sched.h>

#include <algorithm>

#include "scheduler/spin.h"

namespace webnn::scheduler {

namespace {
// Set while a thread runs chunks: a kernel's parallel-for inside another one
// runs inline instead of deadlocking on the pool.
thread_local bool t_in_pool = false;
// How long a worker spins for the next job, and Run for its last chunks.
constexpr std::chrono::microseconds kSpin{50};
}  // namespace

size_t ThreadPool::AvailableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(size_t threads, const StartThread& start) {
  if (threads == 0) threads = std::min(AvailableCores(), kMaxThreads);
  try {
    workers_.reserve(threads - 1);
    for (size_t i = 1; i < threads; ++i) {
      if (start) workers_.push_back(start([this] { WorkerLoop(); }));
      else workers_.emplace_back([this] { WorkerLoop(); });
    }
  } catch (...) {
    // No destructor runs for a constructor that throws: without this, the
    // members' destructors would destroy joinable threads (std::terminate)
    // and condition variables that running workers still wait on (a hang).
    StopWorkers();
    throw;
  }
}

ThreadPool::~ThreadPool() { StopWorkers(); }

void ThreadPool::StopWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  for (auto& w : workers_)
    if (w.joinable()) w.join();
}

void ThreadPool::Work(Job& job) {
  t_in_pool = true;
  for (;;) {
    const size_t c = job.next.fetch_add(1, std::memory_order_relaxed);
    if (c >= job.chunks) break;
    const size_t begin = c * job.chunk;
    if (!job.failed.load(std::memory_order_relaxed)) {
      try {
        memory::WorkerSlotScope slot(job.workspace);  // given back before the chunk counts as done
        (*job.body)(begin, std::min(job.n, begin + job.chunk));
      } catch (...) {
        if (!job.failed.exchange(true)) job.error = std::current_exception();
      }
    }
    if (job.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_all();
    }
  }
  t_in_pool = false;
}

void ThreadPool::WorkerLoop() {
  uint64_t seen = 0;
  for (;;) {
    // Spin for the next job, then sleep.
    const bool woke = SpinUntil(kSpin, [&] { return generation_.load(std::memory_order_acquire) != seen; });
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!woke) wake_.wait(lock, [&] { return generation_.load() != seen; });
      seen = generation_.load();
      if (stop_) return;
      job = job_;
    }
    if (job) Work(*job);
  }
}

void ThreadPool::Run(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  const size_t threads = NumThreads();
  if (t_in_pool) {
    body(0, n);
    return;
  }
  if (threads == 1 || n < 2 * grain) {
    memory::WorkerSlotScope slot(memory::CurrentWorkspace());
    body(0, n);
    return;
  }
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  // A few chunks per thread so that uneven chunks still balance.
  const size_t chunks = std::max<size_t>(1, std::min(n / grain, threads * 4));
  auto job = std::make_shared<Job>();
  job->body = &body;
  job->n = n;
  job->chunk = (n + chunks - 1) / chunks;
  job->chunks = (n + job->chunk - 1) / job->chunk;
  job->remaining.store(job->chunks);
  job->workspace = memory::CurrentWorkspace();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = job;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  Work(*job);
  // The last chunks are usually a few microseconds from done: spin for them
  // before sleeping, as a futex wake-up of this thread would cost 5-20 us per
  // parallel loop.
  SpinUntil(kSpin, [&] { return job->remaining.load(std::memory_order_acquire) == 0; });
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return job->remaining.load(std::memory_order_acquire) == 0; });
  job_.reset();
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace webnn::scheduler
