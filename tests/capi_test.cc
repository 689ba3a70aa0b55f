// The C API (webnn_c.h): every operation of THE op list has its C function and
// records that op; graph files load through it (and through webnn::loadGraph)
// from files and from memory; weightless constants and dynamic dimensions.
// The C programs tests/capi_convnet_test.c and tests/capi_errors_test.c
// exercise it from C.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <type_traits>

#include "api/impl.h"
#include "capi/capi_internal.h"
#include "io/npy.h"
#include "io/webnn_graph.h"
#include "ops/device.h"
#include "ops/op_kind.h"
#include "test_util.h"
#include "webnn/webnn_c.h"
#ifdef WEBNN_HAS_GPU
#include "ops/gpu/gpu_device.h"
#endif

using namespace webnn;
using namespace webnn::test;

namespace {

WNNDeviceType CDevice() {
  switch (DeviceUnderTest()) {
    case MLDeviceType::kReference: return WNNDeviceType_Reference;
    case MLDeviceType::kGpu: return WNNDeviceType_Gpu;
    default: return WNNDeviceType_Cpu;
  }
}

// A context on the device under test, released at scope exit.
struct CContext {
  CContext() {
    WNNContextOptions options{};
    options.device = CDevice();
    handle = wnnML_createContext(&options, error);
    REQUIRE(handle != nullptr);
  }
  ~CContext() {
    wnnContext_release(handle);
    wnnError_release(error);
  }
  WNNError error = wnnError_create();
  WNNContext handle = nullptr;
};

// Arguments for a C operation function, by parameter type: the probe operand
// `x` (float32 [2, 2]) for operands, small values for the rest, options
// labelled "probe". A function taking a type not listed here does not compile.
struct Probe {
  WNNGraphBuilder builder = nullptr;
  WNNOperand x = nullptr;
  WNNError error = nullptr;
  uint32_t values[2] = {1, 1};
  WNNOperand operands[2] = {};
  WNNOperand outputs[4] = {};
};

template <typename T>
T ProbeArgument(Probe& p) {
  if constexpr (std::is_same_v<T, WNNGraphBuilder>) return p.builder;
  else if constexpr (std::is_same_v<T, WNNOperand>) return p.x;
  else if constexpr (std::is_same_v<T, WNNError>) return p.error;
  else if constexpr (std::is_same_v<T, uint32_t>) return 1;
  else if constexpr (std::is_same_v<T, size_t>) return 2;  // counts of the arrays below, output capacity
  else if constexpr (std::is_same_v<T, WNNOperandDataType>) return WNNOperandDataType_Float32;
  else if constexpr (std::is_same_v<T, const uint32_t*>) return p.values;
  else if constexpr (std::is_same_v<T, const char* const*>) return nullptr;
  else if constexpr (std::is_same_v<T, const WNNOperand*>) return p.operands;
  else if constexpr (std::is_same_v<T, WNNOperand*>) return p.outputs;
  else {
    static_assert(std::is_pointer_v<T>, "ProbeArgument: a parameter type to add");
    using Options = std::remove_const_t<std::remove_pointer_t<T>>;
    static Options options;
    options = Options{};
    options.label = "probe";
    return &options;
  }
}

// The op that the C function, called with probe arguments on a new builder,
// records: the kind of the node it adds or, when the arguments do not
// validate, the op its error names ("<op> [probe]: ..." from the C++ API,
// "<op>: ..." from the C layer's own checks).
template <typename R, typename... Params>
std::string RecordedOp(WNNContext context, R (*function)(Params...)) {
  Probe p;
  p.error = wnnError_create();
  p.builder = wnnGraphBuilder_create(context, p.error);
  const uint32_t shape[] = {2, 2};
  WNNOperandDescriptor desc{WNNOperandDataType_Float32, 2, shape, nullptr};
  p.x = wnnGraphBuilder_input(p.builder, "x", &desc, p.error);
  p.operands[0] = p.operands[1] = p.x;
  const size_t nodes = p.builder->builder.impl()->graph.nodes().size();
  const R result = function(ProbeArgument<Params>(p)...);
  std::string recorded;
  if (!result) {
    const std::string what = wnnError_message(p.error);
    size_t end = what.find(" [probe]: ");
    if (end == std::string::npos) end = what.find(": ");
    recorded = end == std::string::npos ? "an error naming no op: " + what : what.substr(0, end);
    if (wnnError_type(p.error) == WNNErrorType_NoError) recorded = "a failure without an error";
  } else if (p.builder->builder.impl()->graph.nodes().size() != nodes + 1) {
    recorded = "no new node";
  } else {
    recorded = std::string(ops::OpName(p.builder->builder.impl()->graph.nodes().back().op));
  }
  wnnGraphBuilder_release(p.builder);
  wnnError_release(p.error);
  return recorded;
}

std::filesystem::path ExamplesDir() {
  return std::filesystem::path(WEBNN_TEST_DATA_DIR).parent_path().parent_path() / "examples";
}

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs tiny_cnn's graph (one input "image", one output "probabilities")
// through the C API on `input`.
std::vector<float> RunTinyCnn(WNNContext context, WNNGraph graph, const io::NpyArray& input) {
  WNNError error = wnnError_create();
  WNNTensorDescriptor in_desc{WNNOperandDataType_Float32, input.shape.size(), input.shape.data(), 0, 1};
  WNNTensor in = wnnContext_createTensor(context, &in_desc, error);
  REQUIRE(in != nullptr);
  REQUIRE(wnnContext_writeTensor(context, in, input.data.data(), input.data.size(), error) == WNNErrorType_NoError);
  WNNOperandInfo out_info;
  REQUIRE(wnnGraph_getOutput(graph, 0, &out_info, error) == WNNErrorType_NoError);
  CHECK(std::string(out_info.name) == "probabilities");
  WNNTensorDescriptor out_desc{out_info.descriptor.dataType, out_info.descriptor.rank, out_info.descriptor.shape, 1,
                               0};
  WNNTensor out = wnnContext_createTensor(context, &out_desc, error);
  REQUIRE(out != nullptr);
  WNNNamedTensor ins[] = {{"image", in}}, outs[] = {{"probabilities", out}};
  const WNNErrorType dispatched = wnnContext_dispatch(context, graph, ins, 1, outs, 1, error);
  INFO(wnnError_message(error));
  REQUIRE(dispatched == WNNErrorType_NoError);
  size_t elements = 1;
  for (size_t i = 0; i < out_info.descriptor.rank; ++i) elements *= out_info.descriptor.shape[i];
  std::vector<float> result(elements);
  REQUIRE(wnnContext_readTensor(context, out, result.data(), result.size() * sizeof(float), error) ==
          WNNErrorType_NoError);
  wnnTensor_release(in);
  wnnTensor_release(out);
  wnnError_release(error);
  return result;
}

}  // namespace

