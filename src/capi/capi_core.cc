// The C API (webnn_c.h) around the builder: errors, ML, MLContext, MLTensor,
// MLGraph and graph files, each a thin call of the C++ API inside Guard().
#include <chrono>
#include <cstring>
#include <mutex>

#include "capi/capi_internal.h"
#include "core/strings.h"
#include "webnn/graph_file.h"

using namespace webnn;
using namespace webnn::capi;
using core::StrCat;

namespace webnn::capi {

namespace {
WNNErrorType TypeOfName(std::string_view name) {
  static constexpr std::pair<std::string_view, WNNErrorType> kNames[] = {
      {"TypeError", WNNErrorType_TypeError},
      {"DataError", WNNErrorType_DataError},
      {"NotSupportedError", WNNErrorType_NotSupportedError},
      {"OperationError", WNNErrorType_OperationError},
      {"InvalidStateError", WNNErrorType_InvalidStateError},
      {"QuotaExceededError", WNNErrorType_QuotaExceededError},
      {"UnknownError", WNNErrorType_UnknownError},
      {"AbortError", WNNErrorType_AbortError},
  };
  for (const auto& [n, type] : kNames)
    if (n == name) return type;
  return WNNErrorType_UnknownError;
}
}  // namespace

WNNErrorType SetError(WNNError error, WNNErrorType type, std::string message) {
  if (error) {
    error->type = type;
    error->message = std::move(message);
  }
  return type;
}

WNNErrorType SetErrorFromCurrentException(WNNError error) {
  // Storing the message may itself fail to allocate; the type is still set.
  WNNErrorType type = WNNErrorType_UnknownError;
  try {
    try {
      throw;
    } catch (const MLException& e) {
      type = TypeOfName(e.name());
      return SetError(error, type, e.what());
    } catch (const std::bad_alloc&) {
      type = WNNErrorType_QuotaExceededError;
      return SetError(error, type, "out of memory");
    } catch (const std::exception& e) {
      type = WNNErrorType_UnknownError;
      return SetError(error, type, e.what());
    } catch (...) {
      return SetError(error, type, "an unknown C++ exception");
    }
  } catch (...) {
    if (error) {
      error->type = type;
      error->message.clear();
    }
    return type;
  }
}

void RequireNonNull(const void* p, const char* function, const char* what) {
  if (!p) throw TypeError(StrCat(function, ": ", what, " is NULL"));
}

MLOperandDataType ToDataType(WNNOperandDataType type, const char* what) {
  if (type < WNNOperandDataType_Float32 || type > WNNOperandDataType_Uint4)
    throw TypeError(StrCat(what, ": ", static_cast<uint32_t>(type), " is not a WNNOperandDataType"));
  return static_cast<MLOperandDataType>(type - WNNOperandDataType_Float32);
}
WNNOperandDataType FromDataType(MLOperandDataType type) {
  return static_cast<WNNOperandDataType>(static_cast<int>(type) + WNNOperandDataType_Float32);
}

MLDeviceType ToDeviceType(WNNDeviceType type) {
  switch (type) {
    case WNNDeviceType_Auto: return MLDeviceType::kAuto;
    case WNNDeviceType_Reference: return MLDeviceType::kReference;
    case WNNDeviceType_Cpu: return MLDeviceType::kCpu;
    case WNNDeviceType_Gpu: return MLDeviceType::kGpu;
    default: throw TypeError(StrCat("createContext: ", static_cast<uint32_t>(type), " is not a WNNDeviceType"));
  }
}
bool ToBool(WNNOptionalBool v, bool fallback, const char* what) {
  switch (v) {
    case WNNOptionalBool_Undefined: return fallback;
    case WNNOptionalBool_False: return false;
    case WNNOptionalBool_True: return true;
    default: throw TypeError(StrCat(what, ": ", static_cast<uint32_t>(v), " is not a WNNOptionalBool"));
  }
}

std::optional<MLLatencyHint> ToLatencyHint(WNNLatencyHint hint, const char* function) {
  if (hint == WNNLatencyHint_Undefined) return std::nullopt;
  if (static_cast<uint32_t>(hint) > WNNLatencyHint_High)
    throw TypeError(StrCat(function, ": latencyHint ", static_cast<uint32_t>(hint), " is not a WNNLatencyHint"));
  return static_cast<MLLatencyHint>(hint - WNNLatencyHint_Default);
}

WNNDeviceType FromDeviceType(MLDeviceType type) {
  switch (type) {
    case MLDeviceType::kReference: return WNNDeviceType_Reference;
    case MLDeviceType::kCpu: return WNNDeviceType_Cpu;
    case MLDeviceType::kGpu: return WNNDeviceType_Gpu;
    default: return WNNDeviceType_Auto;
  }
}

std::string ToString(const char* s) { return s ? std::string(s) : std::string(); }

std::vector<uint32_t> ToVector(const uint32_t* values, size_t count) {
  if (!values || count == 0) return {};
  return std::vector<uint32_t>(values, values + count);
}
std::optional<std::vector<uint32_t>> ToOptionalVector(const uint32_t* values, size_t count) {
  if (!values) return std::nullopt;
  return ToVector(values, count);
}

std::vector<MLDimension> ToDimensions(const uint32_t* shape, size_t rank, const char* const* names) {
  std::vector<MLDimension> dims;
  if (rank > 0 && !shape) throw TypeError(StrCat("shape: NULL with rank ", rank));
  dims.reserve(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (names && names[i]) dims.emplace_back(MLDynamicDimension{names[i], shape[i]});
    else dims.emplace_back(shape[i]);
  }
  return dims;
}

MLOperandDescriptor ToOperandDescriptor(const WNNOperandDescriptor* d, const char* function) {
  RequireNonNull(d, function, "descriptor");
  return MLOperandDescriptor{ToDataType(d->dataType, function), ToDimensions(d->shape, d->rank, d->dimensionNames)};
}

MLNumber ToNumber(const WNNNumber& n) {
  switch (n.type) {
    case WNNNumberType_Double: return MLNumber(n.value);
    case WNNNumberType_BigInt: return MLNumber::BigInt(n.bigInt);
    case WNNNumberType_BigUint: return MLNumber::BigUint(n.bigUint);
    default: throw TypeError(StrCat("MLNumber: ", static_cast<uint32_t>(n.type), " is not a WNNNumberType"));
  }
}
std::optional<MLNumber> ToOptionalNumber(const WNNNumber& n) {
  if (n.type == WNNNumberType_Undefined) return std::nullopt;
  return ToNumber(n);
}

MLBufferSource ToBuffer(const void* data, size_t byteLength, const char* function) {
  if (!data && byteLength > 0) throw TypeError(StrCat(function, ": data is NULL with byteLength ", byteLength));
  return MLBufferSource(std::span<const std::byte>(static_cast<const std::byte*>(data), data ? byteLength : 0));
}

WNNHeldDescriptor HoldDescriptor(const std::string& name, const MLOperandDescriptor& d) {
  WNNHeldDescriptor held{name, FromDataType(d.dataType), {}, {}, {}};
  bool dynamic = false;
  for (const MLDimension& dim : d.shape) {
    held.shape.push_back(static_cast<uint32_t>(dim.size()));
    held.nameStorage.push_back(dim.isDynamic() ? dim.name() : std::string());
    dynamic |= dim.isDynamic();
  }
  if (dynamic)
    for (size_t i = 0; i < d.shape.size(); ++i)
      held.dimensionNames.push_back(d.shape[i].isDynamic() ? held.nameStorage[i].c_str() : nullptr);
  return held;
}

WNNOperandInfo InfoOf(const WNNHeldDescriptor& h) {
  return WNNOperandInfo{h.name.c_str(),
                        WNNOperandDescriptor{h.dataType, h.shape.size(), h.shape.data(),
                                             h.dimensionNames.empty() ? nullptr : h.dimensionNames.data()}};
}

WNNGraph WrapGraph(MLGraph graph, std::string name) {
  auto g = std::make_unique<WNNGraphImpl>();
  g->graph = std::move(graph);
  g->name = std::move(name);
  g->deviceName = g->graph.deviceName();
  for (const auto& [n, d] : g->graph.inputDescriptors()) g->inputs.push_back(HoldDescriptor(n, d));
  for (const auto& [n, d] : g->graph.outputDescriptors()) g->outputs.push_back(HoldDescriptor(n, d));
  return g.release();
}

}  // namespace webnn::capi

