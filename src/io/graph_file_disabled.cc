// webnn/graph_file.h in a build without file I/O (meson -Dfile_io=false, a
// minimal embedded library): the entry points exist, so the C API and
// applications link, and say why they cannot load.
#include <string>

#include "webnn/graph_file.h"

namespace webnn {

namespace {
[[noreturn]] void NoFileIo(const char* function) {
  throw NotSupportedError(std::string(function) +
                          ": this libwebnn was built without file I/O (meson -Dfile_io=false); build the graph "
                          "with MLGraphBuilder, or use a build with file_io enabled");
}
}  // namespace

MLLoadedGraph loadGraph(const MLContext&, const std::string&, const MLGraphLoadOptions&) { NoFileIo("loadGraph"); }

MLLoadedGraph loadGraphFromMemory(const MLContext&, const MLGraphBuffers&, const MLGraphLoadOptions&) {
  NoFileIo("loadGraphFromMemory");
}

}  // namespace webnn
