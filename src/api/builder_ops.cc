// The 95 MLGraphBuilder operation methods. Each maps its options to the op's
// attribute struct (IDL defaults already applied by the options' initializers
// or here where the spec says "if not present") and adds the node; all
// validation happens in the op's Infer function (src/ops/<family>.cc).
#include "api/impl.h"
#include "ops/activation.h"
#include "ops/arg_min_max.h"
#include "ops/cast.h"
#include "ops/concat.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/cumulative_sum.h"
#include "ops/expand.h"
#include "ops/gather.h"
#include "ops/gemm.h"
#include "ops/gru.h"
#include "ops/lstm.h"
#include "ops/matmul.h"
#include "ops/normalization.h"
#include "ops/pad.h"
#include "ops/pool2d.h"
#include "ops/reduce.h"
#include "ops/resample2d.h"
#include "ops/reshape.h"
#include "ops/reverse.h"
#include "ops/scatter.h"
#include "ops/slice.h"
#include "ops/softmax.h"
#include "ops/split.h"
#include "ops/tile.h"
#include "ops/transpose.h"
#include "ops/triangular.h"
#include "webnn/webnn.h"

namespace webnn {

using ops::OpKind;

namespace {

const MLOperand* Opt(const std::optional<MLOperand>& o) { return o ? &*o : nullptr; }

std::shared_ptr<const ops::OpAttrs> NoAttrs() {
  static const auto attrs = std::make_shared<const ops::NoAttrs>();
  return attrs;
}

template <typename T>
void SetIf(T& dst, const std::optional<T>& src) {
  if (src) dst = *src;
}

}  // namespace

#define WEBNN_SIMPLE_BINARY(name)                                                                 \
  MLOperand MLGraphBuilder::name(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) { \
    return impl_->AddOp(OpKind::name, o.label, {&a, &b}, NoAttrs())[0];                          \
  }
#define WEBNN_SIMPLE_UNARY(name)                                                          \
  MLOperand MLGraphBuilder::name(const MLOperand& x, const MLOperatorOptions& o) {        \
    return impl_->AddOp(OpKind::name, o.label, {&x}, NoAttrs())[0];                      \
  }

WEBNN_SIMPLE_BINARY(add)
WEBNN_SIMPLE_BINARY(sub)
WEBNN_SIMPLE_BINARY(mul)
WEBNN_SIMPLE_BINARY(div)
WEBNN_SIMPLE_BINARY(max)
WEBNN_SIMPLE_BINARY(min)
WEBNN_SIMPLE_BINARY(pow)
WEBNN_SIMPLE_BINARY(equal)
WEBNN_SIMPLE_BINARY(notEqual)
WEBNN_SIMPLE_BINARY(greater)
WEBNN_SIMPLE_BINARY(greaterOrEqual)
WEBNN_SIMPLE_BINARY(lesser)
WEBNN_SIMPLE_BINARY(lesserOrEqual)
WEBNN_SIMPLE_BINARY(logicalAnd)
WEBNN_SIMPLE_BINARY(logicalOr)
WEBNN_SIMPLE_BINARY(logicalXor)
WEBNN_SIMPLE_BINARY(prelu)
WEBNN_SIMPLE_UNARY(logicalNot)
WEBNN_SIMPLE_UNARY(isNaN)
WEBNN_SIMPLE_UNARY(isInfinite)
WEBNN_SIMPLE_UNARY(abs)
WEBNN_SIMPLE_UNARY(ceil)
WEBNN_SIMPLE_UNARY(cos)
WEBNN_SIMPLE_UNARY(erf)
WEBNN_SIMPLE_UNARY(exp)
WEBNN_SIMPLE_UNARY(floor)
WEBNN_SIMPLE_UNARY(identity)
WEBNN_SIMPLE_UNARY(log)
WEBNN_SIMPLE_UNARY(neg)
WEBNN_SIMPLE_UNARY(reciprocal)
WEBNN_SIMPLE_UNARY(roundEven)
WEBNN_SIMPLE_UNARY(sin)
WEBNN_SIMPLE_UNARY(sign)
WEBNN_SIMPLE_UNARY(sqrt)
WEBNN_SIMPLE_UNARY(tan)
#undef WEBNN_SIMPLE_BINARY
#undef WEBNN_SIMPLE_UNARY

// ---- Activations --------------------------------------------------------------

namespace {
std::shared_ptr<ops::ActivationAttrs> Activation(double alpha = 0, double beta = 0) {
  auto a = std::make_shared<ops::ActivationAttrs>();
  a->alpha = alpha;
  a->beta = beta;
  return a;
}
}  // namespace

MLOperand MLGraphBuilder::elu(const MLOperand& x, const MLEluOptions& o) {
  return impl_->AddOp(OpKind::elu, o.label, {&x}, Activation(o.alpha))[0];
}
MLOperand MLGraphBuilder::gelu(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::gelu, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::hardSigmoid(const MLOperand& x, const MLHardSigmoidOptions& o) {
  return impl_->AddOp(OpKind::hardSigmoid, o.label, {&x}, Activation(o.alpha, o.beta))[0];
}
MLOperand MLGraphBuilder::hardSwish(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::hardSwish, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::leakyRelu(const MLOperand& x, const MLLeakyReluOptions& o) {
  return impl_->AddOp(OpKind::leakyRelu, o.label, {&x}, Activation(o.alpha))[0];
}
MLOperand MLGraphBuilder::linear(const MLOperand& x, const MLLinearOptions& o) {
  return impl_->AddOp(OpKind::linear, o.label, {&x}, Activation(o.alpha, o.beta))[0];
}
MLOperand MLGraphBuilder::relu(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::relu, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::sigmoid(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::sigmoid, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::softplus(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::softplus, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::softsign(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::softsign, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::tanh(const MLOperand& x, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::tanh, o.label, {&x}, Activation())[0];
}
MLOperand MLGraphBuilder::clamp(const MLOperand& x, const MLClampOptions& o) {
  auto a = Activation();
  a->minValue = o.minValue;
  a->maxValue = o.maxValue;
  return impl_->AddOp(OpKind::clamp, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::softmax(const MLOperand& x, uint32_t axis, const MLOperatorOptions& o) {
  auto a = std::make_shared<ops::SoftmaxAttrs>();
  a->axis = axis;
  return impl_->AddOp(OpKind::softmax, o.label, {&x}, a)[0];
}

// ---- Quantization and cast ------------------------------------------------------

MLOperand MLGraphBuilder::cast(const MLOperand& x, MLOperandDataType dataType, const MLOperatorOptions& o) {
  auto a = std::make_shared<ops::CastAttrs>();
  a->dataType = dataType;
  return impl_->AddOp(OpKind::cast, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::quantizeLinear(const MLOperand& x, const MLOperand& scale, const MLOperand& zeroPoint,
                                         const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::quantizeLinear, o.label, {&x, &scale, &zeroPoint}, NoAttrs())[0];
}
MLOperand MLGraphBuilder::dequantizeLinear(const MLOperand& x, const MLOperand& scale, const MLOperand& zeroPoint,
                                           const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::dequantizeLinear, o.label, {&x, &scale, &zeroPoint}, NoAttrs())[0];
}

// ---- Convolution, pooling, resampling --------------------------------------------

MLOperand MLGraphBuilder::conv2d(const MLOperand& input, const MLOperand& filter, const MLConv2dOptions& o) {
  auto a = std::make_shared<ops::Conv2dAttrs>();
  SetIf(a->padding, o.padding);
  SetIf(a->strides, o.strides);
  SetIf(a->dilations, o.dilations);
  a->groups = o.groups;
  a->inputLayout = o.inputLayout;
  a->filterLayout = o.filterLayout;
  return impl_->AddOp(OpKind::conv2d, o.label, {&input, &filter, Opt(o.bias)}, a)[0];
}

MLOperand MLGraphBuilder::convTranspose2d(const MLOperand& input, const MLOperand& filter,
                                          const MLConvTranspose2dOptions& o) {
  auto a = std::make_shared<ops::ConvTranspose2dAttrs>();
  SetIf(a->padding, o.padding);
  SetIf(a->strides, o.strides);
  SetIf(a->dilations, o.dilations);
  SetIf(a->outputPadding, o.outputPadding);
  a->outputSizes = o.outputSizes;
  a->groups = o.groups;
  a->inputLayout = o.inputLayout;
  a->filterLayout = o.filterLayout;
  return impl_->AddOp(OpKind::convTranspose2d, o.label, {&input, &filter, Opt(o.bias)}, a)[0];
}

namespace {
std::shared_ptr<ops::Pool2dAttrs> Pool2d(const MLPool2dOptions& o) {
  auto a = std::make_shared<ops::Pool2dAttrs>();
  a->windowDimensions = o.windowDimensions;
  SetIf(a->padding, o.padding);
  SetIf(a->strides, o.strides);
  SetIf(a->dilations, o.dilations);
  a->layout = o.layout;
  a->outputShapeRounding = o.outputShapeRounding;
  a->outputSizes = o.outputSizes;
  return a;
}
}  // namespace

MLOperand MLGraphBuilder::averagePool2d(const MLOperand& x, const MLPool2dOptions& o) {
  return impl_->AddOp(OpKind::averagePool2d, o.label, {&x}, Pool2d(o))[0];
}
MLOperand MLGraphBuilder::l2Pool2d(const MLOperand& x, const MLPool2dOptions& o) {
  return impl_->AddOp(OpKind::l2Pool2d, o.label, {&x}, Pool2d(o))[0];
}
MLOperand MLGraphBuilder::maxPool2d(const MLOperand& x, const MLPool2dOptions& o) {
  return impl_->AddOp(OpKind::maxPool2d, o.label, {&x}, Pool2d(o))[0];
}

MLOperand MLGraphBuilder::resample2d(const MLOperand& x, const MLResample2dOptions& o) {
  auto a = std::make_shared<ops::Resample2dAttrs>();
  a->mode = o.mode;
  SetIf(a->scales, o.scales);
  a->sizes = o.sizes;
  SetIf(a->axes, o.axes);
  return impl_->AddOp(OpKind::resample2d, o.label, {&x}, a)[0];
}

// ---- Matrix -------------------------------------------------------------------

MLOperand MLGraphBuilder::matmul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::matmul, o.label, {&a, &b}, std::make_shared<ops::MatmulAttrs>())[0];
}

MLOperand MLGraphBuilder::gemm(const MLOperand& a, const MLOperand& b, const MLGemmOptions& o) {
  auto attrs = std::make_shared<ops::GemmAttrs>();
  attrs->alpha = o.alpha;
  attrs->beta = o.beta;
  attrs->aTranspose = o.aTranspose;
  attrs->bTranspose = o.bTranspose;
  return impl_->AddOp(OpKind::gemm, o.label, {&a, &b, Opt(o.c)}, attrs)[0];
}

// ---- Normalization --------------------------------------------------------------

MLOperand MLGraphBuilder::batchNormalization(const MLOperand& x, const MLOperand& mean, const MLOperand& variance,
                                             const MLBatchNormalizationOptions& o) {
  auto a = std::make_shared<ops::BatchNormalizationAttrs>();
  a->axis = o.axis;
  a->epsilon = o.epsilon;
  return impl_->AddOp(OpKind::batchNormalization, o.label, {&x, &mean, &variance, Opt(o.scale), Opt(o.bias)}, a)[0];
}
MLOperand MLGraphBuilder::instanceNormalization(const MLOperand& x, const MLInstanceNormalizationOptions& o) {
  auto a = std::make_shared<ops::InstanceNormalizationAttrs>();
  a->epsilon = o.epsilon;
  a->layout = o.layout;
  return impl_->AddOp(OpKind::instanceNormalization, o.label, {&x, Opt(o.scale), Opt(o.bias)}, a)[0];
}
MLOperand MLGraphBuilder::layerNormalization(const MLOperand& x, const MLLayerNormalizationOptions& o) {
  auto a = std::make_shared<ops::LayerNormalizationAttrs>();
  a->axes = o.axes;
  a->epsilon = o.epsilon;
  return impl_->AddOp(OpKind::layerNormalization, o.label, {&x, Opt(o.scale), Opt(o.bias)}, a)[0];
}

// ---- Reductions and scans ---------------------------------------------------------

#define WEBNN_REDUCE(name)                                                          \
  MLOperand MLGraphBuilder::name(const MLOperand& x, const MLReduceOptions& o) {    \
    auto a = std::make_shared<ops::ReduceAttrs>();                                  \
    a->axes = o.axes;                                                               \
    a->keepDimensions = o.keepDimensions;                                           \
    return impl_->AddOp(OpKind::name, o.label, {&x}, a)[0];                         \
  }
WEBNN_REDUCE(reduceL1)
WEBNN_REDUCE(reduceL2)
WEBNN_REDUCE(reduceLogSum)
WEBNN_REDUCE(reduceLogSumExp)
WEBNN_REDUCE(reduceMax)
WEBNN_REDUCE(reduceMean)
WEBNN_REDUCE(reduceMin)
WEBNN_REDUCE(reduceProduct)
WEBNN_REDUCE(reduceSum)
WEBNN_REDUCE(reduceSumSquare)
#undef WEBNN_REDUCE

namespace {
std::shared_ptr<ops::ArgMinMaxAttrs> ArgMinMax(uint32_t axis, const MLArgMinMaxOptions& o) {
  auto a = std::make_shared<ops::ArgMinMaxAttrs>();
  a->axis = axis;
  a->keepDimensions = o.keepDimensions;
  a->outputDataType = o.outputDataType;
  return a;
}
}  // namespace

MLOperand MLGraphBuilder::argMin(const MLOperand& x, uint32_t axis, const MLArgMinMaxOptions& o) {
  return impl_->AddOp(OpKind::argMin, o.label, {&x}, ArgMinMax(axis, o))[0];
}
MLOperand MLGraphBuilder::argMax(const MLOperand& x, uint32_t axis, const MLArgMinMaxOptions& o) {
  return impl_->AddOp(OpKind::argMax, o.label, {&x}, ArgMinMax(axis, o))[0];
}
MLOperand MLGraphBuilder::cumulativeSum(const MLOperand& x, uint32_t axis, const MLCumulativeSumOptions& o) {
  auto a = std::make_shared<ops::CumulativeSumAttrs>();
  a->axis = axis;
  a->exclusive = o.exclusive;
  a->reversed = o.reversed;
  return impl_->AddOp(OpKind::cumulativeSum, o.label, {&x}, a)[0];
}

// ---- Data movement and shape ---------------------------------------------------------

MLOperand MLGraphBuilder::concat(const std::vector<MLOperand>& inputs, uint32_t axis, const MLOperatorOptions& o) {
  auto a = std::make_shared<ops::ConcatAttrs>();
  a->axis = axis;
  std::vector<const MLOperand*> operands;
  for (const MLOperand& in : inputs) operands.push_back(&in);
  return impl_->AddOp(OpKind::concat, o.label, operands, a)[0];
}
MLOperand MLGraphBuilder::expand(const MLOperand& x, const std::vector<MLDimension>& newShape,
                                 const MLOperatorOptions& o) {
  auto a = std::make_shared<ops::ExpandAttrs>();
  a->newShape = newShape;
  return impl_->AddOp(OpKind::expand, o.label, {&x}, a)[0];
}

namespace {
std::shared_ptr<ops::GatherAttrs> Gather(uint32_t axis) {
  auto a = std::make_shared<ops::GatherAttrs>();
  a->axis = axis;
  return a;
}
std::shared_ptr<ops::ScatterAttrs> Scatter(uint32_t axis) {
  auto a = std::make_shared<ops::ScatterAttrs>();
  a->axis = axis;
  return a;
}
}  // namespace

MLOperand MLGraphBuilder::gather(const MLOperand& x, const MLOperand& indices, const MLGatherOptions& o) {
  return impl_->AddOp(OpKind::gather, o.label, {&x, &indices}, Gather(o.axis))[0];
}
MLOperand MLGraphBuilder::gatherElements(const MLOperand& x, const MLOperand& indices, const MLGatherOptions& o) {
  return impl_->AddOp(OpKind::gatherElements, o.label, {&x, &indices}, Gather(o.axis))[0];
}
MLOperand MLGraphBuilder::gatherND(const MLOperand& x, const MLOperand& indices, const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::gatherND, o.label, {&x, &indices}, Gather(0))[0];
}
MLOperand MLGraphBuilder::scatterElements(const MLOperand& x, const MLOperand& indices, const MLOperand& updates,
                                          const MLScatterOptions& o) {
  return impl_->AddOp(OpKind::scatterElements, o.label, {&x, &indices, &updates}, Scatter(o.axis))[0];
}
MLOperand MLGraphBuilder::scatterND(const MLOperand& x, const MLOperand& indices, const MLOperand& updates,
                                    const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::scatterND, o.label, {&x, &indices, &updates}, Scatter(0))[0];
}

MLOperand MLGraphBuilder::pad(const MLOperand& x, const std::vector<uint32_t>& beginningPadding,
                              const std::vector<uint32_t>& endingPadding, const MLPadOptions& o) {
  auto a = std::make_shared<ops::PadAttrs>();
  a->beginningPadding = beginningPadding;
  a->endingPadding = endingPadding;
  a->mode = o.mode;
  a->value = o.value;
  return impl_->AddOp(OpKind::pad, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::reshape(const MLOperand& x, const std::vector<MLDimension>& newShape,
                                  const MLOperatorOptions& o) {
  auto a = std::make_shared<ops::ReshapeAttrs>();
  a->newShape = newShape;
  return impl_->AddOp(OpKind::reshape, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::reverse(const MLOperand& x, const MLReverseOptions& o) {
  auto a = std::make_shared<ops::ReverseAttrs>();
  a->axes = o.axes;
  return impl_->AddOp(OpKind::reverse, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::slice(const MLOperand& x, const std::vector<uint32_t>& starts,
                                const std::vector<uint32_t>& sizes, const MLSliceOptions& o) {
  auto a = std::make_shared<ops::SliceAttrs>();
  a->starts = starts;
  a->sizes = sizes;
  a->strides = o.strides;
  return impl_->AddOp(OpKind::slice, o.label, {&x}, a)[0];
}
std::vector<MLOperand> MLGraphBuilder::split(const MLOperand& x, const MLSplits& splits, const MLSplitOptions& o) {
  auto a = std::make_shared<ops::SplitAttrs>();
  a->splits = splits;
  a->axis = o.axis;
  return impl_->AddOp(OpKind::split, o.label, {&x}, a);
}
MLOperand MLGraphBuilder::tile(const MLOperand& x, const std::vector<uint32_t>& repetitions,
                               const MLOperatorOptions& o) {
  auto a = std::make_shared<ops::TileAttrs>();
  a->repetitions = repetitions;
  return impl_->AddOp(OpKind::tile, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::transpose(const MLOperand& x, const MLTransposeOptions& o) {
  auto a = std::make_shared<ops::TransposeAttrs>();
  a->permutation = o.permutation;
  return impl_->AddOp(OpKind::transpose, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::triangular(const MLOperand& x, const MLTriangularOptions& o) {
  auto a = std::make_shared<ops::TriangularAttrs>();
  a->upper = o.upper;
  a->diagonal = o.diagonal;
  return impl_->AddOp(OpKind::triangular, o.label, {&x}, a)[0];
}
MLOperand MLGraphBuilder::where(const MLOperand& condition, const MLOperand& trueValue, const MLOperand& falseValue,
                                const MLOperatorOptions& o) {
  return impl_->AddOp(OpKind::where, o.label, {&condition, &trueValue, &falseValue}, NoAttrs())[0];
}

// ---- Recurrent ---------------------------------------------------------------------

std::vector<MLOperand> MLGraphBuilder::gru(const MLOperand& input, const MLOperand& weight,
                                           const MLOperand& recurrentWeight, uint32_t steps, uint32_t hiddenSize,
                                           const MLGruOptions& o) {
  auto a = std::make_shared<ops::GruAttrs>();
  a->steps = steps;
  a->hiddenSize = hiddenSize;
  a->resetAfter = o.resetAfter;
  a->returnSequence = o.returnSequence;
  a->direction = o.direction;
  a->layout = o.layout;
  SetIf(a->activations, o.activations);
  return impl_->AddOp(OpKind::gru, o.label,
                      {&input, &weight, &recurrentWeight, Opt(o.bias), Opt(o.recurrentBias), Opt(o.initialHiddenState)},
                      a);
}

MLOperand MLGraphBuilder::gruCell(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrentWeight,
                                  const MLOperand& hiddenState, uint32_t hiddenSize, const MLGruCellOptions& o) {
  auto a = std::make_shared<ops::GruAttrs>();
  a->hiddenSize = hiddenSize;
  a->resetAfter = o.resetAfter;
  a->layout = o.layout;
  SetIf(a->activations, o.activations);
  return impl_->AddOp(OpKind::gruCell, o.label,
                      {&input, &weight, &recurrentWeight, &hiddenState, Opt(o.bias), Opt(o.recurrentBias)}, a)[0];
}

std::vector<MLOperand> MLGraphBuilder::lstm(const MLOperand& input, const MLOperand& weight,
                                            const MLOperand& recurrentWeight, uint32_t steps, uint32_t hiddenSize,
                                            const MLLstmOptions& o) {
  auto a = std::make_shared<ops::LstmAttrs>();
  a->steps = steps;
  a->hiddenSize = hiddenSize;
  a->returnSequence = o.returnSequence;
  a->direction = o.direction;
  a->layout = o.layout;
  SetIf(a->activations, o.activations);
  return impl_->AddOp(OpKind::lstm, o.label,
                      {&input, &weight, &recurrentWeight, Opt(o.bias), Opt(o.recurrentBias), Opt(o.peepholeWeight),
                       Opt(o.initialHiddenState), Opt(o.initialCellState)},
                      a);
}

std::vector<MLOperand> MLGraphBuilder::lstmCell(const MLOperand& input, const MLOperand& weight,
                                                const MLOperand& recurrentWeight, const MLOperand& hiddenState,
                                                const MLOperand& cellState, uint32_t hiddenSize,
                                                const MLLstmCellOptions& o) {
  auto a = std::make_shared<ops::LstmAttrs>();
  a->hiddenSize = hiddenSize;
  a->layout = o.layout;
  SetIf(a->activations, o.activations);
  return impl_->AddOp(OpKind::lstmCell, o.label,
                      {&input, &weight, &recurrentWeight, &hiddenState, &cellState, Opt(o.bias), Opt(o.recurrentBias),
                       Opt(o.peepholeWeight)},
                      a);
}

}  // namespace webnn
