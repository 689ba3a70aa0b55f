// webnn-graph files (rustnn's exchange format, shared/spec/PROPOSALS.md §6):
// a JSON graph ("format": "webnn-graph-json", version 1 or 2) and its weights,
// either a ".weights" file ("WGWT" + u32 version 1 + raw tensors) described by a
// "wg-weights-manifest" JSON, or a safetensors file.
//
// Node conventions read here: `inputs` lists the operands in WebNN argument
// order; non-operand positional arguments (softmax's axis, reshape's newShape,
// ...) are in `options` under their IDL names; operand-valued options (conv2d's
// bias, gru's initialHiddenState, ...) are either extra `inputs` after the
// positional operands, in the IDL order of those options, or named in
// `options` by operand name. Multi-output ops list their result names in
// `outputs`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "memory/constant_bytes.h"
#include "webnn/graph_file.h"
#include "webnn/webnn.h"

namespace webnn::io {

// Named tensors of a weights file. A file is mapped read-only, not read:
// constants made from it are views of the mapping (Constant()), so loading
// copies no weight, and a device that packs a weight releases its pages.
class WeightStore {
 public:
  struct Tensor {
    MLOperandDataType dataType;
    std::vector<uint32_t> shape;
    uint64_t offset;  // into the file's bytes
    uint64_t length;
  };
  // `path` ends in .safetensors, or is a .weights file with `manifest_path`
  // (default: the weights path with its extension replaced by .manifest.json).
  static WeightStore Load(const std::string& path, const std::string& manifest_path = "");
  static WeightStore FromWeightsBytes(std::vector<std::byte> bytes, const std::string& manifest_json,
                                      const std::string& what);
  static WeightStore FromSafetensorsBytes(std::vector<std::byte> bytes, const std::string& what);

  const Tensor* Find(const std::string& name) const;
  std::span<const std::byte> Data(const Tensor& t) const { return bytes_.subspan(t.offset, t.length); }
  // The tensor's bytes for a constant: a view of the mapped file (no copy,
  // unless the tensor is not aligned to its element size), or a copy of the
  // bytes of a store made from memory.
  std::shared_ptr<const memory::ConstantBytes> Constant(const Tensor& t) const;
  // The mapping of a file opened by Load(); null for a store made from memory.
  // It stays mapped while the store or any constant viewing it lives.
  const std::shared_ptr<const memory::MappedFile>& mapping() const { return file_; }
  size_t size() const { return tensors_.size(); }

 private:
  void ParseWeights(const std::string& manifest_json, const std::string& what);
  void ParseSafetensors(const std::string& what);

  std::shared_ptr<const memory::MappedFile> file_;       // Load()
  std::shared_ptr<const std::vector<std::byte>> owned_;  // From*Bytes()
  std::span<const std::byte> bytes_;                     // the whole file
  std::map<std::string, Tensor> tensors_;
};

struct LoadedGraph {
  std::string name;
  MLGraph graph;
  std::map<std::string, MLOperandDescriptor> inputs;
  std::map<std::string, MLOperandDescriptor> outputs;
};

struct GraphLoadOptions {
  std::string weights_path;   // empty: <graph stem>.weights or .safetensors next to the graph, if present
  std::string manifest_path;  // for .weights files
  // Build weight constants as weightless constants (labelled by their names);
  // bind them later with MLContext::bindConstants (DAOP flow).
  bool weightless = false;
  // Not 0: build the weights as weightless constants (checked against the
  // file), then stream each one from the mapped file through
  // MLGraph::writeConstant in chunks of this many bytes (StreamWeights).
  // 0: the constants are views of the mapping, packed at build (no copy).
  uint64_t stream_chunk_bytes = 0;
  MLLoadProgressCallback progress;  // see MLGraphLoadOptions::progress
};

// Parses, builds and compiles. Errors name the file, the node and the reason:
// DataError for a malformed file, or the builder's error for an invalid graph.
LoadedGraph LoadGraphFile(const MLContext& context, const std::string& json_path, const GraphLoadOptions& options);

// Streams every weightless constant `graph` still waits for from `weights`
// (labels are weight names) through MLConstantWriter, `chunk_bytes` at a time,
// releasing each chunk's mapped pages once written. `what` names the file in
// errors.
void StreamWeights(MLGraph& graph, const WeightStore& weights, uint64_t chunk_bytes, const std::string& what,
                   const MLLoadProgressCallback& progress = {});

// The same from in-memory text (used by the fuzzer and tests). `weights` may be null
// when the graph has no weight constants.
LoadedGraph BuildGraphFromJson(const MLContext& context, const std::string& json_text, const WeightStore* weights,
                               const std::string& what, bool weightless = false,
                               const MLLoadProgressCallback& progress = {});

}  // namespace webnn::io
