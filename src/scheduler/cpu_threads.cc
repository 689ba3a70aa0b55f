#include "scheduler/cpu_threads.h"

#include <sched.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <thread>

#include "memory/workspace.h"
#include "scheduler/spin.h"
#include "scheduler/thread_pool.h"

namespace webnn::scheduler {

namespace {

// Set while a thread runs a chunk: a kernel's parallel-for inside a chunk runs
// inline (its caller already holds a share of the cores).
thread_local bool t_in_chunk = false;
// The pool thread's index (CpuPool::worker_cpu_), -1 on other threads.
thread_local int t_worker = -1;

using std::chrono::microseconds;
// How long RunHere's caller spins for its job's dependencies before sleeping:
// in general, and when the one job it waits for leaves a core to spare or is
// expected to end soon (see RunHere).
constexpr microseconds kCallerSpin{20};
constexpr microseconds kCallerSpinLong{2000};
// A job expected to take at most this long is short (see RunHere).
constexpr microseconds kShortJob{1000};
// How long a thread spins for the next loop or job (an idle worker), or for
// the last chunks of its own loop, before sleeping: a graph's kernels follow
// each other within microseconds, and a futex wake-up costs 5-20 us.
constexpr microseconds kIdleSpin{50};
// How long a worker held for a running latency job spins for that job's next
// parallel-for before looking at throughput work again.
constexpr microseconds kLatencyHoldSpin{2000};
// For this long after latency work was submitted, throughput work gives its
// core back to the OS scheduler between chunks (YieldCore): real-time work
// comes back at 1 Hz or faster, and a process without any pays nothing.
constexpr std::chrono::seconds kLatencyWindow{1};

}  // namespace

Job::Job(Work work, Priority priority, size_t max_threads, std::optional<Clock::time_point> deadline,
         std::chrono::nanoseconds expected)
    : work_(std::move(work)), priority_(priority), max_threads_(max_threads), deadline_(deadline), expected_(expected) {}

std::exception_ptr Job::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

// One parallel-for: [0, n) in `chunks` chunks that any thread may claim.
struct Loop {
  const std::function<void(size_t, size_t)>* body;
  size_t n, chunk, chunks;
  Priority priority;
  size_t max_helpers;  // threads beside the owner
  memory::Workspace* workspace;  // the owner's (kernel scratch): each thread takes a slot
  std::atomic<size_t> next{0};
  std::atomic<size_t> remaining{0};
  std::atomic<size_t> helpers{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written by the one that set `failed`
  bool Exhausted() const { return next.load(std::memory_order_relaxed) >= chunks; }
};

class CpuPool {
 public:
  explicit CpuPool(size_t threads) {
    threads_ = threads == 0 ? std::min(ThreadPool::AvailableCores(), ThreadPool::kMaxThreads) : threads;
    worker_cpu_ = std::make_unique<std::atomic<int>[]>(threads_);
    for (size_t i = 0; i < threads_; ++i) {
      worker_cpu_[i].store(-1 - static_cast<int>(i));  // distinct until each has run a chunk
      std::thread([this, i] { WorkerLoop(i); }).detach();
    }
  }

  size_t threads() const { return threads_; }
  size_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }

  void Submit(const JobPtr& job, const std::vector<JobPtr>& data_from, const std::vector<JobPtr>& after) {
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    if (job->priority_ == Priority::kLatency)
      latency_seen_.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job->seq_ = ++seq_;
      auto add = [&](const JobPtr& dep, bool data) {
        if (!dep || dep == job) return;
        if (dep->done()) {
          if (data && dep->error_ && !job->inherited_) job->inherited_ = dep->error_;
          return;
        }
        ++job->pending_;
        dep->dependents_.emplace_back(job, data);
      };
      for (const JobPtr& d : data_from) add(d, true);
      for (const JobPtr& d : after) add(d, false);
      if (job->pending_ == 0) MakeReadyLocked(job);
    }
    wake_.notify_all();
  }

