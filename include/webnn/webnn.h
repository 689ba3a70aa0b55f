// The WebNN API in C++: ML, MLContext, MLGraphBuilder, MLOperand, MLGraph,
// MLTensor. Names and semantics mirror the W3C WebNN IDL; methods that return
// promises in JavaScript complete before returning here and throw the error a
// rejected promise would carry.
//
//   auto context = webnn::ML::createContext({.device = webnn::MLDeviceType::kCpu});
//   webnn::MLGraphBuilder builder(context);
//   auto x = builder.input("x", {webnn::MLOperandDataType::kFloat32, {2, 2}});
//   auto graph = builder.build({{"y", builder.relu(x)}});
#pragma once

#include <array>
#include <chrono>
#include <exception>
#include <functional>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "webnn/operand.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn {

namespace internal {
class ConstantWriterImpl;
class ContextImpl;
class GraphImpl;
class TensorImpl;
class QoSMonitorImpl;
}  // namespace internal

class MLGraph;
class MLTensor;

// Real-time hint (extension; webnn#898 real-time workloads, #902's latency
// axis, #934's "low-latency" policy). kLow puts the work on the latency queue:
// it is served before throughput work, which yields to it between ops and
// between parallel-for chunks of about a millisecond or less. The others
// leave it on the throughput queue. A hint: results never depend on it.
enum class MLLatencyHint : uint8_t { kDefault, kLow, kMedium, kHigh };

struct MLContextOptions {
  MLPowerPreference powerPreference = MLPowerPreference::kDefault;
  bool accelerated = true;
  // Extensions: which device runs the context, and how many of the process's
  // cpu threads one of its dispatches uses (0 = all; at most 1024, TypeError
  // above). The threads are one pool per process, sized to the cores
  // available and shared by every context.
  MLDeviceType device = MLDeviceType::kAuto;
  uint32_t numThreads = 0;
  // Graph passes (activation fusion, layout) on devices that use them; turn
  // off to compare kernels without them. The reference device never uses them.
  bool graphPasses = true;
  // With graphPasses: run convolutions given in nchw in nhwc, with the
  // transposes between them folded away. Experimental, off by default (not
  // yet faster on the cpu device; see src/graph/passes.h).
  bool nhwcLayout = false;
  // The most bytes the context may hold, on every device together (host and
  // gpu memory): constants (raw and packed), graphs' intermediates, kernel
  // workspace, tensors and staging. Unset: unlimited; 0 is a TypeError.
  // Going over it at build, constant binding, tensor creation or dispatch is a
  // QuotaExceededError whose message gives the bytes asked, their category,
  // the limit and the bytes in use; the context stays usable. See
  // MLContext::memoryUsage().
  std::optional<uint64_t> memoryLimit;
  // The most raw constant bytes that MLConstantWriters may hold at once
  // before the device has packed or uploaded them (webnn#901 backpressure):
  // a writer whose constant does not fit beside the others' waits in
  // write(). A constant larger than this goes alone. Host devices hold a
  // streamed constant whole until it is packed; the gpu device streams
  // through its own bounded staging buffer, so its writers never wait.
  uint64_t constantStagingLimit = 64ull << 20;
  // The latency hint of the context's work, unless a graph or a dispatch
  // gives its own.
  MLLatencyHint latencyHint = MLLatencyHint::kDefault;
  // Placement (webnn#934's "strict" hint): a node whose op or data types the
  // context's device does not run goes to a fallback device (cpu, then
  // reference), with copies between device memories where needed; see
  // MLGraph::placement(). Strict: build() fails instead, with a
  // NotSupportedError naming the node, its op and the type the device lacks.
  bool strictPlacement = false;
  // Logging (extension): what the context reports that a caller cannot see
  // otherwise. error: a lost device. warning: nodes placed on a fallback
  // device. info: the device chosen and why others were skipped, each
  // build's summary (nodes before and after the graph passes, the fusions,
  // placement, arena bytes, compile time), streamed constants handed to the
  // device. debug: each dispatch, chunk and binding (the per-dispatch path
  // logs nothing below debug). Messages at or above `logLevel` go to
  // `logCallback`, from the thread that makes the call that logs or from a
  // scheduler thread, possibly from several threads at once; an exception it
  // throws is dropped. Without a callback they go to stderr as
  // "webnn: <level>: <message>"; kNone silences the context.
  MLLogLevel logLevel = MLLogLevel::kWarning;
  std::function<void(MLLogLevel level, std::string_view message)> logCallback;
  // Opt-in (extension), cpu device: matmuls of a constant int4/int8 weight
  // (the MatMulNBits pattern, fused into quantizedMatmul) with at most 4 rows
  // of activations (LLM decode) quantize those activations to int8, per row
  // and per block of the weight (scale max|a| / 127, round to nearest), and
  // multiply with integer dot products (AVX-512 VNNI where the CPU has it,
  // an exact float emulation elsewhere), as ONNX Runtime's MatMulNBits does
  // at accuracy level 4. Faster where the weights stay in cache (decode that
  // streams them from DRAM is not), and no longer exact: the error is that of
  // the activations' int8 rounding (about 1e-3 relative; see
  // bench/llm/README.md). Activations that are not finite, or weights whose
  // scales are not, run the exact float path. Other devices ignore it.
  bool int8MatmulActivations = false;
  // DAOP warm profiling (extension): every dispatch times its steps and the
  // context's cost model learns from them, so later estimateQoS() answers
  // for this device and these shapes get closer to what was measured. Costs
  // a clock read per step.
  bool qosWarmProfiling = false;
};