namespace {

MLTensor& TensorOf(WNNTensor t, const char* function) {
  RequireNonNull(t, function, "tensor");
  return t->tensor;
}
MLContext& ContextOf(WNNContext c, const char* function) {
  RequireNonNull(c, function, "context");
  return c->context;
}
MLGraph& GraphOf(WNNGraph g, const char* function) {
  RequireNonNull(g, function, "graph");
  return g->graph;
}

MLNamedTensors ToNamedTensors(const WNNNamedTensor* tensors, size_t count, const char* function) {
  if (count > 0) RequireNonNull(tensors, function, "the named tensors");
  MLNamedTensors out;
  for (size_t i = 0; i < count; ++i) {
    RequireNonNull(tensors[i].name, function, "a tensor's name");
    out[tensors[i].name] = TensorOf(tensors[i].tensor, function);
  }
  return out;
}

MLLogLevel ToLogLevel(WNNLogLevel level) {
  if (level == WNNLogLevel_Undefined) return MLLogLevel::kWarning;
  if (static_cast<uint32_t>(level) > WNNLogLevel_Debug)
    throw TypeError(StrCat("createContext: logLevel ", static_cast<uint32_t>(level), " is not a WNNLogLevel"));
  return static_cast<MLLogLevel>(level - WNNLogLevel_None);
}
WNNLogLevel FromLogLevel(MLLogLevel level) {
  return static_cast<WNNLogLevel>(static_cast<int>(level) + WNNLogLevel_None);
}

MLDispatchOptions ToDispatchOptions(const WNNDispatchOptions* o) {
  MLDispatchOptions out;
  if (!o) return out;
  out.latencyHint = ToLatencyHint(o->latencyHint, "dispatch");
  if (o->deadline.hasValue)  // (dispatch() caps a deadline far in the future)
    out.deadline = std::chrono::microseconds(static_cast<int64_t>(std::min<uint64_t>(o->deadline.value, INT64_MAX)));
  out.profile = o->profile != 0;
  return out;
}

WNNTensorLimits ToLimits(const MLTensorLimits& l) {
  WNNTensorLimits out{0, l.rankRange.min, l.rankRange.max};
  for (MLOperandDataType t : l.dataTypes) out.dataTypes |= 1u << FromDataType(t);
  return out;
}

WNNGraph LoadResult(MLLoadedGraph&& loaded) { return WrapGraph(std::move(loaded.graph), std::move(loaded.name)); }

MLGraphLoadOptions ToLoadOptions(const WNNGraphLoadOptions* o) {
  MLGraphLoadOptions out;
  if (!o) return out;
  out.weightsPath = ToString(o->weightsPath);
  out.manifestPath = ToString(o->manifestPath);
  out.weightless = o->weightless != 0;
  return out;
}

// The graph's placement, computed once and kept with the handle (the C
// structs point into it). Outside extern "C": it returns a C++ reference.
const MLGraphPlacement& PlacementOf(WNNGraph graph, const char* f) {
  MLGraph& g = GraphOf(graph, f);
  if (!graph->placement) graph->placement = g.placement();
  return *graph->placement;
}

}  // namespace

