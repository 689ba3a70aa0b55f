#include "io/webnn_graph.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "api/constant_bytes_builder.h"
#include "core/shape.h"
#include "core/strings.h"
#include "io/js_value.h"
#include "io/op_binding.h"
#include "ops/number_cast.h"
#include "ops/op_kind.h"
#include "ops/schema.h"

namespace webnn::io {

using core::StrCat;
using Json = nlohmann::json;

namespace {

std::vector<std::byte> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(StrCat("cannot open ", path));
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(raw.size());
  if (!raw.empty()) std::memcpy(bytes.data(), raw.data(), raw.size());
  return bytes;
}

Json ParseJson(const std::string& text, const std::string& what) { return ParseJsonDocument(text, what); }

// Typed access with DataError naming the location.
const Json& Field(const Json& j, const char* key, const std::string& what) {
  if (!j.is_object() || !j.contains(key)) throw DataError(StrCat(what, ": missing '", key, "'"));
  return j.at(key);
}
std::string String(const Json& j, const std::string& what) {
  if (!j.is_string()) throw DataError(StrCat(what, ": must be a string"));
  return j.get<std::string>();
}
// An optional string member: `fallback` when absent. (Json::value() throws
// nlohmann's type_error when the member has another type.)
std::string OptionalString(const Json& j, const char* key, const std::string& fallback, const std::string& what) {
  if (!j.contains(key)) return fallback;
  return String(j.at(key), StrCat(what, ": '", key, "'"));
}
uint64_t Unsigned(const Json& j, const std::string& what) {
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<int64_t>() >= 0))
    throw DataError(StrCat(what, ": must be a non-negative integer"));
  return j.get<uint64_t>();
}
MLOperandDataType DataTypeField(const Json& j, const std::string& what) {
  auto t = ParseMLOperandDataType(String(j, what));
  if (!t) throw DataError(StrCat(what, ": unknown data type '", j.get<std::string>(), "'"));
  return *t;
}
std::vector<uint32_t> StaticShape(const Json& j, const std::string& what) {
  if (!j.is_array()) throw DataError(StrCat(what, ": must be an array"));
  std::vector<uint32_t> shape;
  for (size_t i = 0; i < j.size(); ++i) {
    uint64_t d = Unsigned(j[i], StrCat(what, "[", i, "]"));
    if (d > 0xffffffffu) throw DataError(StrCat(what, "[", i, "]: ", d, " does not fit in 32 bits"));
    shape.push_back(static_cast<uint32_t>(d));
  }
  return shape;
}

// Rethrows the current MLException with `prefix` in front of its message.
[[noreturn]] void RethrowWithPrefix(const std::string& prefix) {
  try {
    throw;
  } catch (const TypeError& e) {
    throw TypeError(prefix + e.what());
  } catch (const DataError& e) {
    throw DataError(prefix + e.what());
  } catch (const NotSupportedError& e) {
    throw NotSupportedError(prefix + e.what());
  } catch (const InvalidStateError& e) {
    throw InvalidStateError(prefix + e.what());
  } catch (const OperationError& e) {
    throw OperationError(prefix + e.what());
  } catch (const QuotaExceededError& e) {
    throw QuotaExceededError(prefix + e.what());
  } catch (const MLException& e) {
    throw UnknownError(prefix + e.what());
  }
}

// The bytes of a weight's shape; DataError when the count does not fit in 64
// bits (ByteLengthFor saturates, and no file holds that many bytes).
uint64_t ShapeByteLength(const WeightStore::Tensor& tensor, const std::string& what) {
  const uint64_t bytes = ByteLengthFor(tensor.dataType, core::ElementCount(tensor.shape));
  if (bytes == std::numeric_limits<uint64_t>::max())
    throw DataError(StrCat(what, ": shape ", core::ListToString(tensor.shape), " of ", ToString(tensor.dataType),
                           " has more bytes than 64 bits can count"));
  return bytes;
}

}  // namespace

// ---- weights ------------------------------------------------------------------