  void RunHere(const JobPtr& job, const std::vector<JobPtr>& data_from, const std::vector<JobPtr>& after) {
    job->caller_runs_ = true;
    Submit(job, data_from, after);
    // Spin before sleeping: the usual caller is readTensor right after a
    // dispatch, and a futex wake-up costs tens of microseconds on a shared VM
    // (a relu of 4096 floats: 0.067 ms per dispatch + read, median, 0.012 ms
    // with the spin; Zen 5, 2 cores). kCallerSpin, unless the one job it
    // waits for is all the pool has in flight and either leaves a core to
    // spare (fewer threads than the pool), or is short (expected to take at
    // most kShortJob; see Job): then up to kCallerSpinLong. Xeon, 2
    // vCPUs, 20 us / 2 ms: int4 matvec 1x4096x4096 at 1 thread 0.674-0.693 /
    // 0.609-0.636 ms; PP-OCR cls at 1 thread 0.546-0.560 / 0.528-0.533 ms. A
    // short job on every core: a caller asleep through its end waited 70 us
    // to run again (waking a thread onto an idle vCPU costs ~40 us on that
    // VM); spinning, the 2-thread matvec went 0.40 -> 0.33 ms. Only for jobs
    // of one step (the dispatch gives no expectation otherwise): the spinning
    // caller delays the pool's threads at each step's end, and cls (83
    // steps, 0.7 ms) was 5-12 % slower at 2 threads; sleeping until just
    // before the expected end instead was slower for the matvec too (0.46 ms:
    // the timer's wake-up preempts a pool thread). Long jobs on every core
    // keep the short spin (rec at 2 threads, 7 ms, was +2 % with a 2 ms one),
    // and beside other work a 2 ms spin cost webnn mix 4-11 % of det's rate
    // (in_flight_ keeps it out). Nor while two pool threads last ran on one
    // core (SharingCore): a caller that never sleeps leaves no core idle, so
    // Linux never moves one of them away (2 runnable on one core against 1
    // on the other looks balanced), and whole runs of the int8 matvec went
    // at 1-thread speed (0.46 against 0.23 ms, 3 of 8); asleep, the caller
    // frees its core and the next job runs spread out.
    const Job* awaited = data_from.size() == 1 && data_from[0] ? data_from[0].get() : nullptr;
    const auto ready = [&] { return job->ready_.load(std::memory_order_acquire); };
    if (!SpinUntil(CallerSpin(awaited, 1, /*on_spare_core=*/true), ready)) {
      std::unique_lock<std::mutex> lock(mutex_);
      caller_ready_.wait(lock, ready);
    }
    std::exception_ptr error = job->inherited_;
    if (!error) {
      // The caller runs the loop's chunks itself; idle pool threads help
      // (78 MB of prefill logits read back: 11 -> 6 ms at 2 threads).
      JobParallel parallel(*this, job->priority_, job->max_threads_);
      try {
        job->work_(parallel);
      } catch (...) {
        error = std::current_exception();
      }
    }
    Complete(job, error);
    if (error) std::rethrow_exception(error);
  }

  // How long a caller waiting for `awaited` (null: for several jobs) spins
  // before it sleeps (see RunHere); `own`: the caller's jobs among those in
  // flight (RunHere's job, which waits with it). `on_spare_core`: whether a
  // job that leaves a core idle counts as short whatever its length.
  microseconds CallerSpin(const Job* awaited, size_t own, bool on_spare_core) const {
    const bool alone = in_flight_.load(std::memory_order_relaxed) <= own + 1;
    const bool spare_core =
        on_spare_core && alone && awaited && awaited->max_threads_ != 0 && awaited->max_threads_ < threads_;
    const bool short_job =
        alone && awaited && awaited->expected_.count() != 0 && awaited->expected_ <= kShortJob && !SharingCore();
    return spare_core || short_job ? kCallerSpinLong : kCallerSpin;
  }

