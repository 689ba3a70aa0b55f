#include "qos/microbench.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace webnn::qos {

double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

namespace {

using Clock = std::chrono::steady_clock;

struct Samples {
  std::vector<double> clean, disturbed;
  double seconds = 0, cpu = 0, wall = 0;
  bool done = false;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::vector<Timing> MeasureInterleaved(std::span<const Sample> candidates, const TimingOptions& options) {
  for (const Sample& c : candidates)
    for (int i = 0; i < options.warmup; ++i) c();
  std::vector<Samples> s(candidates.size());
  for (bool any = true; any;) {
    any = false;
    for (size_t i = 0; i < candidates.size(); ++i) {
      Samples& c = s[i];
      if (c.done) continue;
      const double cpu0 = ProcessCpuSeconds();
      const Clock::time_point t0 = Clock::now();
      double ms = candidates[i]();
      const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
      const double cpu = ProcessCpuSeconds() - cpu0;
      if (!std::isfinite(ms)) ms = wall * 1e3;
      c.seconds += wall;
      c.cpu += cpu;
      c.wall += wall;
      const bool disturbed = options.threads > 0 && cpu < options.busy_cpu_fraction * options.threads * wall;
      (disturbed ? c.disturbed : c.clean).push_back(ms);
      const int n = static_cast<int>(c.clean.size() + c.disturbed.size());
      const bool enough = static_cast<int>(c.clean.size()) >= options.min_samples && c.seconds >= options.min_seconds;
      c.done = enough || n >= options.max_samples || c.seconds >= options.max_seconds;
      any = any || !c.done;
    }
  }
  std::vector<Timing> out(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    Samples& c = s[i];
    // Disturbed samples count only when too few undisturbed ones remain.
    std::vector<double> used = c.clean;
    if (static_cast<int>(used.size()) < std::min(options.min_samples, 2))
      used.insert(used.end(), c.disturbed.begin(), c.disturbed.end());
    Timing& t = out[i];
    t.median_ms = Median(used);
    t.min_ms = *std::min_element(used.begin(), used.end());
    t.samples = static_cast<int>(used.size());
    t.disturbed = static_cast<int>(c.disturbed.size());
    t.cpu_per_wall = c.wall > 0 ? c.cpu / c.wall : 0;
  }
  return out;
}

Timing Measure(const Sample& candidate, const TimingOptions& options) {
  return MeasureInterleaved(std::span<const Sample>(&candidate, 1), options)[0];
}

}  // namespace webnn::qos
