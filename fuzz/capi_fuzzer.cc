// Fuzz target: the C API (webnn/webnn_c.h) as an embedder calls it, driven by
// the input bytes: a context with random options (enums out of range, limits,
// a log callback or none), then a random sequence of calls: inputs and
// constants of random descriptors (bad data types, ranks, absurd dimensions,
// NULL pointers with nonzero counts), operations with random operands (NULL
// included) and options, build with random options, tensors, writes, blocking
// and async reads, dispatches with random tensors and options, finish,
// profiles, weightless constants bound or streamed, and destroy or release
// of any handle in any order. Every failure must be a WNNError whose type is
// a spec error (UnknownError means an exception the library did not foresee,
// and an "internal error" message a broken engine invariant: bugs), every
// success must clear the error, each async read must call back exactly once,
// with data or an error, and a log message must have a level.
// The memory limit is at most 4 MiB so that absurd sizes fail fast.
//
// The calls honour the C API's contract that the fuzzer cannot break on
// purpose (a pointer holds the count it comes with, an operand is used only
// while its builder lives); everything else is fair game.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_bytes.h"
#include "webnn/webnn_c.h"

namespace {

using webnn::fuzz::Bytes;

[[noreturn]] void Bug(const char* what, WNNError error) {
  std::fprintf(stderr, "capi fuzzer: %s (%s: %s)\n", what, wnnError_name(error), wnnError_message(error));
  std::abort();
}

// A call's outcome against the error object: failure <=> an error is set, and
// the error is a spec error.
void CheckOutcome(bool failed, WNNError error) {
  const WNNErrorType type = wnnError_type(error);
  if (failed && type == WNNErrorType_NoError) Bug("a call failed without an error", error);
  if (!failed && type != WNNErrorType_NoError) Bug("a call succeeded but left an error", error);
  if (type == WNNErrorType_UnknownError) Bug("an unforeseen exception crossed into the C API", error);
  if (failed && std::strstr(wnnError_message(error), "internal error")) Bug("an engine invariant broke", error);
  if (failed && wnnError_message(error)[0] == '\0') Bug("an error without a message", error);
}
void CheckStatus(WNNErrorType status, WNNError error) {
  if (status != wnnError_type(error)) Bug("the returned status is not the error's type", error);
  CheckOutcome(status != WNNErrorType_NoError, error);
}

struct Stats {
  uint64_t inputs = 0, contexts = 0, calls = 0, failed = 0, operands = 0, graphs = 0, dispatches = 0,
           async_reads = 0, log_messages = 0;
  ~Stats() {
    if (std::getenv("WEBNN_FUZZ_STATS"))
      std::fprintf(stderr,
                   "capi fuzzer: %llu inputs, %llu contexts; %llu calls, %llu failed; %llu operands, %llu graphs, "
                   "%llu dispatches, %llu async reads, %llu log messages\n",
                   static_cast<unsigned long long>(inputs), static_cast<unsigned long long>(contexts),
                   static_cast<unsigned long long>(calls), static_cast<unsigned long long>(failed),
                   static_cast<unsigned long long>(operands), static_cast<unsigned long long>(graphs),
                   static_cast<unsigned long long>(dispatches), static_cast<unsigned long long>(async_reads),
                   static_cast<unsigned long long>(log_messages));
  }
} stats;

std::atomic<uint64_t> log_messages{0};
void Log(WNNLogLevel level, const char* message, void* userdata) {
  if (level < WNNLogLevel_Error || level > WNNLogLevel_Debug || !message || userdata != &log_messages) std::abort();
  log_messages.fetch_add(1, std::memory_order_relaxed);
}

struct AsyncRead {
  std::atomic<int> calls{0};
  std::atomic<uint64_t> checksum{0};
};
void DeliverRead(const void* data, size_t byteLength, WNNError error, void* userdata) {
  auto* read = static_cast<AsyncRead*>(userdata);
  // Exactly one of the bytes and an error.
  if ((data != nullptr) == (error != nullptr)) std::abort();
  if (data && byteLength == 0) std::abort();
  if (error && (wnnError_type(error) == WNNErrorType_NoError || wnnError_type(error) == WNNErrorType_UnknownError ||
                std::strstr(wnnError_message(error), "internal error"))) {
    std::fprintf(stderr, "capi fuzzer: async read error %s: %s\n", wnnError_name(error), wnnError_message(error));
    std::abort();
  }
  if (data) {  // every byte readable (ASan checks)
    uint8_t sum = 0;
    for (size_t i = 0; i < byteLength; ++i) sum = static_cast<uint8_t>(sum + static_cast<const uint8_t*>(data)[i]);
    read->checksum.fetch_add(sum);
  }
  read->calls.fetch_add(1);
}

const char* const kNames[] = {"x", "y", "in", "out", "w", "", "a-very-long-name-of-an-operand-or-tensor", "x"};
constexpr size_t kMaxArray = 8;

// An enum value: mostly in range, sometimes 0, just past the end, huge or negative.
template <typename E>
E Enum(Bytes& in, uint32_t count) {
  switch (in.Below(32)) {
    case 0: return static_cast<E>(count + 1);
    case 1: return static_cast<E>(0x7FFFFFFF);
    case 2: return static_cast<E>(-1);
    default: return static_cast<E>(in.Below(count + 1));
  }
}

// One input's world: a context, a builder and its operands, graphs, tensors.
class Session {
 public:
  explicit Session(Bytes& in) : in_(in) {}
  ~Session() {
    // The reads in flight call back before their counters go.
    wnnContext_finish(context_);
    if (reads_started_ != reads_->calls.load()) Bug("an async read did not call back exactly once", error_);
    for (WNNConstantWriter w : writers_) wnnConstantWriter_release(w);
    for (WNNTensor t : tensors_) wnnTensor_release(t);
    for (WNNGraph g : graphs_) wnnGraph_release(g);
    wnnGraphBuilder_release(builder_);
    wnnContext_release(context_);
    wnnError_release(error_);
  }

