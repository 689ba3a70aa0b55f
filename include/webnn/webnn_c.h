/* The WebNN API in C (C11, and usable from C++): a flat ABI over the C++ API of
 * webnn/webnn.h, in the manner of webgpu.h and ONNX Runtime's C API.
 *
 * Names mirror the W3C WebNN IDL: interface MLFoo becomes the handle WNNFoo,
 * its member bar() the function wnnFoo_bar(), dictionary MLBazOptions the
 * struct WNNBazOptions and enum value "nchw" WNNInputOperandLayout_Nchw. The
 * builder's operations are wnnGraphBuilder_<IDL name> (wnnGraphBuilder_conv2d).
 *
 * Conventions (docs/C_API.md has the whole story and an example):
 * - Handles are opaque pointers. What wnn*_create/createContext/createTensor/
 *   build/loadGraph return is released with the matching wnn*_release; release
 *   of NULL does nothing. Operands belong to their builder and live until it is
 *   released. Releasing a handle does not invalidate objects made from it (a
 *   graph keeps its context alive).
 * - Errors: a fallible call takes a WNNError (from wnnError_create; NULL to
 *   ignore the details). On failure it returns NULL / 0 / the error type, and the
 *   error holds the spec's error type (TypeError, DataError, ...) and the message
 *   the C++ API's exception carried; on success it is cleared. No C++ exception
 *   crosses this boundary. A WNNError is used by one thread at a time.
 * - Options structs: a zero-initialized struct (or a NULL pointer) means every
 *   member takes the IDL's default. So an enum's value 0 is `Undefined` (the
 *   default), a member whose IDL default is not zero is a WNNOptional* (set
 *   hasValue), an absent operand is NULL, and an optional array is a pointer and
 *   a count where NULL means absent (a non-NULL pointer with count 0 is an empty
 *   array, which differs: reduceSum with no axes reduces nothing).
 * - Strings are UTF-8 and NUL-terminated. Strings and arrays a call returns are
 *   owned by the handle they come from and stay valid until it is released or
 *   the same query is made on it again.
 */
#ifndef WEBNN_WEBNN_C_H_
#define WEBNN_WEBNN_C_H_

#include <stddef.h>
#include <stdint.h>

#include "webnn/export.h"
#include "webnn/version.h"

#define WNN_EXPORT WEBNN_EXPORT

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t WNNBool; /* 0 or 1 */

/* ---- Handles ------------------------------------------------------------- */
typedef struct WNNErrorImpl* WNNError;
typedef struct WNNContextImpl* WNNContext;
typedef struct WNNGraphBuilderImpl* WNNGraphBuilder;
typedef struct WNNOperandImpl* WNNOperand;
typedef struct WNNGraphImpl* WNNGraph;
typedef struct WNNTensorImpl* WNNTensor;
typedef struct WNNConstantWriterImpl* WNNConstantWriter;

/* ---- Enums (0 = Undefined: the IDL default where there is one) ----------- */
/* Compiled as C++ (the library) the enums have uint32_t as their fixed
 * underlying type, so every 32-bit value a C caller passes is a value of the
 * type and the library's range checks are defined behaviour: an out-of-range
 * value of an enum without a fixed type is undefined in C++, and compilers
 * drop the checks (UBSan's -fsanitize=enum reported it). A C enum with these
 * enumerators is int-sized, 4 bytes like uint32_t, on every ABI we build for. */
#ifdef __cplusplus
#define WNN_ENUM_BASE : uint32_t
#else
#define WNN_ENUM_BASE
#endif
typedef enum WNNErrorType WNN_ENUM_BASE {
  WNNErrorType_NoError = 0,
  WNNErrorType_TypeError = 1,
  WNNErrorType_DataError = 2,
  WNNErrorType_NotSupportedError = 3,
  WNNErrorType_OperationError = 4,
  WNNErrorType_InvalidStateError = 5,
  WNNErrorType_QuotaExceededError = 6, /* also: out of memory */
  WNNErrorType_UnknownError = 7,
  WNNErrorType_AbortError = 8,
  WNNErrorType_Force32 = 0x7FFFFFFF
} WNNErrorType;

typedef enum WNNOperandDataType WNN_ENUM_BASE {
  WNNOperandDataType_Undefined = 0, /* a TypeError in a descriptor; argMin/argMax: int32 */
  WNNOperandDataType_Float32 = 1,
  WNNOperandDataType_Float16 = 2,
  WNNOperandDataType_Int32 = 3,
  WNNOperandDataType_Uint32 = 4,
  WNNOperandDataType_Int64 = 5,
  WNNOperandDataType_Uint64 = 6,
  WNNOperandDataType_Int8 = 7,
  WNNOperandDataType_Uint8 = 8,
  WNNOperandDataType_Int4 = 9, /* packed two per byte, low nibble first */
  WNNOperandDataType_Uint4 = 10,
  WNNOperandDataType_Force32 = 0x7FFFFFFF
} WNNOperandDataType;

typedef enum WNNPowerPreference WNN_ENUM_BASE {
  WNNPowerPreference_Default = 0,
  WNNPowerPreference_HighPerformance = 1,
  WNNPowerPreference_LowPower = 2,
  WNNPowerPreference_Fallback = 3,
  WNNPowerPreference_LowLatency = 4,
  WNNPowerPreference_Force32 = 0x7FFFFFFF
} WNNPowerPreference;

/* Extension: the device that runs a context. */
typedef enum WNNDeviceType WNN_ENUM_BASE {
  WNNDeviceType_Auto = 0,
  WNNDeviceType_Reference = 1,
  WNNDeviceType_Cpu = 2,
  WNNDeviceType_Gpu = 3,
  WNNDeviceType_Force32 = 0x7FFFFFFF
} WNNDeviceType;

/* Extension: the real-time hint of a context's, graph's or dispatch's work
 * (MLLatencyHint). Undefined: the context's default; for a graph, the
 * context's hint; for a dispatch, the graph's. Low puts the work on the
 * latency queue. */
typedef enum WNNLatencyHint WNN_ENUM_BASE {
  WNNLatencyHint_Undefined = 0,
  WNNLatencyHint_Default = 1,
  WNNLatencyHint_Low = 2,
  WNNLatencyHint_Medium = 3,
  WNNLatencyHint_High = 4,
  WNNLatencyHint_Force32 = 0x7FFFFFFF
} WNNLatencyHint;

/* Extension: how much a context logs (MLLogLevel). A message is delivered
 * when its level is at or above the context's (Error is the most severe). */
typedef enum WNNLogLevel WNN_ENUM_BASE {
  WNNLogLevel_Undefined = 0, /* warning */
  WNNLogLevel_None = 1,      /* nothing */
  WNNLogLevel_Error = 2,
  WNNLogLevel_Warning = 3,
  WNNLogLevel_Info = 4,
  WNNLogLevel_Debug = 5,
  WNNLogLevel_Force32 = 0x7FFFFFFF
} WNNLogLevel;

