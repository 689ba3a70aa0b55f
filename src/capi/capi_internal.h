// The C API's handles and the glue between webnn_c.h and the C++ API: what each
// opaque handle holds, conversions of C structs to C++ values, and Guard(),
// which turns every exception into a WNNError.
#pragma once

#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webnn/webnn.h"
#include "webnn/webnn_c.h"

struct WNNErrorImpl {
  WNNErrorType type = WNNErrorType_NoError;
  std::string message;
};

struct WNNContextImpl {
  webnn::MLContext context;
  std::string deviceName;
  std::once_flag lostOnce;  // lostMessage is set once, by the first query after the loss
  std::string lostMessage;
  std::once_flag limitsOnce;  // limits is set once, by the first opSupportLimits query
  webnn::MLOpSupportLimits limits;
};

struct WNNTensorImpl {
  webnn::MLTensor tensor;
};

// An operand lives in its builder's deque, so a WNNOperand stays valid (and its
// address stable) until the builder is released.
struct WNNOperandImpl {
  webnn::MLOperand operand;
  std::vector<uint32_t> sizes;                // shape(), sizes (maxSize when dynamic)
  std::vector<std::optional<std::string>> names;  // dynamic dimensions' names
};

struct WNNGraphBuilderImpl {
  explicit WNNGraphBuilderImpl(const webnn::MLContext& context) : builder(context) {}
  webnn::MLGraphBuilder builder;
  std::deque<WNNOperandImpl> operands;
};

// A descriptor held by a graph for WNNOperandInfo.
struct WNNHeldDescriptor {
  std::string name;
  WNNOperandDataType dataType;
  std::vector<uint32_t> shape;
  std::vector<std::string> nameStorage;
  std::vector<const char*> dimensionNames;  // empty when every dimension is static
};

struct WNNConstantWriterImpl {
  webnn::MLConstantWriter writer;
};

struct WNNGraphImpl {
  webnn::MLGraph graph;
  std::string name;
  std::string deviceName;
  std::vector<WNNHeldDescriptor> inputs, outputs;
  std::vector<std::string> unbound;
  std::map<std::string, std::vector<uint32_t>> computedShapes;
  std::optional<webnn::MLGraphPlacement> placement;  // made by the first placement call
  // wnnGraph_profile's snapshot, and each step's input shapes then output
  // shapes as WNNShapes pointing into it.
  webnn::MLGraphProfile profile;
  std::vector<std::vector<WNNShape>> profileShapes;
};

namespace webnn::capi {

// Sets `error` (when not null) from the exception being handled and returns
// its type.
WNNErrorType SetErrorFromCurrentException(WNNError error);
WNNErrorType SetError(WNNError error, WNNErrorType type, std::string message);
inline void ClearError(WNNError error) {
  if (error) {
    error->type = WNNErrorType_NoError;
    error->message.clear();
  }
}

// Runs `body` and returns its value; an exception becomes `error` and `failed`.
template <typename R, typename F>
R Guard(WNNError error, R failed, F&& body) noexcept {
  try {
    ClearError(error);
    return body();
  } catch (...) {
    SetErrorFromCurrentException(error);
    return failed;
  }
}
// The same for calls returning only a status.
template <typename F>
WNNErrorType GuardStatus(WNNError error, F&& body) noexcept {
  try {
    ClearError(error);
    body();
    return WNNErrorType_NoError;
  } catch (...) {
    return SetErrorFromCurrentException(error);
  }
}

// TypeError "<function>: <what> is NULL" unless `p`.
void RequireNonNull(const void* p, const char* function, const char* what);

// ---- Conversions ---------------------------------------------------------------
MLOperandDataType ToDataType(WNNOperandDataType type, const char* what);
WNNOperandDataType FromDataType(MLOperandDataType type);
MLDeviceType ToDeviceType(WNNDeviceType type);
// A WNNOptionalBool: `fallback` for Undefined; TypeError naming `what` out of range.
bool ToBool(WNNOptionalBool v, bool fallback, const char* what);
// nullopt for Undefined; TypeError naming `function` for a value out of range.
std::optional<MLLatencyHint> ToLatencyHint(WNNLatencyHint hint, const char* function);
WNNDeviceType FromDeviceType(MLDeviceType type);
std::string ToString(const char* s);  // NULL -> ""
std::vector<uint32_t> ToVector(const uint32_t* values, size_t count);
std::optional<std::vector<uint32_t>> ToOptionalVector(const uint32_t* values, size_t count);
// A shape with optional names of dynamic dimensions.
std::vector<MLDimension> ToDimensions(const uint32_t* shape, size_t rank, const char* const* names);
MLOperandDescriptor ToOperandDescriptor(const WNNOperandDescriptor* descriptor, const char* function);
MLNumber ToNumber(const WNNNumber& number);
std::optional<MLNumber> ToOptionalNumber(const WNNNumber& number);
MLBufferSource ToBuffer(const void* data, size_t byteLength, const char* function);
WNNHeldDescriptor HoldDescriptor(const std::string& name, const MLOperandDescriptor& descriptor);
WNNOperandInfo InfoOf(const WNNHeldDescriptor& held);

// A new WNNGraph for a built or loaded graph.
WNNGraph WrapGraph(MLGraph graph, std::string name);

}  // namespace webnn::capi