  // Whether two pool threads ran their last chunks on the same core.
  bool SharingCore() const {
    for (size_t i = 0; i < threads_; ++i)
      for (size_t j = i + 1; j < threads_; ++j)
        if (worker_cpu_[i].load(std::memory_order_relaxed) == worker_cpu_[j].load(std::memory_order_relaxed))
          return true;
    return false;
  }

  // The parallel-for of a job's kernels.
  void RunLoop(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body, Priority priority,
               size_t max_threads) {
    if (n == 0) return;
    grain = std::max<size_t>(grain, 1);
    const size_t threads = std::min(max_threads, threads_);
    if (t_in_chunk) {
      body(0, n);  // inline, on the chunk's worker slot
      return;
    }
    if (threads <= 1 || n < 2 * grain) {
      memory::WorkerSlotScope slot(memory::CurrentWorkspace());
      body(0, n);
      return;
    }
    // Many small chunks: uneven chunks still balance, and a chunk is short
    // enough for latency work to take the cores between chunks (a claim is
    // one atomic increment). Kernels whose iterations are large choose their
    // own count (n chunks of grain 1, sized by core::ChunksForFlops).
    const size_t chunks = std::max<size_t>(1, std::min(n / grain, std::max<size_t>(threads * 4, 256)));
    auto loop = std::make_shared<Loop>();
    loop->body = &body;
    loop->n = n;
    loop->chunk = (n + chunks - 1) / chunks;
    loop->chunks = (n + loop->chunk - 1) / loop->chunk;
    loop->priority = priority;
    loop->max_helpers = threads - 1;
    loop->workspace = memory::CurrentWorkspace();
    loop->remaining.store(loop->chunks);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      loops_[Index(priority)].push_back(loop);
      if (priority == Priority::kLatency) latency_waiting_.fetch_add(1);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (;;) {
      const size_t c = loop->next.fetch_add(1, std::memory_order_relaxed);
      if (c >= loop->chunks) break;
      RunChunk(*loop, c);
      if (priority == Priority::kThroughput) {
        YieldCore();
        ServeLatency();
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Unlist(loop);
    }
    // The last chunks are usually microseconds from done: spin before
    // helping elsewhere or sleeping.
    SpinUntil(kIdleSpin, [&] { return loop->remaining.load(std::memory_order_acquire) == 0; });
    while (loop->remaining.load(std::memory_order_acquire) != 0) {
      // Help another loop's chunk rather than sleep; latency work helps only
      // latency loops (a throughput chunk would delay its own end).
      const bool any = priority == Priority::kThroughput;
      std::shared_ptr<Loop> other;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        other = FindLoopLocked(Priority::kLatency);
        if (!other && any) other = FindLoopLocked(Priority::kThroughput);
        if (!other) {
          done_.wait(lock, [&] {
            return loop->remaining.load(std::memory_order_acquire) == 0 ||
                   (any ? AnyLoopLocked() : FindLoopLocked(Priority::kLatency) != nullptr);
          });
          continue;
        }
        other->helpers.fetch_add(1);
      }
      const size_t c = other->next.fetch_add(1, std::memory_order_relaxed);
      if (c < other->chunks) RunChunk(*other, c);
      other->helpers.fetch_sub(1);
      if (other->priority == Priority::kThroughput) YieldCore();
    }
    if (loop->error) std::rethrow_exception(loop->error);
  }

  // Between chunks and ops of throughput work while latency work is about:
  // the core goes back to the OS scheduler for a moment. The threads that
  // start and finish latency work are the application's (its frame timer's
  // wake-up, readTensor's return), and they wait for a core like any other:
  // with the pool's threads busy, Linux's EEVDF scheduler lets a running
  // thread finish its 3 ms slice first. PP-OCR cls at 100 Hz beside det on 2
  // cores (webnn mix, Xeon, 7-9 runs each): without the yield 1-20 of 1000
  // frames past their 5 ms deadline, p99 4.1-6.2 ms, the late frames waiting
  // ~3.4 ms to wake or to return; with it 0-1 missed, p99 2.0-2.2 ms, det's
  // rate as before. A yield with nothing else runnable returns at once.
  void YieldCore() {
    const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
    const int64_t window = std::chrono::duration_cast<std::chrono::steady_clock::duration>(kLatencyWindow).count();
    if (now - latency_seen_.load(std::memory_order_relaxed) < window) std::this_thread::yield();
  }