  bool CreateContext() {
    WNNContextOptions o{};
    o.powerPreference = Enum<WNNPowerPreference>(in_, WNNPowerPreference_LowLatency);
    o.accelerated = Enum<WNNOptionalBool>(in_, 2);
    // The gpu device (lavapipe in CI) compiles pipelines per graph: too slow
    // for every input, so it comes only through "auto" or an enum out of range.
    const WNNDeviceType devices[] = {WNNDeviceType_Reference, WNNDeviceType_Cpu, WNNDeviceType_Auto,
                                     WNNDeviceType_Cpu, static_cast<WNNDeviceType>(7)};
    o.device = devices[in_.Below(5)];
    if (o.device == WNNDeviceType_Auto) o.accelerated = WNNOptionalBool_False;  // auto would pick an accelerated gpu
    o.numThreads = in_.Below(32) == 0 ? in_.Word() : in_.Below(4);
    o.graphPasses = Enum<WNNOptionalBool>(in_, 2);
    o.nhwcLayout = in_.Below(2);
    // Never unlimited: up to 4 MiB, now and then a few bytes.
    o.memoryLimit = in_.Below(8) == 0 ? 1 + in_.Below(256) : (1 + in_.Below(256)) * 16384;
    o.constantStagingLimit = in_.Below(4) == 0 ? in_.Word() : 0;
    o.strictPlacement = in_.Below(4) == 0;
    o.latencyHint = Enum<WNNLatencyHint>(in_, WNNLatencyHint_High);
    o.logLevel = Enum<WNNLogLevel>(in_, WNNLogLevel_Debug);
    if (o.logLevel == WNNLogLevel_Undefined || o.logLevel == WNNLogLevel_Warning || in_.Below(2)) {
      o.logCallback = Log;  // without one, warnings would go to stderr
      o.logUserdata = &log_messages;
    } else if (static_cast<uint32_t>(o.logLevel) <= WNNLogLevel_Debug) {
      o.logLevel = WNNLogLevel_None;
    }
    context_ = wnnML_createContext(&o, error_);
    Count(context_ == nullptr);
    if (!context_) return false;
    ++stats.contexts;
    NewBuilder();
    return true;
  }

  void Step() {
    switch (in_.Below(25)) {
      case 0: Input(); break;
      case 1: Constant(); break;
      case 2: ConstantScalar(); break;
      case 3: case 4: Unary(); break;
      case 5: case 6: Binary(); break;
      case 7: Reduce(); break;
      case 8: Conv2d(); break;
      case 9: Pool2d(); break;
      case 10: Shape(); break;
      case 11: Other(); break;
      case 12: case 23: Build(); break;
      case 13: CreateTensor(); break;
      case 14: WriteTensor(); break;
      case 15: ReadTensor(); break;
      case 16: ReadTensorAsync(); break;
      case 17: case 18: Dispatch(); break;
      case 19: Query(); break;
      case 20: Weightless(); break;
      case 21: Bind(); break;
      case 22: Drop(); break;
      default: Queries(); break;
    }
  }

 private:
  void Count(bool failed) {
    ++stats.calls;
    stats.failed += failed;
    if (failed && std::getenv("WEBNN_FUZZ_ERRORS")) std::fprintf(stderr, "  %s\n", wnnError_message(error_));
    CheckOutcome(failed, error_);
  }
  void CountStatus(WNNErrorType status) {
    ++stats.calls;
    stats.failed += status != WNNErrorType_NoError;
    CheckStatus(status, error_);
  }
  WNNOperand Add(WNNOperand o) {
    Count(o == nullptr);
    if (o) {
      operands_.push_back(o);
      ++stats.operands;
    }
    return o;
  }
  void NewBuilder() {
    wnnGraphBuilder_release(builder_);  // its operands go with it
    operands_.clear();
    builder_ = wnnGraphBuilder_create(in_.Below(16) == 0 ? nullptr : context_, error_);
    Count(builder_ == nullptr);
  }

  // An operand of the builder, or NULL now and then.
  WNNOperand Operand() {
    if (operands_.empty() || in_.Below(16) == 0) return nullptr;
    const uint32_t n = static_cast<uint32_t>(operands_.size());
    return operands_[in_.Below(2) ? n - 1 - in_.Below(std::min<uint32_t>(n, 4)) : in_.Below(n)];
  }
  const char* Name() { return in_.Below(16) == 0 ? nullptr : kNames[in_.Below(8)]; }
  const char* Label() { return in_.Below(3) == 0 ? nullptr : kNames[in_.Below(8)]; }
  uint32_t Dimension() {
    switch (in_.Below(16)) {
      case 0: return 0;
      case 1: return in_.Word();
      case 2: return 1u << in_.Below(32);
      default: return 1 + in_.Below(6);
    }
  }
  // An array in storage of kMaxArray: NULL (absent), or count values.
  const uint32_t* Array(uint32_t* storage, size_t* count, bool small = true) {
    *count = in_.Below(kMaxArray + 1);
    if (in_.Below(4) == 0) {
      if (in_.Below(2)) *count = 0;
      return nullptr;  // absent (a NULL with a count must be refused)
    }
    for (size_t i = 0; i < *count; ++i) storage[i] = small ? in_.Below(6) : Dimension();
    return storage;
  }
  void Descriptor(WNNOperandDataType* type, size_t* rank, uint32_t* shape, const char** names, bool* named) {
    // float32 half the time: most ops take it, so graphs get built and run.
    *type = in_.Below(2) ? WNNOperandDataType_Float32 : Enum<WNNOperandDataType>(in_, WNNOperandDataType_Uint4);
    *rank = in_.Below(7) == 0 ? 7 + in_.Below(2) : in_.Below(5);
    *named = false;
    for (size_t i = 0; i < *rank; ++i) {
      shape[i] = Dimension();
      names[i] = nullptr;
      if (in_.Below(6) == 0) {
        names[i] = kNames[in_.Below(8)];
        *named = true;
      }
    }
  }

