// WebNN value types: data types, enums, MLNumber, dimensions, descriptors, buffer
// sources and the spec's exception types. Names mirror the WebNN IDL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "webnn/export.h"

namespace webnn {

// ---------------------------------------------------------------------------
// Exceptions, named after the spec's (WebIDL TypeError and DOMException names).
// ---------------------------------------------------------------------------
class WEBNN_EXPORT MLException : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // The spec's name for this error: "TypeError", "InvalidStateError", ...
  virtual const char* name() const noexcept = 0;
};

#define WEBNN_DECLARE_EXCEPTION(Name)                                  \
  class WEBNN_EXPORT Name : public MLException {                       \
   public:                                                             \
    using MLException::MLException;                                    \
    const char* name() const noexcept override { return #Name; }       \
  };
WEBNN_DECLARE_EXCEPTION(TypeError)
WEBNN_DECLARE_EXCEPTION(DataError)
WEBNN_DECLARE_EXCEPTION(NotSupportedError)
WEBNN_DECLARE_EXCEPTION(OperationError)
WEBNN_DECLARE_EXCEPTION(InvalidStateError)
WEBNN_DECLARE_EXCEPTION(QuotaExceededError)
WEBNN_DECLARE_EXCEPTION(UnknownError)
WEBNN_DECLARE_EXCEPTION(AbortError)
#undef WEBNN_DECLARE_EXCEPTION

// ---------------------------------------------------------------------------
// Data types. The spec's eight, plus int4/uint4 (packed two per byte, low nibble
// first) which quantizeLinear, dequantizeLinear, cast, constants and tensors accept.
// ---------------------------------------------------------------------------
enum class MLOperandDataType : uint8_t {
  kFloat32,
  kFloat16,
  kInt32,
  kUint32,
  kInt64,
  kUint64,
  kInt8,
  kUint8,
  kInt4,
  kUint4,
};
inline constexpr int kMLOperandDataTypeCount = 10;

// "float32", "float16", ... (the IDL enum strings).
WEBNN_EXPORT std::string_view ToString(MLOperandDataType type);
// Parses an IDL enum string (int4/uint4 included); nullopt if unknown.
WEBNN_EXPORT std::optional<MLOperandDataType> ParseMLOperandDataType(std::string_view name);
// Bits per element: 32, 16, ..., 4.
WEBNN_EXPORT int BitsPerElement(MLOperandDataType type);
// Bytes needed for `elements` elements (int4/uint4 round up to whole bytes).
// Saturates at UINT64_MAX, and UINT64_MAX elements (a saturated count) give
// UINT64_MAX bytes, so no count is ever mistaken for a small one.
WEBNN_EXPORT uint64_t ByteLengthFor(MLOperandDataType type, uint64_t elements);
WEBNN_EXPORT bool IsFloatingPoint(MLOperandDataType type);
WEBNN_EXPORT bool IsSignedInteger(MLOperandDataType type);
WEBNN_EXPORT bool IsUnsignedInteger(MLOperandDataType type);

enum class MLInputOperandLayout { kNchw, kNhwc };
enum class MLConv2dFilterOperandLayout { kOihw, kHwio, kOhwi, kIhwo };
enum class MLConvTranspose2dFilterOperandLayout { kIohw, kHwoi, kOhwi };
enum class MLRoundingType { kFloor, kCeil };
enum class MLPaddingMode { kConstant, kEdge, kReflection };
enum class MLInterpolationMode { kNearestNeighbor, kLinear };
enum class MLRecurrentNetworkActivation { kRelu, kSigmoid, kTanh };
enum class MLRecurrentNetworkDirection { kForward, kBackward, kBoth };
enum class MLGruWeightLayout { kZrn, kRzn };
enum class MLLstmWeightLayout { kIofg, kIfgo };

// MLPowerPreference with "fallback" from MLComputePolicy (webnn PR #923).
// The compute policy (webnn#923's MLComputePolicy; the spec's power
// preference plus "fallback": maximum compatibility, for checking numerics,
// and webnn#934's "low-latency": real-time work).
enum class MLPowerPreference { kDefault, kHighPerformance, kLowPower, kFallback, kLowLatency };

// Extension: which of our devices runs a context. kAuto picks gpu when
// `accelerated` and Vulkan is usable, else cpu, else reference.
enum class MLDeviceType { kAuto, kReference, kCpu, kGpu };

// Extension: how much a context tells its MLContextOptions::logCallback.
// A message has one of kError .. kDebug and is delivered when it is at or
// above the context's logLevel (kError is the most severe); kNone delivers
// nothing.
enum class MLLogLevel : uint8_t { kNone, kError, kWarning, kInfo, kDebug };

WEBNN_EXPORT std::string_view ToString(MLInputOperandLayout v);
WEBNN_EXPORT std::string_view ToString(MLConv2dFilterOperandLayout v);
WEBNN_EXPORT std::string_view ToString(MLConvTranspose2dFilterOperandLayout v);
WEBNN_EXPORT std::string_view ToString(MLRoundingType v);
WEBNN_EXPORT std::string_view ToString(MLPaddingMode v);
WEBNN_EXPORT std::string_view ToString(MLInterpolationMode v);
WEBNN_EXPORT std::string_view ToString(MLRecurrentNetworkActivation v);
WEBNN_EXPORT std::string_view ToString(MLRecurrentNetworkDirection v);
WEBNN_EXPORT std::string_view ToString(MLGruWeightLayout v);
WEBNN_EXPORT std::string_view ToString(MLLstmWeightLayout v);
WEBNN_EXPORT std::string_view ToString(MLPowerPreference v);
WEBNN_EXPORT std::string_view ToString(MLDeviceType v);
WEBNN_EXPORT std::string_view ToString(MLLogLevel v);  // "none", "error", "warning", "info", "debug"

// ---- Memory accounting (extension; MLContext::memoryUsage) ------------------
// What a context's bytes are for.
enum class MLMemoryCategory : uint8_t {
  kConstantsRaw,     // constant bytes as given (builder copies, constant tensors, bound weights)
  kConstantsPacked,  // constants re-laid out for a device's kernels (cpu packed weights)
  kIntermediates,    // compiled graphs' arenas of intermediate values
  kWorkspace,        // kernel scratch (per-thread buffers, recurrent state, gpu scratch and parameters)
  kTensors,          // createTensor()
  kStaging,          // copies between host and device or between tensors
};
inline constexpr size_t kMLMemoryCategoryCount = 6;
// Where they live.
enum class MLMemoryDevice : uint8_t { kHost, kGpu };
inline constexpr size_t kMLMemoryDeviceCount = 2;
WEBNN_EXPORT std::string_view ToString(MLMemoryCategory category);  // "constants (raw)", ...
WEBNN_EXPORT std::string_view ToString(MLMemoryDevice device);      // "host", "gpu"

// ---------------------------------------------------------------------------
// MLNumber: (bigint or unrestricted double). A plain C++ number is the JS
// "number" (double); 64-bit integers beyond 2^53 need BigInt()/BigUint().
// ---------------------------------------------------------------------------
class WEBNN_EXPORT MLNumber {
 public:
  enum class Kind { kDouble, kBigInt, kBigUint };

  MLNumber() = default;
  MLNumber(double v) : kind_(Kind::kDouble), double_(v) {}  // NOLINT: implicit like JS
  MLNumber(float v) : MLNumber(static_cast<double>(v)) {}   // NOLINT
  MLNumber(int v) : MLNumber(static_cast<double>(v)) {}     // NOLINT
  static MLNumber BigInt(int64_t v);
  static MLNumber BigUint(uint64_t v);

  Kind kind() const { return kind_; }
  bool isBigInt() const { return kind_ != Kind::kDouble; }
  double asDouble() const;  // exact for doubles; nearest double for bigints
  int64_t bigIntValue() const { return int_; }
  uint64_t bigUintValue() const { return uint_; }
  std::string ToString() const;

 private:
  Kind kind_ = Kind::kDouble;
  double double_ = 0;
  int64_t int_ = 0;
  uint64_t uint_ = 0;
};

// ---------------------------------------------------------------------------
// Dimensions. A dimension is a size, or a named dynamic dimension
// {name, maxSize} (webnn#883, first form): inputs that share a name share a size
// at dispatch; the size is chosen per dispatch in [1, maxSize].
// ---------------------------------------------------------------------------
struct MLDynamicDimension {
  std::string name;
  uint32_t maxSize = 0;
};

class WEBNN_EXPORT MLDimension {
 public:
  MLDimension() = default;
  // Accepts any integer; out-of-range values (negative, >= 2^32) are kept so the
  // caller gets the spec's TypeError from validation instead of a silent wrap.
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  MLDimension(T size) : size_(static_cast<int64_t>(size)) {  // NOLINT: implicit
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      if (size > static_cast<T>(INT64_MAX)) size_ = INT64_MAX;
    }
  }
  MLDimension(MLDynamicDimension d)  // NOLINT: implicit
      : size_(d.maxSize), name_(std::move(d.name)), dynamic_(true) {}

  bool isDynamic() const { return dynamic_; }
  // Static size, or maxSize of a dynamic dimension.
  int64_t size() const { return size_; }
  const std::string& name() const { return name_; }

  friend bool operator==(const MLDimension& a, const MLDimension& b) {
    return a.dynamic_ == b.dynamic_ && a.size_ == b.size_ && a.name_ == b.name_;
  }
  friend bool operator==(const MLDimension& a, int64_t b) { return !a.dynamic_ && a.size_ == b; }
  std::string ToString() const;

 private:
  int64_t size_ = 0;
  std::string name_;
  bool dynamic_ = false;
};

