// Fuzz target: webnn-graph JSON. Any input must either build a graph or be
// rejected with an MLException (DataError for a malformed file, the builder's
// error for an invalid graph); any other exception or a crash is a bug. Graphs
// that build are dispatched once when their tensors are small.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/shape.h"
#include "io/webnn_graph.h"
#include "webnn/webnn.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static webnn::MLContext context = webnn::ML::createContext({.device = webnn::MLDeviceType::kReference});
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    webnn::io::LoadedGraph g = webnn::io::BuildGraphFromJson(context, text, nullptr, "fuzz");
    webnn::MLNamedTensors in, out;
    uint64_t bytes = 0;
    auto add = [&](const webnn::MLOperandDescriptor& d, bool readable) {
      std::vector<uint32_t> shape;
      for (const auto& dim : d.shape) shape.push_back(static_cast<uint32_t>(dim.size()));
      bytes += webnn::ByteLengthFor(d.dataType, webnn::core::ElementCount(shape));
      return webnn::MLTensorDescriptor{d.dataType, shape, readable, !readable};
    };
    std::vector<std::pair<std::string, webnn::MLTensorDescriptor>> ins, outs;
    for (const auto& [name, d] : g.inputs) ins.emplace_back(name, add(d, false));
    for (const auto& [name, d] : g.outputs) outs.emplace_back(name, add(d, true));
    if (bytes > (1u << 20)) return 0;
    for (auto& [name, d] : ins) in[name] = context.createTensor(d);
    for (auto& [name, d] : outs) out[name] = context.createTensor(d);
    context.dispatch(g.graph, in, out);
    for (auto& [name, t] : out) context.readTensor(t);  // run errors surface here
  } catch (const webnn::MLException&) {
    // Rejected with a spec error: fine.
  }
  return 0;
}