extern "C" {

// ---- Errors -------------------------------------------------------------------
WNNError wnnError_create(void) { return new (std::nothrow) WNNErrorImpl(); }
void wnnError_release(WNNError error) { delete error; }
WNNErrorType wnnError_type(WNNError error) { return error ? error->type : WNNErrorType_NoError; }
const char* wnnError_name(WNNError error) {
  return error && error->type != WNNErrorType_NoError ? wnnErrorType_name(error->type) : "";
}
const char* wnnError_message(WNNError error) { return error ? error->message.c_str() : ""; }
void wnnError_clear(WNNError error) { ClearError(error); }
const char* wnnLogLevel_name(WNNLogLevel level) {
  switch (level) {
    case WNNLogLevel_None: return "none";
    case WNNLogLevel_Error: return "error";
    case WNNLogLevel_Info: return "info";
    case WNNLogLevel_Debug: return "debug";
    default: return "warning";
  }
}
const char* wnnErrorType_name(WNNErrorType type) {
  switch (type) {
    case WNNErrorType_NoError: return "";
    case WNNErrorType_TypeError: return "TypeError";
    case WNNErrorType_DataError: return "DataError";
    case WNNErrorType_NotSupportedError: return "NotSupportedError";
    case WNNErrorType_OperationError: return "OperationError";
    case WNNErrorType_InvalidStateError: return "InvalidStateError";
    case WNNErrorType_QuotaExceededError: return "QuotaExceededError";
    case WNNErrorType_AbortError: return "AbortError";
    default: return "UnknownError";
  }
}

// ---- ML -------------------------------------------------------------------------
const char* wnnML_version(void) {
  static const std::string version = [] {
    try {
      return ML::version();
    } catch (...) {
      return std::string();
    }
  }();
  return version.c_str();
}

WNNContext wnnML_createContext(const WNNContextOptions* options, WNNError error) {
  return Guard<WNNContext>(error, nullptr, [&] {
    MLContextOptions o;
    if (options) {
      if (static_cast<uint32_t>(options->powerPreference) > WNNPowerPreference_LowLatency)
        throw TypeError(StrCat("createContext: ", static_cast<uint32_t>(options->powerPreference),
                               " is not a WNNPowerPreference"));
      o.powerPreference = static_cast<MLPowerPreference>(options->powerPreference);
      o.accelerated = ToBool(options->accelerated, true, "createContext: accelerated");
      o.device = ToDeviceType(options->device);
      o.numThreads = options->numThreads;
      o.graphPasses = ToBool(options->graphPasses, true, "createContext: graphPasses");
      o.nhwcLayout = options->nhwcLayout != 0;
      if (options->memoryLimit != 0) o.memoryLimit = options->memoryLimit;
      if (options->constantStagingLimit != 0) o.constantStagingLimit = options->constantStagingLimit;
      o.strictPlacement = options->strictPlacement != 0;
      o.int8MatmulActivations = options->int8MatmulActivations != 0;
      o.qosWarmProfiling = options->qosWarmProfiling != 0;
      if (auto hint = ToLatencyHint(options->latencyHint, "createContext")) o.latencyHint = *hint;
      o.logLevel = ToLogLevel(options->logLevel);
      if (options->logCallback) {
        o.logCallback = [callback = options->logCallback, userdata = options->logUserdata](MLLogLevel level,
                                                                                          std::string_view message) {
          const std::string text(message);  // NUL-terminated
          callback(FromLogLevel(level), text.c_str(), userdata);
        };
      }
    }
    auto c = std::make_unique<WNNContextImpl>();
    c->context = ML::createContext(o);
    c->deviceName = c->context.deviceName();
    return c.release();
  });
}

namespace {
struct DeviceList {
  std::vector<MLDeviceInfo> devices;
};
const DeviceList& Devices() {
  static const DeviceList* list = [] {
    auto* l = new DeviceList();
    try {
      l->devices = ML::devices();
    } catch (...) {
    }
    return l;
  }();
  return *list;
}
}  // namespace

size_t wnnML_deviceCount(void) { return Devices().devices.size(); }

WNNErrorType wnnML_getDevice(size_t index, WNNDeviceInfo* info, WNNError error) {
  return GuardStatus(error, [&] {
    RequireNonNull(info, "wnnML_getDevice", "info");
    const auto& devices = Devices().devices;
    if (index >= devices.size())
      throw TypeError(StrCat("wnnML_getDevice: index ", index, " with ", devices.size(), " devices"));
    const MLDeviceInfo& d = devices[index];
    *info = WNNDeviceInfo{FromDeviceType(d.type), d.name.c_str(), d.description.c_str(), d.accelerated,
                          d.features.c_str()};
  });
}

const char* wnnML_whyUnavailable(WNNDeviceType type) {
  thread_local std::string why;
  try {
    why = ML::whyUnavailable(ToDeviceType(type));
  } catch (const std::exception& e) {
    why = e.what();
  } catch (...) {
    why = "unknown";
  }
  return why.c_str();
}

// ---- MLContext ----------------------------------------------------------------------
void wnnContext_release(WNNContext context) { delete context; }

void wnnContext_destroy(WNNContext context) {
  Guard<int>(nullptr, 0, [&] {
    if (context) context->context.destroy();
    return 0;
  });
}

WNNBool wnnContext_accelerated(WNNContext context) {
  return Guard<WNNBool>(nullptr, 0, [&] { return context && context->context.accelerated() ? 1u : 0u; });
}

WNNDeviceType wnnContext_deviceType(WNNContext context) {
  return Guard<WNNDeviceType>(nullptr, WNNDeviceType_Auto, [&] {
    return context ? FromDeviceType(context->context.deviceType()) : WNNDeviceType_Auto;
  });
}

const char* wnnContext_deviceName(WNNContext context) { return context ? context->deviceName.c_str() : ""; }

const char* wnnContext_lostMessage(WNNContext context) {
  return Guard<const char*>(nullptr, nullptr, [&]() -> const char* {
    if (!context) return nullptr;
    auto lost = context->context.lost();
    if (lost.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return nullptr;
    std::call_once(context->lostOnce, [&] { context->lostMessage = lost.get().message; });
    return context->lostMessage.c_str();
  });
}

WNNTensor wnnContext_createTensor(WNNContext context, const WNNTensorDescriptor* descriptor, WNNError error) {
  return Guard<WNNTensor>(error, nullptr, [&] {
    const char* f = "createTensor";
    MLContext& c = ContextOf(context, f);
    RequireNonNull(descriptor, f, "descriptor");
    MLTensorDescriptor d{ToDataType(descriptor->dataType, f), ToVector(descriptor->shape, descriptor->rank),
                         descriptor->readable != 0, descriptor->writable != 0};
    if (descriptor->rank > 0 && !descriptor->shape) RequireNonNull(nullptr, f, "shape");
    return new WNNTensorImpl{c.createTensor(d)};
  });
}

WNNTensor wnnContext_createConstantTensor(WNNContext context, const WNNOperandDescriptor* descriptor,
                                          const void* data, size_t byteLength, WNNError error) {
  return Guard<WNNTensor>(error, nullptr, [&] {
    const char* f = "createConstantTensor";
    MLContext& c = ContextOf(context, f);
    return new WNNTensorImpl{
        c.createConstantTensor(ToOperandDescriptor(descriptor, f), ToBuffer(data, byteLength, f))};
  });
}

WNNErrorType wnnContext_writeTensor(WNNContext context, WNNTensor tensor, const void* data, size_t byteLength,
                                    WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "writeTensor";
    ContextOf(context, f).writeTensor(TensorOf(tensor, f), ToBuffer(data, byteLength, f));
  });
}