TEST_CASE("C API: every operator of op_list.inc has a C function that records it", "[capi][device]") {
  // One line per entry of THE op list: &wnnGraphBuilder_<op> does not compile
  // when webnn_c.h does not declare it and does not link when src/capi does
  // not define it; calling it must record that very op.
  CContext ctx;
  size_t functions = 0;
#define WEBNN_OP(name, Family)                                       \
  CHECK(RecordedOp(ctx.handle, &wnnGraphBuilder_##name) == #name); \
  ++functions;
#include "ops/op_list.inc"
  CHECK(functions == static_cast<size_t>(ops::kOpCount));
}

TEST_CASE("C API: options structs zero-initialized take the IDL defaults", "[capi]") {
  // A NULL options pointer, a zeroed struct and the C++ defaults agree, and a
  // set member is passed on (gemm alpha, conv2d groups, argMax's output type).
  CContext ctx;
  WNNGraphBuilder b = wnnGraphBuilder_create(ctx.handle, ctx.error);
  const uint32_t s[] = {1, 4, 3, 3};
  WNNOperandDescriptor d{WNNOperandDataType_Float32, 4, s, nullptr};
  WNNOperand x = wnnGraphBuilder_input(b, "x", &d, ctx.error);
  WNNArgMinMaxOptions am{};
  WNNOperand i32 = wnnGraphBuilder_argMax(b, x, 1, &am, ctx.error);
  CHECK(wnnOperand_dataType(i32) == WNNOperandDataType_Int32);
  am.outputDataType = WNNOperandDataType_Int64;
  am.keepDimensions = 1;
  WNNOperand i64 = wnnGraphBuilder_argMax(b, x, 1, &am, ctx.error);
  CHECK(wnnOperand_dataType(i64) == WNNOperandDataType_Int64);
  size_t rank = 0;
  const uint32_t* shape = wnnOperand_shape(i64, &rank);
  CHECK(std::vector<uint32_t>(shape, shape + rank) == std::vector<uint32_t>{1, 1, 3, 3});
  // Depthwise conv2d: groups 4 only when set.
  const uint32_t fs[] = {4, 1, 1, 1};
  WNNOperandDescriptor fd{WNNOperandDataType_Float32, 4, fs, nullptr};
  const float ones[4] = {1, 1, 1, 1};
  WNNOperand f = wnnGraphBuilder_constant(b, &fd, ones, sizeof ones, ctx.error);
  WNNConv2dOptions co{};
  CHECK(wnnGraphBuilder_conv2d(b, x, f, &co, ctx.error) == nullptr);  // groups 1: input channels 4 != 1
  CHECK(wnnError_type(ctx.error) == WNNErrorType_TypeError);
  co.groups = WNNOptionalUint32{1, 4};
  co.label = "dw";
  CHECK(wnnGraphBuilder_conv2d(b, x, f, &co, ctx.error) != nullptr);
  CHECK(wnnError_type(ctx.error) == WNNErrorType_NoError);
  // Reduce: NULL axes reduce everything, an empty array nothing.
  WNNReduceOptions ro{};
  size_t r1 = 9, r2 = 9;
  wnnOperand_shape(wnnGraphBuilder_reduceSum(b, x, &ro, ctx.error), &r1);
  const uint32_t none[1] = {0};
  ro.axes = none;
  ro.axesCount = 0;
  wnnOperand_shape(wnnGraphBuilder_reduceSum(b, x, &ro, ctx.error), &r2);
  CHECK(r1 == 0);
  CHECK(r2 == 4);
  // An enum value out of range is a TypeError, not undefined behaviour.
  WNNPool2dOptions po{};
  po.layout = static_cast<WNNInputOperandLayout>(7);
  CHECK(wnnGraphBuilder_maxPool2d(b, x, &po, ctx.error) == nullptr);
  CHECK(wnnError_type(ctx.error) == WNNErrorType_TypeError);
  wnnGraphBuilder_release(b);
}

TEST_CASE("C API: multi-output operations fill the caller's array", "[capi]") {
  CContext ctx;
  WNNGraphBuilder b = wnnGraphBuilder_create(ctx.handle, ctx.error);
  const uint32_t s[] = {6, 2};
  WNNOperandDescriptor d{WNNOperandDataType_Float32, 2, s, nullptr};
  WNNOperand x = wnnGraphBuilder_input(b, "x", &d, ctx.error);
  WNNOperand parts[3] = {};
  CHECK(wnnGraphBuilder_split(b, x, 3, nullptr, 0, nullptr, parts, 2, ctx.error) == 0);  // no room
  CHECK(wnnError_type(ctx.error) == WNNErrorType_TypeError);
  CHECK(wnnGraphBuilder_split(b, x, 3, nullptr, 0, nullptr, parts, 3, ctx.error) == 3);
  const uint32_t sizes[] = {1, 5};
  CHECK(wnnGraphBuilder_split(b, x, 0, sizes, 2, nullptr, parts, 3, ctx.error) == 2);
  size_t rank = 0;
  CHECK(wnnOperand_shape(parts[1], &rank)[0] == 5);
  wnnGraphBuilder_release(b);
}

TEST_CASE("C API: graph files load from a path and from memory, in C and C++", "[capi][device]") {
  // tiny_cnn (examples/make_tiny_cnn.py) with its NumPy float64 result; the
  // graph loaded by path, from memory, and weightless with its weights bound
  // afterwards gives the same bits each way.
  const auto dir = ExamplesDir();
  const io::NpyArray input = io::ReadNpy((dir / "tiny_cnn.input.npy").string());
  const io::NpyArray expected = io::ReadNpy((dir / "tiny_cnn.expected.npy").string());
  CContext ctx;

  const std::string path = (dir / "tiny_cnn.json").string();
  WNNGraph by_path = wnnLoadGraph(ctx.handle, path.c_str(), nullptr, ctx.error);
  INFO(wnnError_message(ctx.error));
  REQUIRE(by_path != nullptr);
  CHECK(std::string(wnnGraph_name(by_path)) == "tiny_cnn");
  CHECK(wnnGraph_inputCount(by_path) == 1);
  const std::vector<float> a = RunTinyCnn(ctx.handle, by_path, input);
  const std::vector<float> want(reinterpret_cast<const float*>(expected.data.data()),
                                reinterpret_cast<const float*>(expected.data.data()) + expected.data.size() / 4);
  REQUIRE(a.size() == want.size());
  for (size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(want[i]).margin(1e-5));

  const std::string json = ReadText(dir / "tiny_cnn.json");
  const std::string weights = ReadText(dir / "tiny_cnn.weights");
  const std::string manifest = ReadText(dir / "tiny_cnn.manifest.json");
  WNNGraphBuffers buffers{json.data(), json.size(), weights.data(), weights.size(), manifest.data(), manifest.size(),
                          "tiny_cnn in memory"};
  WNNGraph from_memory = wnnLoadGraphFromMemory(ctx.handle, &buffers, nullptr, ctx.error);
  REQUIRE(from_memory != nullptr);
  CHECK(RunTinyCnn(ctx.handle, from_memory, input) == a);

  // Weightless: every weight unbound until bound by name.
  WNNGraphLoadOptions weightless{};
  weightless.weightless = 1;
  WNNGraph later = wnnLoadGraph(ctx.handle, path.c_str(), &weightless, ctx.error);
  REQUIRE(later != nullptr);
  const size_t unbound = wnnGraph_unboundConstantCount(later);
  CHECK(unbound == 6);
  io::WeightStore store = io::WeightStore::Load((dir / "tiny_cnn.weights").string());
  std::vector<WNNNamedBuffer> named;
  for (size_t i = 0; i < unbound; ++i) {
    const char* label = wnnGraph_getUnboundConstant(later, i);
    const io::WeightStore::Tensor* t = store.Find(label);
    REQUIRE(t != nullptr);
    named.push_back({label, store.Data(*t).data(), store.Data(*t).size()});
  }
  // Dispatch before binding is refused; binding all of them makes it run.
  WNNGraph empty_check = later;
  {
    WNNTensorDescriptor d{WNNOperandDataType_Float32, input.shape.size(), input.shape.data(), 0, 1};
    WNNTensor t = wnnContext_createTensor(ctx.handle, &d, ctx.error);
    WNNNamedTensor ins[] = {{"image", t}};
    CHECK(wnnContext_dispatch(ctx.handle, empty_check, ins, 1, nullptr, 0, ctx.error) != WNNErrorType_NoError);
    wnnTensor_release(t);
  }
  REQUIRE(wnnContext_bindConstants(ctx.handle, later, named.data(), named.size(), ctx.error) == WNNErrorType_NoError);
  CHECK(wnnGraph_unboundConstantCount(later) == 0);
  CHECK(RunTinyCnn(ctx.handle, later, input) == a);

  // The C++ entry points the C ones wrap.
  MLContext cpp = ML::createContext({.device = DeviceUnderTest()});
  MLLoadedGraph loaded = loadGraph(cpp, path);
  CHECK(loaded.name == "tiny_cnn");
  CHECK(loaded.inputs.at("image").shape == std::vector<MLDimension>{1, 3, 32, 32});
  MLLoadedGraph mem = loadGraphFromMemory(
      cpp, {.graphJson = json,
            .weights = std::as_bytes(std::span<const char>(weights.data(), weights.size())),
            .weightsManifestJson = manifest});
  CHECK(mem.outputs.count("probabilities") == 1);
  // A missing file is a DataError naming it.
  WNNGraph missing = wnnLoadGraph(ctx.handle, "/no/such/graph.json", nullptr, ctx.error);
  CHECK(missing == nullptr);
  CHECK(wnnError_type(ctx.error) == WNNErrorType_DataError);
  CHECK(std::string(wnnError_message(ctx.error)).find("/no/such/graph.json") != std::string::npos);

  wnnGraph_release(by_path);
  wnnGraph_release(from_memory);
  wnnGraph_release(later);
}

TEST_CASE("C API: weightless constants and dynamic dimensions", "[capi][device]") {
  // y[n, 3] = x[n, 3] * w[3], with n dynamic (maxSize 4) and w bound after
  // build() through setConstantData; computeShapes and dispatch at n = 2 and 4.
  CContext ctx;
  WNNGraphBuilder b = wnnGraphBuilder_create(ctx.handle, ctx.error);
  const uint32_t xs[] = {4, 3};
  const char* names[] = {"n", nullptr};
  WNNOperandDescriptor xd{WNNOperandDataType_Float32, 2, xs, names};
  WNNOperand x = wnnGraphBuilder_input(b, "x", &xd, ctx.error);
  REQUIRE(x != nullptr);
  CHECK(std::string(wnnOperand_dimensionName(x, 0)) == "n");
  CHECK(wnnOperand_dimensionName(x, 1) == nullptr);
  const uint32_t ws[] = {3};
  WNNConstantDescriptor wd{WNNOperandDataType_Float32, 1, ws, "w"};
  WNNOperand w = wnnGraphBuilder_constantWeightless(b, &wd, ctx.error);
  REQUIRE(w != nullptr);
  WNNOperand y = wnnGraphBuilder_mul(b, x, w, nullptr, ctx.error);
  WNNNamedOperand outs[] = {{"y", y}};
  WNNGraph g = wnnGraphBuilder_build(b, outs, 1, ctx.error);
  INFO(wnnError_message(ctx.error));
  REQUIRE(g != nullptr);
  wnnGraphBuilder_release(b);  // the graph does not need the builder

  WNNOperandInfo in;
  REQUIRE(wnnGraph_getInput(g, 0, &in, ctx.error) == WNNErrorType_NoError);
  REQUIRE(in.descriptor.dimensionNames != nullptr);
  CHECK(std::string(in.descriptor.dimensionNames[0]) == "n");
  CHECK(in.descriptor.dimensionNames[1] == nullptr);
  CHECK(wnnGraph_unboundConstantCount(g) == 1);
  CHECK(std::string(wnnGraph_getUnboundConstant(g, 0)) == "w");

  const uint32_t two[] = {2, 3};
  WNNNamedShape shape_in[] = {{"x", 2, two}};
  WNNNamedShape shape_out[1];
  REQUIRE(wnnGraph_computeShapes(g, shape_in, 1, shape_out, 1, ctx.error) == WNNErrorType_NoError);
  CHECK(std::vector<uint32_t>(shape_out[0].shape, shape_out[0].shape + shape_out[0].rank) ==
        std::vector<uint32_t>{2, 3});
  const uint32_t five[] = {5, 3};  // above maxSize
  shape_in[0].shape = five;
  CHECK(wnnGraph_computeShapes(g, shape_in, 1, shape_out, 1, ctx.error) == WNNErrorType_TypeError);

  // DAOP: a weightless graph is estimated before its weights are bound, for
  // the shapes the descriptors give (a tiny graph: excellent on any device).
  WNNPerformanceTier tier = WNNPerformanceTier_Poor;
  WNNNamedOperandDescriptor qd[] = {{"x", {WNNOperandDataType_Float32, 2, two, nullptr}}};
  REQUIRE(wnnContext_estimateQoS(ctx.handle, g, qd, 1, &tier, ctx.error) == WNNErrorType_NoError);
  CHECK(tier == WNNPerformanceTier_Excellent);
  WNNBool meets = 0;
  REQUIRE(wnnContext_meetsRequirement(ctx.handle, g, WNNPerformanceTier_Good, qd, 1, &meets, ctx.error) ==
          WNNErrorType_NoError);
  CHECK(meets == 1);
  CHECK(wnnContext_estimateQoS(ctx.handle, g, nullptr, 0, &tier, ctx.error) == WNNErrorType_TypeError);  // n unknown
  CHECK(std::string(wnnError_message(ctx.error)).find("'x'") != std::string::npos);
  CHECK(wnnContext_meetsRequirement(ctx.handle, g, static_cast<WNNPerformanceTier>(9), qd, 1, &meets, ctx.error) ==
        WNNErrorType_TypeError);

  const float weights[3] = {0.5f, -2.0f, 3.0f};
  REQUIRE(wnnGraph_setConstantData(g, "w", weights, sizeof weights, ctx.error) == WNNErrorType_NoError);
  for (uint32_t n : {2u, 4u}) {
    const uint32_t s[] = {n, 3};
    WNNTensorDescriptor id{WNNOperandDataType_Float32, 2, s, 0, 1}, od{WNNOperandDataType_Float32, 2, s, 1, 0};
    WNNTensor ti = wnnContext_createTensor(ctx.handle, &id, ctx.error);
    WNNTensor to = wnnContext_createTensor(ctx.handle, &od, ctx.error);
    std::vector<float> xv(n * 3), yv(n * 3);
    for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(i) - 1.5f;
    REQUIRE(wnnContext_writeTensor(ctx.handle, ti, xv.data(), xv.size() * 4, ctx.error) == WNNErrorType_NoError);
    WNNNamedTensor ins[] = {{"x", ti}}, os[] = {{"y", to}};
    REQUIRE(wnnContext_dispatch(ctx.handle, g, ins, 1, os, 1, ctx.error) == WNNErrorType_NoError);
    REQUIRE(wnnContext_readTensor(ctx.handle, to, yv.data(), yv.size() * 4, ctx.error) == WNNErrorType_NoError);
    for (size_t i = 0; i < yv.size(); ++i) CHECK(yv[i] == xv[i] * weights[i % 3]);  // exact products
    wnnTensor_release(ti);
    wnnTensor_release(to);
  }
  wnnGraph_release(g);
}

TEST_CASE("C API: a weightless constant streamed through a writer", "[capi][device]") {
  // y[2, 3] = x[2, 3] * w[3], w streamed in two chunks (webnn#901).
  CContext ctx;
  WNNGraphBuilder b = wnnGraphBuilder_create(ctx.handle, ctx.error);
  const uint32_t xs[] = {2, 3}, ws[] = {3};
  WNNOperandDescriptor xd{WNNOperandDataType_Float32, 2, xs, nullptr};
  WNNConstantDescriptor wd{WNNOperandDataType_Float32, 1, ws, "w"};
  WNNOperand x = wnnGraphBuilder_input(b, "x", &xd, ctx.error);
  WNNOperand w = wnnGraphBuilder_constantWeightless(b, &wd, ctx.error);
  WNNNamedOperand outs[] = {{"y", wnnGraphBuilder_mul(b, x, w, nullptr, ctx.error)}};
  WNNGraph g = wnnGraphBuilder_build(b, outs, 1, ctx.error);
  REQUIRE(g != nullptr);
  wnnGraphBuilder_release(b);

  CHECK(wnnGraph_writeConstant(g, "nope", ctx.error) == nullptr);
  CHECK(wnnError_type(ctx.error) == WNNErrorType_DataError);
  WNNConstantWriter writer = wnnGraph_writeConstant(g, "w", ctx.error);
  REQUIRE(writer != nullptr);
  CHECK(wnnConstantWriter_byteLength(writer) == 12);
  CHECK(wnnConstantWriter_ready(writer));
  const float weights[3] = {0.5f, -2.0f, 3.0f};
  const auto* bytes = reinterpret_cast<const unsigned char*>(weights);
  REQUIRE(wnnConstantWriter_write(writer, bytes, 5, ctx.error) == WNNErrorType_NoError);
  CHECK(wnnConstantWriter_close(writer, ctx.error) == WNNErrorType_DataError);  // 5 of 12 bytes
  REQUIRE(wnnConstantWriter_write(writer, bytes + 5, 7, ctx.error) == WNNErrorType_NoError);
  CHECK(wnnConstantWriter_bytesWritten(writer) == 12);
  REQUIRE(wnnConstantWriter_close(writer, ctx.error) == WNNErrorType_NoError);
  CHECK(wnnConstantWriter_write(writer, bytes, 4, ctx.error) == WNNErrorType_InvalidStateError);
  wnnConstantWriter_release(writer);
  wnnConstantWriter_release(nullptr);
  CHECK(wnnGraph_unboundConstantCount(g) == 0);

  WNNTensorDescriptor id{WNNOperandDataType_Float32, 2, xs, 0, 1}, od{WNNOperandDataType_Float32, 2, xs, 1, 0};
  WNNTensor ti = wnnContext_createTensor(ctx.handle, &id, ctx.error);
  WNNTensor to = wnnContext_createTensor(ctx.handle, &od, ctx.error);
  const float xv[6] = {1, 2, 3, -4, 5, -6};
  float yv[6];
  REQUIRE(wnnContext_writeTensor(ctx.handle, ti, xv, sizeof xv, ctx.error) == WNNErrorType_NoError);
  WNNNamedTensor ins[] = {{"x", ti}}, os[] = {{"y", to}};
  REQUIRE(wnnContext_dispatch(ctx.handle, g, ins, 1, os, 1, ctx.error) == WNNErrorType_NoError);
  REQUIRE(wnnContext_readTensor(ctx.handle, to, yv, sizeof yv, ctx.error) == WNNErrorType_NoError);
  for (size_t i = 0; i < 6; ++i) CHECK(yv[i] == xv[i] * weights[i % 3]);  // exact products
  wnnTensor_release(ti);
  wnnTensor_release(to);
  wnnGraph_release(g);
}

TEST_CASE("C API: contexts, devices, limits and memory", "[capi]") {
  WNNError error = wnnError_create();
  CHECK(std::string(wnnML_version()) == ML::version());
  CHECK(wnnML_deviceCount() == ML::devices().size());
  WNNDeviceInfo info;
  REQUIRE(wnnML_getDevice(0, &info, error) == WNNErrorType_NoError);
  CHECK(std::string(info.name) == ML::devices()[0].name);
  CHECK(wnnML_getDevice(99, &info, error) == WNNErrorType_TypeError);
  CHECK(std::string(wnnML_whyUnavailable(WNNDeviceType_Cpu)).empty());

  WNNContextOptions o{};
  o.device = WNNDeviceType_Cpu;
  o.numThreads = 2;
  o.memoryLimit = 1 << 20;
  WNNContext c = wnnML_createContext(&o, error);
  REQUIRE(c != nullptr);
  CHECK(std::string(wnnContext_deviceName(c)) == "cpu");
  CHECK(wnnContext_deviceType(c) == WNNDeviceType_Cpu);
  WNNOpSupportLimits limits;
  REQUIRE(wnnContext_opSupportLimits(c, &limits, error) == WNNErrorType_NoError);
  CHECK(limits.maxTensorByteLength == (uint64_t{1} << 31));
  WNNTensorLimits conv;
  REQUIRE(wnnContext_operatorSupportLimits(c, "conv2d", "input", &conv, error) == WNNErrorType_NoError);
  CHECK(conv.rankMin == 4);
  CHECK((conv.dataTypes & (1u << WNNOperandDataType_Float32)) != 0);
  CHECK(wnnContext_operatorSupportLimits(c, "conv3d", "input", &conv, error) == WNNErrorType_TypeError);
  // memoryLimit: a tensor over it is a QuotaExceededError, and the usage counts the tensor under it.
  const uint32_t big[] = {1 << 19};  // 2 MiB of float32
  WNNTensorDescriptor bd{WNNOperandDataType_Float32, 1, big, 1, 1};
  CHECK(wnnContext_createTensor(c, &bd, error) == nullptr);
  CHECK(wnnError_type(error) == WNNErrorType_QuotaExceededError);
  const uint32_t small[] = {1024};
  WNNTensorDescriptor sd{WNNOperandDataType_Float32, 1, small, 1, 1};
  WNNTensor t = wnnContext_createTensor(c, &sd, error);
  REQUIRE(t != nullptr);
  WNNMemoryUsage usage;
  REQUIRE(wnnContext_memoryUsage(c, &usage, error) == WNNErrorType_NoError);
  CHECK(usage.memoryLimit == (1u << 20));
  CHECK(usage.total.current >= 4096);
  // destroy() loses the context; tensors of a lost context are refused.
  CHECK(wnnContext_lostMessage(c) == nullptr);
  wnnContext_destroy(c);
  CHECK(wnnContext_lostMessage(c) != nullptr);
  float v[1024] = {};
  CHECK(wnnContext_writeTensor(c, t, v, sizeof v, error) != WNNErrorType_NoError);
  wnnTensor_release(t);
  wnnContext_release(c);
  wnnError_release(error);
}

namespace {

// What a C callback receives, kept for the test (the callbacks run on
// scheduler threads; wnnContext_finish orders them before the checks).
struct Delivered {
  std::mutex mutex;
  int calls = 0;
  std::vector<std::byte> bytes;
  WNNErrorType error = WNNErrorType_NoError;
  std::string message;
};
void DeliverRead(const void* data, size_t byteLength, WNNError error, void* userdata) {
  auto* d = static_cast<Delivered*>(userdata);
  std::lock_guard<std::mutex> lock(d->mutex);
  ++d->calls;
  if (data) d->bytes.assign(static_cast<const std::byte*>(data), static_cast<const std::byte*>(data) + byteLength);
  d->error = wnnError_type(error);
  d->message = wnnError_message(error);
}

struct Logged {
  std::mutex mutex;
  std::vector<std::pair<WNNLogLevel, std::string>> messages;
  // The first message at `level` that contains `text`, or "".
  std::string Find(WNNLogLevel level, const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [l, m] : messages)
      if (l == level && m.find(text) != std::string::npos) return m;
    return "";
  }
};
void Log(WNNLogLevel level, const char* message, void* userdata) {
  auto* l = static_cast<Logged*>(userdata);
  std::lock_guard<std::mutex> lock(l->mutex);
  l->messages.emplace_back(level, message);
}

}  // namespace

TEST_CASE("C API: dispatch options, finish, profile, readTensorAsync and the log", "[capi][device]") {
  // y = relu(x @ W + b) on the device under test, built with a graph latency
  // hint, dispatched with a deadline and profiled; the profile's steps are
  // the placement's nodes; an async read gives what a blocking read gives.
  Logged logged;
  WNNError error = wnnError_create();
  WNNContextOptions options{};
  options.device = CDevice();
  options.latencyHint = WNNLatencyHint_High;
  options.logLevel = WNNLogLevel_Info;
  options.logCallback = Log;
  options.logUserdata = &logged;
  WNNContext c = wnnML_createContext(&options, error);
  INFO(wnnError_message(error));
  REQUIRE(c != nullptr);
  CHECK_FALSE(logged.Find(WNNLogLevel_Info, std::string("createContext: the ") + wnnContext_deviceName(c)).empty());

  WNNGraphBuilder b = wnnGraphBuilder_create(c, error);
  const uint32_t xs[] = {2, 3}, ws[] = {3, 4}, bs[] = {4};
  const float w[12] = {1, -1, 0.5f, 2, 0, 1, -2, 0.25f, 3, 1, 1, -1}, bias[4] = {0.5f, -0.5f, 0, 1};
  WNNOperandDescriptor xd{WNNOperandDataType_Float32, 2, xs, nullptr}, wd{WNNOperandDataType_Float32, 2, ws, nullptr},
      bd{WNNOperandDataType_Float32, 1, bs, nullptr};
  WNNOperand x = wnnGraphBuilder_input(b, "x", &xd, error);
  WNNOperand mm = wnnGraphBuilder_matmul(b, x, wnnGraphBuilder_constant(b, &wd, w, sizeof w, error), nullptr, error);
  WNNOperatorOptions relu_label{"act"};
  WNNOperand y = wnnGraphBuilder_relu(
      b, wnnGraphBuilder_add(b, mm, wnnGraphBuilder_constant(b, &bd, bias, sizeof bias, error), nullptr, error),
      &relu_label, error);
  REQUIRE(y != nullptr);
  WNNNamedOperand outs[] = {{"y", y}};
  WNNGraphOptions bad_graph_options{static_cast<WNNLatencyHint>(9), WNNOptionalBool_Undefined};
  CHECK(wnnGraphBuilder_buildWithOptions(b, outs, 1, &bad_graph_options, error) == nullptr);
  CHECK(wnnError_type(error) == WNNErrorType_TypeError);
  CHECK(std::string(wnnError_message(error)) == "build: latencyHint 9 is not a WNNLatencyHint");
  WNNGraphOptions graph_options{WNNLatencyHint_Low, WNNOptionalBool_False};
  WNNGraph g = wnnGraphBuilder_buildWithOptions(b, outs, 1, &graph_options, error);
  REQUIRE(g != nullptr);
  wnnGraphBuilder_release(b);
  CHECK(g->graph.impl()->latency_hint == MLLatencyHint::kLow);
  const std::string summary = logged.Find(WNNLogLevel_Info, "build: 3 nodes built");
  INFO(summary);
  CHECK(summary.find("compiled in") != std::string::npos);

  const uint32_t ys[] = {2, 4};
  WNNTensorDescriptor xtd{WNNOperandDataType_Float32, 2, xs, 0, 1}, ytd{WNNOperandDataType_Float32, 2, ys, 1, 0};
  WNNTensor xt = wnnContext_createTensor(c, &xtd, error), yt = wnnContext_createTensor(c, &ytd, error);
  const float xv[6] = {1, 2, 3, -1, 0.5f, 2};
  REQUIRE(wnnContext_writeTensor(c, xt, xv, sizeof xv, error) == WNNErrorType_NoError);
  WNNNamedTensor ins[] = {{"x", xt}}, outts[] = {{"y", yt}};
  // Before a profiled dispatch the profile is empty.
  WNNGraphProfile profile{99};
  REQUIRE(wnnGraph_profile(g, &profile, error) == WNNErrorType_NoError);
  CHECK(profile.stepCount == 0);
  WNNDispatchOptions bad_dispatch{static_cast<WNNLatencyHint>(-1), {}, 0};
  CHECK(wnnContext_dispatchWithOptions(c, g, ins, 1, outts, 1, &bad_dispatch, error) == WNNErrorType_TypeError);
  WNNDispatchOptions dispatch_options{WNNLatencyHint_Low, {1, 1000}, 1};
  REQUIRE(wnnContext_dispatchWithOptions(c, g, ins, 1, outts, 1, &dispatch_options, error) == WNNErrorType_NoError);
  Delivered delivered;
  REQUIRE(wnnContext_readTensorAsync(c, yt, DeliverRead, &delivered, error) == WNNErrorType_NoError);
  wnnContext_finish(c);
  float blocking[8];
  REQUIRE(wnnContext_readTensor(c, yt, blocking, sizeof blocking, error) == WNNErrorType_NoError);
  {
    std::lock_guard<std::mutex> lock(delivered.mutex);
    CHECK(delivered.calls == 1);
    CHECK(delivered.error == WNNErrorType_NoError);
    REQUIRE(delivered.bytes.size() == sizeof blocking);
    CHECK(std::memcmp(delivered.bytes.data(), blocking, sizeof blocking) == 0);
  }
  // The result itself, in double precision.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      double sum = bias[j];
      for (int k = 0; k < 3; ++k) sum += static_cast<double>(xv[i * 3 + k]) * w[k * 4 + j];
      CHECK(blocking[i * 4 + j] == Approx(std::max(sum, 0.0)).margin(1e-5));
    }

  // The profile lists the placement's nodes, in order, at the dispatch's shapes.
  WNNGraphPlacement placement;
  REQUIRE(wnnGraph_placement(g, &placement, error) == WNNErrorType_NoError);
  REQUIRE(wnnGraph_profile(g, &profile, error) == WNNErrorType_NoError);
  REQUIRE(profile.stepCount == placement.nodeCount);
  REQUIRE(profile.stepCount >= 1);
  double flops = 0;
  for (size_t i = 0; i < profile.stepCount; ++i) {
    WNNPlacedNode node;
    WNNStepProfile step;
    REQUIRE(wnnGraph_getPlacedNode(g, i, &node, error) == WNNErrorType_NoError);
    REQUIRE(wnnGraph_getProfiledStep(g, i, &step, error) == WNNErrorType_NoError);
    CHECK(std::string(step.op) == node.op);
    CHECK(std::string(step.label) == node.label);
    CHECK(step.device == node.device);
    CHECK((std::isnan(step.ms) || step.ms >= 0));
    CHECK(step.bytes > 0);
    flops += step.flops;
    REQUIRE(step.outputCount >= 1);
    if (i + 1 == profile.stepCount) {
      REQUIRE(step.outputShapes[0].rank == 2);
      CHECK(step.outputShapes[0].shape[0] == 2);
      CHECK(step.outputShapes[0].shape[1] == 4);
    }
  }
  CHECK(flops == 2.0 * 2 * 3 * 4);  // the matmul's multiply-adds, whatever was fused into it
  WNNStepProfile past;
  CHECK(wnnGraph_getProfiledStep(g, profile.stepCount, &past, error) == WNNErrorType_TypeError);

  // readTensorAsync's errors found at once: the callback never runs.
  Delivered refused;
  CHECK(wnnContext_readTensorAsync(c, yt, nullptr, &refused, error) == WNNErrorType_TypeError);
  CHECK(std::string(wnnError_message(error)) == "readTensorAsync: callback is NULL");
  CHECK(wnnContext_readTensorAsync(c, xt, DeliverRead, &refused, error) == WNNErrorType_TypeError);
  CHECK(std::string(wnnError_message(error)).find("not created readable") != std::string::npos);
  wnnContext_finish(c);
  wnnContext_finish(nullptr);
  CHECK(refused.calls == 0);

  wnnTensor_release(xt);
  wnnTensor_release(yt);
  wnnGraph_release(g);
  wnnContext_release(c);
  wnnError_release(error);
}