void WeightStore::ParseWeights(const std::string& manifest_json, const std::string& what) {
  const std::span<const std::byte> bytes = bytes_;
  if (bytes.size() < 8 || std::memcmp(bytes.data(), "WGWT", 4) != 0)
    throw DataError(StrCat(what, ": not a .weights file (missing WGWT magic)"));
  uint32_t version;
  std::memcpy(&version, bytes.data() + 4, 4);
  if (version != 1) throw DataError(StrCat(what, ": unsupported .weights version ", version));
  const Json manifest = ParseJson(manifest_json, StrCat(what, " manifest"));
  if (!manifest.is_object() ||
      OptionalString(manifest, "format", "", StrCat(what, " manifest")) != "wg-weights-manifest")
    throw DataError(StrCat(what, " manifest: 'format' must be \"wg-weights-manifest\""));
  const Json& tensors = Field(manifest, "tensors", StrCat(what, " manifest"));
  if (!tensors.is_object()) throw DataError(StrCat(what, " manifest: 'tensors' must be an object"));
  for (const auto& [name, t] : tensors.items()) {
    const std::string w = StrCat(what, " manifest: tensor '", name, "'");
    Tensor tensor;
    tensor.dataType = DataTypeField(Field(t, "dataType", w), w + ".dataType");
    tensor.shape = StaticShape(Field(t, "shape", w), w + ".shape");
    tensor.offset = Unsigned(Field(t, "byteOffset", w), w + ".byteOffset");
    tensor.length = Unsigned(Field(t, "byteLength", w), w + ".byteLength");
    if (tensor.offset < 8 || tensor.offset > bytes.size() || tensor.length > bytes.size() - tensor.offset)
      throw DataError(StrCat(w, ": bytes [", tensor.offset, ", ", tensor.offset + tensor.length,
                             ") lie outside the file of ", bytes.size(), " bytes"));
    const uint64_t expected = ShapeByteLength(tensor, w);
    if (tensor.length != expected)
      throw DataError(StrCat(w, ": byteLength ", tensor.length, " does not match its shape (", expected, " bytes)"));
    tensors_[name] = tensor;
  }
}

void WeightStore::ParseSafetensors(const std::string& what) {
  const std::span<const std::byte> bytes = bytes_;
  if (bytes.size() < 8) throw DataError(StrCat(what, ": not a safetensors file (too short)"));
  uint64_t header_len;
  std::memcpy(&header_len, bytes.data(), 8);
  if (header_len > bytes.size() - 8) throw DataError(StrCat(what, ": safetensors header length exceeds the file"));
  const Json header = ParseJson(std::string(reinterpret_cast<const char*>(bytes.data()) + 8, header_len), what);
  if (!header.is_object()) throw DataError(StrCat(what, ": safetensors header must be an object"));
  static const std::map<std::string, MLOperandDataType> kTypes = {
      {"F32", MLOperandDataType::kFloat32}, {"F16", MLOperandDataType::kFloat16}, {"I32", MLOperandDataType::kInt32},
      {"U32", MLOperandDataType::kUint32},  {"I64", MLOperandDataType::kInt64},   {"U64", MLOperandDataType::kUint64},
      {"I8", MLOperandDataType::kInt8},     {"U8", MLOperandDataType::kUint8},    {"BOOL", MLOperandDataType::kUint8}};
  const uint64_t data_start = 8 + header_len;
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string w = StrCat(what, ": tensor '", name, "'");
    const std::string dtype = String(Field(t, "dtype", w), w + ".dtype");
    auto it = kTypes.find(dtype);
    if (it == kTypes.end()) throw DataError(StrCat(w, ": unsupported dtype ", dtype));
    Tensor tensor;
    tensor.dataType = it->second;
    tensor.shape = StaticShape(Field(t, "shape", w), w + ".shape");
    const Json& offsets = Field(t, "data_offsets", w);
    if (!offsets.is_array() || offsets.size() != 2) throw DataError(StrCat(w, ": data_offsets must be [begin, end]"));
    const uint64_t begin = Unsigned(offsets[0], w), end = Unsigned(offsets[1], w);
    if (begin > end || end > bytes.size() - data_start)
      throw DataError(StrCat(w, ": data_offsets [", begin, ", ", end, "] lie outside the file"));
    tensor.offset = data_start + begin;
    tensor.length = end - begin;
    const uint64_t expected = ShapeByteLength(tensor, w);
    if (tensor.length != expected)
      throw DataError(StrCat(w, ": ", tensor.length, " bytes do not match its shape (", expected, " bytes)"));
    tensors_[name] = tensor;
  }
}