typedef enum WNNInputOperandLayout WNN_ENUM_BASE {
  WNNInputOperandLayout_Undefined = 0, /* nchw */
  WNNInputOperandLayout_Nchw = 1,
  WNNInputOperandLayout_Nhwc = 2,
  WNNInputOperandLayout_Force32 = 0x7FFFFFFF
} WNNInputOperandLayout;

typedef enum WNNConv2dFilterOperandLayout WNN_ENUM_BASE {
  WNNConv2dFilterOperandLayout_Undefined = 0, /* oihw */
  WNNConv2dFilterOperandLayout_Oihw = 1,
  WNNConv2dFilterOperandLayout_Hwio = 2,
  WNNConv2dFilterOperandLayout_Ohwi = 3,
  WNNConv2dFilterOperandLayout_Ihwo = 4,
  WNNConv2dFilterOperandLayout_Force32 = 0x7FFFFFFF
} WNNConv2dFilterOperandLayout;

typedef enum WNNConvTranspose2dFilterOperandLayout WNN_ENUM_BASE {
  WNNConvTranspose2dFilterOperandLayout_Undefined = 0, /* iohw */
  WNNConvTranspose2dFilterOperandLayout_Iohw = 1,
  WNNConvTranspose2dFilterOperandLayout_Hwoi = 2,
  WNNConvTranspose2dFilterOperandLayout_Ohwi = 3,
  WNNConvTranspose2dFilterOperandLayout_Force32 = 0x7FFFFFFF
} WNNConvTranspose2dFilterOperandLayout;

typedef enum WNNRoundingType WNN_ENUM_BASE {
  WNNRoundingType_Undefined = 0, /* floor */
  WNNRoundingType_Floor = 1,
  WNNRoundingType_Ceil = 2,
  WNNRoundingType_Force32 = 0x7FFFFFFF
} WNNRoundingType;

typedef enum WNNPaddingMode WNN_ENUM_BASE {
  WNNPaddingMode_Undefined = 0, /* constant */
  WNNPaddingMode_Constant = 1,
  WNNPaddingMode_Edge = 2,
  WNNPaddingMode_Reflection = 3,
  WNNPaddingMode_Force32 = 0x7FFFFFFF
} WNNPaddingMode;

typedef enum WNNInterpolationMode WNN_ENUM_BASE {
  WNNInterpolationMode_Undefined = 0, /* nearest-neighbor */
  WNNInterpolationMode_NearestNeighbor = 1,
  WNNInterpolationMode_Linear = 2,
  WNNInterpolationMode_Force32 = 0x7FFFFFFF
} WNNInterpolationMode;

typedef enum WNNRecurrentNetworkActivation WNN_ENUM_BASE {
  WNNRecurrentNetworkActivation_Undefined = 0, /* a TypeError in a list of activations */
  WNNRecurrentNetworkActivation_Relu = 1,
  WNNRecurrentNetworkActivation_Sigmoid = 2,
  WNNRecurrentNetworkActivation_Tanh = 3,
  WNNRecurrentNetworkActivation_Force32 = 0x7FFFFFFF
} WNNRecurrentNetworkActivation;

typedef enum WNNRecurrentNetworkDirection WNN_ENUM_BASE {
  WNNRecurrentNetworkDirection_Undefined = 0, /* forward */
  WNNRecurrentNetworkDirection_Forward = 1,
  WNNRecurrentNetworkDirection_Backward = 2,
  WNNRecurrentNetworkDirection_Both = 3,
  WNNRecurrentNetworkDirection_Force32 = 0x7FFFFFFF
} WNNRecurrentNetworkDirection;

typedef enum WNNGruWeightLayout WNN_ENUM_BASE {
  WNNGruWeightLayout_Undefined = 0, /* zrn */
  WNNGruWeightLayout_Zrn = 1,
  WNNGruWeightLayout_Rzn = 2,
  WNNGruWeightLayout_Force32 = 0x7FFFFFFF
} WNNGruWeightLayout;

typedef enum WNNLstmWeightLayout WNN_ENUM_BASE {
  WNNLstmWeightLayout_Undefined = 0, /* iofg */
  WNNLstmWeightLayout_Iofg = 1,
  WNNLstmWeightLayout_Ifgo = 2,
  WNNLstmWeightLayout_Force32 = 0x7FFFFFFF
} WNNLstmWeightLayout;

/* A boolean whose IDL default is true. */
typedef enum WNNOptionalBool WNN_ENUM_BASE {
  WNNOptionalBool_Undefined = 0,
  WNNOptionalBool_False = 1,
  WNNOptionalBool_True = 2,
  WNNOptionalBool_Force32 = 0x7FFFFFFF
} WNNOptionalBool;

/* A number whose IDL default is not zero: hasValue 0 takes the default. */
typedef struct WNNOptionalDouble {
  WNNBool hasValue;
  double value;
} WNNOptionalDouble;
typedef struct WNNOptionalUint32 {
  WNNBool hasValue;
  uint32_t value;
} WNNOptionalUint32;
typedef struct WNNOptionalUint64 {
  WNNBool hasValue;
  uint64_t value;
} WNNOptionalUint64;

/* MLNumber: (bigint or unrestricted double). Undefined = absent. */
typedef enum WNNNumberType WNN_ENUM_BASE {
  WNNNumberType_Undefined = 0,
  WNNNumberType_Double = 1,
  WNNNumberType_BigInt = 2,  /* bigInt */
  WNNNumberType_BigUint = 3, /* bigUint: a bigint above INT64_MAX */
  WNNNumberType_Force32 = 0x7FFFFFFF
} WNNNumberType;
typedef struct WNNNumber {
  WNNNumberType type;
  double value;
  int64_t bigInt;
  uint64_t bigUint;
} WNNNumber;

/* ---- Errors ---------------------------------------------------------------- */
WNN_EXPORT WNNError wnnError_create(void);
WNN_EXPORT void wnnError_release(WNNError error);
WNN_EXPORT WNNErrorType wnnError_type(WNNError error); /* NoError for NULL */
/* "TypeError", ...; "" when there is no error. */
WNN_EXPORT const char* wnnError_name(WNNError error);
/* The message, e.g. "conv2d 'stem': filter rank must be 4, got 3"; "" when none. */
WNN_EXPORT const char* wnnError_message(WNNError error);
WNN_EXPORT void wnnError_clear(WNNError error);
WNN_EXPORT const char* wnnErrorType_name(WNNErrorType type);
/* "error", "warning", "info", "debug", "none"; "warning" for Undefined. */
WNN_EXPORT const char* wnnLogLevel_name(WNNLogLevel level);

/* ---- Descriptors --------------------------------------------------------------- */
/* MLOperandDescriptor. A dimension i is dynamic (webnn#883) when dimensionNames
 * is not NULL and dimensionNames[i] is not NULL: then shape[i] is its maxSize. */
typedef struct WNNOperandDescriptor {
  WNNOperandDataType dataType;
  size_t rank;
  const uint32_t* shape;
  const char* const* dimensionNames;
} WNNOperandDescriptor;

typedef struct WNNTensorDescriptor {
  WNNOperandDataType dataType;
  size_t rank;
  const uint32_t* shape;
  WNNBool readable;
  WNNBool writable;
} WNNTensorDescriptor;

