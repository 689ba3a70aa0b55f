// The C API of MLGraphBuilder and MLOperand (webnn_c.h): input, constants,
// build, and every operation. The operations of the families that share a
// signature are defined from THE op list (src/ops/op_list.inc), the others one
// by one; tests/capi_ops_test.cc checks that every op of the list has its C
// function and that it records that very op.
#include <cstring>

#include "capi/capi_internal.h"
#include "core/strings.h"

using namespace webnn;
using namespace webnn::capi;
using core::StrCat;

namespace {

WNNOperand Wrap(WNNGraphBuilder b, MLOperand operand) {
  WNNOperandImpl& o = b->operands.emplace_back();
  o.operand = std::move(operand);
  for (const MLDimension& d : o.operand.shape()) {
    o.sizes.push_back(static_cast<uint32_t>(d.size()));
    o.names.push_back(d.isDynamic() ? std::optional<std::string>(d.name()) : std::nullopt);
  }
  return &o;
}

MLOperand Op(WNNOperand o) { return o ? o->operand : MLOperand(); }
std::optional<MLOperand> OptionalOp(WNNOperand o) {
  return o ? std::optional<MLOperand>(o->operand) : std::nullopt;
}

// Runs one builder call that yields one operand.
template <typename F>
WNNOperand Build(WNNGraphBuilder b, WNNError error, const char* op, F&& body) {
  return Guard<WNNOperand>(error, nullptr, [&] {
    RequireNonNull(b, op, "builder");
    return Wrap(b, body(b->builder));
  });
}

// The same for operations yielding several operands, when `expected` of them
// fit in `outputs`.
template <typename F>
size_t BuildMany(WNNGraphBuilder b, WNNError error, const char* op, size_t expected, WNNOperand* outputs,
                 size_t capacity, F&& body) {
  return Guard<size_t>(error, 0, [&]() -> size_t {
    RequireNonNull(b, op, "builder");
    if (capacity < expected)
      throw TypeError(StrCat(op, ": it has ", expected, " outputs; outputCapacity is ", capacity));
    if (expected > 0) RequireNonNull(outputs, op, "outputs");
    std::vector<MLOperand> results = body(b->builder);
    if (results.size() > capacity)
      throw OperationError(StrCat(op, ": ", results.size(), " outputs, room for ", capacity));
    for (size_t i = 0; i < results.size(); ++i) outputs[i] = Wrap(b, std::move(results[i]));
    return results.size();
  });
}

// An IDL enum from its C value: 0 is the default, 1.. the C++ enum's values in order.
template <typename E>
E ToEnum(uint32_t value, uint32_t count, E fallback, const char* what) {
  if (value == 0) return fallback;
  if (value > count) throw TypeError(StrCat(what, ": ", value, " is not a valid value"));
  return static_cast<E>(value - 1);
}
MLInputOperandLayout ToLayout(WNNInputOperandLayout v, const char* what) {
  return ToEnum(v, 2, MLInputOperandLayout::kNchw, what);
}
std::optional<std::vector<MLRecurrentNetworkActivation>> ToActivations(const WNNRecurrentNetworkActivation* a,
                                                                       size_t count, const char* what) {
  if (!a) return std::nullopt;
  std::vector<MLRecurrentNetworkActivation> out;
  for (size_t i = 0; i < count; ++i) {
    if (a[i] == WNNRecurrentNetworkActivation_Undefined)
      throw TypeError(StrCat(what, ": activations[", i, "] is Undefined"));
    out.push_back(ToEnum(a[i], 3, MLRecurrentNetworkActivation::kRelu, what));
  }
  return out;
}

// ---- Options ------------------------------------------------------------------
template <typename O, typename C>
O WithLabel(const C* c) {
  O o{};
  if (c && c->label) o.label = c->label;
  return o;
}

MLOperatorOptions ToOptions(const WNNOperatorOptions* c) { return WithLabel<MLOperatorOptions>(c); }

MLArgMinMaxOptions ToOptions(const WNNArgMinMaxOptions* c) {
  auto o = WithLabel<MLArgMinMaxOptions>(c);
  if (!c) return o;
  o.keepDimensions = c->keepDimensions != 0;
  if (c->outputDataType != WNNOperandDataType_Undefined) o.outputDataType = ToDataType(c->outputDataType, "outputDataType");
  return o;
}

MLBatchNormalizationOptions ToOptions(const WNNBatchNormalizationOptions* c) {
  auto o = WithLabel<MLBatchNormalizationOptions>(c);
  if (!c) return o;
  o.scale = OptionalOp(c->scale);
  o.bias = OptionalOp(c->bias);
  if (c->axis.hasValue) o.axis = c->axis.value;
  if (c->epsilon.hasValue) o.epsilon = c->epsilon.value;
  return o;
}

MLClampOptions ToOptions(const WNNClampOptions* c) {
  auto o = WithLabel<MLClampOptions>(c);
  if (!c) return o;
  o.minValue = ToOptionalNumber(c->minValue);
  o.maxValue = ToOptionalNumber(c->maxValue);
  return o;
}

MLConv2dOptions ToOptions(const WNNConv2dOptions* c) {
  auto o = WithLabel<MLConv2dOptions>(c);
  if (!c) return o;
  o.padding = ToOptionalVector(c->padding, c->paddingCount);
  o.strides = ToOptionalVector(c->strides, c->stridesCount);
  o.dilations = ToOptionalVector(c->dilations, c->dilationsCount);
  if (c->groups.hasValue) o.groups = c->groups.value;
  o.inputLayout = ToLayout(c->inputLayout, "conv2d inputLayout");
  o.filterLayout = ToEnum(c->filterLayout, 4, MLConv2dFilterOperandLayout::kOihw, "conv2d filterLayout");
  o.bias = OptionalOp(c->bias);
  return o;
}

MLConvTranspose2dOptions ToOptions(const WNNConvTranspose2dOptions* c) {
  auto o = WithLabel<MLConvTranspose2dOptions>(c);
  if (!c) return o;
  o.padding = ToOptionalVector(c->padding, c->paddingCount);
  o.strides = ToOptionalVector(c->strides, c->stridesCount);
  o.dilations = ToOptionalVector(c->dilations, c->dilationsCount);
  o.outputPadding = ToOptionalVector(c->outputPadding, c->outputPaddingCount);
  o.outputSizes = ToOptionalVector(c->outputSizes, c->outputSizesCount);
  if (c->groups.hasValue) o.groups = c->groups.value;
  o.inputLayout = ToLayout(c->inputLayout, "convTranspose2d inputLayout");
  o.filterLayout =
      ToEnum(c->filterLayout, 3, MLConvTranspose2dFilterOperandLayout::kIohw, "convTranspose2d filterLayout");
  o.bias = OptionalOp(c->bias);
  return o;
}

MLCumulativeSumOptions ToOptions(const WNNCumulativeSumOptions* c) {
  auto o = WithLabel<MLCumulativeSumOptions>(c);
  if (!c) return o;
  o.exclusive = c->exclusive != 0;
  o.reversed = c->reversed != 0;
  return o;
}

MLEluOptions ToOptions(const WNNEluOptions* c) {
  auto o = WithLabel<MLEluOptions>(c);
  if (c && c->alpha.hasValue) o.alpha = c->alpha.value;
  return o;
}

MLGatherOptions ToOptions(const WNNGatherOptions* c) {
  auto o = WithLabel<MLGatherOptions>(c);
  if (c) o.axis = c->axis;
  return o;
}

MLGemmOptions ToOptions(const WNNGemmOptions* c) {
  auto o = WithLabel<MLGemmOptions>(c);
  if (!c) return o;
  o.c = OptionalOp(c->c);
  if (c->alpha.hasValue) o.alpha = c->alpha.value;
  if (c->beta.hasValue) o.beta = c->beta.value;
  o.aTranspose = c->aTranspose != 0;
  o.bTranspose = c->bTranspose != 0;
  return o;
}

MLGruOptions ToOptions(const WNNGruOptions* c) {
  auto o = WithLabel<MLGruOptions>(c);
  if (!c) return o;
  o.bias = OptionalOp(c->bias);
  o.recurrentBias = OptionalOp(c->recurrentBias);
  o.initialHiddenState = OptionalOp(c->initialHiddenState);
  o.resetAfter = ToBool(c->resetAfter, true, "gru resetAfter");
  o.returnSequence = c->returnSequence != 0;
  o.direction = ToEnum(c->direction, 3, MLRecurrentNetworkDirection::kForward, "gru direction");
  o.layout = ToEnum(c->layout, 2, MLGruWeightLayout::kZrn, "gru layout");
  o.activations = ToActivations(c->activations, c->activationsCount, "gru");
  return o;
}

MLGruCellOptions ToOptions(const WNNGruCellOptions* c) {
  auto o = WithLabel<MLGruCellOptions>(c);
  if (!c) return o;
  o.bias = OptionalOp(c->bias);
  o.recurrentBias = OptionalOp(c->recurrentBias);
  o.resetAfter = ToBool(c->resetAfter, true, "gruCell resetAfter");
  o.layout = ToEnum(c->layout, 2, MLGruWeightLayout::kZrn, "gruCell layout");
  o.activations = ToActivations(c->activations, c->activationsCount, "gruCell");
  return o;
}

MLHardSigmoidOptions ToOptions(const WNNHardSigmoidOptions* c) {
  auto o = WithLabel<MLHardSigmoidOptions>(c);
  if (!c) return o;
  if (c->alpha.hasValue) o.alpha = c->alpha.value;
  if (c->beta.hasValue) o.beta = c->beta.value;
  return o;
}

MLInstanceNormalizationOptions ToOptions(const WNNInstanceNormalizationOptions* c) {
  auto o = WithLabel<MLInstanceNormalizationOptions>(c);
  if (!c) return o;
  o.scale = OptionalOp(c->scale);
  o.bias = OptionalOp(c->bias);
  if (c->epsilon.hasValue) o.epsilon = c->epsilon.value;
  o.layout = ToLayout(c->layout, "instanceNormalization layout");
  return o;
}

MLLayerNormalizationOptions ToOptions(const WNNLayerNormalizationOptions* c) {
  auto o = WithLabel<MLLayerNormalizationOptions>(c);
  if (!c) return o;
  o.scale = OptionalOp(c->scale);
  o.bias = OptionalOp(c->bias);
  o.axes = ToOptionalVector(c->axes, c->axesCount);
  if (c->epsilon.hasValue) o.epsilon = c->epsilon.value;
  return o;
}

MLLeakyReluOptions ToOptions(const WNNLeakyReluOptions* c) {
  auto o = WithLabel<MLLeakyReluOptions>(c);
  if (c && c->alpha.hasValue) o.alpha = c->alpha.value;
  return o;
}

MLLinearOptions ToOptions(const WNNLinearOptions* c) {
  auto o = WithLabel<MLLinearOptions>(c);
  if (!c) return o;
  if (c->alpha.hasValue) o.alpha = c->alpha.value;
  o.beta = c->beta;
  return o;
}

MLLstmOptions ToOptions(const WNNLstmOptions* c) {
  auto o = WithLabel<MLLstmOptions>(c);
  if (!c) return o;
  o.bias = OptionalOp(c->bias);
  o.recurrentBias = OptionalOp(c->recurrentBias);
  o.peepholeWeight = OptionalOp(c->peepholeWeight);
  o.initialHiddenState = OptionalOp(c->initialHiddenState);
  o.initialCellState = OptionalOp(c->initialCellState);
  o.returnSequence = c->returnSequence != 0;
  o.direction = ToEnum(c->direction, 3, MLRecurrentNetworkDirection::kForward, "lstm direction");
  o.layout = ToEnum(c->layout, 2, MLLstmWeightLayout::kIofg, "lstm layout");
  o.activations = ToActivations(c->activations, c->activationsCount, "lstm");
  return o;
}

MLLstmCellOptions ToOptions(const WNNLstmCellOptions* c) {
  auto o = WithLabel<MLLstmCellOptions>(c);
  if (!c) return o;
  o.bias = OptionalOp(c->bias);
  o.recurrentBias = OptionalOp(c->recurrentBias);
  o.peepholeWeight = OptionalOp(c->peepholeWeight);
  o.layout = ToEnum(c->layout, 2, MLLstmWeightLayout::kIofg, "lstmCell layout");
  o.activations = ToActivations(c->activations, c->activationsCount, "lstmCell");
  return o;
}

MLPadOptions ToOptions(const WNNPadOptions* c) {
  auto o = WithLabel<MLPadOptions>(c);
  if (!c) return o;
  o.mode = ToEnum(c->mode, 3, MLPaddingMode::kConstant, "pad mode");
  if (auto v = ToOptionalNumber(c->value)) o.value = *v;
  return o;
}

MLPool2dOptions ToOptions(const WNNPool2dOptions* c) {
  auto o = WithLabel<MLPool2dOptions>(c);
  if (!c) return o;
  o.windowDimensions = ToOptionalVector(c->windowDimensions, c->windowDimensionsCount);
  o.padding = ToOptionalVector(c->padding, c->paddingCount);
  o.strides = ToOptionalVector(c->strides, c->stridesCount);
  o.dilations = ToOptionalVector(c->dilations, c->dilationsCount);
  o.layout = ToLayout(c->layout, "pool2d layout");
  o.outputShapeRounding = ToEnum(c->outputShapeRounding, 2, MLRoundingType::kFloor, "pool2d outputShapeRounding");
  o.outputSizes = ToOptionalVector(c->outputSizes, c->outputSizesCount);
  return o;
}

MLReduceOptions ToOptions(const WNNReduceOptions* c) {
  auto o = WithLabel<MLReduceOptions>(c);
  if (!c) return o;
  o.axes = ToOptionalVector(c->axes, c->axesCount);
  o.keepDimensions = c->keepDimensions != 0;
  return o;
}

MLResample2dOptions ToOptions(const WNNResample2dOptions* c) {
  auto o = WithLabel<MLResample2dOptions>(c);
  if (!c) return o;
  o.mode = ToEnum(c->mode, 2, MLInterpolationMode::kNearestNeighbor, "resample2d mode");
  if (c->scales) o.scales = std::vector<float>(c->scales, c->scales + c->scalesCount);
  o.sizes = ToOptionalVector(c->sizes, c->sizesCount);
  o.axes = ToOptionalVector(c->axes, c->axesCount);
  return o;
}

MLReverseOptions ToOptions(const WNNReverseOptions* c) {
  auto o = WithLabel<MLReverseOptions>(c);
  if (c) o.axes = ToOptionalVector(c->axes, c->axesCount);
  return o;
}

MLScatterOptions ToOptions(const WNNScatterOptions* c) {
  auto o = WithLabel<MLScatterOptions>(c);
  if (c) o.axis = c->axis;
  return o;
}

MLSliceOptions ToOptions(const WNNSliceOptions* c) {
  auto o = WithLabel<MLSliceOptions>(c);
  if (c) o.strides = ToOptionalVector(c->strides, c->stridesCount);
  return o;
}

MLSplitOptions ToOptions(const WNNSplitOptions* c) {
  auto o = WithLabel<MLSplitOptions>(c);
  if (c) o.axis = c->axis;
  return o;
}

MLTransposeOptions ToOptions(const WNNTransposeOptions* c) {
  auto o = WithLabel<MLTransposeOptions>(c);
  if (c) o.permutation = ToOptionalVector(c->permutation, c->permutationCount);
  return o;
}

MLTriangularOptions ToOptions(const WNNTriangularOptions* c) {
  auto o = WithLabel<MLTriangularOptions>(c);
  if (!c) return o;
  o.upper = ToBool(c->upper, true, "triangular upper");
  o.diagonal = c->diagonal;
  return o;
}

std::vector<uint32_t> Values(const uint32_t* values, size_t count, const char* op, const char* what) {
  if (count > 0) RequireNonNull(values, op, what);
  return ToVector(values, count);
}

}  // namespace

