// The device's kernels of the transpose family against the reference device.
#include <algorithm>
#include <numeric>

#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckTranspose(MLOperandDataType type, const std::vector<uint32_t>& shape, std::optional<std::vector<uint32_t>> perm,
                    uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "transpose", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLTransposeOptions options;
                          options.permutation = perm;
                          return MLNamedOperands{{"out", g.transpose(in[0], options)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("transpose matches reference on random shapes, permutations and types", "[device][transpose]") {
  std::mt19937_64 rng(41);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 6);
      std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      std::vector<uint32_t> perm(rank);
      std::iota(perm.begin(), perm.end(), 0u);
      std::shuffle(perm.begin(), perm.end(), rng);
      CheckTranspose(type, shape, trial % 5 == 0 ? std::nullopt : std::optional(perm), rng());
    }
  }
}

TEST_CASE("transpose: register tiles, edges and (de)interleaving", "[device][transpose]") {
  std::mt19937_64 rng(42);
  for (MLOperandDataType type : kAllDataTypes) {
    // 2D with full tiles plus odd edges in both directions.
    CheckTranspose(type, {37, 53}, std::nullopt, rng());
    CheckTranspose(type, {64, 48}, std::nullopt, rng());
    CheckTranspose(type, {1, 1}, std::nullopt, rng());
    CheckTranspose(type, {5}, std::nullopt, rng());
    // NCHW <-> NHWC with 1-5 channels ((de)interleave paths, scalar columns).
    for (uint32_t c : {1u, 2u, 3u, 4u, 5u}) {
      CheckTranspose(type, {2, c, 7, 9}, std::vector<uint32_t>{0, 2, 3, 1}, rng());
      CheckTranspose(type, {2, 7, 9, c}, std::vector<uint32_t>{0, 3, 1, 2}, rng());
    }
    // Short contiguous runs folded into wider elements ([A, B, 2] -> [B, A, 2]).
    CheckTranspose(type, {19, 23, 2}, std::vector<uint32_t>{1, 0, 2}, rng());
    CheckTranspose(type, {19, 23, 4}, std::vector<uint32_t>{1, 0, 2}, rng());
    CheckTranspose(type, {19, 23, 3}, std::vector<uint32_t>{1, 0, 2}, rng());
  }
}

TEST_CASE("transpose on large tensors", "[device][transpose]") {
  std::mt19937_64 rng(43);
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16, MLOperandDataType::kInt8,
                                 MLOperandDataType::kInt64}) {
    CheckTranspose(type, {1, 35, 67, 71}, std::vector<uint32_t>{0, 2, 3, 1}, rng());
    CheckTranspose(type, {1, 67, 71, 35}, std::vector<uint32_t>{0, 3, 1, 2}, rng());
    CheckTranspose(type, {517, 389}, std::nullopt, rng());
    CheckTranspose(type, {3, 300, 301}, std::vector<uint32_t>{2, 0, 1}, rng());
  }
}

// The strided-copy engine and the other data-movement kernels have target-
// specific paths (register tiles of 2 or 4 blocks, 128-bit fallbacks, scalar
// targets): run a sample of every family on each compiled Highway target.
TEST_CASE("cpu data-movement kernels on every compiled Highway target", "[cpu][transpose]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(44);
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("Highway target " << hwy::TargetName(target));
    for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16,
                                   MLOperandDataType::kInt8, MLOperandDataType::kInt64}) {
      CheckTranspose(type, {2, 37, 71}, std::vector<uint32_t>{0, 2, 1}, rng());
      CheckTranspose(type, {2, 3, 41}, std::vector<uint32_t>{0, 2, 1}, rng());
      CheckTranspose(type, {2, 41, 3}, std::vector<uint32_t>{0, 2, 1}, rng());
      auto check = [&](const std::string& what, std::vector<InputSpec> inputs, const GraphBody& body,
                       Tolerance tolerance = Tolerance::Ulp(0)) {
        CheckAgainstReference(MLDeviceType::kCpu, what, inputs, body, tolerance, rng());
      };
      check("slice", {MixedSpec(type, {9, 75})}, [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        MLSliceOptions options;
        options.strides = std::vector<uint32_t>{2, 3};
        return MLNamedOperands{{"out", g.slice(in[0], {1, 2}, {8, 70}, options)}};
      });
      check("reverse", {MixedSpec(type, {9, 75})}, [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        return MLNamedOperands{{"out", g.reverse(in[0])}};
      });
      check("tile", {MixedSpec(type, {3, 5})}, [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        return MLNamedOperands{{"out", g.tile(in[0], {2, 40})}};
      });
      check("expand", {MixedSpec(type, {7, 1})}, [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        return MLNamedOperands{{"out", g.expand(in[0], {MLDimension(7), MLDimension(75)})}};
      });
      for (MLPaddingMode mode : {MLPaddingMode::kConstant, MLPaddingMode::kEdge, MLPaddingMode::kReflection})
        check("pad", {MixedSpec(type, {5, 40})}, [mode](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
          MLPadOptions options;
          options.mode = mode;
          return MLNamedOperands{{"out", g.pad(in[0], {2, 3}, {1, 4}, options)}};
        });
      const InputSpec indices{MLOperandDataType::kInt32, {6, 75}, -20, 20};
      check("gather", {MixedSpec(type, {9, 75}), indices}, [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        MLGatherOptions options;
        options.axis = 1;
        return MLNamedOperands{{"out", g.gather(in[0], in[1], options)}};
      });
      check("gatherElements", {MixedSpec(type, {9, 75}), indices},
            [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
              return MLNamedOperands{{"out", g.gatherElements(in[0], in[1])}};
            });
      check("scatterElements", {MixedSpec(type, {9, 75}), indices, MixedSpec(type, {6, 75})},
            [](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
              return MLNamedOperands{{"out", g.scatterElements(in[0], in[1], in[2])}};
            });
      if (type != MLOperandDataType::kInt8) {
        for (uint32_t axis : {0u, 1u})
          check("cumulativeSum", {MixedSpec(type, {33, 75})},
                [axis](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                  return MLNamedOperands{{"out", g.cumulativeSum(in[0], axis)}};
                },
                Tolerance::Ulp(3));
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}