/* A weightless constant (webnn#901): bound after build() by its label. */
typedef struct WNNConstantDescriptor {
  WNNOperandDataType dataType;
  size_t rank;
  const uint32_t* shape;
  const char* label;
} WNNConstantDescriptor;

typedef struct WNNNamedOperand {
  const char* name;
  WNNOperand operand;
} WNNNamedOperand;
typedef struct WNNNamedTensor {
  const char* name;
  WNNTensor tensor;
} WNNNamedTensor;
typedef struct WNNNamedBuffer {
  const char* name;
  const void* data;
  size_t byteLength;
} WNNNamedBuffer;
typedef struct WNNNamedShape {
  const char* name;
  size_t rank;
  const uint32_t* shape;
} WNNNamedShape;
/* A graph's input or output. */
typedef struct WNNOperandInfo {
  const char* name;
  WNNOperandDescriptor descriptor;
} WNNOperandInfo;

/* ---- ML ------------------------------------------------------------------------ */
/* A context's log messages (WNNContextOptions.logCallback): `message` is
 * NUL-terminated and valid during the call. It is called from the thread
 * whose call logs or from a scheduler thread, possibly from several threads
 * at once; it must not call back into the library with the same context. */
typedef void (*WNNLogCallback)(WNNLogLevel level, const char* message, void* userdata);

typedef struct WNNContextOptions {
  WNNPowerPreference powerPreference;
  WNNOptionalBool accelerated; /* default true */
  /* Extensions (MLContextOptions in webnn/webnn.h): */
  WNNDeviceType device;
  uint32_t numThreads;         /* cpu device; 0 = every core available */
  WNNOptionalBool graphPasses; /* default true */
  WNNBool nhwcLayout;
  uint64_t memoryLimit; /* bytes; 0 = unlimited */
  /* Raw bytes streamed constants may hold at once before they are packed
   * (MLContextOptions::constantStagingLimit); 0 = the default, 64 MiB. */
  uint64_t constantStagingLimit;
  /* A node the device does not run fails the build instead of running on a
   * fallback device (MLContextOptions::strictPlacement). */
  WNNBool strictPlacement;
  /* The hint of the context's work unless a graph or dispatch gives one. */
  WNNLatencyHint latencyHint;
  /* Messages at or above logLevel go to logCallback(level, message,
   * logUserdata); without a callback to stderr; WNNLogLevel_None: nowhere.
   * docs/C_API.md lists what is logged at which level. */
  WNNLogLevel logLevel;
  WNNLogCallback logCallback;
  void* logUserdata;
  /* Opt-in, inexact: the cpu device's quantized matmuls of <= 4 rows quantize
   * their activations to int8 (MLContextOptions::int8MatmulActivations). */
  WNNBool int8MatmulActivations;
  /* DAOP warm profiling: dispatches refine the context's QoS cost model
   * (MLContextOptions::qosWarmProfiling). */
  WNNBool qosWarmProfiling;
} WNNContextOptions;

typedef struct WNNDeviceInfo {
  WNNDeviceType type;
  const char* name; /* "reference", "cpu", "gpu" */
  const char* description;
  WNNBool accelerated;
  const char* features;
} WNNDeviceInfo;

/* The library's version, e.g. "0.1.0" (WEBNN_VERSION_STRING is the headers'). */
WNN_EXPORT const char* wnnML_version(void);
/* options may be NULL. NotSupportedError when the device is not available. */
WNN_EXPORT WNNContext wnnML_createContext(const WNNContextOptions* options, WNNError error);
WNN_EXPORT size_t wnnML_deviceCount(void);
/* The strings live as long as the process. */
WNN_EXPORT WNNErrorType wnnML_getDevice(size_t index, WNNDeviceInfo* info, WNNError error);
/* Why a device type is not available here; "" when it is. Valid until the next
 * call on the same thread. */
WNN_EXPORT const char* wnnML_whyUnavailable(WNNDeviceType type);

/* ---- MLContext ------------------------------------------------------------------ */
WNN_EXPORT void wnnContext_release(WNNContext context);
WNN_EXPORT void wnnContext_destroy(WNNContext context);
WNN_EXPORT WNNBool wnnContext_accelerated(WNNContext context);
WNN_EXPORT WNNDeviceType wnnContext_deviceType(WNNContext context);
WNN_EXPORT const char* wnnContext_deviceName(WNNContext context);
/* NULL while the context is not lost, else why it was (destroy() included). */
WNN_EXPORT const char* wnnContext_lostMessage(WNNContext context);

WNN_EXPORT WNNTensor wnnContext_createTensor(WNNContext context, const WNNTensorDescriptor* descriptor,
                                             WNNError error);
WNN_EXPORT WNNTensor wnnContext_createConstantTensor(WNNContext context, const WNNOperandDescriptor* descriptor,
                                                     const void* data, size_t byteLength, WNNError error);
WNN_EXPORT WNNErrorType wnnContext_writeTensor(WNNContext context, WNNTensor tensor, const void* data,
                                               size_t byteLength, WNNError error);
/* Waits for the tensor's last writer; byteLength must be the tensor's. */
WNN_EXPORT WNNErrorType wnnContext_readTensor(WNNContext context, WNNTensor tensor, void* data, size_t byteLength,
                                              WNNError error);
WNN_EXPORT WNNErrorType wnnContext_dispatch(WNNContext context, WNNGraph graph, const WNNNamedTensor* inputs,
                                            size_t inputCount, const WNNNamedTensor* outputs, size_t outputCount,
                                            WNNError error);
/* dispatch()'s options (extension; MLDispatchOptions). */
typedef struct WNNDispatchOptions {
  WNNLatencyHint latencyHint; /* Undefined: the graph's, else the context's */
  /* Microseconds from the call: latency work is served earliest deadline
   * first. A hint; nothing fails when it passes. */
  WNNOptionalUint64 deadline;
  /* Time each step (wnnGraph_profile once the dispatch is done). On the gpu
   * the steps then run one after another. */
  WNNBool profile;
} WNNDispatchOptions;
/* wnnContext_dispatch with options (NULL: the defaults). */
WNN_EXPORT WNNErrorType wnnContext_dispatchWithOptions(WNNContext context, WNNGraph graph,
                                                       const WNNNamedTensor* inputs, size_t inputCount,
                                                       const WNNNamedTensor* outputs, size_t outputCount,
                                                       const WNNDispatchOptions* options, WNNError error);
/* Waits until every dispatch, read and write queued on the context so far is
 * done (MLContext::finish()). NULL does nothing. */
WNN_EXPORT void wnnContext_finish(WNNContext context);
/* readTensor without waiting (MLContext::readTensorAsync). Once the tensor's
 * last writer is done, callback(data, byteLength, NULL, userdata) gets its
 * contents, or callback(NULL, 0, error, userdata) the error of the read or of
 * the dispatch that wrote the tensor; data and error are valid during the
 * call only. It runs once, on a scheduler thread, when this returns NoError;
 * an error found at once (a NULL or unreadable tensor, a lost context) is
 * returned instead, and the callback never runs. wnnContext_finish waits for
 * it. */
