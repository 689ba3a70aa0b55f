#include "io/test_vectors.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "core/float16.h"
#include "core/shape.h"
#include "core/strings.h"
#include "core/ulp.h"
#include "io/js_value.h"
#include "io/npy.h"
#include "io/op_binding.h"

namespace webnn::io {

using core::StrCat;
using Json = nlohmann::json;

namespace {

// ---- element values ----------------------------------------------------------

// One element of test data: doubles for floats, exact integers otherwise.
struct Element {
  double f = 0;
  int64_t i = 0;
  uint64_t u = 0;
};

double SpecialDouble(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return INFINITY;
  if (s == "-Infinity") return -INFINITY;
  if (s == "-0") return -0.0;
  return std::stod(s);
}

Element ParseElement(const Json& v, MLOperandDataType type) {
  Element e;
  if (IsFloatingPoint(type)) {
    e.f = v.is_string() ? SpecialDouble(v.get<std::string>()) : v.get<double>();
    return e;
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (IsSignedInteger(type)) e.i = std::stoll(s);
    else e.u = std::stoull(s);
  } else if (v.is_number_integer()) {
    if (v.is_number_unsigned()) e.u = v.get<uint64_t>(), e.i = static_cast<int64_t>(e.u);
    else e.i = v.get<int64_t>(), e.u = static_cast<uint64_t>(e.i);
  } else {
    // Doubles written for integer data (e.g. -9223372036854776000): saturate.
    double d = v.get<double>();
    if (IsSignedInteger(type))
      e.i = d >= 9.2233720368547758e18 ? INT64_MAX : d <= -9.2233720368547758e18 ? INT64_MIN : static_cast<int64_t>(d);
    else
      e.u = d >= 1.8446744073709552e19 ? UINT64_MAX : d <= 0 ? 0 : static_cast<uint64_t>(d);
  }
  if (IsSignedInteger(type)) e.u = static_cast<uint64_t>(e.i);
  else e.i = static_cast<int64_t>(e.u);
  return e;
}

void PutElement(std::vector<std::byte>& out, uint64_t index, MLOperandDataType type, const Element& e) {
  auto put = [&](auto x) { std::memcpy(out.data() + index * sizeof(x), &x, sizeof(x)); };
  switch (type) {
    case MLOperandDataType::kFloat32: put(static_cast<float>(e.f)); break;
    case MLOperandDataType::kFloat16: put(core::DoubleToHalfBits(e.f)); break;
    case MLOperandDataType::kInt32: put(static_cast<int32_t>(e.i)); break;
    case MLOperandDataType::kUint32: put(static_cast<uint32_t>(e.u)); break;
    case MLOperandDataType::kInt64: put(e.i); break;
    case MLOperandDataType::kUint64: put(e.u); break;
    case MLOperandDataType::kInt8: put(static_cast<int8_t>(e.i)); break;
    case MLOperandDataType::kUint8: put(static_cast<uint8_t>(e.u)); break;
    case MLOperandDataType::kInt4:
    case MLOperandDataType::kUint4: {
      uint8_t nib = static_cast<uint8_t>(e.u & 0xf);
      uint8_t& byte = reinterpret_cast<uint8_t&>(out[index / 2]);
      byte = (index & 1) ? static_cast<uint8_t>((byte & 0x0f) | (nib << 4)) : static_cast<uint8_t>((byte & 0xf0) | nib);
      break;
    }
  }
}

Element GetElement(const std::vector<std::byte>& in, uint64_t index, MLOperandDataType type) {
  Element e;
  auto get = [&](auto x) {
    std::memcpy(&x, in.data() + index * sizeof(x), sizeof(x));
    return x;
  };
  switch (type) {
    case MLOperandDataType::kFloat32: e.f = get(float{}); break;
    case MLOperandDataType::kFloat16: e.f = core::HalfBitsToDouble(get(uint16_t{})); break;
    case MLOperandDataType::kInt32: e.i = get(int32_t{}); break;
    case MLOperandDataType::kUint32: e.u = get(uint32_t{}); break;
    case MLOperandDataType::kInt64: e.i = get(int64_t{}); break;
    case MLOperandDataType::kUint64: e.u = get(uint64_t{}); break;
    case MLOperandDataType::kInt8: e.i = get(int8_t{}); break;
    case MLOperandDataType::kUint8: e.u = get(uint8_t{}); break;
    case MLOperandDataType::kInt4: {
      uint8_t b = static_cast<uint8_t>(in[index / 2]);
      uint8_t nib = (index & 1) ? (b >> 4) : (b & 0xf);
      e.i = (nib & 8) ? int64_t(nib) - 16 : nib;
      break;
    }
    case MLOperandDataType::kUint4: {
      uint8_t b = static_cast<uint8_t>(in[index / 2]);
      e.u = (index & 1) ? (b >> 4) : (b & 0xf);
      break;
    }
  }
  if (IsSignedInteger(type)) e.u = static_cast<uint64_t>(e.i);
  else if (IsUnsignedInteger(type)) e.i = static_cast<int64_t>(e.u);
  return e;
}

std::string ElementToString(const Element& e, MLOperandDataType type) {
  if (IsFloatingPoint(type)) {
    std::ostringstream os;
    os.precision(9);
    os << e.f;
    return os.str();
  }
  return IsSignedInteger(type) ? std::to_string(e.i) : std::to_string(e.u);
}

// A tensor of test data as WPT describes it.
struct TensorData {
  MLOperandDataType type = MLOperandDataType::kFloat32;
  std::vector<MLDimension> shape;      // as declared (may be dynamic)
  std::vector<uint32_t> concrete;      // the shape dispatched
  std::vector<std::byte> bytes;        // packed data
  std::vector<uint16_t> half_bits;     // float16: the exact expected/fed bits
  bool fill = false;
  bool constant = false;
};

// A dimension of a vector file: an integer in [0, kMaxDimension]. (Json's
// get<uint32_t>() would turn -24 into 4294967272.)
uint32_t VectorDimension(const Json& d, const std::string& what) {
  if (!d.is_number_integer() || (!d.is_number_unsigned() && d.get<int64_t>() < 0) ||
      d.get<uint64_t>() > core::kMaxDimension)
    throw DataError(StrCat(what, ": dimension ", d.dump(), " is not an integer in [0, ", core::kMaxDimension, "]"));
  return static_cast<uint32_t>(d.get<uint64_t>());
}

std::vector<uint32_t> VectorShape(const Json& j, const std::string& what) {
  if (!j.is_array()) throw DataError(StrCat(what, ": must be an array of dimensions"));
  std::vector<uint32_t> shape;
  for (const Json& d : j) shape.push_back(VectorDimension(d, what));
  return shape;
}

TensorData ParseTensor(const Json& j, const std::string& what) {
  TensorData t;
  auto type = ParseMLOperandDataType(j.at("dataType").get<std::string>());
  if (!type) throw std::runtime_error(StrCat(what, ": unknown dataType"));
  t.type = *type;
  const Json& shape = j.at("shape");
  if (!shape.is_array()) throw DataError(StrCat(what, ": shape must be an array"));
  for (const Json& d : shape) {
    if (d.is_object()) {
      t.shape.emplace_back(MLDynamicDimension{d.at("name").get<std::string>(),
                                              VectorDimension(d.at("maxSize"), StrCat(what, ": shape maxSize"))});
    } else {
      t.shape.emplace_back(VectorDimension(d, StrCat(what, ": shape")));
    }
  }
  if (j.contains("concreteShape")) {
    t.concrete = VectorShape(j.at("concreteShape"), StrCat(what, ": concreteShape"));
  } else {
    for (const auto& d : t.shape) t.concrete.push_back(static_cast<uint32_t>(d.size()));
  }
  t.fill = j.value("fill", false);
  t.constant = j.value("constant", false);
  const uint64_t n = core::ElementCount(t.concrete);
  const Json& data = j.at("data");
  const Json* bits = j.contains("float16Bits") ? &j.at("float16Bits") : nullptr;
  // Everything the shape declares is checked against the data before a byte
  // is allocated: a shape of [2147483647] with one datum is an error, not an
  // 8.4 GB allocation.
  for (const Json* list : {&data, bits}) {
    if (!list || !list->is_array()) continue;  // a scalar fills the shape
    const uint64_t want = t.fill ? 1 : n;
    if (t.fill ? list->empty() : list->size() != want)
      throw DataError(StrCat(what, ": shape ", core::ListToString(t.concrete), " has ", n, " elements but ",
                             list == bits ? "float16Bits" : "data", " has ", list->size(),
                             t.fill ? " (fill needs one)" : ""));
  }
  const uint64_t byte_length = ByteLengthFor(t.type, n);
  if (byte_length > core::kMaxTensorByteLength)
    throw DataError(StrCat(what, ": shape ", core::ListToString(t.concrete), " needs ", byte_length,
                           " bytes, more than maxTensorByteLength ", core::kMaxTensorByteLength));
  t.bytes.assign(byte_length, std::byte{0});
  // "fill": one scalar (or a one-element list) fills the whole shape.
  auto item = [&](const Json& list, uint64_t k) -> const Json& {
    if (!list.is_array()) return list;
    return list.at(t.fill ? 0 : k);
  };
  for (uint64_t k = 0; k < n; ++k) {
    if (t.type == MLOperandDataType::kFloat16 && bits) {
      uint16_t h = item(*bits, k).get<uint16_t>();
      std::memcpy(t.bytes.data() + k * 2, &h, 2);
      if (!t.fill || k == 0) t.half_bits.push_back(h);
    } else {
      PutElement(t.bytes, k, t.type, ParseElement(item(data, k), t.type));
    }
  }
  return t;
}

// ---- tolerance -----------------------------------------------------------------

// WPT's ULP line (core/ulp.h); float16 through the exact bits when given.
int64_t OrderedFloatBits(double value, MLOperandDataType type, const uint16_t* half_bits) {
  return core::OrderedFloatBits(half_bits ? *half_bits : core::FloatBitsOf(value, type), type);
}

struct Comparison {
  bool ok = true;
  double distance = 0;
};

Comparison CompareElement(const Element& got, const uint16_t* got_half, const Element& want, const uint16_t* want_half,
                          MLOperandDataType type, const std::string& metric, double allowed) {
  Comparison c;
  if (IsFloatingPoint(type)) {
    const bool got_nan = std::isnan(got.f), want_nan = std::isnan(want.f);
    if (got_nan || want_nan) {
      c.ok = got_nan && want_nan;
      c.distance = c.ok ? 0 : INFINITY;
      return c;
    }
    if (metric == "ATOL") {
      if (std::isinf(want.f) || std::isinf(got.f)) {
        c.ok = got.f == want.f;
        c.distance = c.ok ? 0 : INFINITY;
      } else {
        c.distance = std::fabs(got.f - want.f);
        c.ok = c.distance <= allowed;
      }
      return c;
    }
    c.distance = static_cast<double>(std::llabs(OrderedFloatBits(got.f, type, got_half) -
                                                OrderedFloatBits(want.f, type, want_half)));
    c.ok = c.distance <= allowed;
    return c;
  }
  // Integers: exact difference.
  if (IsSignedInteger(type)) {
    c.distance = got.i >= want.i ? static_cast<double>(static_cast<uint64_t>(got.i) - static_cast<uint64_t>(want.i))
                                 : static_cast<double>(static_cast<uint64_t>(want.i) - static_cast<uint64_t>(got.i));
  } else {
    c.distance = got.u >= want.u ? static_cast<double>(got.u - want.u) : static_cast<double>(want.u - got.u);
  }
  c.ok = c.distance <= allowed;
  return c;
}

// ---- conformance ----------------------------------------------------------------

// The case's graph built on a context of options.device and dispatched with
// its inputs: each expected output's bytes, or a failure line when an
// output's data type is not the expected one.
std::map<std::string, std::vector<std::byte>> RunCaseOnDevice(const Json& test, const VectorOptions& options,
                                                              std::map<std::string, TensorData>& inputs,
                                                              const std::map<std::string, TensorData>& expected,
                                                              std::vector<std::string>& failures) {
  const std::string name = test.at("name").get<std::string>();
  // Strict placement: a case measures the device itself (one it lacks is
  // unsupported, not run on a fallback device).
  MLContext ctx = ML::createContext({.device = options.device, .strictPlacement = true});
  MLGraphBuilder builder(ctx);
  std::map<std::string, MLOperand> env;
  for (auto& [in_name, t] : inputs) {
    if (t.constant) {
      env[in_name] = builder.constant(MLOperandDescriptor{t.type, t.shape}, MLBufferSource(std::span<const std::byte>(t.bytes)));
    } else {
      env[in_name] = builder.input(in_name, MLOperandDescriptor{t.type, t.shape});
    }
  }
  auto operand = [&](const Json& ref) -> MLOperand {
    auto it = env.find(ref.get<std::string>());
    if (it == env.end()) throw std::runtime_error(StrCat("unknown operand '", ref.get<std::string>(), "'"));
    return it->second;
  };
  for (const Json& op : test.at("operators")) {
    std::vector<JsValue> args;
    for (const Json& a : op.at("arguments")) {
      const std::string kind = a.at("kind").get<std::string>();
      if (kind == "operand") {
        args.push_back(JsValue::Operand(operand(a.at("operand"))));
      } else if (kind == "operandList") {
        JsValue list = JsValue::Array();
        for (const Json& r : a.at("operands")) list.items.push_back(JsValue::Operand(operand(r)));
        args.push_back(std::move(list));
      } else if (kind == "value") {
        args.push_back(JsValueFromJson(a.at("value")));
      } else if (kind == "options") {
        JsValue dict = a.contains("values") ? JsValueFromJson(a.at("values")) : JsValue::Object();
        if (a.contains("operands"))
          for (const auto& [k, r] : a.at("operands").items()) dict.Set(k, JsValue::Operand(operand(r)));
        args.push_back(std::move(dict));
      }
    }
    std::vector<MLOperand> outs = InvokeOp(builder, op.at("name").get<std::string>(), args);
    const Json& names = op.at("outputs");
    if (names.is_string()) {
      env[names.get<std::string>()] = outs.at(0);
    } else {
      for (size_t k = 0; k < names.size(); ++k) env[names[k].get<std::string>()] = outs.at(k);
    }
  }
  MLNamedOperands graph_outputs;
  for (const auto& [out_name, want] : expected) graph_outputs[out_name] = operand(Json(out_name));
  MLGraph graph = builder.build(graph_outputs);

  MLNamedTensors in_tensors, out_tensors;
  for (auto& [in_name, t] : inputs) {
    if (t.constant) continue;
    MLTensor tensor = ctx.createTensor({t.type, t.concrete, false, true});
    ctx.writeTensor(tensor, MLBufferSource(std::span<const std::byte>(t.bytes)));
    in_tensors[in_name] = tensor;
  }
  for (auto& [out_name, t] : expected) out_tensors[out_name] = ctx.createTensor({t.type, t.concrete, true, false});
  ctx.dispatch(graph, in_tensors, out_tensors);
  std::map<std::string, std::vector<std::byte>> got;
  for (auto& [out_name, want] : expected) {
    const MLOperand& o = graph_outputs[out_name];
    if (o.dataType() != want.type) {
      failures.push_back(StrCat(name, " | ", out_name, ": data type ", ToString(o.dataType()), ", expected ",
                                ToString(want.type)));
      continue;
    }
    got[out_name] = ctx.readTensor(out_tensors[out_name]);
  }
  return got;
}

// Another implementation's outputs of the case, from its candidate directory:
// each expected output's bytes; the names of the files that are not there go
// to `missing`, a file of the wrong type or shape is a failure line.
std::map<std::string, std::vector<std::byte>> ReadCandidates(const std::string& name, const std::string& dir,
                                                             const std::map<std::string, TensorData>& expected,
                                                             std::vector<std::string>& missing,
                                                             std::vector<std::string>& failures) {
  std::map<std::string, std::vector<std::byte>> got;
  for (const auto& [out_name, want] : expected) {
    const std::filesystem::path file = std::filesystem::path(dir) / (SanitizedName(out_name) + ".npy");
    if (!std::filesystem::exists(file)) {
      missing.push_back(file.string());
      continue;
    }
    const NpyArray npy = ReadNpy(file.string());
    if (npy.shape != want.concrete) {
      failures.push_back(StrCat(name, " | ", out_name, ": ", file.string(), " has shape ",
                                core::ListToString(npy.shape), ", expected ", core::ListToString(want.concrete)));
      continue;
    }
    try {
      got[out_name] = TensorBytesOfNpy(npy, want.type, file.string());
    } catch (const DataError& e) {
      failures.push_back(StrCat(name, " | ", out_name, ": ", e.what()));
    }
  }
  return got;
}

// Compares `got` (packed bytes per expected output) with the expected
// outputs under the case's tolerance; a failure line per output off by more.
void CheckCaseOutputs(const Json& test, const std::map<std::string, TensorData>& expected,
                      const std::map<std::string, std::vector<std::byte>>& got, std::vector<std::string>& failures) {
  const std::string name = test.at("name").get<std::string>();
  const std::string metric = test.at("tolerance").at("metricType").get<std::string>();
  const double allowed = test.at("tolerance").at("value").is_null() ? 0 : test.at("tolerance").at("value").get<double>();
  for (const auto& [out_name, want] : expected) {
    auto found = got.find(out_name);
    if (found == got.end()) continue;  // already a failure (or missing)
    const std::vector<std::byte>& bytes = found->second;
    uint64_t n = core::ElementCount(want.concrete);
    if (want.fill) n = std::min<uint64_t>(n, 1000);  // WPT checks the first 1000 of filled outputs
    double worst = -1;
    uint64_t worst_index = 0;
    Element worst_got, worst_want;
    bool out_ok = true;
    for (uint64_t k = 0; k < n; ++k) {
      Element g = GetElement(bytes, k, want.type);
      Element w = GetElement(want.bytes, k, want.type);
      uint16_t gh = 0;
      const uint16_t* gh_ptr = nullptr;
      const uint16_t* wh_ptr = nullptr;
      if (want.type == MLOperandDataType::kFloat16) {
        std::memcpy(&gh, bytes.data() + k * 2, 2);
        gh_ptr = &gh;
        if (!want.half_bits.empty()) wh_ptr = &want.half_bits[want.fill ? 0 : k];
      }
      Comparison c = CompareElement(g, gh_ptr, w, wh_ptr, want.type, metric, allowed);
      if (!c.ok) out_ok = false;
      if (!c.ok && c.distance > worst) {
        worst = c.distance;
        worst_index = k;
        worst_got = g;
        worst_want = w;
      }
    }
    if (!out_ok)
      failures.push_back(StrCat(name, " | ", out_name, " | index ", worst_index, " | got ",
                                ElementToString(worst_got, want.type), " | expected ",
                                ElementToString(worst_want, want.type), " | distance ", worst, " > ", allowed, " ",
                                metric));
  }
}

void WriteCaseTensors(const std::string& dir, const std::map<std::string, TensorData>& tensors,
                      const std::map<std::string, std::vector<std::byte>>* bytes) {
  std::filesystem::create_directories(dir);
  for (const auto& [tensor_name, t] : tensors) {
    const std::vector<std::byte>& data = bytes ? bytes->at(tensor_name) : t.bytes;
    WriteNpy((std::filesystem::path(dir) / (SanitizedName(tensor_name) + ".npy")).string(),
             NpyArrayOfTensor(t.type, t.concrete, data));
  }
}

// One conformance case: run on the device (writing its outputs and inputs
// where asked), or read another implementation's outputs; then compare.
void RunConformanceCase(const Json& test, const std::string& case_dir, const VectorOptions& options,
                        VectorReport& report) {
  const std::string name = test.at("name").get<std::string>();
  std::map<std::string, TensorData> inputs, expected;
  for (const auto& [in_name, j] : test.at("inputs").items())
    inputs.emplace(in_name, ParseTensor(j, StrCat(name, ": input ", in_name)));
  for (const auto& [out_name, j] : test.at("expectedOutputs").items())
    expected.emplace(out_name, ParseTensor(j, StrCat(name, ": expected ", out_name)));
  if (!options.write_inputs_dir.empty())
    WriteCaseTensors((std::filesystem::path(options.write_inputs_dir) / case_dir / "inputs").string(), inputs, nullptr);

  std::vector<std::string> failures, missing;
  std::map<std::string, std::vector<std::byte>> got;
  if (!options.candidate_dir.empty()) {
    got = ReadCandidates(name, (std::filesystem::path(options.candidate_dir) / case_dir).string(), expected, missing,
                         failures);
  } else {
    got = RunCaseOnDevice(test, options, inputs, expected, failures);
    if (!options.write_candidates_dir.empty() && failures.empty())
      WriteCaseTensors((std::filesystem::path(options.write_candidates_dir) / case_dir).string(), expected, &got);
  }
  CheckCaseOutputs(test, expected, got, failures);
  if (!failures.empty()) {
    ++report.failed;
    report.failures.insert(report.failures.end(), failures.begin(), failures.end());
  } else if (!missing.empty()) {
    ++report.missing;
    std::string files;
    for (const std::string& m : missing) files += (files.empty() ? "" : ", ") + m;
    report.missing_cases.push_back(StrCat(name, " | no candidate ", files));
  } else {
    ++report.passed;
  }
}

// ---- validation ------------------------------------------------------------------

struct ValidationCase {
  MLContext ctx;
  MLGraphBuilder same;
  std::optional<MLGraphBuilder> other;
  std::map<int, MLOperand> refs;                          // "ref" -> operand
  std::map<const Json*, MLOperand> created;               // per occurrence without ref
  std::vector<std::vector<MLOperand>> results;            // per call
  uint64_t max_tensor_bytes;
  int next_input = 0;

