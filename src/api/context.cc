// ML, MLContext and MLTensor.
#include <algorithm>
#include <cstring>
#include <new>
#include <set>
#include <system_error>

#include "api/impl.h"
#include "scheduler/device_choice.h"
#include "scheduler/thread_pool.h"
#include "core/strings.h"
#include "webnn/webnn.h"

namespace webnn {

using core::StrCat;
using internal::ContextImpl;
using internal::TensorImpl;

namespace internal {

namespace {
std::unique_ptr<core::ParallelFor> StartThreadPool(uint32_t threads) {
  try {
    return std::make_unique<scheduler::ThreadPool>(threads);
  } catch (const std::system_error& e) {
    throw OperationError(StrCat("createContext: cannot start the threads of the thread pool (numThreads ", threads,
                                "): ", e.what()));
  }
}
}  // namespace

ContextImpl::ContextImpl(const MLContextOptions& options, std::shared_ptr<ops::Device> device)
    : options_(options),
      device_(std::move(device)),
      ledger_(std::make_shared<memory::Ledger>("context's memoryLimit", options.memoryLimit.value_or(0),
                                               memory::ProcessLedger())),
      parallel_(StartThreadPool(options.numThreads)) {
  lost_future_ = lost_promise_.get_future().share();
  limits_.resize(ops::kOpCount);
  for (ops::OpKind op : ops::kAllOps) {
    ops::OpLimits lim = ops::SchemaLimits(ops::GetSchema(op));
    for (size_t i = 0; i < lim.inputs.size(); ++i)
      lim.inputs[i].types = lim.inputs[i].types & device_->SupportedTypes(op, false, i);
    for (size_t i = 0; i < lim.outputs.size(); ++i)
      lim.outputs[i].types = lim.outputs[i].types & device_->SupportedTypes(op, true, i);
    limits_[static_cast<int>(op)] = std::move(lim);
  }
  io_types_ = core::kAnyType;
}

bool ContextImpl::is_lost() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lost_;
}

std::string ContextImpl::lost_message() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lost_message_;
}

void ContextImpl::Lose(const std::string& message) {
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
  lost_promise_.set_value(MLContextLostInfo{message});
  for (auto& g : graphs) MLGraph(g).destroy();
  for (auto& t : tensors) MLTensor(t).destroy();
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
  std::shared_ptr<ops::Device> device = scheduler::ChooseDevice(options);
  return MLContext(std::make_shared<ContextImpl>(options, device));
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

std::vector<std::byte> MLContext::readTensor(const MLTensor& tensor) {
  ContextImpl& ctx = Ctx(impl_);
  std::lock_guard<std::mutex> lock(ctx.timeline());
  TensorImpl& t = CheckTensorOf(tensor, ctx, "readTensor");
  if (!t.desc.readable) throw TypeError("readTensor: the tensor was not created readable");
  if (ctx.is_lost()) throw InvalidStateError("readTensor: the context is lost");
  std::vector<std::byte> out;
  try {
    out.resize(t.buffer->size());
  } catch (const std::bad_alloc&) {
    throw QuotaExceededError(StrCat("readTensor: out of memory allocating ", t.buffer->size(),
                                    " bytes for the tensor's contents"));
  }
  ctx.device().Download(*t.buffer, 0, out);
  return out;
}

void MLContext::readTensor(const MLTensor& tensor, const MLMutableBufferSource& outputData) {
  ContextImpl& ctx = Ctx(impl_);
  std::lock_guard<std::mutex> lock(ctx.timeline());
  TensorImpl& t = CheckTensorOf(tensor, ctx, "readTensor");
  if (!t.desc.readable) throw TypeError("readTensor: the tensor was not created readable");
  const uint64_t bytes = ByteLengthFor(t.desc.dataType, core::ElementCount(t.desc.shape));
  internal::CheckBufferMatches(MLBufferSource(outputData.bytes(), outputData.viewType()), t.desc.dataType, bytes,
                               "readTensor");
  if (ctx.is_lost()) throw InvalidStateError("readTensor: the context is lost");
  ctx.device().Download(*t.buffer, 0, outputData.bytes());
}

void MLContext::writeTensor(const MLTensor& tensor, const MLBufferSource& inputData) {
  ContextImpl& ctx = Ctx(impl_);
  std::lock_guard<std::mutex> lock(ctx.timeline());
  TensorImpl& t = CheckTensorOf(tensor, ctx, "writeTensor");
  if (!t.desc.writable) throw TypeError("writeTensor: the tensor was not created writable");
  const uint64_t bytes = ByteLengthFor(t.desc.dataType, core::ElementCount(t.desc.shape));
  internal::CheckBufferMatches(inputData, t.desc.dataType, bytes, "writeTensor");
  if (ctx.is_lost()) return;  // the spec aborts the timeline steps silently
  ctx.device().Upload(*t.buffer, 0, inputData.bytes());
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

void MLContext::destroy() { Ctx(impl_).Lose("destroy() was called"); }
bool MLContext::accelerated() const { return Ctx(impl_).device().accelerated(); }
std::shared_future<MLContextLostInfo> MLContext::lost() const { return Ctx(impl_).lost_future(); }
MLDeviceType MLContext::deviceType() const { return Ctx(impl_).device().type(); }
std::string MLContext::deviceName() const { return std::string(Ctx(impl_).device().name()); }

MLMemoryUsage MLContext::memoryUsage() const {
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

std::string_view ToString(MLMemoryCategory category) {
  return memory::CategoryName(static_cast<memory::Category>(category));
}
std::string_view ToString(MLMemoryDevice device) { return memory::PlaceName(static_cast<memory::Place>(device)); }

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
  // buffer, so releasing ours is safe (spec note under dispatch()).
  impl_->buffer.reset();
}

}  // namespace webnn