  // Between ops and chunks of throughput work: latency work first.
  void ServeLatency() {
    while (latency_waiting_.load(std::memory_order_relaxed) > 0) {
      std::shared_ptr<Loop> loop;
      JobPtr job;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        loop = FindLoopLocked(Priority::kLatency);
        if (loop) loop->helpers.fetch_add(1);
        else job = PopReadyLocked(Priority::kLatency);
      }
      if (loop) {
        HelpLoop(*loop, /*stop_for_latency=*/false);
      } else if (job) {
        RunJob(job);
      } else {
        return;
      }
    }
  }

 private:
  class JobParallel final : public core::ParallelFor {
   public:
    JobParallel(CpuPool& pool, Priority priority, size_t max_threads)
        : pool_(pool), priority_(priority), max_threads_(max_threads == 0 ? pool.threads() : max_threads) {}
    void Run(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body) override {
      pool_.RunLoop(n, grain, body, priority_, max_threads_);
    }
    size_t NumThreads() const override { return std::min(max_threads_, pool_.threads()); }
    void Yield() override {
      if (priority_ == Priority::kThroughput && !t_in_chunk) {
        pool_.YieldCore();
        pool_.ServeLatency();
      }
    }

   private:
    CpuPool& pool_;
    Priority priority_;
    size_t max_threads_;
  };

  static size_t Index(Priority p) { return static_cast<size_t>(p); }

  void MakeReadyLocked(const JobPtr& job) {
    if (job->caller_runs_) {
      job->ready_.store(true, std::memory_order_release);
      caller_ready_.notify_all();
      return;
    }
    if (job->priority_ == Priority::kLatency) {
      const int64_t key = job->deadline_ ? job->deadline_->time_since_epoch().count() : INT64_MAX;
      latency_ready_.emplace(std::make_pair(key, job->seq_), job);
      latency_waiting_.fetch_add(1);
    } else {
      throughput_ready_.push_back(job);
    }
    generation_.fetch_add(1, std::memory_order_release);
  }

  JobPtr PopReadyLocked(Priority p) {
    if (p == Priority::kLatency) {
      if (latency_ready_.empty()) return nullptr;
      JobPtr job = latency_ready_.begin()->second;
      latency_ready_.erase(latency_ready_.begin());
      latency_waiting_.fetch_sub(1);
      return job;
    }
    if (throughput_ready_.empty()) return nullptr;
    JobPtr job = throughput_ready_.front();
    throughput_ready_.pop_front();
    return job;
  }

  // A listed loop with a chunk left and room for one more thread.
  std::shared_ptr<Loop> FindLoopLocked(Priority p) {
    for (const auto& loop : loops_[Index(p)])
      if (!loop->Exhausted() && loop->helpers.load() < loop->max_helpers) return loop;
    return nullptr;
  }
  bool AnyLoopLocked() {
    for (const auto& list : loops_)
      for (const auto& loop : list)
        if (!loop->Exhausted() && loop->helpers.load() < loop->max_helpers) return true;
    return false;
  }

  void Unlist(const std::shared_ptr<Loop>& loop) {
    auto& list = loops_[Index(loop->priority)];
    auto it = std::find(list.begin(), list.end(), loop);
    if (it == list.end()) return;
    list.erase(it);
    if (loop->priority == Priority::kLatency) latency_waiting_.fetch_sub(1);
  }

  void RunChunk(Loop& loop, size_t c) {
    if (t_worker >= 0) worker_cpu_[t_worker].store(sched_getcpu(), std::memory_order_relaxed);
    const size_t begin = c * loop.chunk;
    if (!loop.failed.load(std::memory_order_relaxed)) {
      const bool was_in_chunk = t_in_chunk;
      t_in_chunk = true;
      try {
        // The slot is given back before the chunk counts as done (below).
        memory::WorkerSlotScope slot(loop.workspace);
        (*loop.body)(begin, std::min(loop.n, begin + loop.chunk));
      } catch (...) {
        if (!loop.failed.exchange(true)) loop.error = std::current_exception();
      }
      t_in_chunk = was_in_chunk;
    }
    if (loop.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_all();
    }
  }

  // Chunks of `loop` until none is left (or, for a throughput loop, until
  // latency work waits). The caller incremented loop.helpers.
  void HelpLoop(Loop& loop, bool stop_for_latency) {
    for (;;) {
      // A helper leaves throughput work while a latency job runs, to take
      // that job's parallel-fors the moment they start (the job's own thread
      // never waits for helpers, so a helper busy elsewhere leaves it alone).
      if (stop_for_latency && latency_running_.load(std::memory_order_relaxed) > 0) break;
      if (stop_for_latency && latency_waiting_.load(std::memory_order_relaxed) > 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (FindLoopLocked(Priority::kLatency) || !latency_ready_.empty()) break;
      }
      const size_t c = loop.next.fetch_add(1, std::memory_order_relaxed);
      if (c >= loop.chunks) break;
      RunChunk(loop, c);
      if (loop.priority == Priority::kThroughput) YieldCore();
    }
    loop.helpers.fetch_sub(1);
  }

  void RunJob(const JobPtr& job) {
    const bool latency = job->priority_ == Priority::kLatency;
    if (latency) latency_running_.fetch_add(1);
    std::exception_ptr error = job->inherited_;
    if (!error) {
      JobParallel parallel(*this, job->priority_, job->max_threads_);
      try {
        job->work_(parallel);
      } catch (...) {
        error = std::current_exception();
      }
    }
    if (latency) latency_running_.fetch_sub(1);
    Complete(job, error);
  }

  static void ReleaseWork(const JobPtr& job) {
    // What the work holds (an executable, tensors' buffers) goes with it,
    // before anyone waiting sees the job done.
    job->work_ = nullptr;
  }

  void Complete(const JobPtr& job, std::exception_ptr error) {
    ReleaseWork(job);
    std::vector<std::pair<JobPtr, bool>> dependents;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      dependents.swap(job->dependents_);
      {
        std::lock_guard<std::mutex> jl(job->mutex_);
        job->error_ = error;
        job->done_.store(true, std::memory_order_release);
      }
      in_flight_.fetch_sub(1, std::memory_order_relaxed);
      for (auto& [d, data] : dependents) {
        if (data && error && !d->inherited_) d->inherited_ = error;
        if (--d->pending_ == 0) MakeReadyLocked(d);
      }
    }
    job->cv_.notify_all();
    if (!dependents.empty()) wake_.notify_all();
  }

  void WorkerLoop(size_t index) {
    t_worker = static_cast<int>(index);
    uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Loop> loop;
      JobPtr job;
      bool stop_for_latency = false;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
          if ((loop = FindLoopLocked(Priority::kLatency))) break;
          if ((job = PopReadyLocked(Priority::kLatency))) break;
          if (latency_running_.load(std::memory_order_relaxed) > 0) {
            // Held for the latency job running elsewhere (see HelpLoop): spin
            // for its next parallel-for, kLatencyHoldSpin at a time.
            seen = generation_.load(std::memory_order_acquire);
            lock.unlock();
            SpinUntil(kLatencyHoldSpin, [&] {
              return generation_.load(std::memory_order_acquire) != seen ||
                     latency_running_.load(std::memory_order_relaxed) == 0;
            });
            lock.lock();
            if (generation_.load(std::memory_order_acquire) != seen || latency_running_.load() > 0) continue;
          }
          if ((loop = FindLoopLocked(Priority::kThroughput))) {
            stop_for_latency = true;
            break;
          }
          if ((job = PopReadyLocked(Priority::kThroughput))) break;
          // Nothing to do: spin kIdleSpin outside the lock, then sleep.
          seen = generation_.load(std::memory_order_acquire);
          lock.unlock();
          SpinUntil(kIdleSpin, [&] { return generation_.load(std::memory_order_acquire) != seen; });
          lock.lock();
          if (generation_.load(std::memory_order_acquire) != seen) continue;
          ++idle_;
          wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
          --idle_;
        }
        if (loop) loop->helpers.fetch_add(1);
      }
      if (loop) HelpLoop(*loop, stop_for_latency);
      else RunJob(job);
    }
  }

  size_t threads_;
  std::atomic<size_t> in_flight_{0};  // jobs submitted and not done
  std::mutex mutex_;
  std::condition_variable wake_;  // workers: new jobs or loops (generation_)
  std::condition_variable done_;  // loop owners: a loop finished
  // RunHere callers: a caller-run job became ready. Not done_: every loop's
  // end would wake a sleeping readTensor caller, which on a small machine
  // then preempts a pool thread only to sleep again (rec at 2 threads:
  // ~60 such wake-ups per dispatch).
  std::condition_variable caller_ready_;
  std::map<std::pair<int64_t, uint64_t>, JobPtr> latency_ready_;  // (deadline, seq)
  std::deque<JobPtr> throughput_ready_;
  std::vector<std::shared_ptr<Loop>> loops_[2];
  std::atomic<int> latency_waiting_{0};  // latency loops listed + latency jobs ready
  std::atomic<int> latency_running_{0};  // latency jobs running
  std::atomic<uint64_t> generation_{0};
  // When latency work was last submitted (steady_clock ticks; see YieldCore).
  std::atomic<int64_t> latency_seen_{std::numeric_limits<int64_t>::min() / 2};
  uint64_t seq_ = 0;
  size_t idle_ = 0;
  // The CPU each pool thread last ran a chunk on (see SharingCore).
  std::unique_ptr<std::atomic<int>[]> worker_cpu_;
};

