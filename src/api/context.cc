// ML, MLContext and MLTensor.
#include <algorithm>
#include <cstring>
#include <new>
#include <set>
#include <system_error>

#include "api/impl.h"
#include "qos/profile_file.h"
#include "scheduler/device_choice.h"
#include "scheduler/thread_pool.h"
#include "core/strings.h"
#include "webnn/webnn.h"

namespace webnn {

using core::StrCat;
using internal::ContextImpl;
using internal::TensorImpl;

namespace internal {


ContextImpl::ContextImpl(const MLContextOptions& options, std::shared_ptr<ops::Device> device)
    : options_(options),
      logger_(options.logLevel, options.logCallback),
      device_(std::move(device)),
      ledger_(std::make_shared<memory::Ledger>("context's memoryLimit", options.memoryLimit.value_or(0),
                                               memory::ProcessLedger())),
      constant_staging_(options.constantStagingLimit) {
  lost_future_ = lost_promise_.get_future().share();
  limits_.resize(ops::kOpCount);
  for (ops::OpKind op : ops::kAllOps) {
    ops::OpLimits lim = ops::SchemaLimits(op);  // narrowed to the device below
    for (size_t i = 0; i < lim.inputs.size(); ++i)
      lim.inputs[i].types = lim.inputs[i].types & device_->SupportedTypes(op, false, i);
    for (size_t i = 0; i < lim.outputs.size(); ++i)
      lim.outputs[i].types = lim.outputs[i].types & device_->SupportedTypes(op, true, i);
    limits_[static_cast<int>(op)] = std::move(lim);
  }
  io_types_ = core::kAnyType;
}

qos::ContextModel& ContextImpl::qos_model() {
  // Made on first use: sizing it asks the process's pool for its threads,
  // which starts the pool (too early for scheduler::SetCpuThreadCount if
  // done when a context is created).
  std::call_once(qos_once_, [&] {
    const size_t pool = scheduler::CpuThreadCount();
    const size_t threads = options_.numThreads ? std::min<size_t>(options_.numThreads, pool) : pool;
    qos_model_ = std::make_unique<qos::ContextModel>(
        std::string(device_->name()), qos::MachineKey(device_->description()), static_cast<unsigned>(threads));
  });
  return *qos_model_;
}

bool ContextImpl::is_lost() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lost_;
}

std::string ContextImpl::lost_message() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lost_message_;
}

void ContextImpl::Lose(const std::string& message, MLLogLevel level) {
  std::vector<std::shared_ptr<GraphImpl>> graphs;
  std::vector<std::shared_ptr<TensorImpl>> tensors;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (lost_) return;
    lost_ = true;
    lost_message_ = message;
    for (auto& w : graphs_)
      if (auto g = w.lock()) graphs.push_back(g);
    for (auto& w : tensors_)
      if (auto t = w.lock()) tensors.push_back(t);
  }
  logger_.Logf(level, "context lost (", device_->name(), " device): ", message);
  lost_promise_.set_value(MLContextLostInfo{message});
  for (auto& g : graphs) MLGraph(g).destroy();
  for (auto& t : tensors) MLTensor(t).destroy();
}

void ContextImpl::Track(const scheduler::JobPtr& job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_flight_.size() >= 32) std::erase_if(in_flight_, [](const scheduler::JobPtr& j) { return j->done(); });
  in_flight_.push_back(job);
}

void ContextImpl::Finish() const {
  std::vector<scheduler::JobPtr> jobs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs = in_flight_;
  }
  for (const auto& j : jobs) j->Wait();
}

scheduler::Priority ContextImpl::PriorityFor(std::optional<MLLatencyHint> dispatch,
                                             std::optional<MLLatencyHint> graph) const {
  const MLLatencyHint hint = dispatch ? *dispatch : graph ? *graph : options_.latencyHint;
  return hint == MLLatencyHint::kLow ? scheduler::Priority::kLatency : scheduler::Priority::kThroughput;
}