WNNErrorType wnnContext_readTensor(WNNContext context, WNNTensor tensor, void* data, size_t byteLength,
                                   WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "readTensor";
    MLContext& c = ContextOf(context, f);
    MLTensor& t = TensorOf(tensor, f);
    if (!data && byteLength > 0) RequireNonNull(nullptr, f, "data");
    c.readTensor(t, MLMutableBufferSource(std::span<std::byte>(static_cast<std::byte*>(data), data ? byteLength : 0)));
  });
}

WNNErrorType wnnContext_dispatch(WNNContext context, WNNGraph graph, const WNNNamedTensor* inputs, size_t inputCount,
                                 const WNNNamedTensor* outputs, size_t outputCount, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "dispatch";
    MLContext& c = ContextOf(context, f);
    c.dispatch(GraphOf(graph, f), ToNamedTensors(inputs, inputCount, f), ToNamedTensors(outputs, outputCount, f));
  });
}

WNNErrorType wnnContext_dispatchWithOptions(WNNContext context, WNNGraph graph, const WNNNamedTensor* inputs,
                                            size_t inputCount, const WNNNamedTensor* outputs, size_t outputCount,
                                            const WNNDispatchOptions* options, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "dispatch";
    MLContext& c = ContextOf(context, f);
    c.dispatch(GraphOf(graph, f), ToNamedTensors(inputs, inputCount, f), ToNamedTensors(outputs, outputCount, f),
               ToDispatchOptions(options));
  });
}

