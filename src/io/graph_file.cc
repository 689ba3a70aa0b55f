// The public loading functions (webnn/graph_file.h), over io::LoadGraphFile and
// io::BuildGraphFromJson.
#include "webnn/graph_file.h"

#include <vector>

#include "io/webnn_graph.h"

namespace webnn {

namespace {
MLLoadedGraph ToPublic(io::LoadedGraph&& loaded) {
  return MLLoadedGraph{std::move(loaded.name), std::move(loaded.graph), std::move(loaded.inputs),
                       std::move(loaded.outputs)};
}
}  // namespace

MLLoadedGraph loadGraph(const MLContext& context, const std::string& path, const MLGraphLoadOptions& options) {
  return ToPublic(io::LoadGraphFile(context, path,
                                    {.weights_path = options.weightsPath,
                                     .manifest_path = options.manifestPath,
                                     .weightless = options.weightless}));
}

MLLoadedGraph loadGraphFromMemory(const MLContext& context, const MLGraphBuffers& buffers,
                                  const MLGraphLoadOptions& options) {
  std::unique_ptr<io::WeightStore> weights;
  if (!buffers.weights.empty() && !options.weightless) {
    std::vector<std::byte> bytes(buffers.weights.begin(), buffers.weights.end());
    weights = std::make_unique<io::WeightStore>(
        buffers.weightsManifestJson.empty()
            ? io::WeightStore::FromSafetensorsBytes(std::move(bytes), buffers.name)
            : io::WeightStore::FromWeightsBytes(std::move(bytes), std::string(buffers.weightsManifestJson),
                                                buffers.name));
  }
  return ToPublic(io::BuildGraphFromJson(context, std::string(buffers.graphJson), weights.get(), buffers.name,
                                         options.weightless));
}

}  // namespace webnn