  explicit ValidationCase(MLDeviceType device)
      : ctx(ML::createContext({.device = device, .strictPlacement = true})), same(ctx),
        max_tensor_bytes(ctx.opSupportLimits().maxTensorByteLength) {}

  MLGraphBuilder& Builder(const Json& where) {
    if (where.is_string() && where.get<std::string>() == "other") {
      if (!other) other.emplace(ctx);
      return *other;
    }
    return same;
  }

  // {"maxTensorByteLength": {times, div, plus}} -> trunc(L * times / div + plus), exactly.
  double LimitExpression(const Json& e) const {
    const long double L = static_cast<long double>(max_tensor_bytes);
    long double v = L * e.value("times", 1.0L) / e.value("div", 1.0L) + e.value("plus", 0.0L);
    return static_cast<double>(std::trunc(v));
  }

  // Validation JSON -> JS value. Operand objects must already be created.
  JsValue ToJsValue(const Json& v) {
    if (v.is_null()) {
      JsValue j;
      j.kind = JsValue::Kind::kNull;
      return j;
    }
    if (v.is_boolean()) return JsValue::Boolean(v.get<bool>());
    if (v.is_number()) return JsValue::Number(v.get<double>());
    if (v.is_string()) return JsValue::String(v.get<std::string>());
    if (v.is_array()) {
      JsValue a = JsValue::Array();
      for (const Json& item : v) a.items.push_back(ToJsValue(item));
      return a;
    }
    if (v.contains("operand")) return JsValue::Operand(OperandFor(v.at("operand")));
    if (v.contains("number")) return JsValue::Number(SpecialDouble(v.at("number").get<std::string>()));
    if (v.contains("bigint")) return JsValue::BigInt(v.at("bigint").get<std::string>());
    if (v.contains("maxTensorByteLength")) return JsValue::Number(LimitExpression(v.at("maxTensorByteLength")));
    if (v.contains("undefined")) return JsValue::Undefined();
    if (v.contains("jsObject")) {
      JsValue o;
      o.kind = JsValue::Kind::kOther;
      o.text = v.at("jsObject").get<std::string>();
      o.number = v.value("valueOf", std::nan(""));
      return o;
    }
    if (v.contains("buffer")) {
      const Json& b = v.at("buffer");
      JsValue o;
      o.kind = JsValue::Kind::kBuffer;
      auto view = ParseMLArrayBufferViewType(b.value("type", "ArrayBuffer"));
      o.buffer.view = view.value_or(MLArrayBufferViewType::kArrayBuffer);
      o.buffer.detached = b.value("detached", false);
      o.buffer.bytes.assign(b.value("byteLength", 0), std::byte{0});
      return o;
    }
    JsValue o = JsValue::Object();
    for (const auto& [k, item] : v.items()) o.Set(k, ToJsValue(item));
    return o;
  }