void wnnContext_finish(WNNContext context) {
  if (context) context->context.finish();  // never throws
}

WNNErrorType wnnContext_readTensorAsync(WNNContext context, WNNTensor tensor, WNNReadTensorCallback callback,
                                        void* userdata, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "readTensorAsync";
    MLContext& c = ContextOf(context, f);
    MLTensor& t = TensorOf(tensor, f);
    if (!callback) RequireNonNull(nullptr, f, "callback");
    c.readTensorAsync(t, [callback, userdata](std::vector<std::byte> bytes, std::exception_ptr failure) noexcept {
      try {
        if (!failure) {
          callback(bytes.data(), bytes.size(), nullptr, userdata);
          return;
        }
        WNNErrorImpl e;
        try {
          std::rethrow_exception(failure);
        } catch (...) {
          SetErrorFromCurrentException(&e);
        }
        callback(nullptr, 0, &e, userdata);
      } catch (...) {  // a C++ callback that throws: nothing to give it to
      }
    });
  });
}

WNNErrorType wnnContext_bindConstants(WNNContext context, WNNGraph graph, const WNNNamedBuffer* constants,
                                      size_t constantCount, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "bindConstants";
    MLContext& c = ContextOf(context, f);
    if (constantCount > 0) RequireNonNull(constants, f, "constants");
    std::map<std::string, MLBufferSource> buffers;
    for (size_t i = 0; i < constantCount; ++i) {
      RequireNonNull(constants[i].name, f, "a constant's name");
      buffers[constants[i].name] = ToBuffer(constants[i].data, constants[i].byteLength, f);
    }
    c.bindConstants(GraphOf(graph, f), buffers);
  });
}

namespace {

MLQoSOptions ToQoSOptions(const WNNNamedOperandDescriptor* descriptors, size_t count, const char* f) {
  if (count > 0) RequireNonNull(descriptors, f, "inputDescriptors");
  MLQoSOptions o;
  for (size_t i = 0; i < count; ++i) {
    RequireNonNull(descriptors[i].name, f, "an input descriptor's name");
    o.inputDescriptors[descriptors[i].name] = ToOperandDescriptor(&descriptors[i].descriptor, f);
  }
  return o;
}

static_assert(static_cast<int>(WNNPerformanceTier_VerySlow) == static_cast<int>(MLPerformanceTier::kVerySlow) &&
              static_cast<int>(WNNPerformanceTier_Poor) == static_cast<int>(MLPerformanceTier::kPoor));

MLPerformanceTier ToTier(WNNPerformanceTier tier, const char* f) {
  if (static_cast<uint32_t>(tier) > static_cast<uint32_t>(WNNPerformanceTier_Poor))
    throw TypeError(std::string(f) + ": requiredTier " + std::to_string(static_cast<uint32_t>(tier)) +
                    " is not a WNNPerformanceTier");
  return static_cast<MLPerformanceTier>(tier);
}

}  // namespace

WNNErrorType wnnContext_estimateQoS(WNNContext context, WNNGraph graph, const WNNNamedOperandDescriptor* inputDescriptors,
                                    size_t inputDescriptorCount, WNNPerformanceTier* tier, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "estimateQoS";
    RequireNonNull(tier, f, "tier");
    const MLQoSReport r =
        ContextOf(context, f).estimateQoS(GraphOf(graph, f), ToQoSOptions(inputDescriptors, inputDescriptorCount, f));
    *tier = static_cast<WNNPerformanceTier>(r.performanceTier);
  });
}

WNNErrorType wnnContext_meetsRequirement(WNNContext context, WNNGraph graph, WNNPerformanceTier requiredTier,
                                         const WNNNamedOperandDescriptor* inputDescriptors,
                                         size_t inputDescriptorCount, WNNBool* meets, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "meetsRequirement";
    RequireNonNull(meets, f, "meets");
    *meets = ContextOf(context, f).meetsRequirement(GraphOf(graph, f), ToTier(requiredTier, f),
                                                    ToQoSOptions(inputDescriptors, inputDescriptorCount, f))
                 ? 1
                 : 0;
  });
}

