#include "api/unrounded_outputs.h"

#include <bit>
#include <cstring>

#include "api/impl.h"
#include "core/shape.h"
#include "core/strings.h"
#include "core/ulp.h"
#include "memory/ledger.h"

namespace webnn::internal {

namespace {

// What the float64 buffers hold before the run: a signalling NaN whose low
// bits no stored value can have (a float32 or float16 NaN widened to float64
// has its low 29 bits zero; arithmetic makes quiet NaNs), so an element still
// holding it was not written by ref::Store.
constexpr uint64_t kNotStored = 0x7ff4'0000'0bad'f00dull;

bool IsNotStored(double v) { return std::bit_cast<uint64_t>(v) == kNotStored; }

}  // namespace

std::map<std::string, UnroundedOutput> ComputeUnroundedOutputs(MLContext& context, const MLGraph& graph,
                                                              const MLNamedTensors& inputs) {
  if (context.deviceType() != MLDeviceType::kReference)
    throw NotSupportedError(core::StrCat("the float64 truth comes from the reference device; this context is on ",
                                         context.deviceName()));
  const GraphImpl& g = *graph.impl();
  std::map<std::string, std::vector<uint32_t>> input_shapes;
  for (const auto& [name, tensor] : inputs) input_shapes[name] = tensor.shape();
  const std::map<std::string, std::vector<uint32_t>> shapes = graph.computeShapes(input_shapes);

  std::map<std::string, UnroundedOutput> out;
  MLNamedTensors tensors;
  std::map<std::string, double*> sinks;
  uint64_t float64_bytes = 0;
  for (const auto& [name, id] : g.outputs) {
    UnroundedOutput& o = out[name];
    o.dataType = g.ir->operand(id).desc.type;
    o.shape = shapes.at(name);
    tensors[name] = context.createTensor({o.dataType, o.shape, true, false});
    if (!IsFloatingPoint(o.dataType)) continue;
    float64_bytes += core::ElementCount(o.shape) * sizeof(double);
  }
  // The float64 copies are charged to the context while the run fills them.
  const memory::Charge charge(g.context->ledger(), memory::Place::kHost, memory::Category::kStaging, float64_bytes,
                              "the float64 values of the outputs (oracle)");
  for (auto& [name, o] : out) {
    if (!IsFloatingPoint(o.dataType)) continue;
    o.values.assign(core::ElementCount(o.shape), std::bit_cast<double>(kNotStored));
    sinks[name] = o.values.data();
  }
  Dispatch(context.impl(), graph, inputs, tensors, {}, sinks);
  // Outputs naming one operand: the run wrote the first one's float64 values
  // (Dispatch keeps the first sink of a value, in name order, as here).
  std::map<graph::OperandId, const UnroundedOutput*> first_of;
  for (auto& [name, o] : out) {
    o.rounded = context.readTensor(tensors.at(name));  // rethrows the run's error
    auto [first, inserted] = first_of.emplace(g.outputs.at(name), &o);
    if (!inserted) {
      o.values = first->second->values;
      o.unrounded_elements = first->second->unrounded_elements;
      continue;
    }
    const uint64_t n = core::ElementCount(o.shape);
    if (o.values.empty()) o.values.assign(n, 0.0);
    for (uint64_t k = 0; k < n; ++k) {
      if (IsFloatingPoint(o.dataType) && !IsNotStored(o.values[k])) {
        ++o.unrounded_elements;
        continue;
      }
      o.values[k] = core::ElementAsDouble(o.rounded, o.dataType, k);
    }
  }
  return out;
}

}  // namespace webnn::internal