// build()'s options (extension).
struct MLGraphOptions {
  // The graph's dispatches' latency hint (overrides the context's).
  std::optional<MLLatencyHint> latencyHint;
  // Overrides MLContextOptions::strictPlacement for this graph.
  std::optional<bool> strictPlacement;
};

// dispatch()'s options (extension).
struct MLDispatchOptions {
  // Overrides the graph's and the context's hint.
  std::optional<MLLatencyHint> latencyHint;
  // From the call: latency work is served earliest deadline first. A hint;
  // nothing fails when it passes (a negative one is due now; one beyond a
  // year counts as a year).
  std::optional<std::chrono::microseconds> deadline;
  // Time each step of this dispatch (MLGraph::profile() after it finishes).
  // On the gpu the steps then run one after another, each behind a barrier.
  bool profile = false;
};

// ---- Memory accounting (extension) ------------------------------------------
// MLMemoryCategory and MLMemoryDevice: webnn/types.h.

struct MLMemoryCounter {
  uint64_t current = 0;
  uint64_t peak = 0;  // since the context was created or resetPeakMemory()
};

struct MLMemoryUsage {
  std::array<std::array<MLMemoryCounter, kMLMemoryCategoryCount>, kMLMemoryDeviceCount> counters{};
  std::array<MLMemoryCounter, kMLMemoryDeviceCount> devices{};  // per device, all categories
  MLMemoryCounter total;                                        // peak: of the sum
  std::optional<uint64_t> memoryLimit;
  const MLMemoryCounter& at(MLMemoryDevice d, MLMemoryCategory c) const {
    return counters[static_cast<size_t>(d)][static_cast<size_t>(c)];
  }
};

// How a compiled graph's intermediates were placed (MLGraph::memoryPlan()).
struct MLGraphMemoryPlan {
  uint64_t arenaBytes = 0;         // the arena: intermediates share it by lifetime
  uint64_t intermediateBytes = 0;  // every intermediate at its (maximum) size, summed
  uint64_t intermediateCount = 0;
};

// Where a compiled graph's nodes run (MLGraph::placement(); webnn#934's
// effective policy).
struct MLNodePlacement {
  std::string op;     // after graph passes (fused nodes have their own names)
  std::string label;
  MLDeviceType device = MLDeviceType::kAuto;
};
struct MLGraphPlacement {
  // The context's power preference when every node runs on its device;
  // kFallback when some run on a fallback device.
  MLPowerPreference effectivePolicy = MLPowerPreference::kDefault;
  MLDeviceType device = MLDeviceType::kAuto;  // the context's device
  std::vector<MLNodePlacement> nodes;          // in the order they run
  // Copies between device memories per dispatch, and their bytes at the
  // graph's maximum shapes.
  uint32_t transfers = 0;
  uint64_t transferBytes = 0;
};