namespace {

std::mutex g_pool_mutex;
size_t g_requested_threads = 0;
CpuPool* g_pool = nullptr;  // never destroyed: its detached threads outlive main

CpuPool& Pool() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  if (!g_pool) g_pool = new CpuPool(g_requested_threads);
  return *g_pool;
}

}  // namespace

bool SetCpuThreadCount(size_t threads) {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  if (g_pool) return g_pool->threads() == threads;
  g_requested_threads = std::min(threads, ThreadPool::kMaxThreads);
  return true;
}

// A waiter spins as RunHere's caller does for a short job: a dispatch's
// caller blocked in MLContext::finish() slept through the job's end and took
// a futex wake-up, ~35-45 us of a one-op graph's dispatch on a 2-vCPU VM. Not
// for long ones on a spare core (as RunHere's): a 1-thread context's caller
// then spun 1.5 ms of a 1.7 ms conv on the other core, doubling the
// process's CPU time for 2% of wall time.
void Job::Wait() {
  if (done()) return;
  if (SpinUntil(Pool().CallerSpin(this, 0, /*on_spare_core=*/false), [&] { return done(); })) return;
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [&] { return done(); });
}

size_t CpuThreadCount() { return Pool().threads(); }

size_t JobsInFlight() { return Pool().in_flight(); }

void Submit(const JobPtr& job, const std::vector<JobPtr>& data_from, const std::vector<JobPtr>& after) {
  Pool().Submit(job, data_from, after);
}

void RunHere(const JobPtr& job, const std::vector<JobPtr>& data_from, const std::vector<JobPtr>& after) {
  Pool().RunHere(job, data_from, after);
}

}  // namespace webnn::scheduler