extern "C" {

// ---- MLGraphBuilder ------------------------------------------------------------
WNNGraphBuilder wnnGraphBuilder_create(WNNContext context, WNNError error) {
  return Guard<WNNGraphBuilder>(error, nullptr, [&] {
    RequireNonNull(context, "MLGraphBuilder", "context");
    return new WNNGraphBuilderImpl(context->context);
  });
}

void wnnGraphBuilder_release(WNNGraphBuilder builder) { delete builder; }

WNNOperand wnnGraphBuilder_input(WNNGraphBuilder builder, const char* name, const WNNOperandDescriptor* descriptor,
                                 WNNError error) {
  return Build(builder, error, "input", [&](MLGraphBuilder& b) {
    RequireNonNull(name, "input", "name");
    return b.input(name, ToOperandDescriptor(descriptor, "input"));
  });
}

WNNOperand wnnGraphBuilder_constant(WNNGraphBuilder builder, const WNNOperandDescriptor* descriptor, const void* data,
                                    size_t byteLength, WNNError error) {
  return Build(builder, error, "constant", [&](MLGraphBuilder& b) {
    return b.constant(ToOperandDescriptor(descriptor, "constant"), ToBuffer(data, byteLength, "constant"));
  });
}

WNNOperand wnnGraphBuilder_constantScalar(WNNGraphBuilder builder, WNNOperandDataType dataType, WNNNumber value,
                                          WNNError error) {
  return Build(builder, error, "constant", [&](MLGraphBuilder& b) {
    return b.constant(ToDataType(dataType, "constant"), ToNumber(value));
  });
}

WNNOperand wnnGraphBuilder_constantTensor(WNNGraphBuilder builder, WNNTensor tensor, WNNError error) {
  return Build(builder, error, "constant", [&](MLGraphBuilder& b) {
    RequireNonNull(tensor, "constant", "tensor");
    return b.constant(tensor->tensor);
  });
}

WNNOperand wnnGraphBuilder_constantWeightless(WNNGraphBuilder builder, const WNNConstantDescriptor* descriptor,
                                              WNNError error) {
  return Build(builder, error, "constant", [&](MLGraphBuilder& b) {
    RequireNonNull(descriptor, "constant", "descriptor");
    return b.constant(MLConstantDescriptor{ToDataType(descriptor->dataType, "constant"),
                                           Values(descriptor->shape, descriptor->rank, "constant", "shape"),
                                           ToString(descriptor->label)});
  });
}

WNNGraph wnnGraphBuilder_build(WNNGraphBuilder builder, const WNNNamedOperand* outputs, size_t outputCount,
                               WNNError error) {
  return wnnGraphBuilder_buildWithOptions(builder, outputs, outputCount, nullptr, error);
}

WNNGraph wnnGraphBuilder_buildWithOptions(WNNGraphBuilder builder, const WNNNamedOperand* outputs, size_t outputCount,
                                          const WNNGraphOptions* options, WNNError error) {
  return Guard<WNNGraph>(error, nullptr, [&] {
    RequireNonNull(builder, "build", "builder");
    if (outputCount > 0) RequireNonNull(outputs, "build", "outputs");
    MLNamedOperands named;
    for (size_t i = 0; i < outputCount; ++i) {
      RequireNonNull(outputs[i].name, "build", "an output's name");
      named[outputs[i].name] = Op(outputs[i].operand);
    }
    MLGraphOptions o;
    if (options) {
      o.latencyHint = ToLatencyHint(options->latencyHint, "build");
      if (options->strictPlacement != WNNOptionalBool_Undefined)
        o.strictPlacement = ToBool(options->strictPlacement, false, "build: strictPlacement");
    }
    return WrapGraph(builder->builder.build(named, o), "");
  });
}

// ---- MLOperand --------------------------------------------------------------------
WNNOperandDataType wnnOperand_dataType(WNNOperand operand) {
  return Guard<WNNOperandDataType>(nullptr, WNNOperandDataType_Undefined, [&] {
    return operand ? FromDataType(operand->operand.dataType()) : WNNOperandDataType_Undefined;
  });
}

const uint32_t* wnnOperand_shape(WNNOperand operand, size_t* rank) {
  if (rank) *rank = operand ? operand->sizes.size() : 0;
  return operand ? operand->sizes.data() : nullptr;
}

const char* wnnOperand_dimensionName(WNNOperand operand, size_t index) {
  if (!operand || index >= operand->names.size() || !operand->names[index]) return nullptr;
  return operand->names[index]->c_str();
}

// ---- Operations of the families that share a signature, from THE op list ------------
#define WNN_DEFINE_BINARY_OP(name)                                                                         \
  WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand a, WNNOperand b,                   \
                                    const WNNOperatorOptions* options, WNNError error) {                  \
    return Build(builder, error, #name,                                                                    \
                 [&](MLGraphBuilder& g) { return g.name(Op(a), Op(b), ToOptions(options)); });             \
  }