struct MLOperandDescriptor {
  MLOperandDataType dataType = MLOperandDataType::kFloat32;
  std::vector<MLDimension> shape;
};

// MLTensorDescriptor: a concrete shape plus access flags.
struct MLTensorDescriptor {
  MLOperandDataType dataType = MLOperandDataType::kFloat32;
  std::vector<uint32_t> shape;
  bool readable = false;
  bool writable = false;
};

// Descriptor of a weightless constant (DAOP / webnn#901): shape, type and the
// label its data is bound by after build().
struct MLConstantDescriptor {
  MLOperandDataType dataType = MLOperandDataType::kFloat32;
  std::vector<uint32_t> shape;
  std::string label;
};

// ---------------------------------------------------------------------------
// Buffer sources (AllowSharedBufferSource). The view type matters to the spec's
// "validate buffer with descriptor": a typed view must match the data type
// (Uint8Array and plain ArrayBuffer always pass).
// ---------------------------------------------------------------------------
enum class MLArrayBufferViewType {
  kArrayBuffer,  // untyped bytes
  kInt8Array,
  kUint8Array,
  kUint8ClampedArray,
  kInt16Array,
  kUint16Array,
  kInt32Array,
  kUint32Array,
  kFloat16Array,
  kFloat32Array,
  kFloat64Array,
  kBigInt64Array,
  kBigUint64Array,
};
WEBNN_EXPORT std::optional<MLArrayBufferViewType> ParseMLArrayBufferViewType(std::string_view name);