  MLOperand OperandFor(const Json& o) {
    const std::string kind = o.at("kind").get<std::string>();
    if (kind == "intermediate") return results.at(o.at("fromCall").get<size_t>()).at(o.value("output", 0));
    if (o.contains("ref")) return refs.at(o.at("ref").get<int>());
    return created.at(&o);
  }

  // Step 2 of the format: create every input/constant operand up front.
  void CreateOperands(const Json& v) {
    if (v.is_array()) {
      for (const Json& item : v) CreateOperands(item);
      return;
    }
    if (!v.is_object()) return;
    if (v.contains("operand")) {
      const Json& o = v.at("operand");
      const std::string kind = o.at("kind").get<std::string>();
      if (kind == "intermediate") return;
      if (o.contains("ref") && refs.count(o.at("ref").get<int>())) return;
      MLOperandDescriptor desc;
      desc.dataType = ToDataType(JsValue::String(o.at("dataType").get<std::string>()), "operand.dataType");
      JsValue shape = ToJsValue(o.at("shape"));
      JsValue d = JsValue::Object();
      d.Set("dataType", JsValue::String(o.at("dataType").get<std::string>()));
      d.Set("shape", shape);
      desc = ToOperandDescriptor(d, "operand descriptor");
      MLGraphBuilder& b = Builder(o.value("builder", Json("same")));
      MLOperand operand;
      if (kind == "input") {
        operand = b.input(StrCat("input", next_input++), desc);
      } else {
        // A shape too large for any tensor gets no bytes: constant() rejects
        // its descriptor before it looks at the buffer.
        uint64_t elements = 1;
        for (const auto& dim : desc.shape) {
          const uint64_t size = static_cast<uint64_t>(std::max<int64_t>(dim.size(), 0));
          elements = size != 0 && elements > UINT64_MAX / size ? UINT64_MAX : elements * size;
        }
        const uint64_t byte_length = ByteLengthFor(desc.dataType, elements);
        std::vector<std::byte> zeros(byte_length <= core::kMaxTensorByteLength ? byte_length : 0);
        operand = b.constant(desc, MLBufferSource(std::span<const std::byte>(zeros)));
      }
      if (o.contains("ref")) refs[o.at("ref").get<int>()] = operand;
      else created[&o] = operand;
      return;
    }
    for (const auto& [k, item] : v.items()) CreateOperands(item);
  }

