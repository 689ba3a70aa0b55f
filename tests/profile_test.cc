// Per-step profiles (MLDispatchOptions::profile, MLGraph::profile(); `webnn
// run --profile`): one entry per compiled step, in order, with the device
// that ran it, the dispatch's shapes, its time and the flops and bytes the
// step's shapes imply.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_util.h"
#include "webnn/webnn.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr MLOperandDataType F32 = MLOperandDataType::kFloat32;

MLBufferSource Halves(std::vector<float>& keep, size_t n) {
  keep.assign(n, 0.5f);
  return MLBufferSource(std::span<const float>(keep));
}

}  // namespace

TEST_CASE("profile: each step's op, device, shapes, time, flops and bytes", "[device][profile]") {
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .strictPlacement = true});
  MLGraphBuilder b(ctx);
  // conv2d [1,3,10,12] * [8,3,3,3] (pad 1) -> [1,8,10,12], then relu,
  // reshape to [8,120] and matmul by [120,5]. The graph passes may fuse the
  // relu into the conv; the profile lists what was compiled.
  std::vector<float> w(8 * 3 * 3 * 3, 0.25f), m(120 * 5, 0.5f);
  MLOperand x = b.input("x", {F32, {1, 3, 10, 12}});
  MLOperand filter = b.constant({F32, {8, 3, 3, 3}}, MLBufferSource(std::span<const float>(w)));
  MLConv2dOptions conv_options;
  conv_options.padding = std::vector<uint32_t>{1, 1, 1, 1};
  MLOperand y = b.relu(b.conv2d(x, filter, conv_options));
  MLOperand z = b.matmul(b.reshape(y, {8, 120}), b.constant({F32, {120, 5}}, MLBufferSource(std::span<const float>(m))));
  MLGraph g = b.build({{"z", z}});

  CHECK(g.profile().steps.empty());  // before any profiled dispatch
  MLTensor tx = ctx.createTensor({.dataType = F32, .shape = {1, 3, 10, 12}, .writable = true});
  MLTensor tz = ctx.createTensor({.dataType = F32, .shape = {8, 5}, .readable = true});
  std::vector<float> data;
  ctx.writeTensor(tx, Halves(data, 360));
  ctx.dispatch(g, {{"x", tx}}, {{"z", tz}});
  ctx.finish();
  CHECK(g.profile().steps.empty());  // an unprofiled dispatch keeps none

  MLDispatchOptions options;
  options.profile = true;
  ctx.dispatch(g, {{"x", tx}}, {{"z", tz}}, options);
  ctx.finish();
  const MLGraphProfile p = g.profile();
  const MLGraphPlacement placement = g.placement();
  REQUIRE(p.steps.size() == placement.nodes.size());
  bool saw_conv = false, saw_matmul = false;
  for (size_t s = 0; s < p.steps.size(); ++s) {
    const MLStepProfile& step = p.steps[s];
    INFO("step " << s << " " << step.op);
    CHECK(step.op == placement.nodes[s].op);
    CHECK(step.device == placement.nodes[s].device);
    // The host devices time every step; a gpu with timestamp queries too
    // (lavapipe and NVIDIA's drivers have them).
    CHECK(!std::isnan(step.ms));
    CHECK(step.ms >= 0);
    double bytes = 0;
    for (const auto& shape : step.inputShapes) {
      double n = 1;
      for (uint32_t d : shape) n *= d;
      bytes += shape.empty() ? 0 : 4 * n;
    }
    for (const auto& shape : step.outputShapes) {
      double n = 1;
      for (uint32_t d : shape) n *= d;
      bytes += 4 * n;
    }
    if (step.op != "reshape") CHECK(step.bytes == bytes);
    if (step.op == "conv2d") {
      saw_conv = true;
      REQUIRE(step.outputShapes.size() == 1);
      CHECK(step.outputShapes[0] == std::vector<uint32_t>{1, 8, 10, 12});
      CHECK(step.flops == 2.0 * (8 * 10 * 12) * (3 * 3 * 3));  // every output: 27 taps
    } else if (step.op == "matmul") {
      saw_matmul = true;
      CHECK(step.outputShapes[0] == std::vector<uint32_t>{8, 5});
      CHECK(step.flops == 2.0 * 8 * 5 * 120);
    } else {
      CHECK(step.flops == 0);
    }
  }
  CHECK(saw_conv);
  CHECK(saw_matmul);
}

TEST_CASE("profile: a SwiGLU's gated quantizedMatmul counts both projections", "[device][profile]") {
  // silu(x Wg) * (x Wu), int4 weights [64, 40] (blocks of 32): one gated
  // quantizedMatmul where the device fuses it, two matmuls where it does not;
  // either way 2 x (2 M N K) flops in all.
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  MLGraphBuilder b(ctx);
  const MLOperand x = b.input("x", {F32, {3, 64}});
  std::vector<uint8_t> codes(64 * 40 / 2, 0x21);
  std::vector<float> scales(2 * 40, 0.125f);
  std::vector<uint8_t> zero_points(2 * 40 / 2, 0);
  auto weight = [&] {
    return b.dequantizeLinear(b.constant({MLOperandDataType::kInt4, {64, 40}}, MLBufferSource(std::span<const uint8_t>(codes))),
                              b.constant({F32, {2, 40}}, MLBufferSource(std::span<const float>(scales))),
                              b.constant({MLOperandDataType::kInt4, {2, 40}}, MLBufferSource(std::span<const uint8_t>(zero_points))));
  };
  const MLOperand g = b.matmul(x, weight()), u = b.matmul(x, weight());
  MLGraph graph = b.build({{"y", b.mul(b.mul(g, b.sigmoid(g)), u)}});
  MLTensor tx = ctx.createTensor({.dataType = F32, .shape = {3, 64}, .writable = true});
  MLTensor ty = ctx.createTensor({.dataType = F32, .shape = {3, 40}, .readable = true});
  std::vector<float> data;
  ctx.writeTensor(tx, Halves(data, 3 * 64));
  MLDispatchOptions options;
  options.profile = true;
  ctx.dispatch(graph, {{"x", tx}}, {{"y", ty}}, options);
  ctx.finish();
  double flops = 0;
  for (const MLStepProfile& step : graph.profile().steps) flops += step.flops;
  CHECK(flops == 2 * (2.0 * 3 * 40 * 64));
}