typedef void (*WNNReadTensorCallback)(const void* data, size_t byteLength, WNNError error, void* userdata);
WNN_EXPORT WNNErrorType wnnContext_readTensorAsync(WNNContext context, WNNTensor tensor,
                                                   WNNReadTensorCallback callback, void* userdata, WNNError error);
/* DAOP: binds weightless constants by label; dispatch is refused until all are. */
WNN_EXPORT WNNErrorType wnnContext_bindConstants(WNNContext context, WNNGraph graph, const WNNNamedBuffer* constants,
                                                 size_t constantCount, WNNError error);

/* DAOP (extension; MLContext::estimateQoS, shared/spec/PROPOSALS.md): the
 * performance tier of one dispatch of `graph`, estimated by the context's
 * cost model without running it (weightless graphs too). `inputDescriptors`
 * give concrete shapes of inputs (required for inputs with named dynamic
 * dimensions; each descriptor's dimensionNames must be NULL). */
typedef enum WNNPerformanceTier WNN_ENUM_BASE {
  WNNPerformanceTier_Excellent = 0, /* < 16 ms */
  WNNPerformanceTier_Good = 1,      /* < 100 ms */
  WNNPerformanceTier_Fair = 2,      /* < 1 s */
  WNNPerformanceTier_Moderate = 3,  /* < 10 s */
  WNNPerformanceTier_Slow = 4,      /* < 30 s */
  WNNPerformanceTier_VerySlow = 5,  /* < 60 s */
  WNNPerformanceTier_Poor = 6,
  WNNPerformanceTier_Force32 = 0x7FFFFFFF
} WNNPerformanceTier;
typedef struct WNNNamedOperandDescriptor {
  const char* name;
  WNNOperandDescriptor descriptor;
} WNNNamedOperandDescriptor;
WNN_EXPORT WNNErrorType wnnContext_estimateQoS(WNNContext context, WNNGraph graph,
                                               const WNNNamedOperandDescriptor* inputDescriptors,
                                               size_t inputDescriptorCount, WNNPerformanceTier* tier, WNNError error);
WNN_EXPORT WNNErrorType wnnContext_meetsRequirement(WNNContext context, WNNGraph graph,
                                                    WNNPerformanceTier requiredTier,
                                                    const WNNNamedOperandDescriptor* inputDescriptors,
                                                    size_t inputDescriptorCount, WNNBool* meets, WNNError error);

/* opSupportLimits(): data types as a mask of bits (1u << WNNOperandDataType_X). */
typedef struct WNNTensorLimits {
  uint32_t dataTypes;
  uint32_t rankMin;
  uint32_t rankMax;
} WNNTensorLimits;
typedef struct WNNOpSupportLimits {
  WNNInputOperandLayout preferredInputLayout;
  uint64_t maxTensorByteLength;
  WNNTensorLimits input;
  WNNTensorLimits constant;
  WNNTensorLimits output;
} WNNOpSupportLimits;
WNN_EXPORT WNNErrorType wnnContext_opSupportLimits(WNNContext context, WNNOpSupportLimits* limits, WNNError error);
/* One operand of one operator, by IDL names ("conv2d", "filter"); TypeError when
 * the operator or operand is unknown. */
WNN_EXPORT WNNErrorType wnnContext_operatorSupportLimits(WNNContext context, const char* op, const char* operand,
                                                         WNNTensorLimits* limits, WNNError error);

/* Memory accounting (extension; MLMemoryUsage). */
#define WNN_MEMORY_CATEGORY_COUNT 6 /* constants raw, constants packed, intermediates, workspace, tensors, staging */
#define WNN_MEMORY_DEVICE_COUNT 2   /* host, gpu */
typedef struct WNNMemoryCounter {
  uint64_t current;
  uint64_t peak;
} WNNMemoryCounter;
typedef struct WNNMemoryUsage {
  WNNMemoryCounter counters[WNN_MEMORY_DEVICE_COUNT][WNN_MEMORY_CATEGORY_COUNT];
  WNNMemoryCounter devices[WNN_MEMORY_DEVICE_COUNT];
  WNNMemoryCounter total;
  uint64_t memoryLimit; /* 0: none */
} WNNMemoryUsage;
WNN_EXPORT WNNErrorType wnnContext_memoryUsage(WNNContext context, WNNMemoryUsage* usage, WNNError error);
WNN_EXPORT void wnnContext_resetPeakMemory(WNNContext context);

/* ---- MLTensor ------------------------------------------------------------------- */
WNN_EXPORT void wnnTensor_release(WNNTensor tensor);
WNN_EXPORT void wnnTensor_destroy(WNNTensor tensor);
WNN_EXPORT WNNOperandDataType wnnTensor_dataType(WNNTensor tensor);
/* The shape; *rank receives its length. */
WNN_EXPORT const uint32_t* wnnTensor_shape(WNNTensor tensor, size_t* rank);
WNN_EXPORT WNNBool wnnTensor_readable(WNNTensor tensor);
WNN_EXPORT WNNBool wnnTensor_writable(WNNTensor tensor);
WNN_EXPORT WNNBool wnnTensor_constant(WNNTensor tensor);

/* ---- MLGraph ------------------------------------------------------------------- */
WNN_EXPORT void wnnGraph_release(WNNGraph graph);
WNN_EXPORT void wnnGraph_destroy(WNNGraph graph);
WNN_EXPORT size_t wnnGraph_inputCount(WNNGraph graph);
WNN_EXPORT size_t wnnGraph_outputCount(WNNGraph graph);
/* Inputs and outputs in name order; the strings and arrays live as long as the graph. */
WNN_EXPORT WNNErrorType wnnGraph_getInput(WNNGraph graph, size_t index, WNNOperandInfo* info, WNNError error);
WNN_EXPORT WNNErrorType wnnGraph_getOutput(WNNGraph graph, size_t index, WNNOperandInfo* info, WNNError error);
/* Output shapes for concrete input shapes (webnn#883's computeShapes), without
 * dispatching: fills outputs[0 .. outputCount) (outputCapacity at least that). */
WNN_EXPORT WNNErrorType wnnGraph_computeShapes(WNNGraph graph, const WNNNamedShape* inputs, size_t inputCount,
                                               WNNNamedShape* outputs, size_t outputCapacity, WNNError error);
/* Labels of weightless constants still unbound (webnn#901). */
WNN_EXPORT size_t wnnGraph_unboundConstantCount(WNNGraph graph);
WNN_EXPORT const char* wnnGraph_getUnboundConstant(WNNGraph graph, size_t index);
WNN_EXPORT WNNErrorType wnnGraph_setConstantData(WNNGraph graph, const char* label, const void* data,
                                                 size_t byteLength, WNNError error);
/* webnn#901: streams one weightless constant's bytes in chunks (MLConstantWriter
 * in webnn/webnn.h). NULL and `error` set for an unknown label (DataError) or
 * a constant that has data or an open writer (InvalidStateError). */
WNN_EXPORT WNNConstantWriter wnnGraph_writeConstant(WNNGraph graph, const char* label, WNNError error);
/* Appends a chunk; waits while other writers hold the context's staging budget. */
WNN_EXPORT WNNErrorType wnnConstantWriter_write(WNNConstantWriter writer, const void* data, size_t byteLength,
                                                WNNError error);