#ifdef WEBNN_HAS_GPU
TEST_CASE("C API: readTensorAsync gives the callback the error of a lost device", "[capi][gpu][faults]") {
  if (DeviceUnderTest() != MLDeviceType::kGpu) return;
  CContext ctx;
  WNNGraphBuilder b = wnnGraphBuilder_create(ctx.handle, ctx.error);
  const uint32_t s[] = {4};
  WNNOperandDescriptor d{WNNOperandDataType_Float32, 1, s, nullptr};
  WNNOperand x = wnnGraphBuilder_input(b, "x", &d, ctx.error);
  WNNNamedOperand outs[] = {{"y", wnnGraphBuilder_add(b, x, x, nullptr, ctx.error)}};
  WNNGraph g = wnnGraphBuilder_build(b, outs, 1, ctx.error);
  REQUIRE(g != nullptr);
  WNNTensorDescriptor xd{WNNOperandDataType_Float32, 1, s, 0, 1}, yd{WNNOperandDataType_Float32, 1, s, 1, 0};
  WNNTensor xt = wnnContext_createTensor(ctx.handle, &xd, ctx.error), yt = wnnContext_createTensor(ctx.handle, &yd, ctx.error);
  WNNNamedTensor ins[] = {{"x", xt}}, outts[] = {{"y", yt}};
  REQUIRE(ops::gpu::InjectGpuFault(*ops::FindDevice(MLDeviceType::kGpu), /*device_lost=*/true, false));
  REQUIRE(wnnContext_dispatch(ctx.handle, g, ins, 1, outts, 1, ctx.error) == WNNErrorType_NoError);
  Delivered delivered;
  // The run may have lost the context already (an error now) or not yet
  // (the callback gets the run's error).
  const WNNErrorType queued = wnnContext_readTensorAsync(ctx.handle, yt, DeliverRead, &delivered, ctx.error);
  wnnContext_finish(ctx.handle);
  if (queued == WNNErrorType_NoError) {
    CHECK(delivered.calls == 1);
    CHECK(delivered.bytes.empty());
    CHECK(delivered.error == WNNErrorType_OperationError);
    CHECK(delivered.message.find("lost") != std::string::npos);
  } else {
    CHECK(queued == WNNErrorType_InvalidStateError);
    CHECK(delivered.calls == 0);
  }
  wnnTensor_release(xt);
  wnnTensor_release(yt);
  wnnGraph_release(g);
  wnnGraphBuilder_release(b);
}
#endif
