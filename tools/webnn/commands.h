// Subcommands of the `webnn` command line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace webnn::cli {

using Args = std::vector<std::string>;

int Info(const Args& args);
int Conformance(const Args& args);
int Run(const Args& args);
int Mix(const Args& args);
int Oracle(const Args& args);
int Convert(const Args& args);
int Calibrate(const Args& args);
int Estimate(const Args& args);
int Bench(const Args& args);
int Tune(const Args& args);

// The onnx2webnn converter run as a child process with `args`; its exit status.
int RunConverter(const Args& args);
// MODEL.onnx to GRAPH.json (+ weights beside it), with extra converter options;
// on failure an error that says how to convert by hand.
void ConvertOnnx(const std::string& model, const std::string& json, const Args& extra);

// A directory under $TMPDIR removed with everything in it when this goes.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& prefix);
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace webnn::cli
