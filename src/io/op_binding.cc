#include "io/op_binding.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "core/strings.h"

namespace webnn::io {

using core::StrCat;

namespace {

// ---- WebIDL primitive conversions --------------------------------------------

double ToNumber(const JsValue& v, const std::string& what) {
  switch (v.kind) {
    case JsValue::Kind::kUndefined: return std::nan("");
    case JsValue::Kind::kNull: return 0;
    case JsValue::Kind::kBoolean: return v.boolean ? 1 : 0;
    case JsValue::Kind::kNumber: return v.number;
    case JsValue::Kind::kBigInt: throw TypeError(StrCat(what, ": a BigInt cannot be converted to a number"));
    case JsValue::Kind::kString: {
      const std::string& s = v.text;
      size_t b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
      if (b == std::string::npos) return 0;
      std::string t = s.substr(b, e - b + 1);
      if (t == "Infinity" || t == "+Infinity") return INFINITY;
      if (t == "-Infinity") return -INFINITY;
      char* end = nullptr;
      double d = std::strtod(t.c_str(), &end);
      return (end && *end == '\0') ? d : std::nan("");
    }
    case JsValue::Kind::kArray:
      if (v.items.empty()) return 0;
      if (v.items.size() == 1) return ToNumber(v.items[0], what);
      return std::nan("");
    case JsValue::Kind::kOther: return v.number;  // valueOf()
    default: return std::nan("");
  }
}

// [EnforceRange] integer conversion into [lo, hi].
int64_t EnforceRange(const JsValue& v, const std::string& what, double lo, double hi) {
  double d = ToNumber(v, what);
  if (!std::isfinite(d)) throw TypeError(StrCat(what, ": ", d, " is not a finite number ([EnforceRange])"));
  d = std::trunc(d);
  if (d < lo || d > hi)
    throw TypeError(StrCat(what, ": ", std::llround(d) == 0 ? StrCat(d) : StrCat(static_cast<long double>(d)),
                           " is outside the range [", static_cast<int64_t>(lo), ", ", static_cast<uint64_t>(hi),
                           "] ([EnforceRange])"));
  return static_cast<int64_t>(d);
}

uint32_t ToUnsignedLong(const JsValue& v, const std::string& what, bool enforce_range) {
  if (enforce_range) return static_cast<uint32_t>(EnforceRange(v, what, 0, 4294967295.0));
  // Plain `unsigned long`: modulo 2^32 (so -1 becomes 4294967295).
  double d = ToNumber(v, what);
  if (!std::isfinite(d)) return 0;
  d = std::trunc(d);
  double m = std::fmod(d, 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<uint32_t>(m);
}

int32_t ToLong(const JsValue& v, const std::string& what) {
  return static_cast<int32_t>(EnforceRange(v, what, -2147483648.0, 2147483647.0));
}

double ToRestrictedDouble(const JsValue& v, const std::string& what) {
  double d = ToNumber(v, what);
  if (!std::isfinite(d)) throw TypeError(StrCat(what, ": ", d, " is not a finite number"));
  return d;
}

float ToRestrictedFloat(const JsValue& v, const std::string& what) {
  double d = ToRestrictedDouble(v, what);
  float f = static_cast<float>(d);
  if (!std::isfinite(f)) throw TypeError(StrCat(what, ": ", d, " is outside the float range"));
  return f;
}

bool ToBoolean(const JsValue& v) {
  switch (v.kind) {
    case JsValue::Kind::kUndefined:
    case JsValue::Kind::kNull: return false;
    case JsValue::Kind::kBoolean: return v.boolean;
    case JsValue::Kind::kNumber: return v.number != 0 && !std::isnan(v.number);
    case JsValue::Kind::kString: return !v.text.empty();
    case JsValue::Kind::kBigInt: return v.text != "0" && v.text != "-0";
    default: return true;
  }
}

std::string ToJsString(const JsValue& v, const std::string& what) {
  switch (v.kind) {
    case JsValue::Kind::kString: return v.text;
    case JsValue::Kind::kUndefined: return "undefined";
    case JsValue::Kind::kNull: return "null";
    case JsValue::Kind::kBoolean: return v.boolean ? "true" : "false";
    case JsValue::Kind::kNumber: {
      if (std::isnan(v.number)) return "NaN";
      if (v.number == std::trunc(v.number) && std::fabs(v.number) < 1e21) return StrCat(static_cast<int64_t>(v.number));
      return StrCat(v.number);
    }
    case JsValue::Kind::kBigInt: return v.text;
    default: throw TypeError(StrCat(what, ": cannot be converted to a string"));
  }
}

template <typename E, int N>
E ToEnum(const JsValue& v, const std::string& what, const char* idl_name) {
  const std::string s = ToJsString(v, what);
  for (int i = 0; i < N; ++i)
    if (ToString(static_cast<E>(i)) == s) return static_cast<E>(i);
  throw TypeError(StrCat(what, ": \"", s, "\" is not a valid ", idl_name, " value"));
}

const std::vector<JsValue>& ToSequence(const JsValue& v, const std::string& what) {
  if (v.kind != JsValue::Kind::kArray) throw TypeError(StrCat(what, ": is not a sequence"));
  return v.items;
}

MLOperand ToOperand(const JsValue& v, const std::string& what) {
  if (v.kind != JsValue::Kind::kOperand) throw TypeError(StrCat(what, ": is not an MLOperand"));
  return v.operand;
}

// A dictionary argument: undefined/null is empty, objects (operands and arrays
// too: they are JS objects) have members, other values are a TypeError.
class Dict {
 public:
  Dict(const JsValue& v, std::string what) : what_(std::move(what)) {
    switch (v.kind) {
      case JsValue::Kind::kUndefined:
      case JsValue::Kind::kNull: break;
      case JsValue::Kind::kObject: value_ = &v; break;
      case JsValue::Kind::kArray:
      case JsValue::Kind::kOperand:
      case JsValue::Kind::kBuffer:
      case JsValue::Kind::kOther: break;  // objects without our members
      default: throw TypeError(StrCat(what_, ": is not a dictionary"));
    }
  }

  const JsValue* Member(const std::string& key) {
    read_.insert(key);
    if (!value_) return nullptr;
    const JsValue* m = value_->Get(key);
    return (m && !m->IsUndefined()) ? m : nullptr;
  }
  std::string Name(const std::string& key) const { return StrCat(what_, ".", key); }

  void Read(const std::string& key, std::string& out) {
    if (auto* m = Member(key)) out = ToJsString(*m, Name(key));
  }
  void Read(const std::string& key, bool& out) {
    if (auto* m = Member(key)) out = ToBoolean(*m);
  }
  void Read(const std::string& key, uint32_t& out) {
    if (auto* m = Member(key)) out = ToUnsignedLong(*m, Name(key), true);
  }
  void Read(const std::string& key, int32_t& out) {
    if (auto* m = Member(key)) out = ToLong(*m, Name(key));
  }
  void Read(const std::string& key, double& out) {
    if (auto* m = Member(key)) out = ToRestrictedDouble(*m, Name(key));
  }
  void Read(const std::string& key, MLNumber& out) {
    if (auto* m = Member(key)) out = ToMLNumber(*m, Name(key));
  }
  void Read(const std::string& key, std::optional<MLNumber>& out) {
    if (auto* m = Member(key)) out = ToMLNumber(*m, Name(key));
  }
  void Read(const std::string& key, std::optional<std::vector<uint32_t>>& out) {
    if (auto* m = Member(key)) {
      std::vector<uint32_t> v;
      const auto& items = ToSequence(*m, Name(key));
      for (size_t i = 0; i < items.size(); ++i)
        v.push_back(ToUnsignedLong(items[i], StrCat(Name(key), "[", i, "]"), true));
      out = std::move(v);
    }
  }
  void Read(const std::string& key, std::optional<std::vector<float>>& out) {
    if (auto* m = Member(key)) {
      std::vector<float> v;
      const auto& items = ToSequence(*m, Name(key));
      for (size_t i = 0; i < items.size(); ++i) v.push_back(ToRestrictedFloat(items[i], StrCat(Name(key), "[", i, "]")));
      out = std::move(v);
    }
  }
  void Read(const std::string& key, std::optional<MLOperand>& out) {
    if (auto* m = Member(key)) out = ToOperand(*m, Name(key));
  }
  void Read(const std::string& key, std::optional<std::vector<MLRecurrentNetworkActivation>>& out) {
    if (auto* m = Member(key)) {
      std::vector<MLRecurrentNetworkActivation> v;
      const auto& items = ToSequence(*m, Name(key));
      for (size_t i = 0; i < items.size(); ++i)
        v.push_back(ToEnum<MLRecurrentNetworkActivation, 3>(items[i], StrCat(Name(key), "[", i, "]"),
                                                            "MLRecurrentNetworkActivation"));
      out = std::move(v);
    }
  }
  template <typename E, int N>
  void ReadEnum(const std::string& key, E& out, const char* idl_name) {
    if (auto* m = Member(key)) out = ToEnum<E, N>(*m, Name(key), idl_name);
  }
  void Read(const std::string& key, MLOperandDataType& out) {
    if (auto* m = Member(key)) out = ToDataType(*m, Name(key));
  }

  // Strict mode (graph files): every member must be one we know.
  void CheckAllRead() const {
    if (!value_) return;
    for (const auto& [k, v] : value_->members)
      if (!read_.count(k)) throw TypeError(StrCat(what_, ": unknown member '", k, "'"));
  }

 private:
  const JsValue* value_ = nullptr;
  std::string what_;
  std::set<std::string> read_;
};

// One call's arguments.
class Call {
 public:
  Call(std::string_view op, const std::vector<JsValue>& args, bool strict) : op_(op), args_(args), strict_(strict) {}

  const JsValue& Arg(size_t i) const {
    static const JsValue kUndefined;
    return i < args_.size() ? args_[i] : kUndefined;
  }
  std::string Name(const std::string& param) const { return StrCat(op_, "(): argument '", param, "'"); }
  void Require(size_t i, const std::string& param) const {
    if (i >= args_.size() || args_[i].IsUndefined())
      throw TypeError(StrCat(op_, "(): required argument '", param, "' is missing"));
  }
  MLOperand Operand(size_t i, const std::string& param) const {
    Require(i, param);
    return ToOperand(Arg(i), Name(param));
  }
  std::vector<MLOperand> OperandList(size_t i, const std::string& param) const {
    Require(i, param);
    std::vector<MLOperand> out;
    const auto& items = ToSequence(Arg(i), Name(param));
    for (size_t k = 0; k < items.size(); ++k) out.push_back(ToOperand(items[k], StrCat(Name(param), "[", k, "]")));
    return out;
  }
  uint32_t U32(size_t i, const std::string& param, bool enforce_range = true) const {
    Require(i, param);
    return ToUnsignedLong(Arg(i), Name(param), enforce_range);
  }
  std::vector<uint32_t> U32List(size_t i, const std::string& param, bool enforce_range = true) const {
    Require(i, param);
    std::vector<uint32_t> out;
    const auto& items = ToSequence(Arg(i), Name(param));
    for (size_t k = 0; k < items.size(); ++k)
      out.push_back(ToUnsignedLong(items[k], StrCat(Name(param), "[", k, "]"), enforce_range));
    return out;
  }
  // sequence<MLDimension>: numbers or {name, maxSize} dictionaries.
  std::vector<MLDimension> Dims(size_t i, const std::string& param) const {
    Require(i, param);
    std::vector<MLDimension> out;
    const auto& items = ToSequence(Arg(i), Name(param));
    for (size_t k = 0; k < items.size(); ++k) {
      const std::string what = StrCat(Name(param), "[", k, "]");
      if (items[k].kind == JsValue::Kind::kObject) {
        Dict d(items[k], what);
        MLDynamicDimension dyn;
        d.Read("name", dyn.name);
        d.Read("maxSize", dyn.maxSize);
        out.emplace_back(std::move(dyn));
      } else {
        out.emplace_back(ToUnsignedLong(items[k], what, true));
      }
    }
    return out;
  }
  MLOperandDataType DataType(size_t i, const std::string& param) const {
    Require(i, param);
    return ToDataType(Arg(i), Name(param));
  }
  Dict Options(size_t i) const { return Dict(Arg(i), StrCat(op_, "(): argument 'options'")); }
  bool strict() const { return strict_; }

 private:
  std::string_view op_;
  const std::vector<JsValue>& args_;
  bool strict_;
};

// Reads MLOperatorOptions' label then `read(dict)`, then strict-checks.
template <typename O, typename F>
O ReadOptions(const Call& c, size_t i, F&& read) {
  O o;
  Dict d = c.Options(i);
  d.Read("label", o.label);
  read(d, o);
  if (c.strict()) d.CheckAllRead();
  return o;
}
template <typename O>
O ReadOptions(const Call& c, size_t i) {
  return ReadOptions<O>(c, i, [](Dict&, O&) {});
}

void ReadPool(Dict& d, MLPool2dOptions& o) {
  d.Read("windowDimensions", o.windowDimensions);
  d.Read("padding", o.padding);
  d.Read("strides", o.strides);
  d.Read("dilations", o.dilations);
  d.ReadEnum<MLInputOperandLayout, 2>("layout", o.layout, "MLInputOperandLayout");
  d.ReadEnum<MLRoundingType, 2>("outputShapeRounding", o.outputShapeRounding, "MLRoundingType");
  d.Read("outputSizes", o.outputSizes);
}

void ReadReduce(Dict& d, MLReduceOptions& o) {
  d.Read("axes", o.axes);
  d.Read("keepDimensions", o.keepDimensions);
}

using Result = std::vector<MLOperand>;
using Binder = std::function<Result(MLGraphBuilder&, const Call&)>;
using P = ParamInfo;
constexpr auto kOp = ParamInfo::Kind::kOperand;
constexpr auto kList = ParamInfo::Kind::kOperandList;
constexpr auto kVal = ParamInfo::Kind::kValue;

struct Entry {
  std::vector<ParamInfo> params;
  Binder bind;
};

#define BINARY(name)                                                                    \
  {#name,                                                                               \
   {{{"a", kOp}, {"b", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {          \
      return {b.name(c.Operand(0, "a"), c.Operand(1, "b"), ReadOptions<MLOperatorOptions>(c, 2))}; \
    }}}
#define UNARY(name, param)                                                              \
  {#name,                                                                               \
   {{{param, kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {                    \
      return {b.name(c.Operand(0, param), ReadOptions<MLOperatorOptions>(c, 1))};        \
    }}}
#define REDUCE(name)                                                                    \
  {#name,                                                                               \
   {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {                  \
      return {b.name(c.Operand(0, "input"), ReadOptions<MLReduceOptions>(c, 1, ReadReduce))}; \
    }}}
#define POOL(name)                                                                      \
  {#name,                                                                               \
   {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {                  \
      return {b.name(c.Operand(0, "input"), ReadOptions<MLPool2dOptions>(c, 1, ReadPool))}; \
    }}}

const std::map<std::string, Entry, std::less<>>& Table() {
  static const std::map<std::string, Entry, std::less<>> table = {
      BINARY(add), BINARY(sub), BINARY(mul), BINARY(div), BINARY(max), BINARY(min), BINARY(pow),
      BINARY(equal), BINARY(notEqual), BINARY(greater), BINARY(greaterOrEqual), BINARY(lesser),
      BINARY(lesserOrEqual), BINARY(logicalAnd), BINARY(logicalOr), BINARY(logicalXor), BINARY(matmul),
      UNARY(logicalNot, "a"), UNARY(isNaN, "a"), UNARY(isInfinite, "a"),
      UNARY(abs, "input"), UNARY(ceil, "input"), UNARY(cos, "input"), UNARY(erf, "input"), UNARY(exp, "input"),
      UNARY(floor, "input"), UNARY(identity, "input"), UNARY(log, "input"), UNARY(neg, "input"),
      UNARY(reciprocal, "input"), UNARY(roundEven, "input"), UNARY(sin, "input"), UNARY(sign, "input"),
      UNARY(sqrt, "input"), UNARY(tan, "input"), UNARY(gelu, "input"), UNARY(hardSwish, "input"),
      UNARY(relu, "input"), UNARY(sigmoid, "input"), UNARY(softplus, "input"), UNARY(softsign, "input"),
      UNARY(tanh, "input"),
      REDUCE(reduceL1), REDUCE(reduceL2), REDUCE(reduceLogSum), REDUCE(reduceLogSumExp), REDUCE(reduceMax),
      REDUCE(reduceMean), REDUCE(reduceMin), REDUCE(reduceProduct), REDUCE(reduceSum), REDUCE(reduceSumSquare),
      POOL(averagePool2d), POOL(l2Pool2d), POOL(maxPool2d),
      {"elu", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                 return {b.elu(c.Operand(0, "input"),
                               ReadOptions<MLEluOptions>(c, 1, [](Dict& d, auto& o) { d.Read("alpha", o.alpha); }))};
               }}},
      {"hardSigmoid", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                         return {b.hardSigmoid(c.Operand(0, "input"),
                                               ReadOptions<MLHardSigmoidOptions>(c, 1, [](Dict& d, auto& o) {
                                                 d.Read("alpha", o.alpha);
                                                 d.Read("beta", o.beta);
                                               }))};
                       }}},
      {"leakyRelu", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                       return {b.leakyRelu(c.Operand(0, "input"), ReadOptions<MLLeakyReluOptions>(c, 1, [](Dict& d, auto& o) {
                                             d.Read("alpha", o.alpha);
                                           }))};
                     }}},
      {"linear", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    return {b.linear(c.Operand(0, "input"), ReadOptions<MLLinearOptions>(c, 1, [](Dict& d, auto& o) {
                                       d.Read("alpha", o.alpha);
                                       d.Read("beta", o.beta);
                                     }))};
                  }}},
      {"clamp", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                   return {b.clamp(c.Operand(0, "input"), ReadOptions<MLClampOptions>(c, 1, [](Dict& d, auto& o) {
                                     d.Read("minValue", o.minValue);
                                     d.Read("maxValue", o.maxValue);
                                   }))};
                 }}},
      {"prelu", {{{"input", kOp}, {"slope", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                   return {b.prelu(c.Operand(0, "input"), c.Operand(1, "slope"), ReadOptions<MLOperatorOptions>(c, 2))};
                 }}},
      {"softmax", {{{"input", kOp}, {"axis", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                     return {b.softmax(c.Operand(0, "input"), c.U32(1, "axis"), ReadOptions<MLOperatorOptions>(c, 2))};
                   }}},
      {"cast", {{{"input", kOp}, {"dataType", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                  return {b.cast(c.Operand(0, "input"), c.DataType(1, "dataType"), ReadOptions<MLOperatorOptions>(c, 2))};
                }}},
      {"quantizeLinear", {{{"input", kOp}, {"scale", kOp}, {"zeroPoint", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                            return {b.quantizeLinear(c.Operand(0, "input"), c.Operand(1, "scale"),
                                                     c.Operand(2, "zeroPoint"), ReadOptions<MLOperatorOptions>(c, 3))};
                          }}},
      {"dequantizeLinear", {{{"input", kOp}, {"scale", kOp}, {"zeroPoint", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                              return {b.dequantizeLinear(c.Operand(0, "input"), c.Operand(1, "scale"),
                                                         c.Operand(2, "zeroPoint"), ReadOptions<MLOperatorOptions>(c, 3))};
                            }}},
      {"conv2d", {{{"input", kOp}, {"filter", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    auto o = ReadOptions<MLConv2dOptions>(c, 2, [](Dict& d, auto& o) {
                      d.Read("padding", o.padding);
                      d.Read("strides", o.strides);
                      d.Read("dilations", o.dilations);
                      d.Read("groups", o.groups);
                      d.template ReadEnum<MLInputOperandLayout, 2>("inputLayout", o.inputLayout, "MLInputOperandLayout");
                      d.template ReadEnum<MLConv2dFilterOperandLayout, 4>("filterLayout", o.filterLayout,
                                                                          "MLConv2dFilterOperandLayout");
                      d.Read("bias", o.bias);
                    });
                    return {b.conv2d(c.Operand(0, "input"), c.Operand(1, "filter"), o)};
                  }}},
      {"convTranspose2d", {{{"input", kOp}, {"filter", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                             auto o = ReadOptions<MLConvTranspose2dOptions>(c, 2, [](Dict& d, auto& o) {
                               d.Read("padding", o.padding);
                               d.Read("strides", o.strides);
                               d.Read("dilations", o.dilations);
                               d.Read("outputPadding", o.outputPadding);
                               d.Read("outputSizes", o.outputSizes);
                               d.Read("groups", o.groups);
                               d.template ReadEnum<MLInputOperandLayout, 2>("inputLayout", o.inputLayout,
                                                                            "MLInputOperandLayout");
                               d.template ReadEnum<MLConvTranspose2dFilterOperandLayout, 3>(
                                   "filterLayout", o.filterLayout, "MLConvTranspose2dFilterOperandLayout");
                               d.Read("bias", o.bias);
                             });
                             return {b.convTranspose2d(c.Operand(0, "input"), c.Operand(1, "filter"), o)};
                           }}},
      {"resample2d", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                        auto o = ReadOptions<MLResample2dOptions>(c, 1, [](Dict& d, auto& o) {
                          d.template ReadEnum<MLInterpolationMode, 2>("mode", o.mode, "MLInterpolationMode");
                          d.Read("scales", o.scales);
                          d.Read("sizes", o.sizes);
                          d.Read("axes", o.axes);
                        });
                        return {b.resample2d(c.Operand(0, "input"), o)};
                      }}},
      {"gemm", {{{"a", kOp}, {"b", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                  auto o = ReadOptions<MLGemmOptions>(c, 2, [](Dict& d, auto& o) {
                    d.Read("c", o.c);
                    d.Read("alpha", o.alpha);
                    d.Read("beta", o.beta);
                    d.Read("aTranspose", o.aTranspose);
                    d.Read("bTranspose", o.bTranspose);
                  });
                  return {b.gemm(c.Operand(0, "a"), c.Operand(1, "b"), o)};
                }}},
      {"batchNormalization", {{{"input", kOp}, {"mean", kOp}, {"variance", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                                auto o = ReadOptions<MLBatchNormalizationOptions>(c, 3, [](Dict& d, auto& o) {
                                  d.Read("scale", o.scale);
                                  d.Read("bias", o.bias);
                                  d.Read("axis", o.axis);
                                  d.Read("epsilon", o.epsilon);
                                });
                                return {b.batchNormalization(c.Operand(0, "input"), c.Operand(1, "mean"),
                                                             c.Operand(2, "variance"), o)};
                              }}},
      {"instanceNormalization", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                                   auto o = ReadOptions<MLInstanceNormalizationOptions>(c, 1, [](Dict& d, auto& o) {
                                     d.Read("scale", o.scale);
                                     d.Read("bias", o.bias);
                                     d.Read("epsilon", o.epsilon);
                                     d.template ReadEnum<MLInputOperandLayout, 2>("layout", o.layout,
                                                                                  "MLInputOperandLayout");
                                   });
                                   return {b.instanceNormalization(c.Operand(0, "input"), o)};
                                 }}},
      {"layerNormalization", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                                auto o = ReadOptions<MLLayerNormalizationOptions>(c, 1, [](Dict& d, auto& o) {
                                  d.Read("scale", o.scale);
                                  d.Read("bias", o.bias);
                                  d.Read("axes", o.axes);
                                  d.Read("epsilon", o.epsilon);
                                });
                                return {b.layerNormalization(c.Operand(0, "input"), o)};
                              }}},
      {"argMin", {{{"input", kOp}, {"axis", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    auto o = ReadOptions<MLArgMinMaxOptions>(c, 2, [](Dict& d, auto& o) {
                      d.Read("keepDimensions", o.keepDimensions);
                      d.Read("outputDataType", o.outputDataType);
                    });
                    return {b.argMin(c.Operand(0, "input"), c.U32(1, "axis"), o)};
                  }}},
      {"argMax", {{{"input", kOp}, {"axis", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    auto o = ReadOptions<MLArgMinMaxOptions>(c, 2, [](Dict& d, auto& o) {
                      d.Read("keepDimensions", o.keepDimensions);
                      d.Read("outputDataType", o.outputDataType);
                    });
                    return {b.argMax(c.Operand(0, "input"), c.U32(1, "axis"), o)};
                  }}},
      {"cumulativeSum", {{{"input", kOp}, {"axis", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                           auto o = ReadOptions<MLCumulativeSumOptions>(c, 2, [](Dict& d, auto& o) {
                             d.Read("exclusive", o.exclusive);
                             d.Read("reversed", o.reversed);
                           });
                           // `axis` is a plain unsigned long in the IDL (no [EnforceRange]).
                           return {b.cumulativeSum(c.Operand(0, "input"), c.U32(1, "axis", false), o)};
                         }}},
      {"concat", {{{"inputs", kList}, {"axis", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    return {b.concat(c.OperandList(0, "inputs"), c.U32(1, "axis"), ReadOptions<MLOperatorOptions>(c, 2))};
                  }}},
      {"expand", {{{"input", kOp}, {"newShape", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    return {b.expand(c.Operand(0, "input"), c.Dims(1, "newShape"), ReadOptions<MLOperatorOptions>(c, 2))};
                  }}},
      {"gather", {{{"input", kOp}, {"indices", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                    auto o = ReadOptions<MLGatherOptions>(c, 2, [](Dict& d, auto& o) { d.Read("axis", o.axis); });
                    return {b.gather(c.Operand(0, "input"), c.Operand(1, "indices"), o)};
                  }}},
      {"gatherElements", {{{"input", kOp}, {"indices", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                            auto o = ReadOptions<MLGatherOptions>(c, 2, [](Dict& d, auto& o) { d.Read("axis", o.axis); });
                            return {b.gatherElements(c.Operand(0, "input"), c.Operand(1, "indices"), o)};
                          }}},
      {"gatherND", {{{"input", kOp}, {"indices", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                      return {b.gatherND(c.Operand(0, "input"), c.Operand(1, "indices"), ReadOptions<MLOperatorOptions>(c, 2))};
                    }}},
      {"scatterElements", {{{"input", kOp}, {"indices", kOp}, {"updates", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                             auto o = ReadOptions<MLScatterOptions>(c, 3, [](Dict& d, auto& o) { d.Read("axis", o.axis); });
                             return {b.scatterElements(c.Operand(0, "input"), c.Operand(1, "indices"),
                                                       c.Operand(2, "updates"), o)};
                           }}},
      {"scatterND", {{{"input", kOp}, {"indices", kOp}, {"updates", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                       return {b.scatterND(c.Operand(0, "input"), c.Operand(1, "indices"), c.Operand(2, "updates"),
                                           ReadOptions<MLOperatorOptions>(c, 3))};
                     }}},
      {"pad", {{{"input", kOp}, {"beginningPadding", kVal}, {"endingPadding", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                 auto o = ReadOptions<MLPadOptions>(c, 3, [](Dict& d, auto& o) {
                   d.template ReadEnum<MLPaddingMode, 3>("mode", o.mode, "MLPaddingMode");
                   d.Read("value", o.value);
                 });
                 return {b.pad(c.Operand(0, "input"), c.U32List(1, "beginningPadding"), c.U32List(2, "endingPadding"), o)};
               }}},
      {"reshape", {{{"input", kOp}, {"newShape", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                     return {b.reshape(c.Operand(0, "input"), c.Dims(1, "newShape"), ReadOptions<MLOperatorOptions>(c, 2))};
                   }}},
      {"reverse", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                     auto o = ReadOptions<MLReverseOptions>(c, 1, [](Dict& d, auto& o) { d.Read("axes", o.axes); });
                     return {b.reverse(c.Operand(0, "input"), o)};
                   }}},
      {"slice", {{{"input", kOp}, {"starts", kVal}, {"sizes", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                   auto o = ReadOptions<MLSliceOptions>(c, 3, [](Dict& d, auto& o) { d.Read("strides", o.strides); });
                   return {b.slice(c.Operand(0, "input"), c.U32List(1, "starts"), c.U32List(2, "sizes"), o)};
                 }}},
      {"split", {{{"input", kOp}, {"splits", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                   auto o = ReadOptions<MLSplitOptions>(c, 2, [](Dict& d, auto& o) { d.Read("axis", o.axis); });
                   c.Require(1, "splits");
                   // (unsigned long or sequence<unsigned long>): a sequence if it is an array.
                   MLSplits splits = c.Arg(1).kind == JsValue::Kind::kArray ? MLSplits(c.U32List(1, "splits"))
                                                                             : MLSplits(c.U32(1, "splits"));
                   return b.split(c.Operand(0, "input"), splits, o);
                 }}},
      {"tile", {{{"input", kOp}, {"repetitions", kVal}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                  // `repetitions` is sequence<unsigned long> without [EnforceRange].
                  return {b.tile(c.Operand(0, "input"), c.U32List(1, "repetitions", false), ReadOptions<MLOperatorOptions>(c, 2))};
                }}},
      {"transpose", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                       auto o = ReadOptions<MLTransposeOptions>(c, 1, [](Dict& d, auto& o) {
                         d.Read("permutation", o.permutation);
                       });
                       return {b.transpose(c.Operand(0, "input"), o)};
                     }}},
      {"triangular", {{{"input", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                        auto o = ReadOptions<MLTriangularOptions>(c, 1, [](Dict& d, auto& o) {
                          d.Read("upper", o.upper);
                          d.Read("diagonal", o.diagonal);
                        });
                        return {b.triangular(c.Operand(0, "input"), o)};
                      }}},
      {"where", {{{"condition", kOp}, {"trueValue", kOp}, {"falseValue", kOp}}, [](MLGraphBuilder& b, const Call& c) -> Result {
                   return {b.where(c.Operand(0, "condition"), c.Operand(1, "trueValue"), c.Operand(2, "falseValue"),
                                   ReadOptions<MLOperatorOptions>(c, 3))};
                 }}},
      {"gru", {{{"input", kOp}, {"weight", kOp}, {"recurrentWeight", kOp}, {"steps", kVal}, {"hiddenSize", kVal}},
               [](MLGraphBuilder& b, const Call& c) -> Result {
                 auto o = ReadOptions<MLGruOptions>(c, 5, [](Dict& d, auto& o) {
                   d.Read("bias", o.bias);
                   d.Read("recurrentBias", o.recurrentBias);
                   d.Read("initialHiddenState", o.initialHiddenState);
                   d.Read("resetAfter", o.resetAfter);
                   d.Read("returnSequence", o.returnSequence);
                   d.template ReadEnum<MLRecurrentNetworkDirection, 3>("direction", o.direction,
                                                                       "MLRecurrentNetworkDirection");
                   d.template ReadEnum<MLGruWeightLayout, 2>("layout", o.layout, "MLGruWeightLayout");
                   d.Read("activations", o.activations);
                 });
                 return b.gru(c.Operand(0, "input"), c.Operand(1, "weight"), c.Operand(2, "recurrentWeight"),
                              c.U32(3, "steps"), c.U32(4, "hiddenSize"), o);
               }}},
      {"gruCell", {{{"input", kOp}, {"weight", kOp}, {"recurrentWeight", kOp}, {"hiddenState", kOp}, {"hiddenSize", kVal}},
                   [](MLGraphBuilder& b, const Call& c) -> Result {
                     auto o = ReadOptions<MLGruCellOptions>(c, 5, [](Dict& d, auto& o) {
                       d.Read("bias", o.bias);
                       d.Read("recurrentBias", o.recurrentBias);
                       d.Read("resetAfter", o.resetAfter);
                       d.template ReadEnum<MLGruWeightLayout, 2>("layout", o.layout, "MLGruWeightLayout");
                       d.Read("activations", o.activations);
                     });
                     return {b.gruCell(c.Operand(0, "input"), c.Operand(1, "weight"), c.Operand(2, "recurrentWeight"),
                                       c.Operand(3, "hiddenState"), c.U32(4, "hiddenSize"), o)};
                   }}},
      {"lstm", {{{"input", kOp}, {"weight", kOp}, {"recurrentWeight", kOp}, {"steps", kVal}, {"hiddenSize", kVal}},
                [](MLGraphBuilder& b, const Call& c) -> Result {
                  auto o = ReadOptions<MLLstmOptions>(c, 5, [](Dict& d, auto& o) {
                    d.Read("bias", o.bias);
                    d.Read("recurrentBias", o.recurrentBias);
                    d.Read("peepholeWeight", o.peepholeWeight);
                    d.Read("initialHiddenState", o.initialHiddenState);
                    d.Read("initialCellState", o.initialCellState);
                    d.Read("returnSequence", o.returnSequence);
                    d.template ReadEnum<MLRecurrentNetworkDirection, 3>("direction", o.direction,
                                                                        "MLRecurrentNetworkDirection");
                    d.template ReadEnum<MLLstmWeightLayout, 2>("layout", o.layout, "MLLstmWeightLayout");
                    d.Read("activations", o.activations);
                  });
                  return b.lstm(c.Operand(0, "input"), c.Operand(1, "weight"), c.Operand(2, "recurrentWeight"),
                                c.U32(3, "steps"), c.U32(4, "hiddenSize"), o);
                }}},
      {"lstmCell", {{{"input", kOp}, {"weight", kOp}, {"recurrentWeight", kOp}, {"hiddenState", kOp}, {"cellState", kOp},
                     {"hiddenSize", kVal}},
                    [](MLGraphBuilder& b, const Call& c) -> Result {
                      auto o = ReadOptions<MLLstmCellOptions>(c, 6, [](Dict& d, auto& o) {
                        d.Read("bias", o.bias);
                        d.Read("recurrentBias", o.recurrentBias);
                        d.Read("peepholeWeight", o.peepholeWeight);
                        d.template ReadEnum<MLLstmWeightLayout, 2>("layout", o.layout, "MLLstmWeightLayout");
                        d.Read("activations", o.activations);
                      });
                      return b.lstmCell(c.Operand(0, "input"), c.Operand(1, "weight"), c.Operand(2, "recurrentWeight"),
                                        c.Operand(3, "hiddenState"), c.Operand(4, "cellState"), c.U32(5, "hiddenSize"), o);
                    }}},
  };
  return table;
}

#undef BINARY
#undef UNARY
#undef REDUCE
#undef POOL

}  // namespace

const std::vector<ParamInfo>* OpParams(std::string_view op) {
  auto it = Table().find(op);
  return it == Table().end() ? nullptr : &it->second.params;
}

std::vector<MLOperand> InvokeOp(MLGraphBuilder& builder, std::string_view op, const std::vector<JsValue>& args,
                                bool strict) {
  auto it = Table().find(op);
  if (it == Table().end()) throw TypeError(StrCat("builder has no operation named '", op, "'"));
  return it->second.bind(builder, Call(op, args, strict));
}

MLOperandDataType ToDataType(const JsValue& v, const std::string& what) {
  const std::string s = ToJsString(v, what);
  auto t = ParseMLOperandDataType(s);
  if (!t) throw TypeError(StrCat(what, ": \"", s, "\" is not a valid MLOperandDataType value"));
  return *t;
}

MLNumber ToMLNumber(const JsValue& v, const std::string& what) {
  if (v.kind == JsValue::Kind::kBigInt) {
    const std::string& s = v.text;
    errno = 0;
    if (!s.empty() && s[0] == '-') {
      long long x = std::strtoll(s.c_str(), nullptr, 10);
      // BigInts are unbounded; every cast saturates at the 64-bit range anyway.
      if (errno == ERANGE) return MLNumber::BigInt(std::numeric_limits<int64_t>::min());
      return MLNumber::BigInt(x);
    }
    unsigned long long x = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE) return MLNumber::BigUint(std::numeric_limits<uint64_t>::max());
    if (x <= static_cast<unsigned long long>(std::numeric_limits<int64_t>::max()))
      return MLNumber::BigInt(static_cast<int64_t>(x));
    return MLNumber::BigUint(x);
  }
  return MLNumber(ToNumber(v, what));  // unrestricted double
}

std::string ToUSVString(const JsValue& v, const std::string& what) { return ToJsString(v, what); }

MLOperandDescriptor ToOperandDescriptor(const JsValue& v, const std::string& what) {
  if (v.kind != JsValue::Kind::kObject) throw TypeError(StrCat(what, ": is not a dictionary"));
  MLOperandDescriptor d;
  const JsValue* type = v.Get("dataType");
  if (!type || type->IsUndefined()) throw TypeError(StrCat(what, ": required member 'dataType' is missing"));
  d.dataType = ToDataType(*type, StrCat(what, ".dataType"));
  const JsValue* shape = v.Get("shape");
  if (!shape || shape->IsUndefined()) throw TypeError(StrCat(what, ": required member 'shape' is missing"));
  const auto& items = ToSequence(*shape, StrCat(what, ".shape"));
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string w = StrCat(what, ".shape[", i, "]");
    if (items[i].kind == JsValue::Kind::kObject) {
      MLDynamicDimension dyn;
      if (auto* n = items[i].Get("name")) dyn.name = ToJsString(*n, w + ".name");
      if (auto* m = items[i].Get("maxSize")) dyn.maxSize = ToUnsignedLong(*m, w + ".maxSize", true);
      d.shape.emplace_back(std::move(dyn));
    } else {
      d.shape.emplace_back(ToUnsignedLong(items[i], w, true));
    }
  }
  return d;
}

}  // namespace webnn::io