#define WNN_DEFINE_UNARY_OP(name)                                                                          \
  WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input,                             \
                                    const WNNOperatorOptions* options, WNNError error) {                  \
    return Build(builder, error, #name, [&](MLGraphBuilder& g) { return g.name(Op(input), ToOptions(options)); }); \
  }
#define WNN_DEFINE_INPUT_OPTIONS_OP(name, Options)                                                         \
  WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input, const Options* options,     \
                                    WNNError error) {                                                      \
    return Build(builder, error, #name, [&](MLGraphBuilder& g) { return g.name(Op(input), ToOptions(options)); }); \
  }
#define WNN_DEFINE_OP_ElementwiseBinary(name) WNN_DEFINE_BINARY_OP(name)
#define WNN_DEFINE_OP_Comparison(name) WNN_DEFINE_BINARY_OP(name)
#define WNN_DEFINE_OP_ElementwiseUnary(name) WNN_DEFINE_UNARY_OP(name)
#define WNN_DEFINE_OP_Reduce(name) WNN_DEFINE_INPUT_OPTIONS_OP(name, WNNReduceOptions)
#define WNN_DEFINE_OP_Pool2d(name) WNN_DEFINE_INPUT_OPTIONS_OP(name, WNNPool2dOptions)
#define WNN_DEFINE_OP_ArgMinMax(name)                                                                      \
  WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input, uint32_t axis,              \
                                    const WNNArgMinMaxOptions* options, WNNError error) {                 \
    return Build(builder, error, #name,                                                                    \
                 [&](MLGraphBuilder& g) { return g.name(Op(input), axis, ToOptions(options)); });          \
  }