  void Input() {
    WNNOperandDataType type;
    size_t rank;
    uint32_t shape[kMaxArray];
    const char* names[kMaxArray];
    bool named;
    Descriptor(&type, &rank, shape, names, &named);
    WNNOperandDescriptor d{type, rank, rank && in_.Below(16) == 0 ? nullptr : shape, named ? names : nullptr};
    const char* name = Name();
    const bool no_descriptor = in_.Below(16) == 0;
    Add(wnnGraphBuilder_input(builder_, name, no_descriptor ? nullptr : &d, error_));
  }

  // Bytes for a descriptor: the right length when small, else a wrong one.
  void Data(WNNOperandDataType type, const uint32_t* shape, size_t rank, std::vector<uint8_t>* bytes) {
    uint64_t elements = 1;
    for (size_t i = 0; i < rank; ++i) elements = std::min<uint64_t>(elements * std::max<uint32_t>(shape[i], 1), 1 << 20);
    const int bits = type == WNNOperandDataType_Float16 ? 16
                     : type == WNNOperandDataType_Int64 || type == WNNOperandDataType_Uint64 ? 64
                     : type == WNNOperandDataType_Int8 || type == WNNOperandDataType_Uint8 ? 8
                     : type == WNNOperandDataType_Int4 || type == WNNOperandDataType_Uint4 ? 4 : 32;
    uint64_t length = (elements * bits + 7) / 8;
    if (in_.Below(8) == 0) length = in_.Below(64);
    bytes->resize(std::min<uint64_t>(length, 1 << 16));
    for (size_t i = 0; i < bytes->size() && i < 64; ++i) (*bytes)[i] = in_.Byte();
  }

  void Constant() {
    WNNOperandDataType type;
    size_t rank;
    uint32_t shape[kMaxArray];
    const char* names[kMaxArray];
    bool named;
    Descriptor(&type, &rank, shape, names, &named);
    WNNOperandDescriptor d{type, rank, shape, named && in_.Below(2) ? names : nullptr};
    std::vector<uint8_t> bytes;
    Data(type, shape, rank, &bytes);
    if (in_.Below(16) == 0)  // NULL data with a length
      Add(wnnGraphBuilder_constant(builder_, &d, nullptr, 1 + in_.Below(100), error_));
    else
      Add(wnnGraphBuilder_constant(builder_, &d, bytes.data(), bytes.size(), error_));
  }

  WNNNumber Number() {
    WNNNumber n{};
    n.type = Enum<WNNNumberType>(in_, WNNNumberType_BigUint);
    const uint64_t bits = in_.Long();
    std::memcpy(&n.value, &bits, sizeof bits);  // NaN, infinities, denormals included
    if (in_.Below(2)) n.value = static_cast<int32_t>(in_.Word()) / 3.0;
    n.bigInt = static_cast<int64_t>(in_.Long());
    n.bigUint = in_.Long();
    return n;
  }

  void ConstantScalar() {
    const WNNOperandDataType type = Enum<WNNOperandDataType>(in_, WNNOperandDataType_Uint4);
    Add(wnnGraphBuilder_constantScalar(builder_, type, Number(), error_));
  }

  void Unary() {
    using Fn = WNNOperand (*)(WNNGraphBuilder, WNNOperand, const WNNOperatorOptions*, WNNError);
    static const Fn kOps[] = {
#define WNN_FUZZ_UNARY(name) &wnnGraphBuilder_##name,
#define WEBNN_OP(name, Family) WNN_FUZZ_OP_##Family(name)
#define WNN_FUZZ_OP_ElementwiseUnary(name) WNN_FUZZ_UNARY(name)
#define WNN_FUZZ_OP_ElementwiseBinary(name)
#define WNN_FUZZ_OP_Comparison(name)
#define WNN_FUZZ_OP_Logical(name)
#define WNN_FUZZ_OP_Activation(name)
#define WNN_FUZZ_OP_Prelu(name)
#define WNN_FUZZ_OP_Softmax(name)
#define WNN_FUZZ_OP_Cast(name)
#define WNN_FUZZ_OP_QuantizeLinear(name)
#define WNN_FUZZ_OP_Conv2d(name)
#define WNN_FUZZ_OP_ConvTranspose2d(name)
#define WNN_FUZZ_OP_Pool2d(name)
#define WNN_FUZZ_OP_Resample2d(name)
#define WNN_FUZZ_OP_Matmul(name)
#define WNN_FUZZ_OP_Gemm(name)
#define WNN_FUZZ_OP_Normalization(name)
#define WNN_FUZZ_OP_Reduce(name)
#define WNN_FUZZ_OP_ArgMinMax(name)
#define WNN_FUZZ_OP_CumulativeSum(name)
#define WNN_FUZZ_OP_Concat(name)
#define WNN_FUZZ_OP_Expand(name)
#define WNN_FUZZ_OP_Gather(name)
#define WNN_FUZZ_OP_Scatter(name)
#define WNN_FUZZ_OP_Pad(name)
#define WNN_FUZZ_OP_Reshape(name)
#define WNN_FUZZ_OP_Reverse(name)
#define WNN_FUZZ_OP_Slice(name)
#define WNN_FUZZ_OP_Split(name)
#define WNN_FUZZ_OP_Tile(name)
#define WNN_FUZZ_OP_Transpose(name)
#define WNN_FUZZ_OP_Triangular(name)
#define WNN_FUZZ_OP_Where(name)
#define WNN_FUZZ_OP_Gru(name)
#define WNN_FUZZ_OP_Lstm(name)
#include "webnn/op_list.inc"
        &wnnGraphBuilder_logicalNot, &wnnGraphBuilder_isNaN, &wnnGraphBuilder_isInfinite, &wnnGraphBuilder_gelu,
        &wnnGraphBuilder_hardSwish, &wnnGraphBuilder_relu, &wnnGraphBuilder_sigmoid, &wnnGraphBuilder_softplus,
        &wnnGraphBuilder_softsign, &wnnGraphBuilder_tanh};
    WNNOperatorOptions o{Label()};
    const Fn op = kOps[in_.Below(sizeof kOps / sizeof *kOps)];
    const WNNOperand x = Operand();
    const bool options = in_.Below(4) != 0;
    Add(op(builder_, x, options ? &o : nullptr, error_));
  }

