// Implementation objects behind the public handles.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/log.h"
#include "core/parallel.h"
#include "graph/compile.h"
#include "graph/graph.h"
#include "memory/ledger.h"
#include "memory/staging_gate.h"
#include "ops/device.h"
#include "ops/schema.h"
#include "qos/context_model.h"
#include "scheduler/cpu_threads.h"
#include "scheduler/executable.h"
#include "webnn/webnn.h"

namespace webnn::internal {

class GraphImpl;
class TensorImpl;
class QoSMonitorImpl;

class ContextImpl : public std::enable_shared_from_this<ContextImpl> {
 public:
  ContextImpl(const MLContextOptions& options, std::shared_ptr<ops::Device> device);

  const MLContextOptions& options() const { return options_; }
  // MLContextOptions::logLevel and logCallback.
  const core::Logger& logger() const { return logger_; }
  ops::Device& device() const { return *device_; }
  const std::shared_ptr<ops::Device>& device_ptr() const { return device_; }
  // Every byte the context holds is charged here (memoryLimit applies).
  const std::shared_ptr<memory::Ledger>& ledger() const { return ledger_; }
  // Raw bytes of streamed constants in flight (MLConstantWriter).
  memory::StagingGate& constant_staging() { return constant_staging_; }

  // Per-op limits: the schema's allowed types narrowed to what the device runs.
  const ops::OpLimits& limits(ops::OpKind op) const { return limits_[static_cast<int>(op)]; }
  // Data types graph inputs, constants and outputs may have on this context.
  core::DataTypeSet io_types() const { return io_types_; }

  bool is_lost() const;
  // Why the context was lost; empty while it is not.
  std::string lost_message() const;
  // Logs the loss at `level` (kError for a failed device, kInfo for destroy()).
  void Lose(const std::string& message, MLLogLevel level = MLLogLevel::kError);
  std::shared_future<MLContextLostInfo> lost_future() const { return lost_future_; }

  void Register(const std::shared_ptr<GraphImpl>& g);
  void Register(const std::shared_ptr<TensorImpl>& t);

  // Guards the context's timeline bookkeeping (the tensors' last writers and
  // readers, graphs' last runs) and the checks of what is destroyed. Held
  // while work is queued, never while it runs.
  std::mutex& timeline() { return timeline_; }

  // Work queued on the context and maybe not done: finish() waits for it.
  void Track(const scheduler::JobPtr& job);
  void Finish() const;
  // The queue of a dispatch: its own hint, else the graph's, else the context's.
  scheduler::Priority PriorityFor(std::optional<MLLatencyHint> dispatch, std::optional<MLLatencyHint> graph) const;

  // DAOP: the context's cost model (api/qos.cc), and its QoS monitors, told
  // when the load changes (a dispatch queued or finished).
  qos::ContextModel& qos_model();
  void AddQoSMonitor(std::weak_ptr<QoSMonitorImpl> monitor);
  // `finishing`: jobs counted in flight that are ending (the caller's own).
  void LoadChanged(size_t finishing = 0);

 private:
  MLContextOptions options_;
  core::Logger logger_;
  std::shared_ptr<ops::Device> device_;
  std::shared_ptr<memory::Ledger> ledger_;
  memory::StagingGate constant_staging_;
  std::vector<ops::OpLimits> limits_;
  core::DataTypeSet io_types_;
  mutable std::mutex mutex_;
  bool lost_ = false;
  std::string lost_message_;
  std::promise<MLContextLostInfo> lost_promise_;
  std::shared_future<MLContextLostInfo> lost_future_;
  std::vector<std::weak_ptr<GraphImpl>> graphs_;
  std::vector<std::weak_ptr<TensorImpl>> tensors_;
  std::vector<scheduler::JobPtr> in_flight_;  // guarded by mutex_
  std::once_flag qos_once_;
  std::unique_ptr<qos::ContextModel> qos_model_;
  std::vector<std::weak_ptr<QoSMonitorImpl>> qos_monitors_;  // guarded by mutex_
  std::mutex timeline_;
};

class TensorImpl {
 public:
  TensorImpl(std::shared_ptr<ContextImpl> context, MLTensorDescriptor desc, bool is_constant,
             std::shared_ptr<ops::DeviceBuffer> buffer)
      : context(std::move(context)), desc(std::move(desc)), is_constant(is_constant), buffer(std::move(buffer)) {}