WeightStore WeightStore::FromWeightsBytes(std::vector<std::byte> bytes, const std::string& manifest_json,
                                          const std::string& what) {
  WeightStore store;
  store.owned_ = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  store.bytes_ = *store.owned_;
  store.ParseWeights(manifest_json, what);
  return store;
}

WeightStore WeightStore::FromSafetensorsBytes(std::vector<std::byte> bytes, const std::string& what) {
  WeightStore store;
  store.owned_ = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  store.bytes_ = *store.owned_;
  store.ParseSafetensors(what);
  return store;
}

WeightStore WeightStore::Load(const std::string& path, const std::string& manifest_path) {
  // Mapped, not read: a 1 GiB file costs no memory until its pages are read
  // (by a device packing or running a weight), and the pages of a packed
  // weight are released again (memory::ConstantBytes).
  WeightStore store;
  store.file_ = memory::MappedFile::Open(path);
  store.bytes_ = store.file_->bytes();
  if (std::filesystem::path(path).extension() == ".safetensors") {
    store.ParseSafetensors(path);
    return store;
  }
  std::string manifest = manifest_path;
  if (manifest.empty()) manifest = std::filesystem::path(path).replace_extension(".manifest.json").string();
  std::vector<std::byte> m = ReadFileBytes(manifest);
  store.ParseWeights(std::string(reinterpret_cast<const char*>(m.data()), m.size()), path);
  return store;
}

std::shared_ptr<const memory::ConstantBytes> WeightStore::Constant(const Tensor& t) const {
  if (!file_) return memory::ConstantBytes::Copy(Data(t));
  // Typed reads need the element's natural alignment (8 at most: int64).
  const size_t element = std::max<size_t>(1, static_cast<size_t>(BitsPerElement(t.dataType) / 8));
  return memory::ConstantBytes::View(file_, Data(t), std::min<size_t>(element, 8));
}