// One step of a profiled dispatch (MLDispatchOptions::profile,
// MLGraph::profile()): the compiled program's steps, after graph passes.
struct MLStepProfile {
  std::string op;  // fused steps have their own names (fusedElementwise, ...)
  std::string label;
  MLDeviceType device = MLDeviceType::kAuto;
  std::vector<std::vector<uint32_t>> inputShapes, outputShapes;  // at the dispatch's shapes
  double ms = 0;     // NaN where the device could not time it (a gpu without timestamps)
  double flops = 0;  // matmul, gemm, conv2d, convTranspose2d: 2 per multiply-add; others 0
  double bytes = 0;  // every input read once, every output written once
};
struct MLGraphProfile {
  std::vector<MLStepProfile> steps;  // in the order they ran; empty before a profiled dispatch
};

struct MLContextLostInfo {
  std::string message;
};

// ---- opSupportLimits() ----------------------------------------------------
struct MLRankRange {
  uint32_t min = 0;
  uint32_t max = 0;
};
struct MLTensorLimits {
  std::vector<MLOperandDataType> dataTypes;
  MLRankRange rankRange;
};
// Limits of one operator, by operand name as in the IDL's *SupportLimits
// dictionaries ("input", "filter", "bias", "output", ...).
using MLOperatorSupportLimits = std::map<std::string, MLTensorLimits>;

struct MLOpSupportLimits {
  MLInputOperandLayout preferredInputLayout = MLInputOperandLayout::kNchw;
  uint64_t maxTensorByteLength = 0;
  MLTensorLimits input;
  MLTensorLimits constant;
  MLTensorLimits output;
  // Per operator, keyed by the builder method's name ("conv2d"). The IDL has one
  // member per operator; a map keeps the C++ surface small and iterable.
  std::map<std::string, MLOperatorSupportLimits> operators;

  // Convenience: operators.at(op).at(operand); throws std::out_of_range if absent.
  const MLTensorLimits& at(const std::string& op, const std::string& operand) const {
    return operators.at(op).at(operand);
  }
};

using MLNamedOperands = std::map<std::string, MLOperand>;
using MLNamedTensors = std::map<std::string, MLTensor>;
// split()'s `splits`: a number of equal parts, or the sizes of the parts.
using MLSplits = std::variant<uint32_t, std::vector<uint32_t>>;

// ---- MLTensor -------------------------------------------------------------
class WEBNN_EXPORT MLTensor {
 public:
  MLTensor() = default;
  MLOperandDataType dataType() const;
  const std::vector<uint32_t>& shape() const;
  bool readable() const;
  bool writable() const;
  bool constant() const;
  void destroy();

  explicit MLTensor(std::shared_ptr<internal::TensorImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<internal::TensorImpl>& impl() const { return impl_; }
  friend bool operator==(const MLTensor& a, const MLTensor& b) { return a.impl_ == b.impl_; }

 private:
  std::shared_ptr<internal::TensorImpl> impl_;
};

// ---- MLConstantWriter (extension, webnn#901) ------------------------------
// Streams the bytes of one weightless constant into a built graph, chunk by
// chunk (MLGraph::writeConstant). When the last byte is in, close() hands the
// constant to the device, which packs it (cpu) or holds its upload (gpu); the
// raw bytes are then freed, so a streamed model peaks near its packed size
// plus MLContextOptions::constantStagingLimit, not at 2-3x.
class WEBNN_EXPORT MLConstantWriter {
 public:
  MLConstantWriter() = default;
  // Appends `chunk` (its view type must suit the constant's data type).
  // Waits while other writers hold the context's constant staging budget
  // (backpressure). DataError past the constant's byte length;
  // InvalidStateError after close() or abort(), or once the graph is destroyed.
  void write(const MLBufferSource& chunk);
  // The non-blocking form: whether write() would go ahead without waiting.
  bool ready() const;
  // Every byte written: the constant gets its data and the writer is done.
  // DataError (and the writer stays open) when bytes are missing.
  void close();
  // Drops what was written: the constant stays without data. Also done when
  // the last handle to an open writer goes. No-op once closed.
  void abort();
  uint64_t byteLength() const;
  uint64_t bytesWritten() const;