  void Binary() {
    using Fn = WNNOperand (*)(WNNGraphBuilder, WNNOperand, WNNOperand, const WNNOperatorOptions*, WNNError);
    static const Fn kOps[] = {
        &wnnGraphBuilder_add,        &wnnGraphBuilder_sub,     &wnnGraphBuilder_mul,     &wnnGraphBuilder_div,
        &wnnGraphBuilder_max,        &wnnGraphBuilder_min,     &wnnGraphBuilder_pow,     &wnnGraphBuilder_equal,
        &wnnGraphBuilder_greater,    &wnnGraphBuilder_lesser,  &wnnGraphBuilder_logicalAnd, &wnnGraphBuilder_logicalXor,
        &wnnGraphBuilder_matmul,     &wnnGraphBuilder_prelu,   &wnnGraphBuilder_gatherND};
    WNNOperatorOptions o{Label()};
    const Fn op = kOps[in_.Below(sizeof kOps / sizeof *kOps)];
    const WNNOperand x = Operand(), y = Operand();
    const bool options = in_.Below(4) != 0;
    Add(op(builder_, x, y, options ? &o : nullptr, error_));
  }

  void Reduce() {
    using Fn = WNNOperand (*)(WNNGraphBuilder, WNNOperand, const WNNReduceOptions*, WNNError);
    static const Fn kOps[] = {&wnnGraphBuilder_reduceL1,   &wnnGraphBuilder_reduceL2,  &wnnGraphBuilder_reduceLogSumExp,
                              &wnnGraphBuilder_reduceMax,  &wnnGraphBuilder_reduceMean, &wnnGraphBuilder_reduceProduct,
                              &wnnGraphBuilder_reduceSum, &wnnGraphBuilder_reduceSumSquare};
    uint32_t axes[kMaxArray];
    WNNReduceOptions o{Label(), nullptr, 0, in_.Below(2)};
    o.axes = Array(axes, &o.axesCount);
    const Fn op = kOps[in_.Below(sizeof kOps / sizeof *kOps)];
    const WNNOperand x = Operand();
    const bool options = in_.Below(4) != 0;
    Add(op(builder_, x, options ? &o : nullptr, error_));
  }

  void Conv2d() {
    uint32_t padding[kMaxArray], strides[kMaxArray], dilations[kMaxArray];
    WNNConv2dOptions o{};
    o.label = Label();
    o.padding = Array(padding, &o.paddingCount);
    o.strides = Array(strides, &o.stridesCount);
    o.dilations = Array(dilations, &o.dilationsCount);
    o.groups = {in_.Below(2), in_.Below(4)};
    o.inputLayout = Enum<WNNInputOperandLayout>(in_, 2);
    o.filterLayout = Enum<WNNConv2dFilterOperandLayout>(in_, 4);
    o.bias = in_.Below(2) ? Operand() : nullptr;
    if (in_.Below(2)) {
      const WNNOperand x = Operand(), filter = Operand();
      const bool options = in_.Below(8) != 0;
      Add(wnnGraphBuilder_conv2d(builder_, x, filter, options ? &o : nullptr, error_));
    } else {
      uint32_t output_padding[kMaxArray], output_sizes[kMaxArray];
      WNNConvTranspose2dOptions t{};
      t.label = o.label;
      t.padding = o.padding, t.paddingCount = o.paddingCount;
      t.strides = o.strides, t.stridesCount = o.stridesCount;
      t.dilations = o.dilations, t.dilationsCount = o.dilationsCount;
      t.outputPadding = Array(output_padding, &t.outputPaddingCount);
      t.outputSizes = Array(output_sizes, &t.outputSizesCount);
      t.groups = o.groups;
      t.inputLayout = o.inputLayout;
      t.filterLayout = Enum<WNNConvTranspose2dFilterOperandLayout>(in_, 3);
      t.bias = o.bias;
      const WNNOperand x = Operand(), filter = Operand();
      Add(wnnGraphBuilder_convTranspose2d(builder_, x, filter, &t, error_));
    }
  }

  void Pool2d() {
    uint32_t window[kMaxArray], padding[kMaxArray], strides[kMaxArray], dilations[kMaxArray], sizes[kMaxArray];
    WNNPool2dOptions o{};
    o.label = Label();
    o.windowDimensions = Array(window, &o.windowDimensionsCount);
    o.padding = Array(padding, &o.paddingCount);
    o.strides = Array(strides, &o.stridesCount);
    o.dilations = Array(dilations, &o.dilationsCount);
    o.layout = Enum<WNNInputOperandLayout>(in_, 2);
    o.outputShapeRounding = Enum<WNNRoundingType>(in_, 2);
    o.outputSizes = Array(sizes, &o.outputSizesCount);
    using Fn = WNNOperand (*)(WNNGraphBuilder, WNNOperand, const WNNPool2dOptions*, WNNError);
    static const Fn kOps[] = {&wnnGraphBuilder_averagePool2d, &wnnGraphBuilder_l2Pool2d, &wnnGraphBuilder_maxPool2d};
    const Fn op = kOps[in_.Below(3)];
    const WNNOperand x = Operand();
    const bool options = in_.Below(8) != 0;
    Add(op(builder_, x, options ? &o : nullptr, error_));
  }

