// Implementations of the value types declared in include/webnn/types.h and the
// core helpers.
#include <cmath>
#include <limits>

#include "core/data_type.h"
#include "core/shape.h"
#include "core/strings.h"
#include "core/symbols.h"
#include "webnn/types.h"

namespace webnn {
namespace {
constexpr std::string_view kTypeNames[kMLOperandDataTypeCount] = {
    "float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"};
constexpr int kTypeBits[kMLOperandDataTypeCount] = {32, 16, 32, 32, 64, 64, 8, 8, 4, 4};
}  // namespace

std::string_view ToString(MLOperandDataType type) { return kTypeNames[static_cast<int>(type)]; }

std::optional<MLOperandDataType> ParseMLOperandDataType(std::string_view name) {
  for (int i = 0; i < kMLOperandDataTypeCount; ++i)
    if (kTypeNames[i] == name) return static_cast<MLOperandDataType>(i);
  return std::nullopt;
}

int BitsPerElement(MLOperandDataType type) { return kTypeBits[static_cast<int>(type)]; }

uint64_t ByteLengthFor(MLOperandDataType type, uint64_t elements) {
  const uint64_t bits = static_cast<uint64_t>(BitsPerElement(type));
  // UINT64_MAX is what a saturated element count (core::ElementCount) looks
  // like: it stays saturated. ((elements + 1) / 2 wrapped it to 0 bytes, which
  // a manifest entry with absurd int4 dimensions and byteLength 0 matched.)
  if (elements == std::numeric_limits<uint64_t>::max()) return elements;
  if (bits == 4) return elements / 2 + (elements & 1);
  const uint64_t bytes = bits / 8;
  if (elements > std::numeric_limits<uint64_t>::max() / bytes) return std::numeric_limits<uint64_t>::max();
  return elements * bytes;
}

bool IsFloatingPoint(MLOperandDataType t) {
  return t == MLOperandDataType::kFloat32 || t == MLOperandDataType::kFloat16;
}
bool IsSignedInteger(MLOperandDataType t) {
  return t == MLOperandDataType::kInt32 || t == MLOperandDataType::kInt64 ||
         t == MLOperandDataType::kInt8 || t == MLOperandDataType::kInt4;
}
bool IsUnsignedInteger(MLOperandDataType t) {
  return t == MLOperandDataType::kUint32 || t == MLOperandDataType::kUint64 ||
         t == MLOperandDataType::kUint8 || t == MLOperandDataType::kUint4;
}

#define WEBNN_ENUM_TO_STRING(Type, ...)                             \
  std::string_view ToString(Type v) {                               \
    static constexpr std::string_view kNames[] = {__VA_ARGS__};     \
    return kNames[static_cast<int>(v)];                             \
  }
WEBNN_ENUM_TO_STRING(MLInputOperandLayout, "nchw", "nhwc")
WEBNN_ENUM_TO_STRING(MLConv2dFilterOperandLayout, "oihw", "hwio", "ohwi", "ihwo")
WEBNN_ENUM_TO_STRING(MLConvTranspose2dFilterOperandLayout, "iohw", "hwoi", "ohwi")
WEBNN_ENUM_TO_STRING(MLRoundingType, "floor", "ceil")
WEBNN_ENUM_TO_STRING(MLPaddingMode, "constant", "edge", "reflection")
WEBNN_ENUM_TO_STRING(MLInterpolationMode, "nearest-neighbor", "linear")
WEBNN_ENUM_TO_STRING(MLRecurrentNetworkActivation, "relu", "sigmoid", "tanh")
WEBNN_ENUM_TO_STRING(MLRecurrentNetworkDirection, "forward", "backward", "both")
WEBNN_ENUM_TO_STRING(MLGruWeightLayout, "zrn", "rzn")
WEBNN_ENUM_TO_STRING(MLLstmWeightLayout, "iofg", "ifgo")
WEBNN_ENUM_TO_STRING(MLPowerPreference, "default", "high-performance", "low-power", "fallback", "low-latency")
WEBNN_ENUM_TO_STRING(MLDeviceType, "auto", "reference", "cpu", "gpu")
WEBNN_ENUM_TO_STRING(MLLogLevel, "none", "error", "warning", "info", "debug")
WEBNN_ENUM_TO_STRING(MLMemoryCategory, "constants (raw)", "constants (packed)", "intermediates", "workspace", "tensors",
                     "staging")
WEBNN_ENUM_TO_STRING(MLMemoryDevice, "host", "gpu")
#undef WEBNN_ENUM_TO_STRING

std::optional<MLArrayBufferViewType> ParseMLArrayBufferViewType(std::string_view name) {
  static constexpr std::pair<std::string_view, MLArrayBufferViewType> kViews[] = {
      {"ArrayBuffer", MLArrayBufferViewType::kArrayBuffer},
      {"SharedArrayBuffer", MLArrayBufferViewType::kArrayBuffer},
      {"DataView", MLArrayBufferViewType::kArrayBuffer},
      {"Int8Array", MLArrayBufferViewType::kInt8Array},
      {"Uint8Array", MLArrayBufferViewType::kUint8Array},
      {"Uint8ClampedArray", MLArrayBufferViewType::kUint8ClampedArray},
      {"Int16Array", MLArrayBufferViewType::kInt16Array},
      {"Uint16Array", MLArrayBufferViewType::kUint16Array},
      {"Int32Array", MLArrayBufferViewType::kInt32Array},
      {"Uint32Array", MLArrayBufferViewType::kUint32Array},
      {"Float16Array", MLArrayBufferViewType::kFloat16Array},
      {"Float32Array", MLArrayBufferViewType::kFloat32Array},
      {"Float64Array", MLArrayBufferViewType::kFloat64Array},
      {"BigInt64Array", MLArrayBufferViewType::kBigInt64Array},
      {"BigUint64Array", MLArrayBufferViewType::kBigUint64Array},
  };
  for (const auto& [n, v] : kViews)
    if (n == name) return v;
  return std::nullopt;
}

MLNumber MLNumber::BigInt(int64_t v) {
  MLNumber n;
  n.kind_ = Kind::kBigInt;
  n.int_ = v;
  n.uint_ = static_cast<uint64_t>(v);
  return n;
}
MLNumber MLNumber::BigUint(uint64_t v) {
  MLNumber n;
  n.kind_ = Kind::kBigUint;
  n.uint_ = v;
  n.int_ = static_cast<int64_t>(v);
  return n;
}
double MLNumber::asDouble() const {
  switch (kind_) {
    case Kind::kDouble: return double_;
    case Kind::kBigInt: return static_cast<double>(int_);
    case Kind::kBigUint: return static_cast<double>(uint_);
  }
  return 0;
}
std::string MLNumber::ToString() const {
  switch (kind_) {
    case Kind::kDouble: return core::StrCat(double_);
    case Kind::kBigInt: return core::StrCat(int_, "n");
    case Kind::kBigUint: return core::StrCat(uint_, "n");
  }
  return {};
}

std::string MLDimension::ToString() const {
  if (dynamic_) return core::StrCat("{name: '", name_, "', maxSize: ", size_, "}");
  return core::StrCat(size_);
}

namespace core {

std::vector<DataType> DataTypeSet::ToVector() const {
  std::vector<DataType> out;
  for (int i = 0; i < kMLOperandDataTypeCount; ++i)
    if (Contains(static_cast<DataType>(i))) out.push_back(static_cast<DataType>(i));
  return out;
}

std::string DataTypeSet::ToString() const {
  std::string s;
  for (DataType t : ToVector()) {
    if (!s.empty()) s += ", ";
    s += webnn::ToString(t);
  }
  return s.empty() ? "(none)" : s;
}

Shape StaticShape(const std::vector<uint32_t>& sizes) {
  Shape s;
  s.reserve(sizes.size());
  for (uint32_t v : sizes) s.push_back(Dim::Static(v));
  return s;
}

std::vector<uint32_t> Sizes(const Shape& shape) {
  std::vector<uint32_t> out;
  out.reserve(shape.size());
  for (const Dim& d : shape) out.push_back(d.size);
  return out;
}

bool IsStatic(const Shape& shape) {
  for (const Dim& d : shape)
    if (!d.IsStatic()) return false;
  return true;
}

namespace {
template <typename Range, typename Get>
uint64_t SaturatingProduct(const Range& r, Get get) {
  uint64_t n = 1;
  for (const auto& d : r) {
    const uint64_t v = get(d);
    if (v != 0 && n > std::numeric_limits<uint64_t>::max() / v) return std::numeric_limits<uint64_t>::max();
    n *= v;
  }
  return n;
}
}  // namespace

uint64_t ElementCount(const Shape& shape) {
  return SaturatingProduct(shape, [](const Dim& d) { return uint64_t{d.size}; });
}
uint64_t ElementCount(const std::vector<uint32_t>& sizes) {
  return SaturatingProduct(sizes, [](uint32_t d) { return uint64_t{d}; });
}

std::string ShapeToString(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i].size);
    if (!shape[i].IsStatic()) s += "(dynamic)";
  }
  return s + "]";
}

std::vector<uint64_t> RowMajorStrides(const std::vector<uint32_t>& sizes) {
  std::vector<uint64_t> strides(sizes.size());
  uint64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= sizes[i];
  }
  return strides;
}

std::optional<uint32_t> SymbolTable::Intern(std::string_view name, uint32_t max_size) {
  if (auto id = Find(name)) {
    if (symbols_[*id].max_size != max_size) return std::nullopt;
    return id;
  }
  symbols_.push_back({std::string(name), max_size, false, std::nullopt});
  return static_cast<uint32_t>(symbols_.size() - 1);
}

std::optional<uint32_t> SymbolTable::Find(std::string_view name) const {
  for (size_t i = 1; i < symbols_.size(); ++i)
    if (!symbols_[i].derived && symbols_[i].name == name) return static_cast<uint32_t>(i);
  return std::nullopt;
}

uint32_t SymbolTable::AddDerived(std::string name, uint32_t max_size) {
  symbols_.push_back({std::move(name), max_size, true, std::nullopt});
  return static_cast<uint32_t>(symbols_.size() - 1);
}

}  // namespace core
}  // namespace webnn