  explicit MLConstantWriter(std::shared_ptr<internal::ConstantWriterImpl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<internal::ConstantWriterImpl> impl_;
};

// ---- MLGraph --------------------------------------------------------------
class WEBNN_EXPORT MLGraph {
 public:
  MLGraph() = default;
  void destroy();

  // Extensions (not in the spec's IDL):
  // Input/output descriptors (named dynamic dimensions included).
  std::map<std::string, MLOperandDescriptor> inputDescriptors() const;
  std::map<std::string, MLOperandDescriptor> outputDescriptors() const;
  // Output shapes for concrete input shapes, without dispatching (webnn#883's
  // computeShapes). Throws TypeError when the shapes are not valid.
  std::map<std::string, std::vector<uint32_t>> computeShapes(
      const std::map<std::string, std::vector<uint32_t>>& inputShapes) const;
  // Labels of weightless constants still waiting for data (webnn#901, DAOP).
  std::vector<std::string> unboundConstants() const;
  // webnn#901: binds one weightless constant, by the label given at constant().
  // Binding is once per constant: a second one is an InvalidStateError, an
  // unknown label a DataError.
  void setConstantData(const std::string& label, const MLBufferSource& data);
  // webnn#901: streams one weightless constant's data in chunks. DataError
  // for an unknown label; InvalidStateError when it has data or an open writer.
  MLConstantWriter writeConstant(const std::string& label);
  // The device that runs the graph ("reference", "cpu", "gpu").
  std::string deviceName() const;
  // The arena's planned bytes against the sum of the intermediates' sizes.
  MLGraphMemoryPlan memoryPlan() const;
  // Which device runs each node.
  MLGraphPlacement placement() const;
  // The steps of the last dispatch made with MLDispatchOptions::profile that
  // has finished (call MLContext::finish() or read an output first).
  MLGraphProfile profile() const;

  explicit MLGraph(std::shared_ptr<internal::GraphImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<internal::GraphImpl>& impl() const { return impl_; }

 private:
  std::shared_ptr<internal::GraphImpl> impl_;
};

// ---- DAOP: QoS estimation (extension; shared/spec/PROPOSALS.md §1) -----------
// The tier of the estimated latency of one dispatch (strict upper bounds):
// excellent < 16 ms, good < 100 ms, fair < 1 s, moderate < 10 s, slow < 30 s,
// very-slow < 60 s, poor otherwise.
enum class MLPerformanceTier : uint8_t { kExcellent, kGood, kFair, kModerate, kSlow, kVerySlow, kPoor };
WEBNN_EXPORT std::string_view ToString(MLPerformanceTier tier);  // "very-slow"

struct MLQoSOptions {
  // Concrete shapes of graph inputs: needed for inputs with named dynamic
  // dimensions; others default to their declared shapes.
  std::map<std::string, MLOperandDescriptor> inputDescriptors;
  // Accepted and ignored: no kernel exploits sparse weights.
  bool weightsSparsity = false;
};

struct MLQoSReport {
  MLPerformanceTier performanceTier = MLPerformanceTier::kPoor;
};

// context.createQoSMonitor(graph, tier): whether the graph meets the tier
// under the current load (dispatches in flight in the process, which share
// its cores), with a callback when that answer changes. The callback runs
// on the thread that changed the load (a dispatching thread, or the
// scheduler thread that ran a dispatch), never twice at once; it may
// dispatch but must not wait for work (readTensor, finish), and an
// exception it throws is dropped. The estimate without load is taken when
// the monitor is created. The monitor stops when stop() is called or the
// last copy of it goes.
class WEBNN_EXPORT MLQoSMonitor {
 public:
  MLQoSMonitor() = default;
  bool meetsRequirement() const;
  void onchange(std::function<void(bool meetsRequirement)> callback);
  void stop();