// The context's limits, built at the first query: opSupportLimits() builds
// every operator's (~29 us), and a caller asking operator by operator
// (wnnContext_operatorSupportLimits) paid that for each answer.
namespace {
const MLOpSupportLimits& LimitsOf(WNNContext context, const char* function) {
  MLContext& c = ContextOf(context, function);
  std::call_once(context->limitsOnce, [&] { context->limits = c.opSupportLimits(); });
  return context->limits;
}
}  // namespace

WNNErrorType wnnContext_opSupportLimits(WNNContext context, WNNOpSupportLimits* limits, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "opSupportLimits";
    RequireNonNull(limits, f, "limits");
    const MLOpSupportLimits& l = LimitsOf(context, f);
    *limits = WNNOpSupportLimits{l.preferredInputLayout == MLInputOperandLayout::kNhwc ? WNNInputOperandLayout_Nhwc
                                                                                       : WNNInputOperandLayout_Nchw,
                                 l.maxTensorByteLength, ToLimits(l.input), ToLimits(l.constant), ToLimits(l.output)};
  });
}

WNNErrorType wnnContext_operatorSupportLimits(WNNContext context, const char* op, const char* operand,
                                              WNNTensorLimits* limits, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "opSupportLimits";
    RequireNonNull(op, f, "op");
    RequireNonNull(operand, f, "operand");
    RequireNonNull(limits, f, "limits");
    const MLOpSupportLimits& l = LimitsOf(context, f);
    auto o = l.operators.find(op);
    if (o == l.operators.end()) throw TypeError(StrCat(f, ": no operator named '", op, "'"));
    auto t = o->second.find(operand);
    if (t == o->second.end()) throw TypeError(StrCat(f, ": ", op, " has no operand named '", operand, "'"));
    *limits = ToLimits(t->second);
  });
}

WNNErrorType wnnContext_memoryUsage(WNNContext context, WNNMemoryUsage* usage, WNNError error) {
  static_assert(WNN_MEMORY_CATEGORY_COUNT == kMLMemoryCategoryCount);
  static_assert(WNN_MEMORY_DEVICE_COUNT == kMLMemoryDeviceCount);
  return GuardStatus(error, [&] {
    const char* f = "memoryUsage";
    RequireNonNull(usage, f, "usage");
    MLMemoryUsage u = ContextOf(context, f).memoryUsage();
    *usage = WNNMemoryUsage{};
    for (size_t d = 0; d < kMLMemoryDeviceCount; ++d) {
      for (size_t c = 0; c < kMLMemoryCategoryCount; ++c)
        usage->counters[d][c] = WNNMemoryCounter{u.counters[d][c].current, u.counters[d][c].peak};
      usage->devices[d] = WNNMemoryCounter{u.devices[d].current, u.devices[d].peak};
    }
    usage->total = WNNMemoryCounter{u.total.current, u.total.peak};
    usage->memoryLimit = u.memoryLimit.value_or(0);
  });
}

void wnnContext_resetPeakMemory(WNNContext context) {
  Guard<int>(nullptr, 0, [&] {
    if (context) context->context.resetPeakMemory();
    return 0;
  });
}

// ---- MLTensor ------------------------------------------------------------------------
void wnnTensor_release(WNNTensor tensor) { delete tensor; }
void wnnTensor_destroy(WNNTensor tensor) {
  Guard<int>(nullptr, 0, [&] {
    if (tensor) tensor->tensor.destroy();
    return 0;
  });
}
WNNOperandDataType wnnTensor_dataType(WNNTensor tensor) {
  return tensor ? FromDataType(tensor->tensor.dataType()) : WNNOperandDataType_Undefined;
}
const uint32_t* wnnTensor_shape(WNNTensor tensor, size_t* rank) {
  if (!tensor) {
    if (rank) *rank = 0;
    return nullptr;
  }
  const std::vector<uint32_t>& shape = tensor->tensor.shape();
  if (rank) *rank = shape.size();
  return shape.data();
}
WNNBool wnnTensor_readable(WNNTensor tensor) { return tensor && tensor->tensor.readable(); }
WNNBool wnnTensor_writable(WNNTensor tensor) { return tensor && tensor->tensor.writable(); }
WNNBool wnnTensor_constant(WNNTensor tensor) { return tensor && tensor->tensor.constant(); }

// ---- MLGraph --------------------------------------------------------------------------
void wnnGraph_release(WNNGraph graph) { delete graph; }
void wnnGraph_destroy(WNNGraph graph) {
  Guard<int>(nullptr, 0, [&] {
    if (graph) graph->graph.destroy();
    return 0;
  });
}
size_t wnnGraph_inputCount(WNNGraph graph) { return graph ? graph->inputs.size() : 0; }
size_t wnnGraph_outputCount(WNNGraph graph) { return graph ? graph->outputs.size() : 0; }

WNNErrorType wnnGraph_getInput(WNNGraph graph, size_t index, WNNOperandInfo* info, WNNError error) {
  return GuardStatus(error, [&] {
    RequireNonNull(graph, "wnnGraph_getInput", "graph");
    RequireNonNull(info, "wnnGraph_getInput", "info");
    if (index >= graph->inputs.size())
      throw TypeError(StrCat("wnnGraph_getInput: index ", index, " with ", graph->inputs.size(), " inputs"));
    *info = InfoOf(graph->inputs[index]);
  });
}

