// The gpu device as a device: how it is chosen, that its opSupportLimits()
// never claim more than the schema allows, and that faults (a lost device,
// device memory exhausted) give the spec's errors and leave a usable engine.
// Its kernels are tested by the device suite (webnn_tests --device gpu).
#include <chrono>
#include <future>
#include <set>

#include "ops/device.h"
#include "ops/op_kind.h"
#include "ops/schema.h"
#include "test_util.h"
#ifdef WEBNN_HAS_GPU
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "ops/gpu/gpu_device.h"
#include "ops/gpu/shader_library.h"
#include "ops/gpu/vulkan_device.h"
#endif

using namespace webnn;
using namespace webnn::test;

namespace {

const MLOperandDataType F32 = MLOperandDataType::kFloat32;

bool HasGpu() {
  for (const MLDeviceInfo& d : ML::devices())
    if (d.type == MLDeviceType::kGpu) return true;
  return false;
}

// y = a + b on `ctx`, checked against the host. (Unused in builds without
// the gpu device.)
[[maybe_unused]] void CheckAdd(MLContext& ctx) {
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2, 3}});
  MLOperand y = b.input("y", {F32, {3}});
  MLGraph g = b.build({{"z", b.add(x, y)}});
  MLTensor tx = ctx.createTensor({.dataType = F32, .shape = {2, 3}, .writable = true});
  MLTensor ty = ctx.createTensor({.dataType = F32, .shape = {3}, .writable = true});
  MLTensor tz = ctx.createTensor({.dataType = F32, .shape = {2, 3}, .readable = true});
  ctx.writeTensor(tx, std::vector<float>{1, 2, 3, 4, 5, 6});
  ctx.writeTensor(ty, std::vector<float>{10, 20, 30});
  ctx.dispatch(g, {{"x", tx}, {"y", ty}}, {{"z", tz}});
  std::vector<float> z(6);
  ctx.readTensor(tz, z);
  CHECK(z == std::vector<float>{11, 22, 33, 14, 25, 36});
}

}  // namespace

TEST_CASE("a gpu device is listed exactly when whyUnavailable says nothing", "[gpu][api]") {
  const std::string why = ML::whyUnavailable(MLDeviceType::kGpu);
  CHECK(HasGpu() == why.empty());
  if (!HasGpu()) {
    WARN("no gpu device: " << why);
    CHECK(ErrorMessage([] { ML::createContext({.device = MLDeviceType::kGpu}); }).find(why) != std::string::npos);
  }
}

TEST_CASE("kAuto never picks a CPU implementation of Vulkan over the cpu device", "[gpu][api]") {
  for (const MLDeviceInfo& d : ML::devices()) {
    if (d.type != MLDeviceType::kGpu) continue;
    const MLDeviceType picked = ML::createContext({}).deviceType();
    CHECK(picked == (d.accelerated ? MLDeviceType::kGpu : MLDeviceType::kCpu));
  }
  CHECK(ML::createContext({.powerPreference = MLPowerPreference::kFallback}).deviceType() == MLDeviceType::kReference);
}

TEST_CASE("gpu opSupportLimits claim no more than the schema allows", "[gpu][limits]") {
  if (!HasGpu()) return;
  const auto gpu = ops::FindDevice(MLDeviceType::kGpu);
  int ops_with_kernels = 0;
  for (ops::OpKind op : ops::kAllOps) {
    const ops::OpLimits& schema = ops::SchemaLimits(op);
    bool any = false;
    for (size_t i = 0; i < schema.inputs.size(); ++i) {
      const core::DataTypeSet s = gpu->SupportedTypes(op, false, i);
      CHECK((s & schema.inputs[i].types) == s);
      any |= !s.Empty();
    }
    for (size_t i = 0; i < schema.outputs.size(); ++i) {
      const core::DataTypeSet s = gpu->SupportedTypes(op, true, i);
      CHECK((s & schema.outputs[i].types) == s);
    }
    ops_with_kernels += any;
  }
  CHECK(gpu->SupportedTypes(ops::OpKind::add, false, 0).Contains(F32));
  WARN("gpu device: " << ops_with_kernels << " of " << ops::kOpCount << " operators have kernels");
}