void ContextImpl::Register(const std::shared_ptr<GraphImpl>& g) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(graphs_, [](const auto& w) { return w.expired(); });
  graphs_.push_back(g);
}

void ContextImpl::Register(const std::shared_ptr<TensorImpl>& t) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(tensors_, [](const auto& w) { return w.expired(); });
  tensors_.push_back(t);
}

void CheckDescriptor(MLOperandDataType type, const std::vector<MLDimension>& shape, std::string_view what) {
  if (shape.size() > core::kMaxRank)
    throw TypeError(StrCat(what, ": rank ", shape.size(), " exceeds the maximum rank ", core::kMaxRank));
  uint64_t elements = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    const MLDimension& d = shape[i];
    if (d.size() <= 0 || static_cast<uint64_t>(d.size()) > core::kMaxDimension)
      throw TypeError(StrCat(what, ": dimension ", i, " is ", d.ToString(), "; dimensions must be in [1, ",
                             core::kMaxDimension, "]"));
    if (d.isDynamic() && d.name().empty())
      throw TypeError(StrCat(what, ": dynamic dimension ", i, " has an empty name"));
    elements *= static_cast<uint64_t>(d.size());
    if (elements > core::kMaxDimension)
      throw TypeError(StrCat(what, ": the element count exceeds ", core::kMaxDimension));
  }
  const uint64_t bytes = ByteLengthFor(type, elements);
  if (bytes > core::kMaxTensorByteLength)
    throw TypeError(StrCat(what, ": ", bytes, " bytes exceed maxTensorByteLength ", core::kMaxTensorByteLength));
}

void CheckBufferMatches(const MLBufferSource& buffer, MLOperandDataType type, uint64_t byte_length,
                        std::string_view what) {
  if (buffer.detached()) throw TypeError(StrCat(what, ": the buffer is detached"));
  if (buffer.bytes().size() != byte_length)
    throw TypeError(StrCat(what, ": buffer has ", buffer.bytes().size(), " bytes but the descriptor needs ",
                           byte_length));
  CheckViewType(buffer, type, what);
}

void CheckViewType(const MLBufferSource& buffer, MLOperandDataType type, std::string_view what) {
  using V = MLArrayBufferViewType;
  const V view = buffer.viewType();
  if (view == V::kArrayBuffer || view == V::kUint8Array) return;
  V expected;
  switch (type) {
    case MLOperandDataType::kFloat32: expected = V::kFloat32Array; break;
    case MLOperandDataType::kFloat16:
      // Float16Array, or Uint16Array carrying raw bits (spec note on webnn#373).
      if (view == V::kFloat16Array || view == V::kUint16Array) return;
      expected = V::kFloat16Array;
      break;
    case MLOperandDataType::kInt32: expected = V::kInt32Array; break;
    case MLOperandDataType::kUint32: expected = V::kUint32Array; break;
    case MLOperandDataType::kInt64: expected = V::kBigInt64Array; break;
    case MLOperandDataType::kUint64: expected = V::kBigUint64Array; break;
    case MLOperandDataType::kInt8: expected = V::kInt8Array; break;
    default: expected = V::kUint8Array; break;  // uint8, int4, uint4: bytes
  }
  if (view != expected)
    throw TypeError(StrCat(what, ": the buffer's view type does not match data type ", ToString(type)));
}

}  // namespace internal

// ---- ML ---------------------------------------------------------------------