  std::shared_ptr<ContextImpl> context;
  MLTensorDescriptor desc;
  bool is_constant;
  std::shared_ptr<ops::DeviceBuffer> buffer;  // released by destroy()
  bool destroyed = false;
  // The timeline (guarded by the context's timeline()): the last job that
  // writes the tensor and the jobs that read it since.
  scheduler::JobPtr last_writer;
  std::vector<scheduler::JobPtr> readers;
  // The readers not yet done (drops those that are).
  std::vector<scheduler::JobPtr> PendingReaders() {
    std::erase_if(readers, [](const scheduler::JobPtr& j) { return j->done(); });
    return readers;
  }
};

class BuilderImpl : public std::enable_shared_from_this<BuilderImpl> {
 public:
  explicit BuilderImpl(std::shared_ptr<ContextImpl> context) : context(std::move(context)) {}

  // InvalidStateError unless the builder can still build.
  void CheckCanBuild(std::string_view what) const;
  // TypeError unless `operand` belongs to this builder.
  graph::OperandId Validate(const MLOperand& operand, std::string_view op, std::string_view label,
                            std::string_view argument) const;
  // The common path of every operation method.
  std::vector<MLOperand> AddOp(ops::OpKind op, const std::string& label,
                               const std::vector<const MLOperand*>& operands,
                               std::shared_ptr<const ops::OpAttrs> attrs);
  MLOperand Wrap(graph::OperandId id) { return MLOperand(shared_from_this(), id); }

  std::shared_ptr<ContextImpl> context;
  graph::Graph graph;
  bool has_built = false;
};

// The compiled graph (graph::CompiledGraph: IR, program, Executable) and
// what the api records about it.
class GraphImpl : public graph::CompiledGraph {
 public:
  std::shared_ptr<ContextImpl> context;
  std::optional<MLLatencyHint> latency_hint;  // MLGraphOptions
  // The last dispatch of the graph: runs of one graph share its arena, so
  // each runs after the one before (guarded by the context's timeline()).
  scheduler::JobPtr last_run;
  bool destroyed = false;
  std::mutex mutex;
};

// The spec's "check dimensions" for descriptors given to input()/constant()/
// createTensor(); `what` prefixes the TypeError message.
void CheckDescriptor(MLOperandDataType type, const std::vector<MLDimension>& shape, std::string_view what);
// The spec's "validate buffer with descriptor".
void CheckBufferMatches(const MLBufferSource& buffer, MLOperandDataType type, uint64_t byte_length,
                        std::string_view what);
// Its second half: the buffer's view type suits `type` (TypeError).
void CheckViewType(const MLBufferSource& buffer, MLOperandDataType type, std::string_view what);

}  // namespace webnn::internal

namespace webnn::internal {
// The weightless constant `label` of `g`, which must be waiting for data:
// DataError for an unknown label, InvalidStateError when it has its data or
// an open writer. `what` prefixes the messages. Call with the timeline held.
GraphImpl::Weightless& UnboundConstant(GraphImpl& g, const std::string& label, std::string_view what);
// Gives `w` its data (the device prepares what reads it) and marks it bound.
void GiveConstantData(GraphImpl& g, GraphImpl::Weightless& w, std::shared_ptr<ops::DeviceBuffer> buffer);
// MLContext::dispatch, with `unrounded` (output name -> one double per
// element, kept alive by the caller until the run is over): where the
// reference device also writes those outputs' values before their final
// rounding (src/api/unrounded_outputs.h).
void Dispatch(const std::shared_ptr<ContextImpl>& impl, const MLGraph& graph, const MLNamedTensors& inputs,
              const MLNamedTensors& outputs, const MLDispatchOptions& options,
              const std::map<std::string, double*>& unrounded);
}  // namespace webnn::internal