  // Shape and data movement: reshape, expand, transpose, slice, pad, tile, concat, split.
  void Shape() {
    uint32_t a[kMaxArray], b[kMaxArray];
    const char* names[kMaxArray] = {};
    size_t n = 0, m = 0;
    const uint32_t* first = Array(a, &n, in_.Below(2));
    const WNNOperatorOptions o{Label()};
    switch (in_.Below(8)) {
      case 0: {
        for (size_t i = 0; i < n; ++i) names[i] = in_.Below(4) == 0 ? kNames[in_.Below(8)] : nullptr;
        const WNNOperand x = Operand();
        const bool named = in_.Below(2) != 0;
        Add(wnnGraphBuilder_reshape(builder_, x, first, n, named ? names : nullptr, &o, error_));
        break;
      }
      case 1: Add(wnnGraphBuilder_expand(builder_, Operand(), first, n, nullptr, &o, error_)); break;
      case 2: {
        WNNTransposeOptions t{o.label, first, n};
        Add(wnnGraphBuilder_transpose(builder_, Operand(), &t, error_));
        break;
      }
      case 3: {
        const uint32_t* second = Array(b, &m, in_.Below(2));
        Add(wnnGraphBuilder_slice(builder_, Operand(), first, second, std::min(n, m), nullptr, error_));
        break;
      }
      case 4: {
        const uint32_t* second = Array(b, &m);
        WNNPadOptions p{o.label, Enum<WNNPaddingMode>(in_, 3), Number()};
        Add(wnnGraphBuilder_pad(builder_, Operand(), first, second, std::min(n, m), &p, error_));
        break;
      }
      case 5: Add(wnnGraphBuilder_tile(builder_, Operand(), first, n, &o, error_)); break;
      case 6: {
        WNNOperand inputs[kMaxArray];
        const size_t count = in_.Below(kMaxArray + 1);
        for (size_t i = 0; i < count; ++i) inputs[i] = Operand();
        const bool given = in_.Below(8) != 0;
        const uint32_t axis = in_.Below(5);
        Add(wnnGraphBuilder_concat(builder_, given ? inputs : nullptr, count, axis, &o, error_));
        break;
      }
      default: {
        WNNOperand outputs[4];
        WNNSplitOptions s{o.label, in_.Below(5)};
        const WNNOperand x = Operand();
        const uint32_t splits = in_.Below(5), capacity = in_.Below(5);
        const size_t parts = wnnGraphBuilder_split(builder_, x, splits, first, n, &s, outputs, capacity, error_);
        Count(parts == 0);
        for (size_t i = 0; i < parts && i < 4; ++i) operands_.push_back(outputs[i]);
        break;
      }
    }
  }

  void Other() {
    const WNNOperatorOptions o{Label()};
    switch (in_.Below(12)) {
      case 0: {
        const WNNOperand x = Operand();
        Add(wnnGraphBuilder_softmax(builder_, x, in_.Below(5), &o, error_));
        break;
      }
      case 1: {
        const WNNOperand x = Operand();
        Add(wnnGraphBuilder_cast(builder_, x, Enum<WNNOperandDataType>(in_, WNNOperandDataType_Uint4), &o, error_));
        break;
      }
      case 2: {
        WNNClampOptions c{o.label, Number(), Number()};
        Add(wnnGraphBuilder_clamp(builder_, Operand(), &c, error_));
        break;
      }
      case 3: {
        WNNGemmOptions g{o.label, Operand(), {in_.Below(2), in_.Below(5) - 2.0}, {in_.Below(2), 0.5}, in_.Below(2),
                         in_.Below(2)};
        const WNNOperand a = Operand(), b = Operand();
        Add(wnnGraphBuilder_gemm(builder_, a, b, &g, error_));
        break;
      }
      case 4: {
        WNNArgMinMaxOptions a{o.label, in_.Below(2), Enum<WNNOperandDataType>(in_, WNNOperandDataType_Uint4)};
        const auto op = in_.Below(2) ? wnnGraphBuilder_argMax : wnnGraphBuilder_argMin;
        const WNNOperand x = Operand();
        Add(op(builder_, x, in_.Below(5), &a, error_));
        break;
      }
      case 5: {
        WNNCumulativeSumOptions c{o.label, in_.Below(2), in_.Below(2)};
        const WNNOperand x = Operand();
        Add(wnnGraphBuilder_cumulativeSum(builder_, x, in_.Below(5), &c, error_));
        break;
      }
      case 6: {
        WNNTriangularOptions t{o.label, Enum<WNNOptionalBool>(in_, 2), static_cast<int32_t>(in_.Word())};
        Add(wnnGraphBuilder_triangular(builder_, Operand(), &t, error_));
        break;
      }
      case 7: {
        const WNNOperand condition = Operand(), x = Operand(), y = Operand();
        Add(wnnGraphBuilder_where(builder_, condition, x, y, &o, error_));
        break;
      }
      case 8: {
        uint32_t axes[kMaxArray];
        WNNLayerNormalizationOptions l{o.label, Operand(), Operand(), nullptr, 0, {in_.Below(2), 1e-3}};
        l.axes = Array(axes, &l.axesCount);
        Add(wnnGraphBuilder_layerNormalization(builder_, Operand(), &l, error_));
        break;
      }
      case 9: {
        WNNGatherOptions g{o.label, in_.Below(5)};
        const WNNOperand x = Operand(), indices = Operand();
        Add(wnnGraphBuilder_gather(builder_, x, indices, &g, error_));
        break;
      }
      case 10: {
        uint32_t sizes[kMaxArray], axes[kMaxArray];
        float scales[kMaxArray];
        WNNResample2dOptions r{};
        r.label = o.label;
        r.mode = Enum<WNNInterpolationMode>(in_, 2);
        r.sizes = Array(sizes, &r.sizesCount, false);
        r.axes = Array(axes, &r.axesCount);
        if (in_.Below(2)) {
          r.scalesCount = in_.Below(kMaxArray + 1);
          for (size_t i = 0; i < r.scalesCount; ++i) scales[i] = static_cast<float>(in_.Below(9)) / 2 - 1;
          r.scales = scales;
        }
        Add(wnnGraphBuilder_resample2d(builder_, Operand(), &r, error_));
        break;
      }
      default: {
        WNNBatchNormalizationOptions b{o.label, Operand(), Operand(), {in_.Below(2), in_.Below(5)}, {0, 0}};
        const WNNOperand x = Operand(), mean = Operand(), variance = Operand();
        Add(wnnGraphBuilder_batchNormalization(builder_, x, mean, variance, &b, error_));
        break;
      }
    }
  }