MLContext ML::createContext(const MLContextOptions& options) {
  if (options.numThreads > scheduler::ThreadPool::kMaxThreads)
    throw TypeError(StrCat("createContext: numThreads is ", options.numThreads, "; it must be at most ",
                           scheduler::ThreadPool::kMaxThreads, " (0 = every available core)"));
  if (options.memoryLimit && *options.memoryLimit == 0)
    throw TypeError("createContext: memoryLimit is 0; leave it unset for no limit");
  std::string why;
  std::shared_ptr<ops::Device> device = scheduler::ChooseDevice(options, &why);
  // The low-latency policy puts the context's work on the latency queue
  // unless it says otherwise.
  MLContextOptions effective = options;
  if (options.powerPreference == MLPowerPreference::kLowLatency && options.latencyHint == MLLatencyHint::kDefault)
    effective.latencyHint = MLLatencyHint::kLow;
  auto context = std::make_shared<ContextImpl>(effective, device);
  context->logger().Logf(MLLogLevel::kInfo, "createContext: the ", device->name(), " device (", device->description(),
                         "): ", why);
  // The cpu device's tuning table, read once per process: a context on any
  // device may place steps on cpu.
  static const std::string tuning = [] {
    const std::shared_ptr<ops::Device> cpu = ops::FindDevice(MLDeviceType::kCpu);
    return cpu ? qos::InstallTuningTable(qos::MachineKey(cpu->description())) : std::string("cpu tuning: no cpu device");
  }();
  context->logger().Logf(MLLogLevel::kInfo, "createContext: ", tuning);
  return MLContext(std::move(context));
}

std::vector<MLDeviceInfo> ML::devices() {
  std::vector<MLDeviceInfo> out;
  for (const auto& d : ops::AvailableDevices())
    out.push_back({d->type(), std::string(d->name()), d->description(), d->accelerated(), d->features()});
  return out;
}

std::string ML::whyUnavailable(MLDeviceType type) { return ops::WhyUnavailable(type); }

// ---- MLContext --------------------------------------------------------------

namespace {

ContextImpl& Ctx(const std::shared_ptr<ContextImpl>& impl) {
  if (!impl) throw TypeError("MLContext: null context");
  return *impl;
}

// Call with ctx.timeline() held: destroy() releases the buffer under that lock,
// so a tensor found alive here keeps its buffer until the lock is released.
TensorImpl& CheckTensorOf(const MLTensor& tensor, const ContextImpl& ctx, std::string_view what) {
  if (!tensor.impl()) throw TypeError(StrCat(what, ": null tensor"));
  TensorImpl& t = *tensor.impl();
  if (t.context.get() != &ctx) throw TypeError(StrCat(what, ": the tensor belongs to another context"));
  if (t.destroyed) throw TypeError(StrCat(what, ": the tensor is destroyed"));
  return t;
}

}  // namespace

MLTensor MLContext::createTensor(const MLTensorDescriptor& descriptor) {
  ContextImpl& ctx = Ctx(impl_);
  if (ctx.is_lost()) throw InvalidStateError("createTensor: the context is lost");
  std::vector<MLDimension> dims(descriptor.shape.begin(), descriptor.shape.end());
  internal::CheckDescriptor(descriptor.dataType, dims, "createTensor");
  if (!ctx.io_types().Contains(descriptor.dataType))
    throw TypeError(StrCat("createTensor: data type ", ToString(descriptor.dataType), " is not supported"));
  const uint64_t bytes = ByteLengthFor(descriptor.dataType, core::ElementCount(descriptor.shape));
  auto t = std::make_shared<TensorImpl>(
      impl_, descriptor, false, ctx.device().Allocate(bytes, "createTensor", {ctx.ledger(), memory::Category::kTensors}));
  ctx.Register(t);
  return MLTensor(t);
}

MLTensor MLContext::createConstantTensor(const MLOperandDescriptor& descriptor, const MLBufferSource& inputData) {
  ContextImpl& ctx = Ctx(impl_);
  if (ctx.is_lost()) throw InvalidStateError("createConstantTensor: the context is lost");
  internal::CheckDescriptor(descriptor.dataType, descriptor.shape, "createConstantTensor");
  MLTensorDescriptor td;
  td.dataType = descriptor.dataType;
  for (const MLDimension& d : descriptor.shape) {
    if (d.isDynamic()) throw TypeError("createConstantTensor: a constant tensor cannot have dynamic dimensions");
    td.shape.push_back(static_cast<uint32_t>(d.size()));
  }
  const uint64_t bytes = ByteLengthFor(td.dataType, core::ElementCount(td.shape));
  internal::CheckBufferMatches(inputData, td.dataType, bytes, "createConstantTensor");
  auto buffer =
      ctx.device().Allocate(bytes, "createConstantTensor", {ctx.ledger(), memory::Category::kConstantsRaw});
  ctx.device().Upload(*buffer, 0, inputData.bytes());
  auto t = std::make_shared<TensorImpl>(impl_, td, true, std::move(buffer));
  ctx.Register(t);
  return MLTensor(t);
}