/* Whether write() would go ahead without waiting (false for NULL). */
WNN_EXPORT WNNBool wnnConstantWriter_ready(WNNConstantWriter writer);
/* Every byte written: the constant gets its data (packed or uploaded). */
WNN_EXPORT WNNErrorType wnnConstantWriter_close(WNNConstantWriter writer, WNNError error);
/* Drops what was written; the constant stays without data. No-op once closed. */
WNN_EXPORT void wnnConstantWriter_abort(WNNConstantWriter writer);
WNN_EXPORT uint64_t wnnConstantWriter_byteLength(WNNConstantWriter writer);
WNN_EXPORT uint64_t wnnConstantWriter_bytesWritten(WNNConstantWriter writer);
/* Releases the handle; an open writer is aborted. NULL is a no-op. */
WNN_EXPORT void wnnConstantWriter_release(WNNConstantWriter writer);
WNN_EXPORT const char* wnnGraph_deviceName(WNNGraph graph);
/* The graph's name in its graph file ("" for a built graph). */
WNN_EXPORT const char* wnnGraph_name(WNNGraph graph);
typedef struct WNNGraphMemoryPlan {
  uint64_t arenaBytes;
  uint64_t intermediateBytes;
  uint64_t intermediateCount;
} WNNGraphMemoryPlan;
WNN_EXPORT WNNErrorType wnnGraph_memoryPlan(WNNGraph graph, WNNGraphMemoryPlan* plan, WNNError error);
/* Where the graph's nodes run (MLGraph::placement()): the effective policy
 * (the context's power preference, or _Fallback once a node runs on a
 * fallback device), the context's device, the node count, and the copies
 * between device memories per dispatch. */
typedef struct WNNGraphPlacement {
  WNNPowerPreference effectivePolicy;
  WNNDeviceType device;
  size_t nodeCount;
  uint32_t transfers;
  uint64_t transferBytes;
} WNNGraphPlacement;
WNN_EXPORT WNNErrorType wnnGraph_placement(WNNGraph graph, WNNGraphPlacement* placement, WNNError error);
/* Node `index` in the order the nodes run; its strings live as long as the graph handle. */
typedef struct WNNPlacedNode {
  const char* op;
  const char* label;
  WNNDeviceType device;
} WNNPlacedNode;
WNN_EXPORT WNNErrorType wnnGraph_getPlacedNode(WNNGraph graph, size_t index, WNNPlacedNode* node, WNNError error);
/* The steps of the graph's last dispatch made with WNNDispatchOptions.profile
 * that has finished (MLGraph::profile(); wnnContext_finish first):
 * wnnGraph_profile takes a snapshot and gives its step count (0 before such a
 * dispatch); wnnGraph_getProfiledStep reads step `index` of the snapshot,
 * whose strings and shapes stay valid until the next wnnGraph_profile on the
 * graph or its release. */
typedef struct WNNShape {
  size_t rank;
  const uint32_t* shape;
} WNNShape;
typedef struct WNNStepProfile {
  const char* op; /* after graph passes: fused steps have their own names */
  const char* label;
  WNNDeviceType device;
  size_t inputCount; /* an absent optional input has rank 0 */
  const WNNShape* inputShapes;
  size_t outputCount;
  const WNNShape* outputShapes;
  double ms;    /* NaN where the device could not time it */
  double flops; /* matmul, gemm, conv2d, convTranspose2d: 2 per multiply-add; others 0 */
  double bytes; /* every input read once, every output written once */
} WNNStepProfile;
typedef struct WNNGraphProfile {
  size_t stepCount;
} WNNGraphProfile;
WNN_EXPORT WNNErrorType wnnGraph_profile(WNNGraph graph, WNNGraphProfile* profile, WNNError error);
WNN_EXPORT WNNErrorType wnnGraph_getProfiledStep(WNNGraph graph, size_t index, WNNStepProfile* step, WNNError error);

/* ---- Graph files (webnn-graph JSON; docs/GRAPH_FORMAT.md) ----------------------- */
typedef struct WNNGraphLoadOptions {
  /* NULL: <graph stem>.weights or .safetensors beside the graph, if present. */
  const char* weightsPath;
  /* For .weights files; NULL: the weights path with .manifest.json. */
  const char* manifestPath;
  /* Weights become weightless constants labelled by name, bound later with
   * wnnContext_bindConstants or wnnGraph_setConstantData. */
  WNNBool weightless;
} WNNGraphLoadOptions;
/* Parses, builds and compiles; DataError for a malformed file. */
WNN_EXPORT WNNGraph wnnLoadGraph(WNNContext context, const char* path, const WNNGraphLoadOptions* options,
                                 WNNError error);
/* The same from memory (the bytes are copied). weights may be NULL; with
 * weightsManifestJson it is a .weights file, without it a safetensors file. */
typedef struct WNNGraphBuffers {
  const char* graphJson;
  size_t graphJsonLength;
  const void* weights;
  size_t weightsLength;
  const char* weightsManifestJson;
  size_t weightsManifestJsonLength;
  const char* name; /* names the source in error messages; NULL: "memory" */
} WNNGraphBuffers;
WNN_EXPORT WNNGraph wnnLoadGraphFromMemory(WNNContext context, const WNNGraphBuffers* buffers,
                                           const WNNGraphLoadOptions* options, WNNError error);

/* ---- MLGraphBuilder --------------------------------------------------------------- */
WNN_EXPORT WNNGraphBuilder wnnGraphBuilder_create(WNNContext context, WNNError error);
/* Frees the builder and its operands. */
WNN_EXPORT void wnnGraphBuilder_release(WNNGraphBuilder builder);
WNN_EXPORT WNNOperand wnnGraphBuilder_input(WNNGraphBuilder builder, const char* name,
                                            const WNNOperandDescriptor* descriptor, WNNError error);
/* constant(descriptor, buffer): the bytes are copied. */
WNN_EXPORT WNNOperand wnnGraphBuilder_constant(WNNGraphBuilder builder, const WNNOperandDescriptor* descriptor,
                                               const void* data, size_t byteLength, WNNError error);
/* constant(type, value): a scalar. */
WNN_EXPORT WNNOperand wnnGraphBuilder_constantScalar(WNNGraphBuilder builder, WNNOperandDataType dataType,
                                                     WNNNumber value, WNNError error);
/* constant(tensor): a constant tensor of the builder's context. */
WNN_EXPORT WNNOperand wnnGraphBuilder_constantTensor(WNNGraphBuilder builder, WNNTensor tensor, WNNError error);
/* constant(MLConstantDescriptor): a weightless constant (webnn#901). */
WNN_EXPORT WNNOperand wnnGraphBuilder_constantWeightless(WNNGraphBuilder builder,
                                                         const WNNConstantDescriptor* descriptor, WNNError error);
WNN_EXPORT WNNGraph wnnGraphBuilder_build(WNNGraphBuilder builder, const WNNNamedOperand* outputs,
                                          size_t outputCount, WNNError error);
