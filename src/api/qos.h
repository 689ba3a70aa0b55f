// DAOP estimates with their numbers, for diagnostics (`webnn estimate`, the
// accuracy benchmark): the public API returns only the tier.
#pragma once

#include <string>
#include <vector>

#include "webnn/webnn.h"

namespace webnn::internal {

struct QoSStep {
  std::string op, label, cls;  // cls: the model class whose grid answered
  double ms = 0;
};
struct QoSDetails {
  MLPerformanceTier tier = MLPerformanceTier::kPoor;
  double ms = 0;             // the whole dispatch
  double dispatch_ms = 0;    // of which the dispatch itself
  double polyfill_ms = 0;    // the public DAOP polyfill's method, for comparison
  std::vector<QoSStep> steps;
  std::string profile_status;  // calibrated or why not
};
QoSDetails EstimateQoSDetails(const MLContext& context, const MLGraph& graph, const MLQoSOptions& options);

MLPerformanceTier TierOf(double ms);

}  // namespace webnn::internal
