// The oracle's truth (`webnn oracle`, docs/ORACLE.md): one run of a graph on
// the reference device that hands back, next to each output as dispatch()
// writes it, the float64 values of its float outputs before their final
// rounding to the output's type.
//
// What the truth is: the reference device computes every op in float64 and
// rounds once, when it stores the op's result to the op's output type
// (src/ops/reference/ref_util.h, Store). Every intermediate tensor of the
// graph is therefore rounded to its type, as the graph says it is; only the
// store of a graph output's last step is skipped here (its float64 value is
// kept, ops::TensorView::unrounded). Where that last step moves values
// without computing them (reshape, transpose, slice, concat, gather, pad,
// expand, tile, where, ...: kernels that copy bytes), or where a graph output
// is a graph input or constant, the value is already of the output's type and
// the truth is that value. Integer outputs are exact integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "webnn/webnn.h"

namespace webnn::internal {

struct UnroundedOutput {
  MLOperandDataType dataType = MLOperandDataType::kFloat32;
  std::vector<uint32_t> shape;
  std::vector<std::byte> rounded;  // what dispatch() wrote
  std::vector<double> values;      // the truth, one per element
  // Elements whose truth was kept before the final rounding (float outputs
  // whose last step computes); the others are their rounded value.
  uint64_t unrounded_elements = 0;
};

// Runs `graph`, built on `context`, once with `inputs` (tensors of
// `context`, as for dispatch()). NotSupportedError unless `context` is on the
// reference device: only its kernels keep the float64 values.
std::map<std::string, UnroundedOutput> ComputeUnroundedOutputs(MLContext& context, const MLGraph& graph,
                                                              const MLNamedTensors& inputs);

}  // namespace webnn::internal