  void Build() {
    static const char* const kOutputs[] = {"out0", "out1", "out2", "out3"};
    WNNNamedOperand outputs[4];
    const size_t count = in_.Below(8) == 0 ? 0 : 1 + in_.Below(4);
    for (size_t i = 0; i < count; ++i) {
      // Mostly the newest operands (op results), under distinct names.
      WNNOperand o = operands_.empty() || in_.Below(4) == 0 ? Operand() : operands_[operands_.size() - 1 - i % operands_.size()];
      outputs[i] = {in_.Below(16) == 0 ? Name() : kOutputs[i], o};
    }
    WNNGraphOptions o{Enum<WNNLatencyHint>(in_, WNNLatencyHint_High), Enum<WNNOptionalBool>(in_, 2)};
    WNNGraph g = in_.Below(2) ? wnnGraphBuilder_build(builder_, in_.Below(16) ? outputs : nullptr, count, error_)
                              : wnnGraphBuilder_buildWithOptions(builder_, outputs, count, in_.Below(4) ? &o : nullptr,
                                                                 error_);
    Count(g == nullptr);
    if (g) {
      graphs_.push_back(g);
      ++stats.graphs;
    }
    // A builder builds once: go on with a new one (or, sometimes, the used one).
    if (in_.Below(4)) NewBuilder();
  }

  WNNTensor NewTensor(WNNOperandDataType type, size_t rank, const uint32_t* shape, WNNBool readable, WNNBool writable) {
    WNNTensorDescriptor d{type, rank, shape, readable, writable};
    WNNTensor t = wnnContext_createTensor(context_, in_.Below(32) ? &d : nullptr, error_);
    Count(t == nullptr);
    if (t) tensors_.push_back(t);
    return t;
  }
  void CreateTensor() {
    WNNOperandDataType type;
    size_t rank;
    uint32_t shape[kMaxArray];
    const char* names[kMaxArray];
    bool named;
    Descriptor(&type, &rank, shape, names, &named);
    if (in_.Below(4) == 0) {  // a constant tensor
      WNNOperandDescriptor d{type, rank, shape, named ? names : nullptr};
      std::vector<uint8_t> bytes;
      Data(type, shape, rank, &bytes);
      WNNTensor t = wnnContext_createConstantTensor(context_, &d, bytes.data(), bytes.size(), error_);
      Count(t == nullptr);
      if (t) {
        tensors_.push_back(t);
        Add(wnnGraphBuilder_constantTensor(builder_, t, error_));
      }
      return;
    }
    const WNNBool readable = in_.Below(2), writable = in_.Below(2);
    NewTensor(type, rank, shape, readable, writable);
  }

  WNNTensor Tensor() {
    if (tensors_.empty() || in_.Below(16) == 0) return nullptr;
    return Pick(tensors_);
  }
  // The byte length of a tensor, or 0 when it has none to speak of.
  size_t ByteLength(WNNTensor t) {
    size_t rank = 0;
    const uint32_t* shape = wnnTensor_shape(t, &rank);
    std::vector<uint8_t> unused;
    uint64_t elements = 1;
    for (size_t i = 0; i < rank; ++i) elements *= shape[i];
    const WNNOperandDataType type = wnnTensor_dataType(t);
    const int bits = type == WNNOperandDataType_Float16 ? 16
                     : type == WNNOperandDataType_Int64 || type == WNNOperandDataType_Uint64 ? 64
                     : type == WNNOperandDataType_Int8 || type == WNNOperandDataType_Uint8 ? 8
                     : type == WNNOperandDataType_Int4 || type == WNNOperandDataType_Uint4 ? 4 : 32;
    return static_cast<size_t>((elements * bits + 7) / 8);
  }
  std::vector<uint8_t>& Buffer(WNNTensor t) {
    size_t length = ByteLength(t);
    if (in_.Below(8) == 0) length = in_.Below(64);  // the wrong length
    buffer_.assign(length, static_cast<uint8_t>(in_.Byte()));
    return buffer_;
  }

  void WriteTensor() {
    WNNTensor t = Tensor();
    std::vector<uint8_t>& b = Buffer(t);
    CountStatus(wnnContext_writeTensor(context_, t, in_.Below(16) ? b.data() : nullptr, b.size(), error_));
  }
  void ReadTensor() {
    WNNTensor t = Tensor();
    std::vector<uint8_t>& b = Buffer(t);
    CountStatus(wnnContext_readTensor(context_, t, in_.Below(16) ? b.data() : nullptr, b.size(), error_));
  }
  void ReadTensorAsync() {
    const WNNErrorType status = wnnContext_readTensorAsync(context_, Tensor(), in_.Below(16) ? DeliverRead : nullptr,
                                                           reads_.get(), error_);
    CountStatus(status);
    if (status == WNNErrorType_NoError) {
      ++reads_started_;
      ++stats.async_reads;
    }
  }