// The families webnn_c.h declares one by one are defined one by one below.
#define WNN_DEFINE_OP_Logical(name)
#define WNN_DEFINE_OP_Activation(name)
#define WNN_DEFINE_OP_Prelu(name)
#define WNN_DEFINE_OP_Softmax(name)
#define WNN_DEFINE_OP_Cast(name)
#define WNN_DEFINE_OP_QuantizeLinear(name)
#define WNN_DEFINE_OP_Conv2d(name)
#define WNN_DEFINE_OP_ConvTranspose2d(name)
#define WNN_DEFINE_OP_Resample2d(name)
#define WNN_DEFINE_OP_Matmul(name)
#define WNN_DEFINE_OP_Gemm(name)
#define WNN_DEFINE_OP_Normalization(name)
#define WNN_DEFINE_OP_CumulativeSum(name)
#define WNN_DEFINE_OP_Concat(name)
#define WNN_DEFINE_OP_Expand(name)
#define WNN_DEFINE_OP_Gather(name)
#define WNN_DEFINE_OP_Scatter(name)
#define WNN_DEFINE_OP_Pad(name)
#define WNN_DEFINE_OP_Reshape(name)
#define WNN_DEFINE_OP_Reverse(name)
#define WNN_DEFINE_OP_Slice(name)
#define WNN_DEFINE_OP_Split(name)
#define WNN_DEFINE_OP_Tile(name)
#define WNN_DEFINE_OP_Transpose(name)
#define WNN_DEFINE_OP_Triangular(name)
#define WNN_DEFINE_OP_Where(name)
#define WNN_DEFINE_OP_Gru(name)
#define WNN_DEFINE_OP_Lstm(name)

