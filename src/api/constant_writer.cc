// MLConstantWriter: weightless constants streamed in chunks (webnn#901).
#include <chrono>
#include <thread>

#include "api/impl.h"
#include "core/strings.h"
#include "webnn/webnn.h"

namespace webnn {

using core::StrCat;
using internal::GraphImpl;

namespace internal {

class ConstantWriterImpl {
 public:
  ConstantWriterImpl(std::shared_ptr<GraphImpl> graph, std::string label, MLOperandDataType type, uint64_t length)
      : graph_(std::move(graph)), label_(std::move(label)), type_(type), length_(length) {
    // Host devices hold the raw constant whole until it is packed: those
    // bytes are what the staging budget bounds. The gpu uploads each chunk
    // through its own bounded staging buffer into the constant's final place.
    if (graph_->context->device().SharesConstantBytes()) staging_cost_ = length_;
  }
  ~ConstantWriterImpl() { Abort(); }

  void Write(const MLBufferSource& chunk) {
    std::lock_guard<std::mutex> lock(mutex_);
    CheckOpen("write");
    CheckViewType(chunk, type_, What("write"));
    const std::span<const std::byte> bytes = chunk.bytes();
    if (bytes.size() > length_ - written_)
      throw DataError(StrCat(What("write"), ": ", bytes.size(), " more bytes would exceed the constant's ", length_,
                             " (", written_, " written)"));
    ContextImpl& context = *graph_->context;
    if (!buffer_) {
      context.constant_staging().Admit(staging_cost_, What("write"));
      admitted_by_ = std::this_thread::get_id();
      try {
        buffer_ = context.device().Allocate(length_, What("write"), {context.ledger(), memory::Category::kConstantsRaw});
      } catch (...) {
        ReleaseStaging();
        throw;
      }
    }
    context.device().Upload(*buffer_, written_, bytes);
    written_ += bytes.size();
    context.logger().Logf(MLLogLevel::kDebug, What("write"), ": ", bytes.size(), " bytes, ", written_, " of ", length_,
                          " written");
  }

  bool Ready() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_ != State::kOpen || buffer_ || graph_->context->constant_staging().CanAdmit(staging_cost_);
  }

  void Close() {
    std::lock_guard<std::mutex> lock(mutex_);
    CheckOpen("close");
    if (written_ != length_)
      throw DataError(StrCat(What("close"), ": ", written_, " of the constant's ", length_, " bytes were written"));
    ContextImpl& context = *graph_->context;
    if (!buffer_)  // a constant of no bytes
      buffer_ = context.device().Allocate(0, What("close"), {context.ledger(), memory::Category::kConstantsRaw});
    const auto start = std::chrono::steady_clock::now();
    {
      std::lock_guard<std::mutex> timeline(context.timeline());
      if (graph_->destroyed) throw InvalidStateError(StrCat(What("close"), ": the graph is destroyed"));
      // On an error (packing over the memory limit) the writer keeps its
      // bytes: close() may be tried again, or the writer aborted.
      GiveConstantData(*graph_, graph_->weightless.at(label_), buffer_);
    }
    context.logger().Logf(
        MLLogLevel::kInfo, What("close"), ": ", length_, " bytes streamed, handed to the ", context.device().name(),
        " device (", context.device().SharesConstantBytes() ? "packed" : "uploaded", ") in ",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), " ms");
    buffer_.reset();
    state_ = State::kClosed;
    ReleaseStaging();
  }

  void Abort() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ != State::kOpen) return;
    state_ = State::kAborted;
    buffer_.reset();
    ReleaseStaging();
    std::lock_guard<std::mutex> timeline(graph_->context->timeline());
    auto it = graph_->weightless.find(label_);
    if (it != graph_->weightless.end() && it->second.binding == GraphImpl::Binding::kWriting)
      it->second.binding = GraphImpl::Binding::kUnbound;
  }

  uint64_t length() const { return length_; }
  uint64_t written() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return written_;
  }

 private:
  enum class State { kOpen, kClosed, kAborted };

  std::string What(std::string_view call) const {
    return StrCat("MLConstantWriter.", call, " of weightless constant '", label_, "'");
  }
  void CheckOpen(std::string_view call) const {
    if (state_ != State::kOpen)
      throw InvalidStateError(StrCat(What(call), ": the writer is ", state_ == State::kClosed ? "closed" : "aborted"));
    std::lock_guard<std::mutex> timeline(graph_->context->timeline());
    if (graph_->destroyed) throw InvalidStateError(StrCat(What(call), ": the graph is destroyed"));
  }
  void ReleaseStaging() noexcept {
    if (admitted_by_ == std::thread::id()) return;
    graph_->context->constant_staging().Release(staging_cost_, admitted_by_);
    admitted_by_ = std::thread::id();
  }

  const std::shared_ptr<GraphImpl> graph_;
  const std::string label_;
  const MLOperandDataType type_;
  const uint64_t length_;
  uint64_t staging_cost_ = 0;
  mutable std::mutex mutex_;
  State state_ = State::kOpen;
  uint64_t written_ = 0;
  std::shared_ptr<ops::DeviceBuffer> buffer_;  // allocated at the first write
  std::thread::id admitted_by_;                // set while staging_cost_ is admitted
};

}  // namespace internal

namespace {

internal::ConstantWriterImpl& W(const std::shared_ptr<internal::ConstantWriterImpl>& impl) {
  if (!impl) throw InvalidStateError("MLConstantWriter: a default-constructed writer writes nothing");
  return *impl;
}

}  // namespace

MLConstantWriter MLGraph::writeConstant(const std::string& label) {
  if (!impl_) throw TypeError("writeConstant: null graph");
  GraphImpl& g = *impl_;
  std::lock_guard<std::mutex> lock(g.context->timeline());
  if (g.destroyed) throw InvalidStateError("writeConstant: the graph is destroyed");
  GraphImpl::Weightless& w = internal::UnboundConstant(g, label, "writeConstant");
  const ops::ProgramValue& value = g.executable->program().values[w.value];
  auto writer = std::make_shared<internal::ConstantWriterImpl>(
      impl_, label, value.desc.type, ByteLengthFor(value.desc.type, core::ElementCount(value.desc.shape)));
  w.binding = GraphImpl::Binding::kWriting;
  return MLConstantWriter(std::move(writer));
}

void MLConstantWriter::write(const MLBufferSource& chunk) { W(impl_).Write(chunk); }
bool MLConstantWriter::ready() const { return W(impl_).Ready(); }
void MLConstantWriter::close() { W(impl_).Close(); }
void MLConstantWriter::abort() {
  if (impl_) impl_->Abort();
}
uint64_t MLConstantWriter::byteLength() const { return W(impl_).length(); }
uint64_t MLConstantWriter::bytesWritten() const { return W(impl_).written(); }

}  // namespace webnn
