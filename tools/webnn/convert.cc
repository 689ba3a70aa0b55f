// webnn convert: ONNX to webnn-graph through the onnx2webnn converter (a
// Python tool, scripts/onnx2webnn; installed in libexec/webnn). The CLI runs
// it as a child process, so libwebnn and the webnn binary never depend on
// Python or ONNX.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"

namespace webnn::cli {
namespace {

namespace fs = std::filesystem;

// Where the converter is: $WEBNN_ONNX2WEBNN, then the installed layout
// (<prefix>/bin/webnn beside <prefix>/libexec/webnn/onnx2webnn), then the
// source tree this binary was built from.
fs::path FindConverter() {
  if (const char* env = std::getenv("WEBNN_ONNX2WEBNN"); env && *env) {
    if (!fs::exists(env)) throw std::runtime_error(std::string("WEBNN_ONNX2WEBNN names ") + env + ", which does not exist");
    return env;
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) tried.push_back(exe.parent_path().parent_path() / "libexec" / "webnn" / "onnx2webnn");
  tried.push_back(fs::path(WEBNN_SOURCE_DIR) / "scripts" / "onnx2webnn");
  for (const fs::path& p : tried)
    if (fs::exists(p)) return p;
  std::string where;
  for (const fs::path& p : tried) where += (where.empty() ? "" : ", ") + p.string();
  throw std::runtime_error("the ONNX converter onnx2webnn was not found (looked at " + where +
                           "); set WEBNN_ONNX2WEBNN to the path of scripts/onnx2webnn");
}

void Usage() {
  std::printf(
      "usage: webnn convert MODEL.onnx [-o GRAPH.json] [onnx2webnn options]\n"
      "Converts an ONNX model to a webnn-graph JSON file with its weights (.weights and\n"
      ".manifest.json beside it), runnable with `webnn run GRAPH.json`. It runs the\n"
      "onnx2webnn converter (Python 3 with python3-onnx and python3-numpy); its options,\n"
      "such as --dim NAME=SIZE and --input-shape NAME=D0,D1,..., are passed through\n"
      "(`webnn convert --converter-help` lists them). The format: docs/GRAPH_FORMAT.md.\n");
}

}  // namespace

TemporaryDirectory::TemporaryDirectory(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data()))
    throw std::runtime_error("cannot make a temporary directory " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

int RunConverter(const Args& args) {
  const fs::path converter = FindConverter();
  std::vector<std::string> argv_strings{converter.string()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start the converter: ") + std::strerror(errno));
  if (pid == 0) {
    execv(argv[0], argv.data());
    std::fprintf(stderr, "webnn convert: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waiting for the converter: ") + std::strerror(errno));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void ConvertOnnx(const std::string& model, const std::string& json, const Args& extra) {
  Args args{model, "-o", json};
  args.insert(args.end(), extra.begin(), extra.end());
  const int code = RunConverter(args);
  if (code != 0)
    throw std::runtime_error("converting " + model + " failed (onnx2webnn exit status " + std::to_string(code) +
                             ", its messages are above); convert it yourself with `webnn convert " + model +
                             " -o GRAPH.json` and options such as --dim NAME=SIZE, then run GRAPH.json");
}

int Convert(const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    Usage();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--converter-help") return RunConverter({"--help"});
  return RunConverter(args);
}

}  // namespace webnn::cli