/* build()'s options (extension; MLGraphOptions). */
typedef struct WNNGraphOptions {
  WNNLatencyHint latencyHint;      /* Undefined: the context's */
  WNNOptionalBool strictPlacement; /* Undefined: the context's */
} WNNGraphOptions;
/* wnnGraphBuilder_build with options (NULL: the defaults). */
WNN_EXPORT WNNGraph wnnGraphBuilder_buildWithOptions(WNNGraphBuilder builder, const WNNNamedOperand* outputs,
                                                     size_t outputCount, const WNNGraphOptions* options,
                                                     WNNError error);

/* ---- MLOperand ------------------------------------------------------------------ */
WNN_EXPORT WNNOperandDataType wnnOperand_dataType(WNNOperand operand);
/* The shape (a dynamic dimension reports its maxSize); *rank receives its length. */
WNN_EXPORT const uint32_t* wnnOperand_shape(WNNOperand operand, size_t* rank);
/* The name of dimension i when it is dynamic, else NULL. */
WNN_EXPORT const char* wnnOperand_dimensionName(WNNOperand operand, size_t index);

/* ---- Operation options (one struct per IDL dictionary) -------------------------- */
typedef struct WNNOperatorOptions {
  const char* label;
} WNNOperatorOptions;

typedef struct WNNArgMinMaxOptions {
  const char* label;
  WNNBool keepDimensions;
  WNNOperandDataType outputDataType; /* Undefined: int32 */
} WNNArgMinMaxOptions;

typedef struct WNNBatchNormalizationOptions {
  const char* label;
  WNNOperand scale;
  WNNOperand bias;
  WNNOptionalUint32 axis;     /* default 1 */
  WNNOptionalDouble epsilon;  /* default 1e-5 */
} WNNBatchNormalizationOptions;

typedef struct WNNClampOptions {
  const char* label;
  WNNNumber minValue;
  WNNNumber maxValue;
} WNNClampOptions;

typedef struct WNNConv2dOptions {
  const char* label;
  const uint32_t* padding; /* [beginH, endH, beginW, endW] */
  size_t paddingCount;
  const uint32_t* strides;
  size_t stridesCount;
  const uint32_t* dilations;
  size_t dilationsCount;
  WNNOptionalUint32 groups; /* default 1 */
  WNNInputOperandLayout inputLayout;
  WNNConv2dFilterOperandLayout filterLayout;
  WNNOperand bias;
} WNNConv2dOptions;

typedef struct WNNConvTranspose2dOptions {
  const char* label;
  const uint32_t* padding;
  size_t paddingCount;
  const uint32_t* strides;
  size_t stridesCount;
  const uint32_t* dilations;
  size_t dilationsCount;
  const uint32_t* outputPadding;
  size_t outputPaddingCount;
  const uint32_t* outputSizes;
  size_t outputSizesCount;
  WNNOptionalUint32 groups; /* default 1 */
  WNNInputOperandLayout inputLayout;
  WNNConvTranspose2dFilterOperandLayout filterLayout;
  WNNOperand bias;
} WNNConvTranspose2dOptions;

typedef struct WNNCumulativeSumOptions {
  const char* label;
  WNNBool exclusive;
  WNNBool reversed;
} WNNCumulativeSumOptions;

typedef struct WNNEluOptions {
  const char* label;
  WNNOptionalDouble alpha; /* default 1 */
} WNNEluOptions;

typedef struct WNNGatherOptions {
  const char* label;
  uint32_t axis;
} WNNGatherOptions;

typedef struct WNNGemmOptions {
  const char* label;
  WNNOperand c;
  WNNOptionalDouble alpha; /* default 1 */
  WNNOptionalDouble beta;  /* default 1 */
  WNNBool aTranspose;
  WNNBool bTranspose;
} WNNGemmOptions;

typedef struct WNNGruOptions {
  const char* label;
  WNNOperand bias;
  WNNOperand recurrentBias;
  WNNOperand initialHiddenState;
  WNNOptionalBool resetAfter; /* default true */
  WNNBool returnSequence;
  WNNRecurrentNetworkDirection direction;
  WNNGruWeightLayout layout;
  const WNNRecurrentNetworkActivation* activations;
  size_t activationsCount;
} WNNGruOptions;

typedef struct WNNGruCellOptions {
  const char* label;
  WNNOperand bias;
  WNNOperand recurrentBias;
  WNNOptionalBool resetAfter; /* default true */
  WNNGruWeightLayout layout;
  const WNNRecurrentNetworkActivation* activations;
  size_t activationsCount;
} WNNGruCellOptions;

typedef struct WNNHardSigmoidOptions {
  const char* label;
  WNNOptionalDouble alpha; /* default 0.2 */
  WNNOptionalDouble beta;  /* default 0.5 */
} WNNHardSigmoidOptions;

typedef struct WNNInstanceNormalizationOptions {
  const char* label;
  WNNOperand scale;
  WNNOperand bias;
  WNNOptionalDouble epsilon; /* default 1e-5 */
  WNNInputOperandLayout layout;
} WNNInstanceNormalizationOptions;

typedef struct WNNLayerNormalizationOptions {
  const char* label;
  WNNOperand scale;
  WNNOperand bias;
  const uint32_t* axes; /* NULL: [1, rank) */
  size_t axesCount;
  WNNOptionalDouble epsilon; /* default 1e-5 */
} WNNLayerNormalizationOptions;

typedef struct WNNLeakyReluOptions {
  const char* label;
  WNNOptionalDouble alpha; /* default 0.01 */
} WNNLeakyReluOptions;

typedef struct WNNLinearOptions {
  const char* label;
  WNNOptionalDouble alpha; /* default 1 */
  double beta;
} WNNLinearOptions;

typedef struct WNNLstmOptions {
  const char* label;
  WNNOperand bias;
  WNNOperand recurrentBias;
  WNNOperand peepholeWeight;
  WNNOperand initialHiddenState;
  WNNOperand initialCellState;
  WNNBool returnSequence;
  WNNRecurrentNetworkDirection direction;
  WNNLstmWeightLayout layout;
  const WNNRecurrentNetworkActivation* activations;
  size_t activationsCount;
} WNNLstmOptions;

typedef struct WNNLstmCellOptions {
  const char* label;
  WNNOperand bias;
  WNNOperand recurrentBias;
  WNNOperand peepholeWeight;
  WNNLstmWeightLayout layout;
  const WNNRecurrentNetworkActivation* activations;
  size_t activationsCount;
} WNNLstmCellOptions;

typedef struct WNNPadOptions {
  const char* label;
  WNNPaddingMode mode;
  WNNNumber value; /* Undefined: 0 */
} WNNPadOptions;

typedef struct WNNPool2dOptions {
  const char* label;
  const uint32_t* windowDimensions;
  size_t windowDimensionsCount;
  const uint32_t* padding;
  size_t paddingCount;
  const uint32_t* strides;
  size_t stridesCount;
  const uint32_t* dilations;
  size_t dilationsCount;
  WNNInputOperandLayout layout;
  WNNRoundingType outputShapeRounding;
  const uint32_t* outputSizes;
  size_t outputSizesCount;
} WNNPool2dOptions;