namespace {

// A read of `t` on the timeline: runs after its last writer (whose error it
// takes), and a later writer waits for it. Call with the timeline held.
scheduler::JobPtr QueueRead(TensorImpl& t, ContextImpl& ctx, std::function<void(std::vector<std::byte>&)> deliver,
                            std::vector<scheduler::JobPtr>* data_from) {
  std::shared_ptr<ops::DeviceBuffer> buffer = t.buffer;
  std::shared_ptr<ops::Device> device = ctx.device_ptr();
  auto job = std::make_shared<scheduler::Job>(
      [buffer, device, deliver = std::move(deliver)](core::ParallelFor& parallel) {
        std::vector<std::byte> out;
        try {
          out.resize(buffer->size());
        } catch (const std::bad_alloc&) {
          throw QuotaExceededError(StrCat("readTensor: out of memory allocating ", buffer->size(),
                                          " bytes for the tensor's contents"));
        }
        device->Download(*buffer, 0, out, parallel);
        deliver(out);
      },
      scheduler::Priority::kLatency, ctx.options().numThreads);
  t.PendingReaders();
  t.readers.push_back(job);
  *data_from = {t.last_writer};
  return job;
}

}  // namespace

std::vector<std::byte> MLContext::readTensor(const MLTensor& tensor) {
  ContextImpl& ctx = Ctx(impl_);
  std::vector<std::byte> result;
  scheduler::JobPtr job;
  std::vector<scheduler::JobPtr> data_from;
  {
    std::lock_guard<std::mutex> lock(ctx.timeline());
    TensorImpl& t = CheckTensorOf(tensor, ctx, "readTensor");
    if (!t.desc.readable) throw TypeError("readTensor: the tensor was not created readable");
    if (ctx.is_lost()) throw InvalidStateError("readTensor: the context is lost");
    job = QueueRead(t, ctx, [&](std::vector<std::byte>& bytes) { result.swap(bytes); }, &data_from);
  }
  // Waits for the last writer here, then copies on this thread.
  scheduler::RunHere(job, data_from, {});
  return result;
}

void MLContext::readTensor(const MLTensor& tensor, const MLMutableBufferSource& outputData) {
  ContextImpl& ctx = Ctx(impl_);
  scheduler::JobPtr job;
  std::vector<scheduler::JobPtr> data_from;
  {
    std::lock_guard<std::mutex> lock(ctx.timeline());
    TensorImpl& t = CheckTensorOf(tensor, ctx, "readTensor");
    if (!t.desc.readable) throw TypeError("readTensor: the tensor was not created readable");
    const uint64_t bytes = ByteLengthFor(t.desc.dataType, core::ElementCount(t.desc.shape));
    internal::CheckBufferMatches(MLBufferSource(outputData.bytes(), outputData.viewType()), t.desc.dataType, bytes,
                                 "readTensor");
    if (ctx.is_lost()) throw InvalidStateError("readTensor: the context is lost");
    std::shared_ptr<ops::DeviceBuffer> buffer = t.buffer;
    std::shared_ptr<ops::Device> device = ctx.device_ptr();
    std::span<std::byte> out = outputData.bytes();
    job = std::make_shared<scheduler::Job>(
        [buffer, device, out](core::ParallelFor& parallel) { device->Download(*buffer, 0, out, parallel); },
        scheduler::Priority::kLatency, ctx.options().numThreads);
    t.PendingReaders();
    t.readers.push_back(job);
    data_from = {t.last_writer};
  }
  scheduler::RunHere(job, data_from, {});
}

