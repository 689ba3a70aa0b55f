// Running an Executable for one dispatch: the tensors bound to the program's
// values, and the copies to outputs that alias another output's value.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "core/parallel.h"
#include "ops/device.h"
#include "scheduler/executable.h"

namespace webnn::scheduler {

struct RunBinding {
  // Per program value: the tensor's buffer for inputs and outputs (null for
  // others). Held by the binding, so a tensor destroyed while its dispatch is
  // in flight keeps its memory until the dispatch ends.
  std::vector<std::shared_ptr<ops::DeviceBuffer>> external;
  std::vector<std::vector<uint32_t>> shapes;  // per value, concrete
  // Output tensors that repeat another output's value: copied after the run.
  std::vector<std::pair<std::shared_ptr<ops::DeviceBuffer>, std::shared_ptr<ops::DeviceBuffer>>> copies;
  bool profile = false;  // keep each step's time (Executable::last_profile)
  // Per program value (empty: none): where the reference device also writes
  // an output's float64 values before their final rounding
  // (ops::ValueBinding::unrounded). Owned by whoever bound them, who waits
  // for the run.
  std::vector<double*> unrounded;
};

// Runs the program with `binding`, then makes the output copies (charged to
// `ledger` as staging).
void Run(Executable& executable, const RunBinding& binding, core::ParallelFor& parallel,
         const std::shared_ptr<memory::Ledger>& ledger);

}  // namespace webnn::scheduler
