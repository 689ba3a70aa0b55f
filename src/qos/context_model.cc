#include "qos/context_model.h"

#include <cmath>

#include "qos/profile_file.h"

namespace webnn::qos {

ContextModel::ContextModel(std::string device, std::string machine, unsigned threads)
    : device_(std::move(device)), machine_(std::move(machine)), threads_(threads) {}

void ContextModel::LoadLocked() {
  if (loaded_) return;
  profile_ = ProfileFor(device_, machine_, threads_, &status_);
  loaded_ = true;
}

Estimate ContextModel::EstimateProgram(const ops::Program& program, std::span<const std::vector<uint32_t>> shapes) {
  std::lock_guard<std::mutex> lock(mutex_);
  LoadLocked();
  return qos::EstimateProgram(profile_, program, shapes, &warm_);
}

double ContextModel::PolyfillEstimateMs(const ops::Program& program, std::span<const std::vector<uint32_t>> shapes) {
  std::lock_guard<std::mutex> lock(mutex_);
  LoadLocked();
  return qos::PolyfillEstimateMs(profile_, program, shapes);
}

void ContextModel::Observe(const ops::Program& program, std::span<const std::vector<uint32_t>> shapes,
                           std::span<const double> step_ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  LoadLocked();
  const Estimate cold = qos::EstimateProgram(profile_, program, shapes);
  for (size_t s = 0; s < program.steps.size() && s < step_ms.size(); ++s) {
    if (std::isnan(step_ms[s])) continue;
    warm_.Observe(KeyOf(program, program.steps[s], shapes).cls, cold.steps[s].ms, step_ms[s]);
  }
}

std::string ContextModel::Status() {
  std::lock_guard<std::mutex> lock(mutex_);
  LoadLocked();
  if (warm_.observations() == 0) return status_;
  return status_ + "; warm: " + std::to_string(warm_.observations()) + " step timings observed";
}

}  // namespace webnn::qos