  std::vector<MLOperand> Call(const Json& call) {
    const std::string op = call.at("op").get<std::string>();
    MLGraphBuilder& b = Builder(call.value("builder", Json("same")));
    std::vector<JsValue> args;
    for (const Json& a : call.at("args")) args.push_back(ToJsValue(a));
    auto arg = [&](size_t i) { return i < args.size() ? args[i] : JsValue::Undefined(); };
    if (op == "input") {
      return {b.input(ToUSVString(arg(0), "input(): argument 'name'"),
                      ToOperandDescriptor(arg(1), "input(): argument 'descriptor'"))};
    }
    if (op == "constant") {
      if (arg(0).kind == JsValue::Kind::kObject) {
        MLOperandDescriptor desc = ToOperandDescriptor(arg(0), "constant(): argument 'descriptor'");
        JsValue buf = arg(1);
        if (buf.kind != JsValue::Kind::kBuffer) throw TypeError("constant(): argument 'buffer' is not a buffer");
        return {b.constant(desc, MLBufferSource(std::span<const std::byte>(buf.buffer.bytes), buf.buffer.view,
                                                buf.buffer.detached))};
      }
      MLOperandDataType type = ToDataType(arg(0), "constant(): argument 'dataType'");
      return {b.constant(type, ToMLNumber(arg(1), "constant(): argument 'value'"))};
    }
    if (op == "build") {
      MLNamedOperands outs;
      const JsValue rec = arg(0);
      for (const auto& [k, v] : rec.members) {
        if (v.kind != JsValue::Kind::kOperand) throw TypeError("build(): record value is not an MLOperand");
        outs[k] = v.operand;
      }
      b.build(outs);
      return {};
    }
    return InvokeOp(b, op, args);
  }
};

std::string CaseName(const Json& c) {
  std::string n = c.at("name").get<std::string>();
  if (c.contains("variant")) n += StrCat(" {", c.at("variant").get<std::string>(), "}");
  if (c.value("check", 0) != 0) n += StrCat(" #", c.at("check").get<int>());
  return n;
}

// The limits entry `key` ("expand.output.rankRange", "input.dataTypes",
// "maxTensorByteLength") of `limits`, in the JSON form the files use.
std::optional<Json> OurLimit(const MLOpSupportLimits& limits, const std::string& key) {
  auto tensor_limit = [](const MLTensorLimits& t, const std::string& what) -> std::optional<Json> {
    if (what == "rankRange") return Json{{"min", t.rankRange.min}, {"max", t.rankRange.max}};
    if (what == "dataTypes") {
      Json list = Json::array();
      for (MLOperandDataType d : t.dataTypes) list.push_back(std::string(ToString(d)));
      return list;
    }
    return std::nullopt;
  };
  if (key == "maxTensorByteLength") return Json(limits.maxTensorByteLength);
  const size_t dot = key.rfind('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string head = key.substr(0, dot), what = key.substr(dot + 1);
  if (head == "input") return tensor_limit(limits.input, what);
  if (head == "constant") return tensor_limit(limits.constant, what);
  if (head == "output") return tensor_limit(limits.output, what);
  const size_t dot2 = head.find('.');
  if (dot2 == std::string::npos) return std::nullopt;
  auto op = limits.operators.find(head.substr(0, dot2));
  if (op == limits.operators.end()) return std::nullopt;
  auto operand = op->second.find(head.substr(dot2 + 1));
  if (operand == op->second.end()) return std::nullopt;
  return tensor_limit(operand->second, what);
}

// Entries of the case's dependsOnLimits where our limits differ from the ones
// the expectation was computed with; empty if none.
std::string DifferingLimits(const Json& c, const Json& assumed, const MLOpSupportLimits& ours) {
  std::string out;
  if (!c.contains("dependsOnLimits")) return out;
  for (const Json& k : c.at("dependsOnLimits")) {
    const std::string key = k.get<std::string>();
    if (!assumed.contains(key)) continue;
    std::optional<Json> mine = OurLimit(ours, key);
    Json want = assumed.at(key);
    if (mine && want.is_array() && mine->is_array()) {
      // Data-type lists: compare as sets.
      std::set<std::string> a, b;
      for (const Json& x : want) a.insert(x.get<std::string>());
      for (const Json& x : *mine) b.insert(x.get<std::string>());
      if (a == b) continue;
    } else if (mine && *mine == want) {
      continue;
    }
    out += StrCat(out.empty() ? "" : "; ", key, " ours ", mine ? mine->dump() : "(none)", " vs assumed ", want.dump());
  }
  return out;
}

void RunValidationCase(const Json& c, const Json& assumed_limits, const MLOpSupportLimits& our_limits,
                       const VectorOptions& options, VectorReport& report) {
  const std::string name = CaseName(c);
  const Json& calls = c.at("calls");
  const Json& expect = c.at("expect");
  ValidationCase run(options.device);
  const char* stage = "setup";
  std::string error_name, error_message;
  std::vector<MLOperand> result;
  try {
    for (const Json& call : calls) run.CreateOperands(call.at("args"));
    for (size_t k = 0; k + 1 < calls.size(); ++k) {
      const Json& call = calls[k];
      if (call.contains("expectError")) {
        std::string got;
        try {
          run.Call(call);
        } catch (const MLException& e) {
          got = e.name();
        }
        if (got != call.at("expectError").get<std::string>())
          throw std::runtime_error(StrCat("call ", k, " (", call.at("op").get<std::string>(), ") should fail with ",
                                          call.at("expectError").get<std::string>(), ", got ",
                                          got.empty() ? "success" : got));
        run.results.emplace_back();
        continue;
      }
      run.results.push_back(run.Call(call));
    }
    stage = "call";
    result = run.Call(calls.back());
  } catch (const MLException& e) {
    if (std::string(stage) == "setup") {
      const std::string differ = DifferingLimits(c, assumed_limits, our_limits);
      if (!differ.empty()) {
        ++report.skipped;
        report.skips.push_back(StrCat(name, " | skipped: depends on limits we chose differently (", differ,
                                      "); setup failed: ", e.what()));
        return;
      }
      ++report.failed;
      report.failures.push_back(StrCat(name, " | setup failed: ", e.name(), ": ", e.what()));
      return;
    }
    error_name = e.name();
    error_message = e.what();
  } catch (const std::exception& e) {
    ++report.failed;
    report.failures.push_back(StrCat(name, " | ", stage, " failed: ", e.what()));
    return;
  }

  std::string problem;
  if (expect.contains("error")) {
    const std::string want = expect.at("error").get<std::string>();
    if (error_name.empty()) {
      problem = StrCat("expected ", want, ", but the call succeeded");
    } else if (error_name != want) {
      problem = StrCat("expected ", want, ", got ", error_name, ": ", error_message);
    } else if (expect.contains("messageRegex")) {
      std::regex re(expect.at("messageRegex").get<std::string>(), std::regex::ECMAScript);
      if (!std::regex_search(error_message, re))
        problem = StrCat("message \"", error_message, "\" does not match /", expect.at("messageRegex").get<std::string>(), "/");
    }
  } else if (!error_name.empty()) {
    problem = StrCat("expected success, got ", error_name, ": ", error_message);
  } else {
    std::vector<Json> want;
    if (expect.contains("outputs")) {
      for (const Json& o : expect.at("outputs")) want.push_back(o);
    } else {
      want.push_back(expect);
    }
    if (want.size() != result.size()) {
      problem = StrCat("expected ", want.size(), " outputs, got ", result.size());
    } else {
      for (size_t k = 0; k < want.size() && problem.empty(); ++k) {
        const std::string type = want[k].at("dataType").get<std::string>();
        std::vector<int64_t> shape;
        for (const Json& d : want[k].at("shape")) shape.push_back(d.get<int64_t>());
        std::vector<int64_t> got_shape;
        for (const MLDimension& d : result[k].shape()) got_shape.push_back(d.size());
        if (ToString(result[k].dataType()) != type || got_shape != shape)
          problem = StrCat("output ", k, ": expected ", type, " ", core::ListToString(shape), ", got ",
                           ToString(result[k].dataType()), " ", core::ListToString(got_shape));
      }
    }
  }
  if (problem.empty()) {
    ++report.passed;
    return;
  }
  if (const std::string differ = DifferingLimits(c, assumed_limits, our_limits); !differ.empty()) {
    ++report.skipped;
    report.skips.push_back(StrCat(name, " | skipped: depends on limits we chose differently (", differ, "); ", problem));
    return;
  }
  if (c.contains("bindingError")) {
    ++report.skipped;
    report.skips.push_back(StrCat(name, " | skipped: a JavaScript binding error (", c.at("bindingError").get<std::string>(),
                                  ") that the typed C++ API does not raise; ", problem));
    return;
  }
  ++report.failed;
  report.failures.push_back(StrCat(name, " | ", problem));
}

}  // namespace

std::vector<KnownFailure> LoadKnownFailures(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(StrCat("cannot open ", path));
  const Json j = ParseJsonDocument(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), path);
  std::vector<KnownFailure> out;
  for (const Json& f : j.at("failures")) {
    KnownFailure k;
    k.file = f.at("file").get<std::string>();
    k.test = f.at("test").get<std::string>();
    if (f.contains("devices")) k.devices = f.at("devices").get<std::vector<std::string>>();
    k.reason = f.at("reason").get<std::string>();
    out.push_back(std::move(k));
  }
  return out;
}

namespace {
std::string DeviceName(MLDeviceType t) {
  switch (t) {
    case MLDeviceType::kReference: return "reference";
    case MLDeviceType::kCpu: return "cpu";
    case MLDeviceType::kGpu: return "gpu";
    case MLDeviceType::kAuto: return "auto";
  }
  return "";
}

const KnownFailure* FindKnown(const VectorOptions& options, const std::string& file, const std::string& test) {
  for (const KnownFailure& k : options.known_failures) {
    if (k.file != file || k.test != test) continue;
    if (!k.devices.empty() &&
        std::find(k.devices.begin(), k.devices.end(), DeviceName(options.device)) == k.devices.end())
      continue;
    return &k;
  }
  return nullptr;
}
}  // namespace

std::string SanitizedName(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || c == '.';
    out += keep ? c : '_';
  }
  if (out.size() > 120) out.resize(120);
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out;
}