namespace internal {
template <typename T> constexpr MLArrayBufferViewType ViewTypeFor() {
  if constexpr (std::is_same_v<T, float>) return MLArrayBufferViewType::kFloat32Array;
  else if constexpr (std::is_same_v<T, double>) return MLArrayBufferViewType::kFloat64Array;
  else if constexpr (std::is_same_v<T, int8_t>) return MLArrayBufferViewType::kInt8Array;
  else if constexpr (std::is_same_v<T, uint8_t>) return MLArrayBufferViewType::kUint8Array;
  else if constexpr (std::is_same_v<T, int16_t>) return MLArrayBufferViewType::kInt16Array;
  else if constexpr (std::is_same_v<T, uint16_t>) return MLArrayBufferViewType::kUint16Array;
  else if constexpr (std::is_same_v<T, int32_t>) return MLArrayBufferViewType::kInt32Array;
  else if constexpr (std::is_same_v<T, uint32_t>) return MLArrayBufferViewType::kUint32Array;
  else if constexpr (std::is_same_v<T, int64_t>) return MLArrayBufferViewType::kBigInt64Array;
  else if constexpr (std::is_same_v<T, uint64_t>) return MLArrayBufferViewType::kBigUint64Array;
  else return MLArrayBufferViewType::kArrayBuffer;
}
}  // namespace internal

class MLBufferSource {
 public:
  MLBufferSource() = default;
  MLBufferSource(std::span<const std::byte> bytes,
                 MLArrayBufferViewType view = MLArrayBufferViewType::kArrayBuffer,
                 bool detached = false)
      : bytes_(bytes), view_(view), detached_(detached) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  MLBufferSource(std::span<const T> values)  // NOLINT: implicit, like passing a typed array
      : bytes_(std::as_bytes(values)), view_(internal::ViewTypeFor<T>()) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  MLBufferSource(const std::vector<T>& values)  // NOLINT
      : MLBufferSource(std::span<const T>(values)) {}

  std::span<const std::byte> bytes() const { return detached_ ? std::span<const std::byte>() : bytes_; }
  MLArrayBufferViewType viewType() const { return view_; }
  bool detached() const { return detached_; }

 private:
  std::span<const std::byte> bytes_;
  MLArrayBufferViewType view_ = MLArrayBufferViewType::kArrayBuffer;
  bool detached_ = false;
};

// Writable destination for readTensor(tensor, outputData).
class MLMutableBufferSource {
 public:
  MLMutableBufferSource(std::span<std::byte> bytes,
                        MLArrayBufferViewType view = MLArrayBufferViewType::kArrayBuffer)
      : bytes_(bytes), view_(view) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  MLMutableBufferSource(std::span<T> values)  // NOLINT
      : bytes_(std::as_writable_bytes(values)), view_(internal::ViewTypeFor<T>()) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  MLMutableBufferSource(std::vector<T>& values)  // NOLINT
      : MLMutableBufferSource(std::span<T>(values)) {}

  std::span<std::byte> bytes() const { return bytes_; }
  MLArrayBufferViewType viewType() const { return view_; }

 private:
  std::span<std::byte> bytes_;
  MLArrayBufferViewType view_;
};

}  // namespace webnn