  explicit MLQoSMonitor(std::shared_ptr<internal::QoSMonitorImpl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<internal::QoSMonitorImpl> impl_;
};

// ---- MLContext ------------------------------------------------------------
class WEBNN_EXPORT MLContext {
 public:
  MLContext() = default;

  // Queues the graph's run on the context's timeline and returns (the spec's
  // timeline semantics): the run starts when the last writers of its inputs
  // and the last writers and readers of its outputs are done. Errors found
  // while running (memoryLimit, a lost device) are thrown by the reads of its
  // outputs; a lost device also loses the context.
  void dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs,
                const MLDispatchOptions& options = {});
  MLTensor createTensor(const MLTensorDescriptor& descriptor);
  MLTensor createConstantTensor(const MLOperandDescriptor& descriptor, const MLBufferSource& inputData);
  std::vector<std::byte> readTensor(const MLTensor& tensor);
  void readTensor(const MLTensor& tensor, const MLMutableBufferSource& outputData);
  // Ordered after the dispatches queued before it that read or write the
  // tensor: waits for them (the data is copied before it returns).
  void writeTensor(const MLTensor& tensor, const MLBufferSource& inputData);
  MLOpSupportLimits opSupportLimits() const;
  void destroy();
  bool accelerated() const;
  // Becomes ready when the context is lost (destroy() included).
  std::shared_future<MLContextLostInfo> lost() const;

  // Extensions:
  // readTensor without blocking: the contents once the tensor's last writer is
  // done (the future holds its error if that dispatch failed), or the same
  // given to `callback` on a scheduler thread (bytes empty and error set on
  // failure).
  std::future<std::vector<std::byte>> readTensorAsync(const MLTensor& tensor);
  void readTensorAsync(const MLTensor& tensor,
                       std::function<void(std::vector<std::byte> bytes, std::exception_ptr error)> callback);
  // Blocks until every dispatch, read and write queued on the context so far
  // is done. Never throws.
  void finish();
  // DAOP: binds weightless constants by label; dispatch is refused until all are bound.
  void bindConstants(const MLGraph& graph, const std::map<std::string, MLBufferSource>& constants);
  MLDeviceType deviceType() const;
  std::string deviceName() const;
  // Bytes the context holds now and at most, per device and category
  // (MLContextOptions::memoryLimit caps their total), once the work queued
  // on the context so far is done (it calls finish()).
  MLMemoryUsage memoryUsage() const;
  // Starts the peaks of memoryUsage() again from the current bytes.
  void resetPeakMemory();
  // DAOP (synchronous here; Promises in the proposal): the performance tier
  // of one dispatch of `graph`, estimated by the cost model of this
  // context's device (src/qos) from the compiled program, without running
  // it: weightless graphs work before their constants are bound. Work is
  // linear in the graph's steps. Only the tier is returned (`webnn
  // estimate` shows the milliseconds for diagnostics). Errors: TypeError
  // for an input descriptor that names no input, has another data type, or
  // a shape the graph does not admit, or a dynamic input without one;
  // InvalidStateError for a destroyed graph.
  MLQoSReport estimateQoS(const MLGraph& graph, const MLQoSOptions& options = {});
  bool meetsRequirement(const MLGraph& graph, MLPerformanceTier requiredTier, const MLQoSOptions& options = {});
  MLQoSMonitor createQoSMonitor(const MLGraph& graph, MLPerformanceTier requiredTier,
                                const MLQoSOptions& options = {});