#ifdef WEBNN_HAS_GPU
TEST_CASE("a lost gpu device loses the context; a new context works", "[gpu][faults]") {
  if (!HasGpu()) return;
  MLContext ctx = ML::createContext({.device = MLDeviceType::kGpu});
  CheckAdd(ctx);
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {4}});
  MLGraph g = b.build({{"y", b.add(x, x)}});
  MLTensor tx = ctx.createTensor({.dataType = F32, .shape = {4}, .writable = true});
  MLTensor ty = ctx.createTensor({.dataType = F32, .shape = {4}, .readable = true});
  REQUIRE(ops::gpu::InjectGpuFault(*ops::FindDevice(MLDeviceType::kGpu), /*device_lost=*/true, false));
  // dispatch() queues the run; the run's OperationError loses the context.
  ctx.dispatch(g, {{"x", tx}}, {{"y", ty}});
  REQUIRE(ctx.lost().wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  CHECK(ctx.lost().get().message.find("lost") != std::string::npos);
  CHECK(ErrorName([&] { ctx.createTensor({.dataType = F32, .shape = {4}}); }) == "InvalidStateError");
  MLContext fresh = ML::createContext({.device = MLDeviceType::kGpu});
  CheckAdd(fresh);
}

TEST_CASE("gpu device memory exhausted is a QuotaExceededError; the context stays usable", "[gpu][faults]") {
  if (!HasGpu()) return;
  MLContext ctx = ML::createContext({.device = MLDeviceType::kGpu});
  REQUIRE(ops::gpu::InjectGpuFault(*ops::FindDevice(MLDeviceType::kGpu), false, /*on_allocation=*/true));
  CHECK(ErrorName([&] { ctx.createTensor({.dataType = F32, .shape = {1024}}); }) == "QuotaExceededError");
  CheckAdd(ctx);
}
#endif

#ifdef WEBNN_HAS_GPU
// The float-controls patch (vulkan_device.h) puts the modes after the entry
// point and the capabilities first, for every width asked, and spirv-val
// accepts the result: a malformed module would fail pipeline creation only
// on the drivers that offer the modes (NVIDIA's), never on lavapipe in CI.
TEST_CASE("gpu shaders patched for denormals and signed zeros are valid SPIR-V", "[gpu]") {
  for (const char* name : {"elementwise_binary.f32", "elementwise_unary.f16", "matmul.f32"}) {
    INFO(name);
    const std::span<const uint32_t> code = ops::gpu::FindShader(name);
    REQUIRE(code.size() > 5);
    CHECK(ops::gpu::WithFloatControls(code, 0, 0) == std::vector<uint32_t>(code.begin(), code.end()));
    const std::vector<uint32_t> patched = ops::gpu::WithFloatControls(code, 7, 2);
    // 2 capabilities (2 words each) and 4 execution modes (4 words each).
    REQUIRE(patched.size() == code.size() + 4 + 16);
    CHECK(patched[5] == ((2u << 16) | 17u));
    CHECK(patched[6] == 4464u);  // DenormPreserve
    CHECK(patched[8] == 4466u);  // SignedZeroInfNanPreserve
    size_t modes = 0;
    for (size_t i = 5; i < patched.size(); i += patched[i] >> 16)
      if ((patched[i] & 0xffffu) == 16u && (patched[i + 2] == 4459u || patched[i + 2] == 4461u)) ++modes;
    CHECK(modes == 4);
    if (std::string(WEBNN_SPIRV_VAL).empty()) continue;
    const auto path = std::filesystem::temp_directory_path() /
                      ("webnn_float_controls_" + std::to_string(::getpid()) + ".spv");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(patched.data()), static_cast<std::streamsize>(patched.size() * 4));
    const std::string cmd = std::string(WEBNN_SPIRV_VAL) + " --target-env vulkan1.2 " + path.string();
    CHECK(std::system(cmd.c_str()) == 0);
    std::filesystem::remove(path);
  }
}
#endif
