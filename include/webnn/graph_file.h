// Loading webnn-graph files (docs/GRAPH_FORMAT.md): a JSON graph and its
// weights, a ".weights" file with its manifest or a safetensors file. The graph
// is built with MLGraphBuilder on the given context and compiled, as if the
// application had called the builder itself.
//
//   auto loaded = webnn::loadGraph(context, "model.json");
//   context.dispatch(loaded.graph, inputs, outputs);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "webnn/webnn.h"

namespace webnn {

// Called while a graph file loads, on the loading thread: `phase` is
// "nodes" (done and total count the file's nodes), "compiling" (build():
// passes, packing weights; done = total = 0 until it ends, then 1 of 1), or
// "streaming" (bytes of weights written so far, of all).
using MLLoadProgressCallback = std::function<void(std::string_view phase, uint64_t done, uint64_t total)>;

struct MLGraphLoadOptions {
  // Empty: <graph stem>.weights or <graph stem>.safetensors beside the graph,
  // if one exists.
  std::string weightsPath;
  // For a .weights file; empty: the weights path with .manifest.json.
  std::string manifestPath;
  // Weights become weightless constants labelled by their names (DAOP): the
  // weights file is not read; bind them with MLContext::bindConstants or
  // MLGraph::setConstantData before dispatch.
  bool weightless = false;
  // Progress of a long load (a CLI's bar); empty: none.
  MLLoadProgressCallback progress;
};

struct MLLoadedGraph {
  std::string name;  // the file's "name"
  MLGraph graph;
  std::map<std::string, MLOperandDescriptor> inputs;
  std::map<std::string, MLOperandDescriptor> outputs;
};

// Loads a graph file. Weights files are mapped, not read: a constant is a view
// of the mapping until a device packs or uploads it. Throws DataError for a
// malformed or missing file (the message names the file, the node and the
// reason), or the builder's error for an invalid graph.
WEBNN_EXPORT MLLoadedGraph loadGraph(const MLContext& context, const std::string& path, const MLGraphLoadOptions& options = {});

// A graph file and its weights in memory. The bytes are copied.
struct MLGraphBuffers {
  std::string_view graphJson;
  std::span<const std::byte> weights;    // empty: no weights
  std::string_view weightsManifestJson;  // with weights: a .weights file; empty: safetensors
  std::string name = "memory";           // names the source in error messages
};
// Loads a graph from memory; options.weightless applies, the paths do not.
WEBNN_EXPORT MLLoadedGraph loadGraphFromMemory(const MLContext& context, const MLGraphBuffers& buffers,
                                  const MLGraphLoadOptions& options = {});

}  // namespace webnn