std::string CaseDirectory(const std::string& vector_file, size_t index, const std::string& case_name) {
  return (std::filesystem::path(std::filesystem::path(vector_file).stem()) /
          StrCat(index, "-", SanitizedName(case_name)))
      .string();
}

bool IsUnsupportedError(const MLException& e) {
  if (dynamic_cast<const NotSupportedError*>(&e)) return true;
  const std::string_view what = e.what();
  return dynamic_cast<const TypeError*>(&e) && what.find("data type") != std::string_view::npos &&
         what.find("is not supported") != std::string_view::npos;
}

VectorReport RunVectorFile(const std::string& path, const VectorOptions& options) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(StrCat("cannot open ", path));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Json file = ParseJsonDocument(text, path);
  VectorReport report;
  if (file.contains("cases")) {
    report.kind = VectorFileKind::kValidation;
    if (!options.candidate_dir.empty()) {
      // Validation cases build graphs and expect errors: no outputs to score.
      report.skipped = static_cast<int>(file.at("cases").size());
      report.skips.push_back(StrCat("validation cases have no outputs for --candidate-dir to score"));
      return report;
    }
    const Json assumed = file.value("assumedLimits", Json::object());
    const MLOpSupportLimits ours = ML::createContext({.device = options.device}).opSupportLimits();
    for (const Json& c : file.at("cases")) {
      if (!options.name_filter.empty() && CaseName(c).find(options.name_filter) == std::string::npos) continue;
      RunValidationCase(c, assumed, ours, options, report);
    }
    return report;
  }
  if (!file.contains("tests")) throw std::runtime_error(StrCat(path, ": neither a conformance nor a validation file"));
  report.kind = VectorFileKind::kConformance;
  // A device that is not there is no "unsupported" case: this throws.
  if (options.allow_unsupported) ML::createContext({.device = options.device});
  const std::string file_name = std::filesystem::path(path).filename().string();
  const Json& tests = file.at("tests");
  for (size_t index = 0; index < tests.size(); ++index) {
    const Json& test = tests[index];
    const std::string name = test.at("name").get<std::string>();
    if (!options.name_filter.empty() && name.find(options.name_filter) == std::string::npos) continue;
    VectorReport one;
    try {
      RunConformanceCase(test, CaseDirectory(path, index, name), options, one);
    } catch (const MLException& e) {
      if (options.allow_unsupported && IsUnsupportedError(e)) {
        ++report.skipped;
        ++report.unsupported;
        report.unsupported_reasons.push_back(StrCat(e.name(), ": ", e.what()));
        report.skips.push_back(StrCat(name, " | unsupported on ", DeviceName(options.device), ": ",
                                      report.unsupported_reasons.back()));
        continue;
      }
      ++one.failed;
      one.failures.push_back(StrCat(name, " | ", e.name(), ": ", e.what()));
    } catch (const std::exception& e) {
      ++one.failed;
      one.failures.push_back(StrCat(name, " | error: ", e.what()));
    }
    if (const KnownFailure* known = FindKnown(options, file_name, name)) {
      if (one.failed) {
        ++report.skipped;
        report.skips.push_back(StrCat(name, " | known failure: ", known->reason));
      } else {
        ++report.failed;
        report.failures.push_back(StrCat(name, " | listed as a known failure but passed: remove it from the list"));
      }
      continue;
    }
    report.passed += one.passed;
    report.failed += one.failed;
    report.missing += one.missing;
    report.failures.insert(report.failures.end(), one.failures.begin(), one.failures.end());
    report.missing_cases.insert(report.missing_cases.end(), one.missing_cases.begin(), one.missing_cases.end());
  }
  return report;
}

}  // namespace webnn::io
