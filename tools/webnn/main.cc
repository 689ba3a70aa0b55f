// webnn: information about the engine, conformance runs, and running graphs.
#include <cstdio>
#include <exception>
#include <string>

#include "commands.h"
#include "webnn/webnn.h"

namespace {

void Usage() {
  std::printf(
      "usage: webnn <command> [options]\n"
      "\n"
      "commands:\n"
      "  info                       version, devices, CPU features, operator x device x data type table\n"
      "  conformance [--device D] [--filter TEXT] [--verbose] FILE...\n"
      "                             run WPT conformance or validation vector files; with\n"
      "                             --candidate-dir DIR score another implementation's outputs\n"
      "  run [options] GRAPH.json   load a webnn-graph JSON file (+ weights) or a .onnx model, run it,\n"
      "                             print outputs\n"
      "  mix [--alone] SPEC.json    run several graphs concurrently (latency and throughput jobs)\n"
      "  convert MODEL.onnx [-o GRAPH.json]\n"
      "                             convert an ONNX model to a webnn-graph file (onnx2webnn)\n"
      "  oracle GRAPH.json --input NAME=FILE.npy ... --candidate OUTPUT=FILE.npy ...\n"
      "                             score another implementation's outputs against the float64 truth\n"
      "                             of the reference device (ULP histogram, errors, WPT verdict;\n"
      "                             docs/ORACLE.md)\n"
      "  bench OP --shape D0,D1,... [--const-shape ...] [--arg JSON] [--options JSON] [--device D]\n"
      "                             time one operation at given shapes: median ms, GFLOP/s, GB/s and\n"
      "                             the %% of the machine's measured FMA or bandwidth peak\n"
      "  calibrate [--device D] [--threads N] [--quick]\n"
      "                             measure the cost model behind estimateQoS() on this machine\n"
      "  estimate [--device D] [--dim NAME=SIZE] [--measure N] GRAPH.json\n"
      "                             DAOP's QoS tier of one dispatch, the estimated ms behind it\n"
      "  tune [GRAPH.json|MODEL.onnx]... [--threads N]\n"
      "                             measure the cpu device's conv2d paths and tiles per layer and\n"
      "                             write the tuning table it compiles with\n"
      "  help                       this text\n"
      "  --version                  the engine's version\n"
      "\n"
      "devices: reference, cpu, gpu, auto\n"
      "`webnn <command> --help` describes each command.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    Usage();
    return 2;
  }
  const std::string command = argv[1];
  webnn::cli::Args args(argv + 2, argv + argc);
  try {
    if (command == "info") return webnn::cli::Info(args);
    if (command == "conformance") return webnn::cli::Conformance(args);
    if (command == "run") return webnn::cli::Run(args);
    if (command == "mix") return webnn::cli::Mix(args);
    if (command == "convert") return webnn::cli::Convert(args);
    if (command == "oracle") return webnn::cli::Oracle(args);
    if (command == "calibrate") return webnn::cli::Calibrate(args);
    if (command == "estimate") return webnn::cli::Estimate(args);
    if (command == "bench") return webnn::cli::Bench(args);
    if (command == "tune") return webnn::cli::Tune(args);
    if (command == "--version" || command == "version") {
      std::printf("webnn %s\n", webnn::ML::version().c_str());
      return 0;
    }
    if (command == "help" || command == "--help" || command == "-h") {
      Usage();
      return 0;
    }
    std::fprintf(stderr, "webnn: unknown command '%s'\n\n", command.c_str());
    Usage();
    return 2;
  } catch (const webnn::MLException& e) {
    std::fprintf(stderr, "webnn %s: %s: %s\n", command.c_str(), e.name(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "webnn %s: %s\n", command.c_str(), e.what());
    return 1;
  }
}
