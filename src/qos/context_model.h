// A context's cost model: its device's profile (loaded on first use) and
// what warm profiling has learned since (MLContextOptions::qosWarmProfiling).
// Thread-safe: estimates come from API calls, observations from scheduler
// threads after profiled dispatches.
#pragma once

#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "qos/cost_model.h"

namespace webnn::qos {

class ContextModel {
 public:
  ContextModel(std::string device, std::string machine, unsigned threads);

  Estimate EstimateProgram(const ops::Program& program, std::span<const std::vector<uint32_t>> shapes);
  double PolyfillEstimateMs(const ops::Program& program, std::span<const std::vector<uint32_t>> shapes);
  // Refines the model from one profiled run: per step, its measured time
  // against the prediction (NaN times, from devices that cannot time a step,
  // are skipped).
  void Observe(const ops::Program& program, std::span<const std::vector<uint32_t>> shapes,
               std::span<const double> step_ms);
  // "calibrated (path)" or why the built-in default is used; then the warm
  // observations if any.
  std::string Status();

 private:
  void LoadLocked();

  const std::string device_, machine_;
  const unsigned threads_;
  std::mutex mutex_;
  bool loaded_ = false;
  Profile profile_;
  std::string status_;
  WarmCorrections warm_;
};

}  // namespace webnn::qos
