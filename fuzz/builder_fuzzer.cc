// Fuzz target: the graph builder, driven by random op sequences. The input
// bytes pick inputs (data type, shape), then ops among the 95 with operands
// from what exists so far, positional values and options dictionaries of
// random members and values, through the same binding as the WPT vectors
// and graph files (io/op_binding.h: WebIDL conversions, then MLGraphBuilder).
// Every graph that builds is estimated (estimateQoS). The first byte picks
// the context: the reference device (no graph passes), or the cpu device with
// its graph passes and the nhwc layout pass (the only way these see random
// graphs besides the C API fuzzer). Graphs that build are
// dispatched when small: graph
// inputs and outputs of at most 1 MiB, and a bounded amount of work (WorkOf),
// as I/O alone bounds badly: a convTranspose2d of a 181x181 input by a 181x181
// filter (786 KB in and out) is 1.1e9 multiply-adds, 4.8 s on the reference
// device, enough to stall a fuzzing campaign on one input. Any failure must be
// an MLException (the spec's errors), and none an "internal error" (a broken
// engine invariant); another exception or a crash is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape.h"
#include "fuzz_bytes.h"
#include "io/js_value.h"
#include "io/op_binding.h"
#include "ops/op_kind.h"
#include "webnn/webnn.h"

namespace {

using webnn::io::JsValue;

using webnn::fuzz::Bytes;

constexpr webnn::MLOperandDataType kTypes[] = {
    webnn::MLOperandDataType::kFloat32, webnn::MLOperandDataType::kFloat16, webnn::MLOperandDataType::kInt32,
    webnn::MLOperandDataType::kUint32,  webnn::MLOperandDataType::kInt64,   webnn::MLOperandDataType::kUint64,
    webnn::MLOperandDataType::kInt8,    webnn::MLOperandDataType::kUint8,   webnn::MLOperandDataType::kInt4,
    webnn::MLOperandDataType::kUint4};

// Option members of the 95 ops (and a few that no op has).
const char* const kMembers[] = {
    "axes", "axis", "keepDimensions", "padding", "strides", "dilations", "groups", "inputLayout", "filterLayout",
    "bias", "activation", "alpha", "beta", "c", "aTranspose", "bTranspose", "epsilon", "scale", "mode", "value",
    "sizes", "scales", "outputSizes", "outputPadding", "windowDimensions", "roundingType", "outputShapeRounding",
    "exclusive", "reversed", "upper", "diagonal", "minValue", "maxValue", "recurrentBias", "initialHiddenState",
    "initialCellState", "returnSequence", "direction", "layout", "activations", "resetAfter", "peepholeWeight",
    "label", "selectLastIndex", "outputDataType", "noSuchMember"};

const char* const kStrings[] = {"nchw", "nhwc", "oihw", "hwio", "ohwi", "ihwo", "iohw", "hwoi", "ohwi",
                                "constant", "edge", "reflection", "symmetric", "nearest-neighbor", "linear",
                                "floor", "ceil", "forward", "backward", "both", "zrn", "rzn", "iofg", "ifgo",
                                "float32", "float16", "int8", "uint8", "int32", "int64", "relu", ""};

JsValue RandomNumber(Bytes& in) {
  switch (in.Below(8)) {
    case 0: return JsValue::Number(-1);
    case 1: return JsValue::Number(0);
    case 2: return JsValue::Number(static_cast<double>(in.Word()));
    case 3: return JsValue::Number(static_cast<int32_t>(in.Word()) / 7.0);
    case 4: return JsValue::Number(1e300 * (in.Below(2) ? 1 : -1));
    case 5: {
      double d;
      uint64_t bits = in.Long();
      std::memcpy(&d, &bits, 8);
      return JsValue::Number(d);  // NaN, infinities, denormals included
    }
    default: return JsValue::Number(in.Below(6));
  }
}

JsValue RandomValue(Bytes& in, const std::vector<webnn::MLOperand>& pool, int depth = 0) {
  switch (in.Below(depth > 1 ? 5 : 8)) {
    case 0: return JsValue::Undefined();
    case 1: return JsValue::Boolean(in.Below(2));
    case 2: return JsValue::String(kStrings[in.Below(sizeof kStrings / sizeof *kStrings)]);
    case 3:
      if (!pool.empty()) return JsValue::Operand(pool[in.Below(static_cast<uint32_t>(pool.size()))]);
      return JsValue::Number(1);
    case 4: return RandomNumber(in);
    case 5:
    case 6: {
      std::vector<JsValue> items;
      for (uint32_t n = in.Below(5); n > 0; --n) items.push_back(depth ? RandomValue(in, pool, depth + 1) : RandomNumber(in));
      return JsValue::Array(std::move(items));
    }
    default: {
      JsValue o = JsValue::Object();
      for (uint32_t n = in.Below(3); n > 0; --n) {
        const char* member = kMembers[in.Below(sizeof kMembers / sizeof *kMembers)];
        o.members.emplace_back(member, RandomValue(in, pool, depth + 1));
      }
      return o;
    }
  }
}

double Elements(const webnn::MLOperand& o) {
  double n = 1;
  for (const auto& d : o.shape()) n *= static_cast<double>(d.size());
  return n;
}

// An upper bound of what one op costs the reference device, in element
// operations: its outputs' elements, plus the multiply-adds of the ops whose
// work grows faster than their operands (products, convolutions, recurrent
// networks), bounded from above from the builder's operands the way
// ops/step_cost.cc counts them from the program (channels taken as the
// smaller of the two layouts' candidates, a product's depth as A's largest
// dimension, so any layout or transpose is covered).
double WorkOf(std::string_view op, const std::vector<JsValue>& args, const std::vector<webnn::MLOperand>& outs) {
  double work = 0;
  for (const webnn::MLOperand& o : outs) work += Elements(o);
  auto operand = [&](size_t i) -> const webnn::MLOperand* {
    return i < args.size() && args[i].kind == JsValue::Kind::kOperand ? &args[i].operand : nullptr;
  };
  const webnn::MLOperand* a = operand(0);
  const webnn::MLOperand* b = operand(1);
  if (!a || !b || outs.empty()) return work;
  auto dim = [](const webnn::MLOperand& o, size_t i) {
    return i < o.shape().size() ? std::max<double>(1, static_cast<double>(o.shape()[i].size())) : 1.0;
  };
  auto min_channels = [&](const webnn::MLOperand& o) { return std::min(dim(o, 1), dim(o, 3)); };
  const double out = Elements(outs[0]);
  if (op == "conv2d") return work + out * Elements(*b) / min_channels(outs[0]);
  if (op == "convTranspose2d") return work + Elements(*a) * Elements(*b) / min_channels(*a);
  if (op == "matmul" || op == "gemm" || op == "quantizedMatmul") {
    double k = 1;
    for (const auto& d : a->shape()) k = std::max<double>(k, static_cast<double>(d.size()));
    return work + out * k;
  }
  if (op == "gru" || op == "lstm" || op == "gruCell" || op == "lstmCell") {
    // Every step multiplies each batch row by both weight tensors.
    const webnn::MLOperand* c = operand(2);
    const bool cell = op == "gruCell" || op == "lstmCell";
    const double rows = cell ? dim(*a, 0) : dim(*a, 0) * dim(*a, 1);  // [batch, ...] or [steps, batch, ...]
    return work + rows * (Elements(*b) + (c ? Elements(*c) : 0));
  }
  if (op == "attention") return work + out * Elements(*b);
  return work;
}
// At most this much work per dispatched graph: ~5 ms of the reference
// device's float64 loops (230M multiply-adds/s uninstrumented), more in this
// instrumented build. 5e7 ran the corpus at 70 inputs/s, 1e6 at 230: the
// graphs between the two were 15 % of the inputs and two thirds of the time.
// What they alone reached was mostly data types of elementwise ops that small
// shapes reach too.
constexpr double kMaxWork = 1e6;

// How deep the inputs get: WEBNN_FUZZ_STATS=1 prints these at exit.
struct Stats {
  uint64_t ops = 0, built_ops = 0, graphs = 0, dispatched = 0, too_costly = 0;
  ~Stats() {
    if (std::getenv("WEBNN_FUZZ_STATS"))
      std::fprintf(stderr,
                   "builder fuzzer: %llu ops tried, %llu built; %llu graphs built, %llu dispatched, %llu not "
                   "dispatched for their work\n",
                   static_cast<unsigned long long>(ops), static_cast<unsigned long long>(built_ops),
                   static_cast<unsigned long long>(graphs), static_cast<unsigned long long>(dispatched),
                   static_cast<unsigned long long>(too_costly));
  }
} stats;

// A spec error is fine; one that reports a broken invariant is a bug.
void Expected(const webnn::MLException& e) {
  if (std::strstr(e.what(), "internal error")) {
    std::fprintf(stderr, "builder fuzzer: %s\n", e.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static webnn::MLContext contexts[] = {
      webnn::ML::createContext({.device = webnn::MLDeviceType::kReference}),
      webnn::ML::createContext({.device = webnn::MLDeviceType::kCpu, .graphPasses = true, .nhwcLayout = true})};
  Bytes in(data, size);
  webnn::MLContext& context = contexts[in.Below(2)];
  try {
    webnn::MLGraphBuilder builder(context);
    std::vector<webnn::MLOperand> pool;
    std::vector<std::pair<std::string, webnn::MLOperandDescriptor>> inputs;
    double work = 0;  // WorkOf every op built
    for (uint32_t i = 0, n = 1 + in.Below(3); i < n; ++i) {
      webnn::MLOperandDescriptor desc;
      desc.dataType = kTypes[in.Below(sizeof kTypes / sizeof *kTypes)];
      std::vector<uint32_t> shape;
      for (uint32_t r = in.Below(5); r > 0; --r) shape.push_back(in.Below(8) == 0 ? in.Word() % 70000 : 1 + in.Below(5));
      for (uint32_t d : shape) desc.shape.emplace_back(d);
      const std::string name = "in" + std::to_string(i);
      try {
        pool.push_back(builder.input(name, desc));
        inputs.emplace_back(name, desc);
      } catch (const webnn::MLException& e) {
        Expected(e);
      }
    }
    while (!in.empty() && pool.size() < 64) {
      const auto kind = static_cast<webnn::ops::OpKind>(in.Below(webnn::ops::kOpCount));
      const std::string op(webnn::ops::OpName(kind));
      const std::vector<webnn::io::ParamInfo>* params = webnn::io::OpParams(op);
      if (!params) continue;
      std::vector<JsValue> args;
      for (const webnn::io::ParamInfo& p : *params) {
        if (pool.empty()) break;
        switch (p.kind) {
          case webnn::io::ParamInfo::Kind::kOperand:
            args.push_back(JsValue::Operand(pool[in.Below(static_cast<uint32_t>(pool.size()))]));
            break;
          case webnn::io::ParamInfo::Kind::kOperandList: {
            std::vector<JsValue> list;
            for (uint32_t n = 1 + in.Below(3); n > 0; --n)
              list.push_back(JsValue::Operand(pool[in.Below(static_cast<uint32_t>(pool.size()))]));
            args.push_back(JsValue::Array(std::move(list)));
            break;
          }
          case webnn::io::ParamInfo::Kind::kValue: args.push_back(RandomValue(in, pool, 1)); break;
        }
      }
      if (in.Below(2)) {
        JsValue options = JsValue::Object();
        for (uint32_t n = in.Below(4); n > 0; --n) {
          const char* member = kMembers[in.Below(sizeof kMembers / sizeof *kMembers)];
          options.members.emplace_back(member, RandomValue(in, pool));
        }
        args.push_back(std::move(options));
      }
      ++stats.ops;
      try {
        const std::vector<webnn::MLOperand> outs = webnn::io::InvokeOp(builder, op, args, in.Below(2));
        work += WorkOf(op, args, outs);
        pool.insert(pool.end(), outs.begin(), outs.end());
        ++stats.built_ops;
      } catch (const webnn::MLException& e) {
        Expected(e);
      }
    }
    if (pool.empty()) return 0;
    webnn::MLNamedOperands outs;
    for (uint32_t n = 1 + in.Below(2); n > 0; --n)
      outs["out" + std::to_string(n)] = pool[pool.size() - 1 - in.Below(static_cast<uint32_t>(pool.size()))];
    webnn::MLGraph graph = builder.build(outs);
    ++stats.graphs;
    // DAOP estimates any graph that builds, however large its shapes (the
    // cost model must stay finite and linear for hostile descriptions).
    context.estimateQoS(graph);
    // Small graphs run: zeros in, every output read back.
    uint64_t bytes = 0;
    webnn::MLNamedTensors tin, tout;
    auto tensors = [&](const std::map<std::string, webnn::MLOperandDescriptor>& descs, bool readable,
                       webnn::MLNamedTensors& into) {
      for (const auto& [name, d] : descs) {
        std::vector<uint32_t> shape;
        for (const auto& dim : d.shape) shape.push_back(static_cast<uint32_t>(dim.size()));
        bytes += webnn::ByteLengthFor(d.dataType, webnn::core::ElementCount(shape));
        if (bytes > (1u << 20)) return false;
        into[name] = context.createTensor({d.dataType, shape, readable, !readable});
      }
      return true;
    };
    if (!tensors(graph.inputDescriptors(), false, tin) || !tensors(graph.outputDescriptors(), true, tout)) return 0;
    if (work > kMaxWork) {
      ++stats.too_costly;
      return 0;
    }
    context.dispatch(graph, tin, tout);
    for (auto& [name, t] : tout) context.readTensor(t);  // run errors surface here
    ++stats.dispatched;
  } catch (const webnn::MLException& e) {
    Expected(e);
  }
  return 0;
}