WNNErrorType wnnGraph_getOutput(WNNGraph graph, size_t index, WNNOperandInfo* info, WNNError error) {
  return GuardStatus(error, [&] {
    RequireNonNull(graph, "wnnGraph_getOutput", "graph");
    RequireNonNull(info, "wnnGraph_getOutput", "info");
    if (index >= graph->outputs.size())
      throw TypeError(StrCat("wnnGraph_getOutput: index ", index, " with ", graph->outputs.size(), " outputs"));
    *info = InfoOf(graph->outputs[index]);
  });
}

WNNErrorType wnnGraph_computeShapes(WNNGraph graph, const WNNNamedShape* inputs, size_t inputCount,
                                    WNNNamedShape* outputs, size_t outputCapacity, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "computeShapes";
    MLGraph& g = GraphOf(graph, f);
    if (inputCount > 0) RequireNonNull(inputs, f, "inputs");
    std::map<std::string, std::vector<uint32_t>> shapes;
    for (size_t i = 0; i < inputCount; ++i) {
      RequireNonNull(inputs[i].name, f, "an input's name");
      if (inputs[i].rank > 0) RequireNonNull(inputs[i].shape, f, "an input's shape");
      shapes[inputs[i].name] = ToVector(inputs[i].shape, inputs[i].rank);
    }
    if (outputCapacity < graph->outputs.size())
      throw TypeError(StrCat(f, ": room for ", outputCapacity, " outputs; the graph has ", graph->outputs.size()));
    if (graph->outputs.size() > 0) RequireNonNull(outputs, f, "outputs");
    graph->computedShapes = g.computeShapes(shapes);
    size_t i = 0;
    for (const auto& [name, shape] : graph->computedShapes) {
      if (i >= outputCapacity) break;
      outputs[i++] = WNNNamedShape{name.c_str(), shape.size(), shape.data()};
    }
  });
}

size_t wnnGraph_unboundConstantCount(WNNGraph graph) {
  return Guard<size_t>(nullptr, 0, [&]() -> size_t {
    if (!graph) return 0;
    graph->unbound = graph->graph.unboundConstants();
    return graph->unbound.size();
  });
}

const char* wnnGraph_getUnboundConstant(WNNGraph graph, size_t index) {
  if (!graph || index >= graph->unbound.size()) return nullptr;
  return graph->unbound[index].c_str();
}

WNNErrorType wnnGraph_setConstantData(WNNGraph graph, const char* label, const void* data, size_t byteLength,
                                      WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "setConstantData";
    MLGraph& g = GraphOf(graph, f);
    RequireNonNull(label, f, "label");
    g.setConstantData(label, ToBuffer(data, byteLength, f));
  });
}

WNNConstantWriter wnnGraph_writeConstant(WNNGraph graph, const char* label, WNNError error) {
  return Guard<WNNConstantWriter>(error, nullptr, [&] {
    const char* f = "writeConstant";
    MLGraph& g = GraphOf(graph, f);
    RequireNonNull(label, f, "label");
    auto w = std::make_unique<WNNConstantWriterImpl>();
    w->writer = g.writeConstant(label);
    return w.release();
  });
}

WNNErrorType wnnConstantWriter_write(WNNConstantWriter writer, const void* data, size_t byteLength, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "MLConstantWriter.write";
    RequireNonNull(writer, f, "writer");
    writer->writer.write(ToBuffer(data, byteLength, f));
  });
}

WNNBool wnnConstantWriter_ready(WNNConstantWriter writer) {
  return Guard<WNNBool>(nullptr, 0, [&] { return writer && writer->writer.ready() ? 1 : 0; });
}

WNNErrorType wnnConstantWriter_close(WNNConstantWriter writer, WNNError error) {
  return GuardStatus(error, [&] {
    RequireNonNull(writer, "MLConstantWriter.close", "writer");
    writer->writer.close();
  });
}

void wnnConstantWriter_abort(WNNConstantWriter writer) {
  if (writer) writer->writer.abort();  // noexcept in effect: abort() does not throw
}

uint64_t wnnConstantWriter_byteLength(WNNConstantWriter writer) {
  return Guard<uint64_t>(nullptr, 0, [&] { return writer ? writer->writer.byteLength() : 0; });
}

uint64_t wnnConstantWriter_bytesWritten(WNNConstantWriter writer) {
  return Guard<uint64_t>(nullptr, 0, [&] { return writer ? writer->writer.bytesWritten() : 0; });
}

void wnnConstantWriter_release(WNNConstantWriter writer) { delete writer; }

const char* wnnGraph_deviceName(WNNGraph graph) { return graph ? graph->deviceName.c_str() : ""; }
const char* wnnGraph_name(WNNGraph graph) { return graph ? graph->name.c_str() : ""; }

