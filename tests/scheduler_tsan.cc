// The scheduler's pool under ThreadSanitizer (meson test scheduler_tsan): six
// threads submit chains of latency and throughput jobs whose parallel-fors
// write shared data ordered only by the jobs' dependencies, some jobs fail,
// and blocking reads (RunHere) wait on them. A missing happens-before edge in
// the pool (dependencies, completion, chunk hand-off) is a TSan report.
#include <atomic>
#include <stdexcept>
#include <cstdio>
#include <thread>
#include <vector>
#include "scheduler/cpu_threads.h"
using namespace webnn::scheduler;
int main() {
  SetCpuThreadCount(4);
  std::atomic<long> sum{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 6; ++t) ts.emplace_back([&, t] {
    JobPtr prev;
    std::vector<int> data(1000, 0);
    for (int r = 0; r < 200; ++r) {
      const Priority p = (t + r) % 3 == 0 ? Priority::kLatency : Priority::kThroughput;
      auto job = std::make_shared<Job>([&, r](webnn::core::ParallelFor& pf) {
        if (r % 50 == 7) throw std::runtime_error("boom");
        pf.Run(1000, 10, [&](size_t b, size_t e) { for (size_t i = b; i < e; ++i) data[i] += 1; });
        pf.Yield();
        pf.Run(1000, 10, [&](size_t b, size_t e) { for (size_t i = b; i < e; ++i) data[i] += 1; });
      }, p, 0);
      Submit(job, {prev}, {});
      prev = job;
      if (r % 10 == 0) {
        auto read = std::make_shared<Job>([&](webnn::core::ParallelFor&) { sum += data[0]; }, Priority::kLatency);
        try { RunHere(read, {}, {prev}); } catch (...) {}
      }
    }
    prev->Wait();
  });
  for (auto& th : ts) th.join();
  std::printf("ok %ld\n", sum.load());
}