typedef struct WNNReduceOptions {
  const char* label;
  const uint32_t* axes; /* NULL: every axis; non-NULL with count 0: none */
  size_t axesCount;
  WNNBool keepDimensions;
} WNNReduceOptions;

typedef struct WNNResample2dOptions {
  const char* label;
  WNNInterpolationMode mode;
  const float* scales;
  size_t scalesCount;
  const uint32_t* sizes;
  size_t sizesCount;
  const uint32_t* axes;
  size_t axesCount;
} WNNResample2dOptions;

typedef struct WNNReverseOptions {
  const char* label;
  const uint32_t* axes; /* NULL: every axis */
  size_t axesCount;
} WNNReverseOptions;

typedef struct WNNScatterOptions {
  const char* label;
  uint32_t axis;
} WNNScatterOptions;

typedef struct WNNSliceOptions {
  const char* label;
  const uint32_t* strides;
  size_t stridesCount;
} WNNSliceOptions;

typedef struct WNNSplitOptions {
  const char* label;
  uint32_t axis;
} WNNSplitOptions;

typedef struct WNNTransposeOptions {
  const char* label;
  const uint32_t* permutation; /* NULL: reversed axes */
  size_t permutationCount;
} WNNTransposeOptions;

typedef struct WNNTriangularOptions {
  const char* label;
  WNNOptionalBool upper; /* default true */
  int32_t diagonal;
} WNNTriangularOptions;

/* ---- MLGraphBuilder operations ----------------------------------------------------
 * Every operation of the IDL, one function each, named wnnGraphBuilder_<name>.
 * A NULL options pointer means defaults. On failure an operation returns NULL
 * (0 outputs for the multi-output ones) and leaves the builder as it was.
 *
 * The operations of the families whose members share one signature are
 * declared from THE op list (webnn/op_list.inc, src/ops/op_list.inc in the
 * source tree), so that a new member of such a family gets its C function
 * without another list to keep:
 *   ElementwiseBinary, Comparison: (a, b, WNNOperatorOptions)  add, sub, ..., equal, ...
 *   ElementwiseUnary:              (input, WNNOperatorOptions) abs, ceil, ...
 *   Reduce:                        (input, WNNReduceOptions)   reduceL1, ..., reduceSumSquare
 *   Pool2d:                        (input, WNNPool2dOptions)   averagePool2d, l2Pool2d, maxPool2d
 *   ArgMinMax:                     (input, axis, WNNArgMinMaxOptions) argMin, argMax
 * The others are declared one by one below. */
#define WNN_DECLARE_BINARY_OP(name)                                                                        \
  WNN_EXPORT WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand a, WNNOperand b,         \
                                               const WNNOperatorOptions* options, WNNError error);
#define WNN_DECLARE_UNARY_OP(name)                                                                         \
  WNN_EXPORT WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input,                   \
                                               const WNNOperatorOptions* options, WNNError error);
#define WNN_DECLARE_OP_ElementwiseBinary(name) WNN_DECLARE_BINARY_OP(name)
#define WNN_DECLARE_OP_Comparison(name) WNN_DECLARE_BINARY_OP(name)
#define WNN_DECLARE_OP_ElementwiseUnary(name) WNN_DECLARE_UNARY_OP(name)
#define WNN_DECLARE_OP_Reduce(name)                                                                        \
  WNN_EXPORT WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input,                   \
                                               const WNNReduceOptions* options, WNNError error);
#define WNN_DECLARE_OP_Pool2d(name)                                                                        \
  WNN_EXPORT WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input,                   \
                                               const WNNPool2dOptions* options, WNNError error);
#define WNN_DECLARE_OP_ArgMinMax(name)                                                                     \
  WNN_EXPORT WNNOperand wnnGraphBuilder_##name(WNNGraphBuilder builder, WNNOperand input, uint32_t axis,    \
                                               const WNNArgMinMaxOptions* options, WNNError error);
/* Families declared one by one (a family added to op_list.inc must be added
 * here, or this header does not compile). */
#define WNN_DECLARE_OP_Logical(name)
#define WNN_DECLARE_OP_Activation(name)
#define WNN_DECLARE_OP_Prelu(name)
#define WNN_DECLARE_OP_Softmax(name)
#define WNN_DECLARE_OP_Cast(name)
#define WNN_DECLARE_OP_QuantizeLinear(name)
#define WNN_DECLARE_OP_Conv2d(name)
#define WNN_DECLARE_OP_ConvTranspose2d(name)
#define WNN_DECLARE_OP_Resample2d(name)
#define WNN_DECLARE_OP_Matmul(name)
#define WNN_DECLARE_OP_Gemm(name)
#define WNN_DECLARE_OP_Normalization(name)
#define WNN_DECLARE_OP_CumulativeSum(name)
#define WNN_DECLARE_OP_Concat(name)
#define WNN_DECLARE_OP_Expand(name)
#define WNN_DECLARE_OP_Gather(name)
#define WNN_DECLARE_OP_Scatter(name)
#define WNN_DECLARE_OP_Pad(name)
#define WNN_DECLARE_OP_Reshape(name)
#define WNN_DECLARE_OP_Reverse(name)
#define WNN_DECLARE_OP_Slice(name)
#define WNN_DECLARE_OP_Split(name)
#define WNN_DECLARE_OP_Tile(name)
#define WNN_DECLARE_OP_Transpose(name)
#define WNN_DECLARE_OP_Triangular(name)
#define WNN_DECLARE_OP_Where(name)
#define WNN_DECLARE_OP_Gru(name)
#define WNN_DECLARE_OP_Lstm(name)

#define WEBNN_OP(name, Family) WNN_DECLARE_OP_##Family(name)
#include "webnn/op_list.inc"

/* Logical and float classification */
WNN_DECLARE_UNARY_OP(logicalNot)
WNN_DECLARE_BINARY_OP(logicalAnd)
WNN_DECLARE_BINARY_OP(logicalOr)
WNN_DECLARE_BINARY_OP(logicalXor)
WNN_DECLARE_UNARY_OP(isNaN)
WNN_DECLARE_UNARY_OP(isInfinite)
/* Activations */
WNN_EXPORT WNNOperand wnnGraphBuilder_elu(WNNGraphBuilder builder, WNNOperand input, const WNNEluOptions* options,
                                          WNNError error);
WNN_DECLARE_UNARY_OP(gelu)
WNN_EXPORT WNNOperand wnnGraphBuilder_hardSigmoid(WNNGraphBuilder builder, WNNOperand input,
                                                  const WNNHardSigmoidOptions* options, WNNError error);