WNNErrorType wnnGraph_memoryPlan(WNNGraph graph, WNNGraphMemoryPlan* plan, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "memoryPlan";
    MLGraph& g = GraphOf(graph, f);
    RequireNonNull(plan, f, "plan");
    MLGraphMemoryPlan p = g.memoryPlan();
    *plan = WNNGraphMemoryPlan{p.arenaBytes, p.intermediateBytes, p.intermediateCount};
  });
}

WNNErrorType wnnGraph_placement(WNNGraph graph, WNNGraphPlacement* placement, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "placement";
    const MLGraphPlacement& p = PlacementOf(graph, f);
    RequireNonNull(placement, f, "placement");
    *placement = WNNGraphPlacement{static_cast<WNNPowerPreference>(p.effectivePolicy), FromDeviceType(p.device),
                                   p.nodes.size(), p.transfers, p.transferBytes};
  });
}

WNNErrorType wnnGraph_getPlacedNode(WNNGraph graph, size_t index, WNNPlacedNode* node, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "getPlacedNode";
    const MLGraphPlacement& p = PlacementOf(graph, f);
    RequireNonNull(node, f, "node");
    if (index >= p.nodes.size())
      throw TypeError(StrCat(f, ": index ", index, " is past the graph's ", p.nodes.size(), " nodes"));
    const MLNodePlacement& n = p.nodes[index];
    *node = WNNPlacedNode{n.op.c_str(), n.label.c_str(), FromDeviceType(n.device)};
  });
}

WNNErrorType wnnGraph_profile(WNNGraph graph, WNNGraphProfile* profile, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "profile";
    MLGraph& g = GraphOf(graph, f);
    RequireNonNull(profile, f, "profile");
    MLGraphProfile p = g.profile();
    std::vector<std::vector<WNNShape>> shapes;
    for (const MLStepProfile& s : p.steps) {
      std::vector<WNNShape>& step = shapes.emplace_back();
      for (const auto* list : {&s.inputShapes, &s.outputShapes})
        for (const std::vector<uint32_t>& shape : *list) step.push_back(WNNShape{shape.size(), shape.data()});
    }
    // Moving the vector of steps keeps each shape's storage where it is.
    graph->profile = std::move(p);
    graph->profileShapes = std::move(shapes);
    profile->stepCount = graph->profile.steps.size();
  });
}

WNNErrorType wnnGraph_getProfiledStep(WNNGraph graph, size_t index, WNNStepProfile* step, WNNError error) {
  return GuardStatus(error, [&] {
    const char* f = "getProfiledStep";
    GraphOf(graph, f);
    RequireNonNull(step, f, "step");
    const std::vector<MLStepProfile>& steps = graph->profile.steps;
    if (index >= steps.size())
      throw TypeError(StrCat(f, ": index ", index, " is past the profile's ", steps.size(),
                             " steps (wnnGraph_profile takes the snapshot)"));
    const MLStepProfile& s = steps[index];
    const std::vector<WNNShape>& shapes = graph->profileShapes[index];
    *step = WNNStepProfile{s.op.c_str(), s.label.c_str(), FromDeviceType(s.device),
                           s.inputShapes.size(), shapes.data(),
                           s.outputShapes.size(), shapes.data() + s.inputShapes.size(),
                           s.ms, s.flops, s.bytes};
  });
}

// ---- Graph files ------------------------------------------------------------------------
WNNGraph wnnLoadGraph(WNNContext context, const char* path, const WNNGraphLoadOptions* options, WNNError error) {
  return Guard<WNNGraph>(error, nullptr, [&] {
    const char* f = "loadGraph";
    MLContext& c = ContextOf(context, f);
    RequireNonNull(path, f, "path");
    return LoadResult(loadGraph(c, path, ToLoadOptions(options)));
  });
}

WNNGraph wnnLoadGraphFromMemory(WNNContext context, const WNNGraphBuffers* buffers,
                                const WNNGraphLoadOptions* options, WNNError error) {
  return Guard<WNNGraph>(error, nullptr, [&] {
    const char* f = "loadGraphFromMemory";
    MLContext& c = ContextOf(context, f);
    RequireNonNull(buffers, f, "buffers");
    if (buffers->graphJsonLength > 0) RequireNonNull(buffers->graphJson, f, "graphJson");
    if (buffers->weightsLength > 0) RequireNonNull(buffers->weights, f, "weights");
    if (buffers->weightsManifestJsonLength > 0) RequireNonNull(buffers->weightsManifestJson, f, "weightsManifestJson");
    MLGraphBuffers b;
    b.graphJson = std::string_view(buffers->graphJson ? buffers->graphJson : "", buffers->graphJsonLength);
    if (buffers->weights)
      b.weights = std::span<const std::byte>(static_cast<const std::byte*>(buffers->weights), buffers->weightsLength);
    if (buffers->weightsManifestJson)
      b.weightsManifestJson = std::string_view(buffers->weightsManifestJson, buffers->weightsManifestJsonLength);
    if (buffers->name) b.name = buffers->name;
    return LoadResult(loadGraphFromMemory(c, b, ToLoadOptions(options)));
  });
}

}  // extern "C"