std::future<std::vector<std::byte>> MLContext::readTensorAsync(const MLTensor& tensor) {
  auto promise = std::make_shared<std::promise<std::vector<std::byte>>>();
  std::future<std::vector<std::byte>> future = promise->get_future();
  readTensorAsync(tensor, [promise](std::vector<std::byte> bytes, std::exception_ptr error) {
    if (error) promise->set_exception(error);
    else promise->set_value(std::move(bytes));
  });
  return future;
}

void MLContext::readTensorAsync(const MLTensor& tensor,
                                std::function<void(std::vector<std::byte>, std::exception_ptr)> callback) {
  if (!callback) throw TypeError("readTensorAsync: no callback");
  ContextImpl& ctx = Ctx(impl_);
  std::lock_guard<std::mutex> lock(ctx.timeline());
  TensorImpl& t = CheckTensorOf(tensor, ctx, "readTensorAsync");
  if (!t.desc.readable) throw TypeError("readTensorAsync: the tensor was not created readable");
  if (ctx.is_lost()) throw InvalidStateError("readTensorAsync: the context is lost");
  // The callback runs once, with the bytes or with the error of the read or
  // of the dispatch that wrote the tensor (a job that is skipped for its
  // writer's error never runs its work, so a second job reports that).
  auto delivered = std::make_shared<std::atomic<bool>>(false);
  auto cb = std::make_shared<std::function<void(std::vector<std::byte>, std::exception_ptr)>>(std::move(callback));
  std::vector<scheduler::JobPtr> data_from;
  scheduler::JobPtr read = QueueRead(
      t, ctx,
      [cb, delivered](std::vector<std::byte>& bytes) {
        if (!delivered->exchange(true)) (*cb)(std::move(bytes), nullptr);
      },
      &data_from);
  auto report = std::make_shared<scheduler::Job>(
      [read, cb, delivered](core::ParallelFor&) {
        if (!delivered->exchange(true)) (*cb)({}, read->error());
      },
      scheduler::Priority::kLatency);
  ctx.Track(read);
  ctx.Track(report);
  scheduler::Submit(read, data_from, {});
  scheduler::Submit(report, {}, {read});
}

void MLContext::finish() { Ctx(impl_).Finish(); }

void MLContext::writeTensor(const MLTensor& tensor, const MLBufferSource& inputData) {
  ContextImpl& ctx = Ctx(impl_);
  scheduler::JobPtr job;
  std::vector<scheduler::JobPtr> after;
  {
    std::lock_guard<std::mutex> lock(ctx.timeline());
    TensorImpl& t = CheckTensorOf(tensor, ctx, "writeTensor");
    if (!t.desc.writable) throw TypeError("writeTensor: the tensor was not created writable");
    const uint64_t bytes = ByteLengthFor(t.desc.dataType, core::ElementCount(t.desc.shape));
    internal::CheckBufferMatches(inputData, t.desc.dataType, bytes, "writeTensor");
    if (ctx.is_lost()) return;  // the spec aborts the timeline steps silently
    after = t.PendingReaders();
    if (t.last_writer && !t.last_writer->done()) after.push_back(t.last_writer);
    if (after.empty()) {
      // Nothing queued touches the tensor: write it now.
      ctx.device().Upload(*t.buffer, 0, inputData.bytes());
      t.last_writer = nullptr;
      return;
    }
    std::shared_ptr<ops::DeviceBuffer> buffer = t.buffer;
    std::shared_ptr<ops::Device> device = ctx.device_ptr();
    std::span<const std::byte> data = inputData.bytes();
    job = std::make_shared<scheduler::Job>([buffer, device, data](core::ParallelFor&) { device->Upload(*buffer, 0, data); },
                                           scheduler::Priority::kLatency);
    t.last_writer = job;
    t.readers.clear();
  }
  // After the dispatches that read or write the tensor; the caller's data is
  // copied before this returns.
  scheduler::RunHere(job, {}, after);
}