  void Dispatch() {
    if (graphs_.empty()) return;
    WNNGraph g = Pick(graphs_);
    // Tensors for the graph's inputs and outputs: fitting ones mostly (new,
    // or from the pool), and names missing, unknown or twice now and then.
    std::vector<WNNNamedTensor> named[2];
    for (int side = 0; side < 2; ++side) {
      const size_t count = side ? wnnGraph_outputCount(g) : wnnGraph_inputCount(g);
      for (size_t i = 0; i < count; ++i) {
        WNNOperandInfo info;
        const WNNErrorType status =
            side ? wnnGraph_getOutput(g, i, &info, error_) : wnnGraph_getInput(g, i, &info, error_);
        CountStatus(status);
        if (status != WNNErrorType_NoError || in_.Below(16) == 0) continue;
        WNNTensor t = nullptr;
        if (in_.Below(4)) {
          uint32_t shape[kMaxArray];  // dynamic dimensions at a size up to their maximum
          const size_t rank = std::min(info.descriptor.rank, kMaxArray);
          for (size_t d = 0; d < rank; ++d)
            shape[d] = info.descriptor.dimensionNames && info.descriptor.dimensionNames[d]
                           ? 1 + in_.Below(info.descriptor.shape[d])
                           : info.descriptor.shape[d];
          t = NewTensor(info.descriptor.dataType, rank, shape, side, !side);
          if (t && !side) {
            std::vector<uint8_t>& b = Buffer(t);
            CountStatus(wnnContext_writeTensor(context_, t, b.data(), b.size(), error_));
          }
        } else {
          t = Tensor();
        }
        named[side].push_back({in_.Below(32) ? info.name : kNames[in_.Below(8)], t});
        if (in_.Below(32) == 0) named[side].push_back(named[side].back());
      }
    }
    WNNDispatchOptions o{Enum<WNNLatencyHint>(in_, WNNLatencyHint_High), {in_.Below(2), in_.Long()}, in_.Below(2)};
    const WNNErrorType status =
        in_.Below(2) ? wnnContext_dispatch(context_, g, named[0].data(), named[0].size(), named[1].data(),
                                           named[1].size(), error_)
                     : wnnContext_dispatchWithOptions(context_, g, named[0].data(), named[0].size(), named[1].data(),
                                                      named[1].size(), in_.Below(4) ? &o : nullptr, error_);
    CountStatus(status);
    stats.dispatches += status == WNNErrorType_NoError;
  }

  void Query() {
    if (graphs_.empty()) return;
    WNNGraph g = in_.Below(16) ? Pick(graphs_) : nullptr;
    switch (in_.Below(5)) {
      case 0: {
        wnnContext_finish(context_);
        WNNGraphProfile p;
        const WNNErrorType status = wnnGraph_profile(g, in_.Below(16) ? &p : nullptr, error_);
        CountStatus(status);
        if (status != WNNErrorType_NoError) break;
        for (size_t i = 0; i <= p.stepCount; ++i) {  // one past the end too
          WNNStepProfile s;
          const WNNErrorType got = wnnGraph_getProfiledStep(g, i, &s, error_);
          CountStatus(got);
          if (got != WNNErrorType_NoError) continue;
          if (!s.op || !s.label || (s.inputCount && !s.inputShapes) || (s.outputCount && !s.outputShapes))
            Bug("a profiled step without its strings or shapes", error_);
          for (size_t k = 0; k < s.outputCount; ++k)
            for (size_t d = 0; d < s.outputShapes[k].rank; ++d)
              if (s.outputShapes[k].shape[d] == 0) Bug("a profiled output dimension of 0", error_);
        }
        break;
      }
      case 1: {
        WNNGraphPlacement p;
        const WNNErrorType status = wnnGraph_placement(g, &p, error_);
        CountStatus(status);
        WNNPlacedNode node;
        if (status == WNNErrorType_NoError) CountStatus(wnnGraph_getPlacedNode(g, in_.Below(8), &node, error_));
        break;
      }
      case 2: {
        WNNGraphMemoryPlan plan;
        CountStatus(wnnGraph_memoryPlan(g, &plan, error_));
        break;
      }
      case 3: {
        WNNNamedShape inputs[4], outputs[4];
        uint32_t shapes[4][kMaxArray];
        const size_t count = std::min<size_t>(wnnGraph_inputCount(g) + in_.Below(2), 4);
        for (size_t i = 0; i < count; ++i) {
          WNNOperandInfo info{};
          if (i < wnnGraph_inputCount(g)) CountStatus(wnnGraph_getInput(g, i, &info, error_));
          inputs[i].name = info.name ? info.name : Name();
          inputs[i].rank = in_.Below(4) ? std::min(info.descriptor.rank, kMaxArray) : in_.Below(5);
          for (size_t d = 0; d < inputs[i].rank; ++d)
            shapes[i][d] = d < info.descriptor.rank && in_.Below(4) ? info.descriptor.shape[d] : Dimension();
          inputs[i].shape = shapes[i];
        }
        CountStatus(wnnGraph_computeShapes(g, inputs, count, outputs, in_.Below(5), error_));
        break;
      }
      default: {
        const size_t n = wnnGraph_unboundConstantCount(g);
        for (size_t i = 0; i <= n; ++i) wnnGraph_getUnboundConstant(g, i);
        break;
      }
    }
  }

