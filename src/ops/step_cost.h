// What one program step computes and moves, for per-step profiles (`webnn run
// --profile`, MLGraph::profile()) and the DAOP cost model (src/qos):
// multiply-adds of the products counted as 2 flops, every other op 0 flops;
// bytes as each input read once and each output written once (gathers:
// the indices and the gathered elements).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ops/device.h"

namespace webnn::ops {

struct StepCost {
  double flops = 0;
  double bytes = 0;
};

// `shapes` is indexed like program.values (the run's concrete shapes).
StepCost CostOf(const Program& program, const ProgramStep& step, std::span<const std::vector<uint32_t>> shapes);

}  // namespace webnn::ops