MLOpSupportLimits MLContext::opSupportLimits() const {
  const ContextImpl& ctx = Ctx(impl_);
  MLOpSupportLimits limits;
  limits.preferredInputLayout = MLInputOperandLayout::kNchw;
  limits.maxTensorByteLength = core::kMaxTensorByteLength;
  const MLTensorLimits io{ctx.io_types().ToVector(), {0, core::kMaxRank}};
  limits.input = limits.constant = limits.output = io;
  for (ops::OpKind op : ops::kAllOps) {
    const ops::OpSchema& schema = ops::GetSchema(op);
    const ops::OpLimits& lim = ctx.limits(op);
    MLOperatorSupportLimits per_op;
    for (size_t i = 0; i < schema.inputs.size(); ++i)
      per_op[std::string(schema.inputs[i].name)] = {lim.inputs[i].types.ToVector(),
                                                    {lim.inputs[i].ranks.min, lim.inputs[i].ranks.max}};
    for (size_t i = 0; i < schema.outputs.size(); ++i)
      per_op[std::string(schema.outputs[i].name)] = {lim.outputs[i].types.ToVector(),
                                                     {lim.outputs[i].ranks.min, lim.outputs[i].ranks.max}};
    limits.operators[std::string(ops::OpName(op))] = std::move(per_op);
  }
  return limits;
}

void MLContext::destroy() { Ctx(impl_).Lose("destroy() was called", MLLogLevel::kInfo); }
bool MLContext::accelerated() const { return Ctx(impl_).device().accelerated(); }
std::shared_future<MLContextLostInfo> MLContext::lost() const { return Ctx(impl_).lost_future(); }
MLDeviceType MLContext::deviceType() const { return Ctx(impl_).device().type(); }
std::string MLContext::deviceName() const { return std::string(Ctx(impl_).device().name()); }

MLMemoryUsage MLContext::memoryUsage() const {
  // After the work queued so far: what a dispatch used is counted once it ran.
  Ctx(impl_).Finish();
  const memory::LedgerSnapshot s = Ctx(impl_).ledger()->Snapshot();
  MLMemoryUsage usage;
  for (size_t d = 0; d < kMLMemoryDeviceCount; ++d) {
    for (size_t c = 0; c < kMLMemoryCategoryCount; ++c)
      usage.counters[d][c] = {s.counters[d][c].current, s.counters[d][c].peak};
    usage.devices[d] = {s.places[d].current, s.places[d].peak};
  }
  usage.total = {s.total.current, s.total.peak};
  if (s.limit != 0) usage.memoryLimit = s.limit;
  return usage;
}

void MLContext::resetPeakMemory() { Ctx(impl_).ledger()->ResetPeaks(); }

// ---- MLTensor ---------------------------------------------------------------

namespace {
const TensorImpl& T(const std::shared_ptr<TensorImpl>& impl) {
  if (!impl) throw TypeError("MLTensor: null tensor");
  return *impl;
}
}  // namespace

MLOperandDataType MLTensor::dataType() const { return T(impl_).desc.dataType; }
const std::vector<uint32_t>& MLTensor::shape() const { return T(impl_).desc.shape; }
bool MLTensor::readable() const { return T(impl_).desc.readable; }
bool MLTensor::writable() const { return T(impl_).desc.writable; }
bool MLTensor::constant() const { return T(impl_).is_constant; }

void MLTensor::destroy() {
  if (!impl_) return;
  std::lock_guard<std::mutex> lock(impl_->context->timeline());
  impl_->destroyed = true;
  // A graph that uses this tensor as a constant keeps its own reference to the
  // buffer, so releasing ours is safe (spec note under dispatch()); so does
  // every dispatch and read in flight that uses it.
  impl_->buffer.reset();
  impl_->last_writer = nullptr;
  impl_->readers.clear();
}

}  // namespace webnn