  void Weightless() {
    uint32_t shape[kMaxArray];
    size_t rank = 0;
    WNNConstantDescriptor d{Enum<WNNOperandDataType>(in_, WNNOperandDataType_Uint4), 0, Array(shape, &rank, false),
                            Label()};
    d.rank = rank;
    Add(wnnGraphBuilder_constantWeightless(builder_, in_.Below(16) ? &d : nullptr, error_));
  }

  // Weightless constants of a built graph bound, set or streamed.
  void Bind() {
    if (graphs_.empty()) return;
    WNNGraph g = Pick(graphs_);
    const size_t n = wnnGraph_unboundConstantCount(g);
    const char* label = n && in_.Below(8) ? wnnGraph_getUnboundConstant(g, in_.Below(static_cast<uint32_t>(n)))
                                          : Label();
    std::vector<uint8_t> bytes(in_.Below(4) == 0 ? in_.Below(64) : 4u << in_.Below(8), 1);
    switch (in_.Below(3)) {
      case 0: {
        WNNNamedBuffer b{label, bytes.data(), bytes.size()};
        CountStatus(wnnContext_bindConstants(context_, g, &b, 1, error_));
        break;
      }
      case 1: CountStatus(wnnGraph_setConstantData(g, label, bytes.data(), bytes.size(), error_)); break;
      default: {
        WNNConstantWriter w = wnnGraph_writeConstant(g, label, error_);
        Count(w == nullptr);
        if (!w) break;
        const uint64_t length = wnnConstantWriter_byteLength(w);
        bytes.resize(std::min<uint64_t>(length, 1 << 16) + in_.Below(2));
        // A write waits while other writers hold the staging budget: with
        // this thread's own writers open, only when ready() says it would not.
        for (uint64_t at = 0; at < bytes.size() && in_.Below(8) && wnnConstantWriter_ready(w);) {
          const size_t chunk = std::min<size_t>(1 + in_.Below(64), bytes.size() - at);
          CountStatus(wnnConstantWriter_write(w, bytes.data() + at, chunk, error_));
          at += chunk;
        }
        switch (in_.Below(3)) {
          case 0: CountStatus(wnnConstantWriter_close(w, error_)); break;
          case 1: wnnConstantWriter_abort(w); break;
          default: writers_.push_back(w); return;  // released (aborted if open) at the end
        }
        wnnConstantWriter_release(w);
        break;
      }
    }
  }

  // A random element of a non-empty `handles`.
  template <class T>
  T& Pick(std::vector<T>& handles) {
    return handles[in_.Below(static_cast<uint32_t>(handles.size()))];
  }
  // Releases a random element of `handles` (if any) and forgets it.
  template <class T>
  void ReleaseOne(std::vector<T>& handles, void (*release)(T)) {
    if (handles.empty()) return;
    const size_t i = in_.Below(static_cast<uint32_t>(handles.size()));
    release(handles[i]);
    handles.erase(handles.begin() + static_cast<std::ptrdiff_t>(i));
  }

  // Destroy or release any handle, in any order.
  void Drop() {
    switch (in_.Below(8)) {
      case 0: wnnTensor_destroy(Tensor()); break;
      case 1: ReleaseOne(tensors_, &wnnTensor_release); break;
      case 2:
        if (!graphs_.empty()) wnnGraph_destroy(Pick(graphs_));
        break;
      case 3: ReleaseOne(graphs_, &wnnGraph_release); break;
      case 4: NewBuilder(); break;
      case 5:
        if (in_.Below(4) == 0) wnnContext_destroy(context_);  // lost: every later call must say so
        break;
      case 6:
        if (!writers_.empty()) {
          wnnConstantWriter_release(writers_.back());
          writers_.pop_back();
        }
        break;
      default: wnnContext_finish(context_); break;
    }
  }

  void Queries() {
    switch (in_.Below(6)) {
      case 0: {
        WNNOpSupportLimits l;
        CountStatus(wnnContext_opSupportLimits(context_, &l, error_));
        break;
      }
      case 1: {
        static const char* const kOps[] = {"conv2d", "add", "gru", "nope", ""};
        static const char* const kOperands[] = {"input", "filter", "a", "output", "nope"};
        WNNTensorLimits l;
        const char* op = kOps[in_.Below(5)];
        const char* operand = kOperands[in_.Below(5)];
        const bool out = in_.Below(16) != 0;
        CountStatus(wnnContext_operatorSupportLimits(context_, op, operand, out ? &l : nullptr, error_));
        break;
      }
      case 2: {
        WNNMemoryUsage u;
        CountStatus(wnnContext_memoryUsage(context_, &u, error_));
        break;
      }
      case 3: wnnContext_resetPeakMemory(context_); break;
      case 4: {
        wnnContext_lostMessage(context_);
        wnnContext_accelerated(context_);
        wnnContext_deviceType(context_);
        wnnContext_deviceName(context_);
        break;
      }
      default:
        if (!operands_.empty()) {
          WNNOperand o = Operand();
          size_t rank = 0;
          wnnOperand_shape(o, &rank);
          wnnOperand_dataType(o);
          wnnOperand_dimensionName(o, in_.Below(8));
        }
        break;
    }
  }

  Bytes& in_;
  WNNError error_ = wnnError_create();
  WNNContext context_ = nullptr;
  WNNGraphBuilder builder_ = nullptr;
  std::vector<WNNOperand> operands_;
  std::vector<WNNGraph> graphs_;
  std::vector<WNNTensor> tensors_;
  std::vector<WNNConstantWriter> writers_;
  std::vector<uint8_t> buffer_;
  std::unique_ptr<AsyncRead> reads_ = std::make_unique<AsyncRead>();
  int reads_started_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  ++stats.inputs;
  Session session(in);
  if (!session.CreateContext()) return 0;
  for (int steps = 0; steps < 64 && !in.empty(); ++steps) session.Step();
  stats.log_messages = log_messages.load();
  return 0;
}
