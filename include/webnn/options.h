// Option dictionaries of the MLGraphBuilder operations, member for member as in
// the WebNN IDL. Members the IDL gives a default carry it here; members without
// one are std::optional (absent means "use the operation's rule").
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "webnn/operand.h"
#include "webnn/types.h"

namespace webnn {

// Every dictionary starts with MLOperatorOptions' `label`. The IDL inherits it;
// here it is an ordinary first member of each struct, so that designated
// initializers reach it: {.label = "dw", .groups = 8}.
struct MLOperatorOptions {
  std::string label;
};

struct MLArgMinMaxOptions {
  std::string label;
  bool keepDimensions = false;
  MLOperandDataType outputDataType = MLOperandDataType::kInt32;
};

struct MLBatchNormalizationOptions {
  std::string label;
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  uint32_t axis = 1;
  double epsilon = 1e-5;
};

struct MLClampOptions {
  std::string label;
  std::optional<MLNumber> minValue;
  std::optional<MLNumber> maxValue;
};

struct MLConv2dOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> padding;    // [beginH, endH, beginW, endW]
  std::optional<std::vector<uint32_t>> strides;    // [h, w]
  std::optional<std::vector<uint32_t>> dilations;  // [h, w]
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::kNchw;
  MLConv2dFilterOperandLayout filterLayout = MLConv2dFilterOperandLayout::kOihw;
  std::optional<MLOperand> bias;
};

struct MLConvTranspose2dOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> padding;
  std::optional<std::vector<uint32_t>> strides;
  std::optional<std::vector<uint32_t>> dilations;
  std::optional<std::vector<uint32_t>> outputPadding;
  std::optional<std::vector<uint32_t>> outputSizes;
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::kNchw;
  MLConvTranspose2dFilterOperandLayout filterLayout = MLConvTranspose2dFilterOperandLayout::kIohw;
  std::optional<MLOperand> bias;
};

struct MLCumulativeSumOptions {
  std::string label;
  bool exclusive = false;
  bool reversed = false;
};

struct MLEluOptions {
  std::string label;
  double alpha = 1;
};

struct MLGatherOptions {
  std::string label;
  uint32_t axis = 0;
};

struct MLGemmOptions {
  std::string label;
  std::optional<MLOperand> c;
  double alpha = 1.0;
  double beta = 1.0;
  bool aTranspose = false;
  bool bTranspose = false;
};

struct MLGruOptions {
  std::string label;
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  std::optional<MLOperand> initialHiddenState;
  bool resetAfter = true;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::kForward;
  MLGruWeightLayout layout = MLGruWeightLayout::kZrn;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;
};

struct MLGruCellOptions {
  std::string label;
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  bool resetAfter = true;
  MLGruWeightLayout layout = MLGruWeightLayout::kZrn;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;
};

struct MLHardSigmoidOptions {
  std::string label;
  double alpha = 0.2;
  double beta = 0.5;
};

struct MLInstanceNormalizationOptions {
  std::string label;
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  double epsilon = 1e-5;
  MLInputOperandLayout layout = MLInputOperandLayout::kNchw;
};

struct MLLayerNormalizationOptions {
  std::string label;
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  std::optional<std::vector<uint32_t>> axes;
  double epsilon = 1e-5;
};

struct MLLeakyReluOptions {
  std::string label;
  double alpha = 0.01;
};

struct MLLinearOptions {
  std::string label;
  double alpha = 1;
  double beta = 0;
};

struct MLLstmOptions {
  std::string label;
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  std::optional<MLOperand> peepholeWeight;
  std::optional<MLOperand> initialHiddenState;
  std::optional<MLOperand> initialCellState;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::kForward;
  MLLstmWeightLayout layout = MLLstmWeightLayout::kIofg;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;
};

struct MLLstmCellOptions {
  std::string label;
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  std::optional<MLOperand> peepholeWeight;
  MLLstmWeightLayout layout = MLLstmWeightLayout::kIofg;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;
};

struct MLPadOptions {
  std::string label;
  MLPaddingMode mode = MLPaddingMode::kConstant;
  MLNumber value = 0;
};

struct MLPool2dOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> windowDimensions;
  std::optional<std::vector<uint32_t>> padding;
  std::optional<std::vector<uint32_t>> strides;
  std::optional<std::vector<uint32_t>> dilations;
  MLInputOperandLayout layout = MLInputOperandLayout::kNchw;
  MLRoundingType outputShapeRounding = MLRoundingType::kFloor;
  std::optional<std::vector<uint32_t>> outputSizes;
};

struct MLReduceOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> axes;
  bool keepDimensions = false;
};

struct MLResample2dOptions {
  std::string label;
  MLInterpolationMode mode = MLInterpolationMode::kNearestNeighbor;
  std::optional<std::vector<float>> scales;
  std::optional<std::vector<uint32_t>> sizes;
  std::optional<std::vector<uint32_t>> axes;
};

struct MLReverseOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> axes;
};

struct MLScatterOptions {
  std::string label;
  uint32_t axis = 0;
};

struct MLSliceOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> strides;
};

struct MLSplitOptions {
  std::string label;
  uint32_t axis = 0;
};

struct MLTransposeOptions {
  std::string label;
  std::optional<std::vector<uint32_t>> permutation;
};

struct MLTriangularOptions {
  std::string label;
  bool upper = true;
  int32_t diagonal = 0;
};

}  // namespace webnn