  explicit MLContext(std::shared_ptr<internal::ContextImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<internal::ContextImpl>& impl() const { return impl_; }

 private:
  std::shared_ptr<internal::ContextImpl> impl_;
};

// ---- ML -------------------------------------------------------------------
struct MLDeviceInfo {
  MLDeviceType type;
  std::string name;         // "reference", "cpu", "gpu"
  std::string description;  // e.g. CPU model and SIMD target, GPU name
  bool accelerated;
  std::string features;     // gpu: float16/int8/int64, subgroups, shared memory, ...
};

class WEBNN_EXPORT ML {
 public:
  // Throws NotSupportedError when the requested device is not available.
  static MLContext createContext(const MLContextOptions& options = {});
  static std::vector<MLDeviceInfo> devices();
  // Why a device type is not available on this machine ("" when it is), e.g.
  // "no Vulkan loader: libvulkan.so.1: cannot open shared object file".
  static std::string whyUnavailable(MLDeviceType type);
  static std::string version();
};

// ---- MLGraphBuilder -------------------------------------------------------
class WEBNN_EXPORT MLGraphBuilder {
 public:
  explicit MLGraphBuilder(const MLContext& context);

  MLOperand input(const std::string& name, const MLOperandDescriptor& descriptor);
  MLOperand constant(const MLOperandDescriptor& descriptor, const MLBufferSource& buffer);
  MLOperand constant(MLOperandDataType dataType, const MLNumber& value);
  MLOperand constant(const MLTensor& tensor);
  // Weightless constant (DAOP, webnn#901): data bound after build() by label.
  MLOperand constant(const MLConstantDescriptor& descriptor);
  MLGraph build(const MLNamedOperands& outputs, const MLGraphOptions& options = {});