#define WEBNN_OP(name, Family) WNN_DEFINE_OP_##Family(name)
#include "ops/op_list.inc"

// ---- The other operations ---------------------------------------------------------------
WNN_DEFINE_UNARY_OP(logicalNot)
WNN_DEFINE_BINARY_OP(logicalAnd)
WNN_DEFINE_BINARY_OP(logicalOr)
WNN_DEFINE_BINARY_OP(logicalXor)
WNN_DEFINE_UNARY_OP(isNaN)
WNN_DEFINE_UNARY_OP(isInfinite)

WNN_DEFINE_INPUT_OPTIONS_OP(elu, WNNEluOptions)
WNN_DEFINE_UNARY_OP(gelu)
WNN_DEFINE_INPUT_OPTIONS_OP(hardSigmoid, WNNHardSigmoidOptions)
WNN_DEFINE_UNARY_OP(hardSwish)
WNN_DEFINE_INPUT_OPTIONS_OP(leakyRelu, WNNLeakyReluOptions)
WNN_DEFINE_INPUT_OPTIONS_OP(linear, WNNLinearOptions)
WNN_DEFINE_UNARY_OP(relu)
WNN_DEFINE_UNARY_OP(sigmoid)
WNN_DEFINE_UNARY_OP(softplus)
WNN_DEFINE_UNARY_OP(softsign)
WNN_DEFINE_UNARY_OP(tanh)
WNN_DEFINE_INPUT_OPTIONS_OP(clamp, WNNClampOptions)
WNN_DEFINE_BINARY_OP(prelu)