const WeightStore::Tensor* WeightStore::Find(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

// ---- graph ----------------------------------------------------------------------

LoadedGraph BuildGraphFromJson(const MLContext& context, const std::string& json_text, const WeightStore* weights,
                               const std::string& what, bool weightless, const MLLoadProgressCallback& progress) {
  const Json g = ParseJson(json_text, what);
  if (!g.is_object()) throw DataError(StrCat(what, ": the graph must be a JSON object"));
  if (OptionalString(g, "format", "", what) != "webnn-graph-json")
    throw DataError(StrCat(what, ": 'format' must be \"webnn-graph-json\""));
  const uint64_t version = g.contains("version") ? Unsigned(g.at("version"), StrCat(what, ": 'version'")) : 0;
  if (version != 1 && version != 2) throw DataError(StrCat(what, ": unsupported version ", version, " (1 or 2)"));

  LoadedGraph loaded;
  loaded.name = OptionalString(g, "name", "", what);
  MLGraphBuilder builder(context);
  std::map<std::string, MLOperand> env;

  // Inputs.
  const Json& inputs = Field(g, "inputs", what);
  if (!inputs.is_object()) throw DataError(StrCat(what, ": 'inputs' must be an object"));
  for (const auto& [name, desc] : inputs.items()) {
    const std::string w = StrCat(what, ": input '", name, "'");
    MLOperandDescriptor d;
    d.dataType = DataTypeField(Field(desc, "dataType", w), w + ".dataType");
    const Json& shape = Field(desc, "shape", w);
    if (!shape.is_array()) throw DataError(StrCat(w, ".shape: must be an array"));
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i].is_object()) {
        MLDynamicDimension dyn;
        dyn.name = String(Field(shape[i], "name", w), w + ".shape.name");
        const uint64_t max = Unsigned(Field(shape[i], "maxSize", w), w + ".shape.maxSize");
        if (max > 0xffffffffu) throw DataError(StrCat(w, ".shape: maxSize too large"));
        dyn.maxSize = static_cast<uint32_t>(max);
        d.shape.emplace_back(std::move(dyn));
      } else {
        d.shape.emplace_back(Unsigned(shape[i], StrCat(w, ".shape[", i, "]")));
      }
    }
    try {
      env[name] = builder.input(name, d);
    } catch (const MLException&) {
      RethrowWithPrefix(w + ": ");
    }
  }

  // Constants.
  if (g.contains("consts")) {
    const Json& consts = g.at("consts");
    if (!consts.is_object()) throw DataError(StrCat(what, ": 'consts' must be an object"));
    for (const auto& [name, c] : consts.items()) {
      const std::string w = StrCat(what, ": const '", name, "'");
      const MLOperandDataType type = DataTypeField(Field(c, "dataType", w), w + ".dataType");
      const std::vector<uint32_t> shape = StaticShape(Field(c, "shape", w), w + ".shape");
      MLOperandDescriptor desc{type, {}};
      for (uint32_t d : shape) desc.shape.emplace_back(d);
      const Json& init = Field(c, "init", w);
      const std::string kind = String(Field(init, "kind", w), w + ".init.kind");
      try {
        if (kind == "weights") {
          const std::string ref = String(Field(init, "ref", w), w + ".init.ref");
          if (weightless && !weights) {
            env[name] = builder.constant(MLConstantDescriptor{type, shape, ref});
            continue;
          }
          if (!weights) throw DataError(StrCat(w, ": refers to weight '", ref, "' but no weights file was given"));
          const WeightStore::Tensor* t = weights->Find(ref);
          if (!t) throw DataError(StrCat(w, ": weight '", ref, "' is not in the weights file"));
          if (t->dataType != type || t->shape != shape)
            throw DataError(StrCat(w, ": declared ", ToString(type), " ", core::ListToString(shape), " but weight '",
                                   ref, "' is ", ToString(t->dataType), " ", core::ListToString(t->shape)));
          if (weightless) {  // checked against the file, streamed after build (StreamWeights)
            env[name] = builder.constant(MLConstantDescriptor{type, shape, ref});
            continue;
          }
          env[name] = internal::ConstantFromBytes(builder, desc, weights->Constant(*t));
        } else if (kind == "scalar") {
          // A constant of `shape` filled with one value, cast like an MLNumber.
          const JsValue v = JsValueFromJson(Field(init, "value", w));
          const ops::CastValue cv = ops::CastMLNumber(ToMLNumber(v, w + ".init.value"), type);
          const uint64_t n = core::ElementCount(shape);
          if (n > (uint64_t{1} << 28)) throw DataError(StrCat(w, ": scalar fill of ", n, " elements is too large"));
          std::vector<std::byte> bytes(ByteLengthFor(type, n));
          if (BitsPerElement(type) == 4) {
            const uint8_t nib = static_cast<uint8_t>(cv.u & 0xf);
            for (auto& b : bytes) b = static_cast<std::byte>(nib | (nib << 4));
          } else {
            const size_t es = static_cast<size_t>(BitsPerElement(type) / 8);
            for (uint64_t k = 0; k < n; ++k) ops::WriteCastValue(cv, type, bytes.data() + k * es);
          }
          env[name] = builder.constant(desc, MLBufferSource(std::span<const std::byte>(bytes)));
        } else if (kind == "inlineBytes" || kind == "bytes") {
          const Json& list = Field(init, "bytes", w);
          if (!list.is_array()) throw DataError(StrCat(w, ".init.bytes: must be an array"));
          std::vector<std::byte> bytes;
          for (const Json& b : list) {
            const uint64_t v = Unsigned(b, w + ".init.bytes");
            if (v > 255) throw DataError(StrCat(w, ".init.bytes: ", v, " is not a byte"));
            bytes.push_back(static_cast<std::byte>(v));
          }
          env[name] = builder.constant(desc, MLBufferSource(std::span<const std::byte>(bytes)));
        } else {
          throw DataError(StrCat(w, ": unknown init kind '", kind, "' (weights, scalar, inlineBytes)"));
        }
      } catch (const MLException&) {
        RethrowWithPrefix(StrCat(w, ": "));
      }
    }
  }

  // Nodes, in topological order.
  const Json& nodes = Field(g, "nodes", what);
  if (!nodes.is_array()) throw DataError(StrCat(what, ": 'nodes' must be an array"));
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (progress) progress("nodes", n, nodes.size());
    const Json& node = nodes[n];
    const std::string id = node.is_object() && node.contains("id") && node.at("id").is_string()
                               ? node.at("id").get<std::string>() : StrCat("#", n);
    const std::string w = StrCat(what, ": node '", id, "'");
    const std::string op = String(Field(node, "op", w), w + ".op");
    const std::vector<ParamInfo>* params = OpParams(op);
    const auto op_kind = ops::ParseOpKind(op);
    if (!params || !op_kind) throw DataError(StrCat(w, ": unknown operation '", op, "'"));
    const Json& in = Field(node, "inputs", w);
    if (!in.is_array()) throw DataError(StrCat(w, ".inputs: must be an array"));
    auto operand = [&](const Json& ref) -> MLOperand {
      const std::string r = String(ref, w + ".inputs");
      auto it = env.find(r);
      if (it == env.end()) throw DataError(StrCat(w, ": input '", r, "' is not defined before this node"));
      return it->second;
    };
    JsValue options = JsValue::Object();
    std::set<std::string> positional_names;
    if (node.contains("options")) {
      if (!node.at("options").is_object()) throw DataError(StrCat(w, ".options: must be an object"));
      try {
        options = JsValueFromJson(node.at("options"));
      } catch (const MLException&) {
        RethrowWithPrefix(w + ".options: ");
      }
    }
    std::vector<JsValue> args;
    size_t next = 0;
    for (const ParamInfo& p : *params) {
      if (p.kind == ParamInfo::Kind::kOperand) {
        if (next >= in.size()) throw DataError(StrCat(w, ": missing operand input '", p.name, "'"));
        args.push_back(JsValue::Operand(operand(in[next++])));
      } else if (p.kind == ParamInfo::Kind::kOperandList) {
        JsValue list = JsValue::Array();
        while (next < in.size()) list.items.push_back(JsValue::Operand(operand(in[next++])));
        args.push_back(std::move(list));
      } else {
        const JsValue* v = options.Get(p.name);
        if (!v) throw DataError(StrCat(w, ": options.", p.name, " is required"));
        args.push_back(*v);
        positional_names.insert(p.name);
      }
    }
    // Operand-valued options: extra inputs fill the op's optional operand slots
    // in order; options may also name operands directly.
    const ops::OpSchema& schema = ops::GetSchema(*op_kind);
    std::vector<std::string> optional_slots;
    for (const auto& slot : schema.inputs)
      if (slot.optional) optional_slots.emplace_back(slot.name);
    JsValue dict = JsValue::Object();
    for (const auto& [k, v] : options.members) {
      if (positional_names.count(k)) continue;
      const bool operand_option = std::find(optional_slots.begin(), optional_slots.end(), k) != optional_slots.end();
      if (operand_option && v.kind == JsValue::Kind::kString) {
        dict.Set(k, JsValue::Operand(operand(Json(v.text))));
      } else {
        dict.Set(k, v);
      }
    }
    for (const std::string& slot : optional_slots) {
      if (next >= in.size()) break;
      if (dict.Get(slot)) continue;
      dict.Set(slot, JsValue::Operand(operand(in[next++])));
    }
    if (next < in.size()) throw DataError(StrCat(w, ": ", in.size() - next, " more inputs than '", op, "' takes"));
    args.push_back(std::move(dict));

    std::vector<MLOperand> results;
    try {
      results = InvokeOp(builder, op, args, /*strict=*/true);
    } catch (const MLException&) {
      RethrowWithPrefix(w + ": ");
    }
    if (node.contains("outputs") && !node.at("outputs").is_null()) {
      const Json& outs = node.at("outputs");
      if (!outs.is_array()) throw DataError(StrCat(w, ".outputs: must be an array"));
      if (outs.size() > results.size())
        throw DataError(StrCat(w, ": names ", outs.size(), " outputs but '", op, "' returns ", results.size()));
      for (size_t k = 0; k < outs.size(); ++k) env[String(outs[k], w + ".outputs")] = results[k];
    } else {
      if (results.size() != 1 && op != "split" && op != "gru" && op != "lstm" && op != "lstmCell")
        throw DataError(StrCat(w, ": '", op, "' returns ", results.size(), " outputs; list their names in 'outputs'"));
      env[id] = results.at(0);
    }
  }

  // Outputs.
  const Json& outputs = Field(g, "outputs", what);
  if (!outputs.is_object()) throw DataError(StrCat(what, ": 'outputs' must be an object"));
  MLNamedOperands named;
  for (const auto& [name, ref] : outputs.items()) {
    const std::string r = String(ref, StrCat(what, ": output '", name, "'"));
    auto it = env.find(r);
    if (it == env.end()) throw DataError(StrCat(what, ": output '", name, "' refers to unknown value '", r, "'"));
    named[name] = it->second;
  }
  if (progress) progress("compiling", 0, 0);
  try {
    loaded.graph = builder.build(named);
  } catch (const MLException&) {
    RethrowWithPrefix(what + ": build: ");
  }
  if (progress) progress("compiling", 1, 1);
  loaded.inputs = loaded.graph.inputDescriptors();
  loaded.outputs = loaded.graph.outputDescriptors();
  return loaded;
}