  // Element-wise binary
  MLOperand add(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand sub(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand mul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand div(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand max(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand min(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand pow(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  // Comparison and logical
  MLOperand equal(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand notEqual(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand greater(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand greaterOrEqual(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand lesser(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand lesserOrEqual(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand logicalNot(const MLOperand& a, const MLOperatorOptions& options = {});
  MLOperand logicalAnd(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand logicalOr(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand logicalXor(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand isNaN(const MLOperand& a, const MLOperatorOptions& options = {});
  MLOperand isInfinite(const MLOperand& a, const MLOperatorOptions& options = {});
  // Element-wise unary
  MLOperand abs(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand ceil(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand cos(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand erf(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand exp(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand floor(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand identity(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand log(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand neg(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand reciprocal(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand roundEven(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sin(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sign(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sqrt(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand tan(const MLOperand& input, const MLOperatorOptions& options = {});
  // Activations
  MLOperand elu(const MLOperand& input, const MLEluOptions& options = {});
  MLOperand gelu(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand hardSigmoid(const MLOperand& input, const MLHardSigmoidOptions& options = {});
  MLOperand hardSwish(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand leakyRelu(const MLOperand& input, const MLLeakyReluOptions& options = {});
  MLOperand linear(const MLOperand& input, const MLLinearOptions& options = {});
  MLOperand relu(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand sigmoid(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand softplus(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand softsign(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand tanh(const MLOperand& input, const MLOperatorOptions& options = {});
  MLOperand clamp(const MLOperand& input, const MLClampOptions& options = {});
  MLOperand prelu(const MLOperand& input, const MLOperand& slope, const MLOperatorOptions& options = {});
  MLOperand softmax(const MLOperand& input, uint32_t axis, const MLOperatorOptions& options = {});
  // Quantization and cast
  MLOperand cast(const MLOperand& input, MLOperandDataType dataType, const MLOperatorOptions& options = {});
  MLOperand quantizeLinear(const MLOperand& input, const MLOperand& scale, const MLOperand& zeroPoint,
                           const MLOperatorOptions& options = {});
  MLOperand dequantizeLinear(const MLOperand& input, const MLOperand& scale, const MLOperand& zeroPoint,
                             const MLOperatorOptions& options = {});
  // Convolution, pooling, resampling
  MLOperand conv2d(const MLOperand& input, const MLOperand& filter, const MLConv2dOptions& options = {});
  MLOperand convTranspose2d(const MLOperand& input, const MLOperand& filter,
                            const MLConvTranspose2dOptions& options = {});
  MLOperand averagePool2d(const MLOperand& input, const MLPool2dOptions& options = {});
  MLOperand l2Pool2d(const MLOperand& input, const MLPool2dOptions& options = {});
  MLOperand maxPool2d(const MLOperand& input, const MLPool2dOptions& options = {});
  MLOperand resample2d(const MLOperand& input, const MLResample2dOptions& options = {});
  // Matrix
  MLOperand matmul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& options = {});
  MLOperand gemm(const MLOperand& a, const MLOperand& b, const MLGemmOptions& options = {});
  // Normalization
  MLOperand batchNormalization(const MLOperand& input, const MLOperand& mean, const MLOperand& variance,
                               const MLBatchNormalizationOptions& options = {});
  MLOperand instanceNormalization(const MLOperand& input, const MLInstanceNormalizationOptions& options = {});
  MLOperand layerNormalization(const MLOperand& input, const MLLayerNormalizationOptions& options = {});
  // Reductions and scans
  MLOperand reduceL1(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceL2(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceLogSum(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceLogSumExp(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceMax(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceMean(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceMin(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceProduct(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceSum(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand reduceSumSquare(const MLOperand& input, const MLReduceOptions& options = {});
  MLOperand argMin(const MLOperand& input, uint32_t axis, const MLArgMinMaxOptions& options = {});
  MLOperand argMax(const MLOperand& input, uint32_t axis, const MLArgMinMaxOptions& options = {});
  MLOperand cumulativeSum(const MLOperand& input, uint32_t axis, const MLCumulativeSumOptions& options = {});
  // Data movement and shape
  MLOperand concat(const std::vector<MLOperand>& inputs, uint32_t axis, const MLOperatorOptions& options = {});
  MLOperand expand(const MLOperand& input, const std::vector<MLDimension>& newShape,
                   const MLOperatorOptions& options = {});
  MLOperand gather(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& options = {});
  MLOperand gatherElements(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& options = {});
  MLOperand gatherND(const MLOperand& input, const MLOperand& indices, const MLOperatorOptions& options = {});
  MLOperand scatterElements(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                            const MLScatterOptions& options = {});
  MLOperand scatterND(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                      const MLOperatorOptions& options = {});
  MLOperand pad(const MLOperand& input, const std::vector<uint32_t>& beginningPadding,
                const std::vector<uint32_t>& endingPadding, const MLPadOptions& options = {});
  MLOperand reshape(const MLOperand& input, const std::vector<MLDimension>& newShape,
                    const MLOperatorOptions& options = {});
  MLOperand reverse(const MLOperand& input, const MLReverseOptions& options = {});
  MLOperand slice(const MLOperand& input, const std::vector<uint32_t>& starts, const std::vector<uint32_t>& sizes,
                  const MLSliceOptions& options = {});
  std::vector<MLOperand> split(const MLOperand& input, const MLSplits& splits, const MLSplitOptions& options = {});
  MLOperand tile(const MLOperand& input, const std::vector<uint32_t>& repetitions,
                 const MLOperatorOptions& options = {});
  MLOperand transpose(const MLOperand& input, const MLTransposeOptions& options = {});
  MLOperand triangular(const MLOperand& input, const MLTriangularOptions& options = {});
  MLOperand where(const MLOperand& condition, const MLOperand& trueValue, const MLOperand& falseValue,
                  const MLOperatorOptions& options = {});
  // Recurrent
  std::vector<MLOperand> gru(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrentWeight,
                             uint32_t steps, uint32_t hiddenSize, const MLGruOptions& options = {});
  MLOperand gruCell(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrentWeight,
                    const MLOperand& hiddenState, uint32_t hiddenSize, const MLGruCellOptions& options = {});
  std::vector<MLOperand> lstm(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrentWeight,
                              uint32_t steps, uint32_t hiddenSize, const MLLstmOptions& options = {});
  std::vector<MLOperand> lstmCell(const MLOperand& input, const MLOperand& weight, const MLOperand& recurrentWeight,
                                  const MLOperand& hiddenState, const MLOperand& cellState, uint32_t hiddenSize,
                                  const MLLstmCellOptions& options = {});

  const std::shared_ptr<internal::BuilderImpl>& impl() const { return impl_; }

 private:
  std::shared_ptr<internal::BuilderImpl> impl_;
};

}  // namespace webnn

// Loading graph files (webnn::loadGraph).
#include "webnn/graph_file.h"  // IWYU pragma: export
