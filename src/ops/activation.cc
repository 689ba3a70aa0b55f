// elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, relu, sigmoid, softplus,
// softsign, tanh, clamp: validation and shape inference. Every activation keeps
// the input's descriptor; what can fail is the data type (checked by the
// framework against the schema) and the scalar options.
#include <cmath>
#include <stdexcept>

#include "ops/activation.h"
#include "ops/number_cast.h"

namespace webnn::ops {
namespace {

// How JS prints the non-finite doubles the messages are about.
std::string NumberToString(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return core::StrCat(v);
}

// The IDL types of alpha and beta are `double` (not `unrestricted double`), so
// WebIDL rejects NaN and +-Infinity with a TypeError before the method runs.
void CheckFinite(const InferContext& ctx, double value, std::string_view name) {
  if (!std::isfinite(value))
    ctx.Fail("argument 'options.", name, "' must be a finite number, got ", NumberToString(value));
}

// The clamp bounds are MLNumbers: a BigInt only makes sense for the 64-bit
// integer types (WPT expects a TypeError otherwise, as browsers throw when the
// union is converted).
void CheckClampBound(const InferContext& ctx, const std::optional<MLNumber>& bound, DataType type,
                     std::string_view name) {
  if (!bound || !bound->isBigInt()) return;
  if (type != DataType::kInt64 && type != DataType::kUint64)
    ctx.Fail("argument 'options.", name, "' is a BigInt (", bound->ToString(), "), which is only allowed for ",
             "int64 and uint64 input, got ", ToString(type));
}

std::string CastValueToString(const CastValue& v, DataType type) {
  if (IsFloatingPoint(type)) return NumberToString(v.f);
  if (IsSignedInteger(type)) return core::StrCat(v.i);
  return core::StrCat(v.u);
}

std::vector<OperandDesc> InferActivation(const InferContext& ctx, const OpAttrs& attrs,
                                         std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ActivationAttrs>(attrs);
  const OperandDesc& input = *in[0];
  switch (ctx.op()) {
    case OpKind::elu:
    case OpKind::leakyRelu: CheckFinite(ctx, a.alpha, "alpha"); break;
    case OpKind::hardSigmoid:
    case OpKind::linear:
      CheckFinite(ctx, a.alpha, "alpha");
      CheckFinite(ctx, a.beta, "beta");
      break;
    case OpKind::clamp: {
      CheckClampBound(ctx, a.minValue, input.type, "minValue");
      CheckClampBound(ctx, a.maxValue, input.type, "maxValue");
      // An absent bound does not clamp, so only two given bounds can conflict (the
      // spec's defaults, min = +Infinity and max = -Infinity, are swapped by mistake:
      // taken literally every clamp without options would throw).
      // NaN bounds compare false and are accepted (WPT: a NaN bound is ignored).
      if (a.minValue && a.maxValue) {
        const CastValue lo = CastMLNumber(*a.minValue, input.type);
        const CastValue hi = CastMLNumber(*a.maxValue, input.type);
        if (CastValueLess(hi, lo, input.type))
          ctx.Fail("options.minValue (", CastValueToString(lo, input.type),
                   ") must not be greater than options.maxValue (", CastValueToString(hi, input.type),
                   ") after casting to ", ToString(input.type));
      }
      break;
    }
    default: break;
  }
  return {OperandDesc{input.type, input.shape}};
}

// The spec's allowed input data types of each activation.
DataTypeSet InputTypes(OpKind op) {
  switch (op) {
    case OpKind::relu:
      return DataTypeSet{DataType::kFloat32, DataType::kFloat16, DataType::kInt64, DataType::kInt32,
                         DataType::kInt8};
    case OpKind::clamp: return core::kAnySpecType;
    default: return core::kFloatTypes;
  }
}

OpSchema MakeSchema(OpKind op) {
  return OpSchema{op, {{"input", InputTypes(op), -1, kAnyRank}}, {{"output", {}, 0, kAnyRank}}, &InferActivation};
}

}  // namespace

bool IsActivation(OpKind op) { return OpFamily(op) == "Activation"; }

const OpSchema& ActivationSchema(OpKind op) {
  static const OpSchema kSchemas[] = {
      MakeSchema(OpKind::elu),     MakeSchema(OpKind::gelu),     MakeSchema(OpKind::hardSigmoid),
      MakeSchema(OpKind::hardSwish), MakeSchema(OpKind::leakyRelu), MakeSchema(OpKind::linear),
      MakeSchema(OpKind::relu),    MakeSchema(OpKind::sigmoid),  MakeSchema(OpKind::softplus),
      MakeSchema(OpKind::softsign), MakeSchema(OpKind::tanh),     MakeSchema(OpKind::clamp)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ActivationSchema: not an activation op");
}

}  // namespace webnn::ops