LoadedGraph LoadGraphFile(const MLContext& context, const std::string& json_path, const GraphLoadOptions& options) {
  std::vector<std::byte> text = ReadFileBytes(json_path);
  std::string weights_path = options.weights_path;
  if (weights_path.empty() && !options.weightless) {
    for (const char* ext : {".weights", ".safetensors"}) {
      auto candidate = std::filesystem::path(json_path).replace_extension(ext);
      if (std::filesystem::exists(candidate)) {
        weights_path = candidate.string();
        break;
      }
    }
  }
  std::unique_ptr<WeightStore> weights;
  if (!weights_path.empty() && !options.weightless)
    weights = std::make_unique<WeightStore>(WeightStore::Load(weights_path, options.manifest_path));
  const bool stream = weights && options.stream_chunk_bytes != 0;
  LoadedGraph loaded = BuildGraphFromJson(context, std::string(reinterpret_cast<const char*>(text.data()), text.size()),
                                          weights.get(), json_path, options.weightless || stream, options.progress);
  if (stream) StreamWeights(loaded.graph, *weights, options.stream_chunk_bytes, weights_path, options.progress);
  return loaded;
}

void StreamWeights(MLGraph& graph, const WeightStore& weights, uint64_t chunk_bytes, const std::string& what,
                   const MLLoadProgressCallback& progress) {
  if (chunk_bytes == 0) throw TypeError(StrCat(what, ": the streaming chunk size must not be 0"));
  const std::vector<std::string> labels = graph.unboundConstants();
  uint64_t total = 0, streamed = 0;
  for (const std::string& label : labels)
    if (const WeightStore::Tensor* t = weights.Find(label)) total += t->length;
  for (const std::string& label : labels) {
    const WeightStore::Tensor* t = weights.Find(label);
    if (!t) throw DataError(StrCat(what, ": weight '", label, "' is not in the weights file"));
    MLConstantWriter writer = graph.writeConstant(label);
    if (writer.byteLength() != t->length)
      throw DataError(StrCat(what, ": weight '", label, "' has ", t->length, " bytes, the graph's constant ",
                             writer.byteLength()));
    const std::span<const std::byte> data = weights.Data(*t);
    for (uint64_t at = 0; at < data.size(); at += chunk_bytes) {
      const std::span<const std::byte> chunk = data.subspan(at, std::min<uint64_t>(chunk_bytes, data.size() - at));
      writer.write(MLBufferSource(chunk));
      // Written is copied: the file's pages of this chunk can go.
      if (weights.mapping()) weights.mapping()->ReleasePages(chunk);
      streamed += chunk.size();
      if (progress) progress("streaming", streamed, total);
    }
    writer.close();
  }
}

}  // namespace webnn::io