WNN_DECLARE_UNARY_OP(hardSwish)
WNN_EXPORT WNNOperand wnnGraphBuilder_leakyRelu(WNNGraphBuilder builder, WNNOperand input,
                                                const WNNLeakyReluOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_linear(WNNGraphBuilder builder, WNNOperand input,
                                             const WNNLinearOptions* options, WNNError error);
WNN_DECLARE_UNARY_OP(relu)
WNN_DECLARE_UNARY_OP(sigmoid)
WNN_DECLARE_UNARY_OP(softplus)
WNN_DECLARE_UNARY_OP(softsign)
WNN_DECLARE_UNARY_OP(tanh)
WNN_EXPORT WNNOperand wnnGraphBuilder_clamp(WNNGraphBuilder builder, WNNOperand input, const WNNClampOptions* options,
                                            WNNError error);
WNN_DECLARE_BINARY_OP(prelu) /* (input, slope) */
WNN_EXPORT WNNOperand wnnGraphBuilder_softmax(WNNGraphBuilder builder, WNNOperand input, uint32_t axis,
                                              const WNNOperatorOptions* options, WNNError error);
/* Quantization and cast */
WNN_EXPORT WNNOperand wnnGraphBuilder_cast(WNNGraphBuilder builder, WNNOperand input, WNNOperandDataType dataType,
                                           const WNNOperatorOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_quantizeLinear(WNNGraphBuilder builder, WNNOperand input, WNNOperand scale,
                                                     WNNOperand zeroPoint, const WNNOperatorOptions* options,
                                                     WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_dequantizeLinear(WNNGraphBuilder builder, WNNOperand input, WNNOperand scale,
                                                       WNNOperand zeroPoint, const WNNOperatorOptions* options,
                                                       WNNError error);
/* Convolution and resampling */
WNN_EXPORT WNNOperand wnnGraphBuilder_conv2d(WNNGraphBuilder builder, WNNOperand input, WNNOperand filter,
                                             const WNNConv2dOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_convTranspose2d(WNNGraphBuilder builder, WNNOperand input, WNNOperand filter,
                                                      const WNNConvTranspose2dOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_resample2d(WNNGraphBuilder builder, WNNOperand input,
                                                 const WNNResample2dOptions* options, WNNError error);
/* Matrix */
WNN_DECLARE_BINARY_OP(matmul)
WNN_EXPORT WNNOperand wnnGraphBuilder_gemm(WNNGraphBuilder builder, WNNOperand a, WNNOperand b,
                                           const WNNGemmOptions* options, WNNError error);
/* Normalization */
WNN_EXPORT WNNOperand wnnGraphBuilder_batchNormalization(WNNGraphBuilder builder, WNNOperand input, WNNOperand mean,
                                                         WNNOperand variance,
                                                         const WNNBatchNormalizationOptions* options,
                                                         WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_instanceNormalization(WNNGraphBuilder builder, WNNOperand input,
                                                            const WNNInstanceNormalizationOptions* options,
                                                            WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_layerNormalization(WNNGraphBuilder builder, WNNOperand input,
                                                         const WNNLayerNormalizationOptions* options,
                                                         WNNError error);
/* Scans */
WNN_EXPORT WNNOperand wnnGraphBuilder_cumulativeSum(WNNGraphBuilder builder, WNNOperand input, uint32_t axis,
                                                    const WNNCumulativeSumOptions* options, WNNError error);
/* Data movement and shape. A new shape may name dynamic dimensions like an
 * operand descriptor (dimensionNames NULL: all static). */
WNN_EXPORT WNNOperand wnnGraphBuilder_concat(WNNGraphBuilder builder, const WNNOperand* inputs, size_t inputCount,
                                             uint32_t axis, const WNNOperatorOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_expand(WNNGraphBuilder builder, WNNOperand input, const uint32_t* newShape,
                                             size_t rank, const char* const* dimensionNames,
                                             const WNNOperatorOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_gather(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                             const WNNGatherOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_gatherElements(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                                     const WNNGatherOptions* options, WNNError error);
WNN_DECLARE_BINARY_OP(gatherND) /* (input, indices) */
WNN_EXPORT WNNOperand wnnGraphBuilder_scatterElements(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                                      WNNOperand updates, const WNNScatterOptions* options,
                                                      WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_scatterND(WNNGraphBuilder builder, WNNOperand input, WNNOperand indices,
                                                WNNOperand updates, const WNNOperatorOptions* options,
                                                WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_pad(WNNGraphBuilder builder, WNNOperand input,
                                          const uint32_t* beginningPadding, const uint32_t* endingPadding,
                                          size_t paddingCount, const WNNPadOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_reshape(WNNGraphBuilder builder, WNNOperand input, const uint32_t* newShape,
                                              size_t rank, const char* const* dimensionNames,
                                              const WNNOperatorOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_reverse(WNNGraphBuilder builder, WNNOperand input,
                                              const WNNReverseOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_slice(WNNGraphBuilder builder, WNNOperand input, const uint32_t* starts,
                                            const uint32_t* sizes, size_t count, const WNNSliceOptions* options,
                                            WNNError error);
/* split(input, splits): with splitSizes NULL, splitCount equal parts; else the
 * sizes of the parts. Writes the parts to outputs (room for outputCapacity) and
 * returns how many there are; 0 on failure (a TypeError when outputCapacity is
 * too small, before anything is added). */
WNN_EXPORT size_t wnnGraphBuilder_split(WNNGraphBuilder builder, WNNOperand input, uint32_t splitCount,
                                        const uint32_t* splitSizes, size_t splitSizesCount,
                                        const WNNSplitOptions* options, WNNOperand* outputs, size_t outputCapacity,
                                        WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_tile(WNNGraphBuilder builder, WNNOperand input, const uint32_t* repetitions,
                                           size_t count, const WNNOperatorOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_transpose(WNNGraphBuilder builder, WNNOperand input,
                                                const WNNTransposeOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_triangular(WNNGraphBuilder builder, WNNOperand input,
                                                 const WNNTriangularOptions* options, WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_where(WNNGraphBuilder builder, WNNOperand condition, WNNOperand trueValue,
                                            WNNOperand falseValue, const WNNOperatorOptions* options,
                                            WNNError error);
/* Recurrent. gru: [output, outputSequence if returnSequence]; lstm: [hidden,
 * cell, sequence if returnSequence]; lstmCell: [hidden, cell]. They return the
 * count written to outputs, as split does. */
WNN_EXPORT size_t wnnGraphBuilder_gru(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight,
                                      WNNOperand recurrentWeight, uint32_t steps, uint32_t hiddenSize,
                                      const WNNGruOptions* options, WNNOperand* outputs, size_t outputCapacity,
                                      WNNError error);
WNN_EXPORT WNNOperand wnnGraphBuilder_gruCell(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight,
                                              WNNOperand recurrentWeight, WNNOperand hiddenState,
                                              uint32_t hiddenSize, const WNNGruCellOptions* options, WNNError error);
WNN_EXPORT size_t wnnGraphBuilder_lstm(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight,
                                       WNNOperand recurrentWeight, uint32_t steps, uint32_t hiddenSize,
                                       const WNNLstmOptions* options, WNNOperand* outputs, size_t outputCapacity,
                                       WNNError error);
WNN_EXPORT size_t wnnGraphBuilder_lstmCell(WNNGraphBuilder builder, WNNOperand input, WNNOperand weight,
                                           WNNOperand recurrentWeight, WNNOperand hiddenState, WNNOperand cellState,
                                           uint32_t hiddenSize, const WNNLstmCellOptions* options,
                                           WNNOperand* outputs, size_t outputCapacity, WNNError error);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* WEBNN_WEBNN_C_H_ */