WNNOperand wnnGraphBuilder_softmax(WNNGraphBuilder builder, WNNOperand input, uint32_t axis,
                                   const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "softmax",
               [&](MLGraphBuilder& g) { return g.softmax(Op(input), axis, ToOptions(options)); });
}

WNNOperand wnnGraphBuilder_cast(WNNGraphBuilder builder, WNNOperand input, WNNOperandDataType dataType,
                                const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "cast", [&](MLGraphBuilder& g) {
    return g.cast(Op(input), ToDataType(dataType, "cast"), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_quantizeLinear(WNNGraphBuilder builder, WNNOperand input, WNNOperand scale,
                                          WNNOperand zeroPoint, const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "quantizeLinear", [&](MLGraphBuilder& g) {
    return g.quantizeLinear(Op(input), Op(scale), Op(zeroPoint), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_dequantizeLinear(WNNGraphBuilder builder, WNNOperand input, WNNOperand scale,
                                            WNNOperand zeroPoint, const WNNOperatorOptions* options,
                                            WNNError error) {
  return Build(builder, error, "dequantizeLinear", [&](MLGraphBuilder& g) {
    return g.dequantizeLinear(Op(input), Op(scale), Op(zeroPoint), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_conv2d(WNNGraphBuilder builder, WNNOperand input, WNNOperand filter,
                                  const WNNConv2dOptions* options, WNNError error) {
  return Build(builder, error, "conv2d",
               [&](MLGraphBuilder& g) { return g.conv2d(Op(input), Op(filter), ToOptions(options)); });
}

WNNOperand wnnGraphBuilder_convTranspose2d(WNNGraphBuilder builder, WNNOperand input, WNNOperand filter,
                                           const WNNConvTranspose2dOptions* options, WNNError error) {
  return Build(builder, error, "convTranspose2d",
               [&](MLGraphBuilder& g) { return g.convTranspose2d(Op(input), Op(filter), ToOptions(options)); });
}

WNN_DEFINE_INPUT_OPTIONS_OP(resample2d, WNNResample2dOptions)
WNN_DEFINE_BINARY_OP(matmul)

WNNOperand wnnGraphBuilder_gemm(WNNGraphBuilder builder, WNNOperand a, WNNOperand b, const WNNGemmOptions* options,
                                WNNError error) {
  return Build(builder, error, "gemm", [&](MLGraphBuilder& g) { return g.gemm(Op(a), Op(b), ToOptions(options)); });
}

WNNOperand wnnGraphBuilder_batchNormalization(WNNGraphBuilder builder, WNNOperand input, WNNOperand mean,
                                              WNNOperand variance, const WNNBatchNormalizationOptions* options,
                                              WNNError error) {
  return Build(builder, error, "batchNormalization", [&](MLGraphBuilder& g) {
    return g.batchNormalization(Op(input), Op(mean), Op(variance), ToOptions(options));
  });
}

WNN_DEFINE_INPUT_OPTIONS_OP(instanceNormalization, WNNInstanceNormalizationOptions)
WNN_DEFINE_INPUT_OPTIONS_OP(layerNormalization, WNNLayerNormalizationOptions)

WNNOperand wnnGraphBuilder_cumulativeSum(WNNGraphBuilder builder, WNNOperand input, uint32_t axis,
                                         const WNNCumulativeSumOptions* options, WNNError error) {
  return Build(builder, error, "cumulativeSum",
               [&](MLGraphBuilder& g) { return g.cumulativeSum(Op(input), axis, ToOptions(options)); });
}

WNNOperand wnnGraphBuilder_concat(WNNGraphBuilder builder, const WNNOperand* inputs, size_t inputCount, uint32_t axis,
                                  const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "concat", [&](MLGraphBuilder& g) {
    if (inputCount > 0) RequireNonNull(inputs, "concat", "inputs");
    std::vector<MLOperand> operands;
    for (size_t i = 0; i < inputCount; ++i) operands.push_back(Op(inputs[i]));
    return g.concat(operands, axis, ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_expand(WNNGraphBuilder builder, WNNOperand input, const uint32_t* newShape, size_t rank,
                                  const char* const* dimensionNames, const WNNOperatorOptions* options,
                                  WNNError error) {
  return Build(builder, error, "expand", [&](MLGraphBuilder& g) {
    return g.expand(Op(input), ToDimensions(newShape, rank, dimensionNames), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_gather(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                  const WNNGatherOptions* options, WNNError error) {
  return Build(builder, error, "gather",
               [&](MLGraphBuilder& g) { return g.gather(Op(input), Op(indices), ToOptions(options)); });
}

WNNOperand wnnGraphBuilder_gatherElements(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                          const WNNGatherOptions* options, WNNError error) {
  return Build(builder, error, "gatherElements",
               [&](MLGraphBuilder& g) { return g.gatherElements(Op(input), Op(indices), ToOptions(options)); });
}

WNN_DEFINE_BINARY_OP(gatherND)

WNNOperand wnnGraphBuilder_scatterElements(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                           WNNOperand updates, const WNNScatterOptions* options, WNNError error) {
  return Build(builder, error, "scatterElements", [&](MLGraphBuilder& g) {
    return g.scatterElements(Op(input), Op(indices), Op(updates), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_scatterND(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                     WNNOperand updates, const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "scatterND", [&](MLGraphBuilder& g) {
    return g.scatterND(Op(input), Op(indices), Op(updates), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_pad(WNNGraphBuilder builder, WNNOperand input, const uint32_t* beginningPadding,
                               const uint32_t* endingPadding, size_t paddingCount, const WNNPadOptions* options,
                               WNNError error) {
  return Build(builder, error, "pad", [&](MLGraphBuilder& g) {
    return g.pad(Op(input), Values(beginningPadding, paddingCount, "pad", "beginningPadding"),
                 Values(endingPadding, paddingCount, "pad", "endingPadding"), ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_reshape(WNNGraphBuilder builder, WNNOperand input, const uint32_t* newShape, size_t rank,
                                   const char* const* dimensionNames, const WNNOperatorOptions* options,
                                   WNNError error) {
  return Build(builder, error, "reshape", [&](MLGraphBuilder& g) {
    return g.reshape(Op(input), ToDimensions(newShape, rank, dimensionNames), ToOptions(options));
  });
}

WNN_DEFINE_INPUT_OPTIONS_OP(reverse, WNNReverseOptions)

WNNOperand wnnGraphBuilder_slice(WNNGraphBuilder builder, WNNOperand input, const uint32_t* starts,
                                 const uint32_t* sizes, size_t count, const WNNSliceOptions* options,
                                 WNNError error) {
  return Build(builder, error, "slice", [&](MLGraphBuilder& g) {
    return g.slice(Op(input), Values(starts, count, "slice", "starts"), Values(sizes, count, "slice", "sizes"),
                   ToOptions(options));
  });
}

size_t wnnGraphBuilder_split(WNNGraphBuilder builder, WNNOperand input, uint32_t splitCount,
                             const uint32_t* splitSizes, size_t splitSizesCount, const WNNSplitOptions* options,
                             WNNOperand* outputs, size_t outputCapacity, WNNError error) {
  const size_t expected = splitSizes ? splitSizesCount : splitCount;
  return BuildMany(builder, error, "split", expected, outputs, outputCapacity, [&](MLGraphBuilder& g) {
    MLSplits splits = splitSizes ? MLSplits(ToVector(splitSizes, splitSizesCount)) : MLSplits(splitCount);
    return g.split(Op(input), splits, ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_tile(WNNGraphBuilder builder, WNNOperand input, const uint32_t* repetitions, size_t count,
                                const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "tile", [&](MLGraphBuilder& g) {
    return g.tile(Op(input), Values(repetitions, count, "tile", "repetitions"), ToOptions(options));
  });
}

WNN_DEFINE_INPUT_OPTIONS_OP(transpose, WNNTransposeOptions)
WNN_DEFINE_INPUT_OPTIONS_OP(triangular, WNNTriangularOptions)

WNNOperand wnnGraphBuilder_where(WNNGraphBuilder builder, WNNOperand condition, WNNOperand trueValue,
                                 WNNOperand falseValue, const WNNOperatorOptions* options, WNNError error) {
  return Build(builder, error, "where", [&](MLGraphBuilder& g) {
    return g.where(Op(condition), Op(trueValue), Op(falseValue), ToOptions(options));
  });
}

size_t wnnGraphBuilder_gru(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight, WNNOperand recurrentWeight,
                           uint32_t steps, uint32_t hiddenSize, const WNNGruOptions* options, WNNOperand* outputs,
                           size_t outputCapacity, WNNError error) {
  const size_t expected = options && options->returnSequence ? 2 : 1;
  return BuildMany(builder, error, "gru", expected, outputs, outputCapacity, [&](MLGraphBuilder& g) {
    return g.gru(Op(input), Op(weight), Op(recurrentWeight), steps, hiddenSize, ToOptions(options));
  });
}

WNNOperand wnnGraphBuilder_gruCell(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight,
                                   WNNOperand recurrentWeight, WNNOperand hiddenState, uint32_t hiddenSize,
                                   const WNNGruCellOptions* options, WNNError error) {
  return Build(builder, error, "gruCell", [&](MLGraphBuilder& g) {
    return g.gruCell(Op(input), Op(weight), Op(recurrentWeight), Op(hiddenState), hiddenSize, ToOptions(options));
  });
}

size_t wnnGraphBuilder_lstm(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight, WNNOperand recurrentWeight,
                            uint32_t steps, uint32_t hiddenSize, const WNNLstmOptions* options, WNNOperand* outputs,
                            size_t outputCapacity, WNNError error) {
  const size_t expected = options && options->returnSequence ? 3 : 2;
  return BuildMany(builder, error, "lstm", expected, outputs, outputCapacity, [&](MLGraphBuilder& g) {
    return g.lstm(Op(input), Op(weight), Op(recurrentWeight), steps, hiddenSize, ToOptions(options));
  });
}

size_t wnnGraphBuilder_lstmCell(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight,
                                WNNOperand recurrentWeight, WNNOperand hiddenState, WNNOperand cellState,
                                uint32_t hiddenSize, const WNNLstmCellOptions* options, WNNOperand* outputs,
                                size_t outputCapacity, WNNError error) {
  return BuildMany(builder, error, "lstmCell", 2, outputs, outputCapacity, [&](MLGraphBuilder& g) {
    return g.lstmCell(Op(input), Op(weight), Op(recurrentWeight), Op(hiddenState), Op(cellState), hiddenSize,
                      ToOptions(options));
  });
}

}  // extern "C"
