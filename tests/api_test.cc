// The API around the operations: contexts, builders, constants, build,
// tensors, dispatch, limits, weightless constants and dynamic dimensions.
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <type_traits>

#include "api/impl.h"
#include "core/shape.h"
#include "io/op_binding.h"
#include "ops/op_kind.h"
#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
const MLOperandDataType F32 = MLOperandDataType::kFloat32;

MLTensor Writable(MLContext& ctx, std::vector<uint32_t> shape, MLOperandDataType t = F32) {
  return ctx.createTensor({.dataType = t, .shape = std::move(shape), .writable = true});
}
MLTensor Readable(MLContext& ctx, std::vector<uint32_t> shape, MLOperandDataType t = F32) {
  return ctx.createTensor({.dataType = t, .shape = std::move(shape), .readable = true});
}
}  // namespace

TEST_CASE("contexts pick devices and report them", "[api]") {
  MLContext ref = ML::createContext({.device = MLDeviceType::kReference});
  CHECK(ref.deviceName() == "reference");
  CHECK_FALSE(ref.accelerated());
  CHECK(ML::createContext({.powerPreference = MLPowerPreference::kFallback}).deviceName() == "reference");
  bool has_gpu = false;
  for (const MLDeviceInfo& d : ML::devices()) has_gpu |= d.type == MLDeviceType::kGpu;
  if (!has_gpu) CHECK(ErrorName([] { ML::createContext({.device = MLDeviceType::kGpu}); }) == "NotSupportedError");
  CHECK_FALSE(ML::version().empty());
}

TEST_CASE("opSupportLimits lists all 95 operators, derived from the op list", "[api][limits]") {
  MLOpSupportLimits limits = Context().opSupportLimits();
  CHECK(limits.operators.size() == 95);
  CHECK(limits.operators.size() == static_cast<size_t>(ops::kOpCount));
  for (ops::OpKind op : ops::kAllOps) CHECK(limits.operators.count(std::string(ops::OpName(op))) == 1);
  CHECK(limits.maxTensorByteLength == (uint64_t{1} << 31));
  CHECK(limits.at("conv2d", "input").rankRange.min == 4);
  CHECK(limits.at("conv2d", "input").rankRange.max == 4);
  const auto& add = limits.at("add", "a").dataTypes;
  CHECK(std::set<MLOperandDataType>(add.begin(), add.end()).size() == 8);
  const auto& dq = limits.at("dequantizeLinear", "input").dataTypes;
  CHECK(std::find(dq.begin(), dq.end(), MLOperandDataType::kInt4) != dq.end());
}

TEST_CASE("every operator of op_list.inc has a WebIDL binding, and nothing else has", "[api][limits]") {
  // The binding table (src/io/op_binding.cc) is kept by hand; this ties it to
  // THE op list. MLGraphBuilder's methods are reached through it by the WPT
  // suite, which covers every operator.
  for (ops::OpKind op : ops::kAllOps) CHECK(io::OpParams(ops::OpName(op)) != nullptr);
  CHECK(io::OpParams("fusedElementwise") == nullptr);  // internal ops are not part of the API
  CHECK(io::OpParams("noSuchOp") == nullptr);
}

namespace {

// An argument of type T for an MLGraphBuilder operation method: `x` for
// operands, a small value of each other parameter type, options labelled
// "probe". A method taking a type not listed here does not compile: add it.
template <typename T>
T ProbeArgument(const MLOperand& x) {
  if constexpr (std::is_same_v<T, MLOperand>) return x;
  else if constexpr (std::is_same_v<T, std::vector<MLOperand>>) return {x};
  else if constexpr (std::is_same_v<T, uint32_t>) return 1;
  else if constexpr (std::is_same_v<T, MLOperandDataType>) return F32;
  else if constexpr (std::is_same_v<T, std::vector<uint32_t>>) return {1, 1};
  else if constexpr (std::is_same_v<T, std::vector<MLDimension>>) return {2, 2};
  else if constexpr (std::is_same_v<T, MLSplits>) return uint32_t{1};
  else {
    // An options dictionary: every one has MLOperatorOptions' label.
    static_assert(std::is_same_v<decltype(T::label), std::string>, "ProbeArgument: a parameter type to add");
    T options{};
    options.label = "probe";
    return options;
  }
}

// The op that `method`, called with probe arguments on a new builder, records:
// the kind of the node it adds or, when the arguments do not validate, the op
// its error names (every error of an operation starts "<op> [<label>]: ").
template <typename R, typename... Params>
std::string RecordedOp(MLContext& ctx, R (MLGraphBuilder::*method)(Params...)) {
  MLGraphBuilder b(ctx);
  const MLOperand x = b.input("x", {F32, {2, 2}});
  const size_t nodes = b.impl()->graph.nodes().size();
  try {
    (b.*method)(ProbeArgument<std::remove_cvref_t<Params>>(x)...);
  } catch (const MLException& e) {
    const std::string what = e.what();
    const size_t end = what.find(" [probe]: ");
    return end == std::string::npos ? "an error naming no op: " + what : what.substr(0, end);
  }
  if (b.impl()->graph.nodes().size() != nodes + 1) return "no new node";
  return std::string(ops::OpName(b.impl()->graph.nodes().back().op));
}

}  // namespace

TEST_CASE("every operator of op_list.inc has an MLGraphBuilder method that records it", "[api]") {
  // builder_ops.cc is kept by hand; this ties it to THE op list, one line per
  // entry generated from op_list.inc. &MLGraphBuilder::<op> does not compile
  // when the method is not declared and does not link when builder_ops.cc does
  // not define it; calling it must then record that very op (not, say, relu
  // from a pasted line in gelu's method).
  MLContext ctx = Context();
#define WEBNN_OP(name, Family) CHECK(RecordedOp(ctx, &MLGraphBuilder::name) == #name);
#include "ops/op_list.inc"
}

TEST_CASE("input() validates names and descriptors", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  CHECK(ErrorName([&] { b.input("", {F32, {2}}); }) == "TypeError");
  b.input("x", {F32, {2}});
  CHECK(ErrorMessage([&] { b.input("x", {F32, {3}}); }) == "input: an input named 'x' already exists");
  CHECK(ErrorName([&] { b.input("zero", {F32, {2, 0}}); }) == "TypeError");
  CHECK(ErrorName([&] { b.input("negative", {F32, {-1}}); }) == "TypeError");
  CHECK(ErrorName([&] { b.input("rank9", {F32, {1, 1, 1, 1, 1, 1, 1, 1, 1}}); }) == "TypeError");
  CHECK(ErrorName([&] { b.input("overflow", {F32, {65536, 65536}}); }) == "TypeError");
  CHECK(ErrorName([&] { b.input("bytes", {F32, {1u << 30}}); }) == "TypeError");  // 4 GiB > 2 GiB
  CHECK(b.input("rank8", {F32, {1, 1, 1, 1, 1, 1, 1, 2}}).rank() == 8);
  CHECK(b.input("scalar", {F32, {}}).shape().empty());
  CHECK(ErrorName([&] { b.input("dyn0", {F32, {MLDynamicDimension{"n", 0}}}); }) == "TypeError");
  b.input("dyn", {F32, {MLDynamicDimension{"n", 8}}});
  CHECK(ErrorName([&] { b.input("dyn2", {F32, {MLDynamicDimension{"n", 9}}}); }) == "TypeError");
}

TEST_CASE("constant() copies data and checks buffers", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  std::vector<float> data = {1, 2, 3, 4};
  CHECK(ErrorName([&] { b.constant({F32, {3}}, data); }) == "TypeError");               // byte length
  std::vector<int32_t> ints = {1, 2, 3, 4};
  CHECK(ErrorName([&] { b.constant({F32, {4}}, ints); }) == "TypeError");               // view type
  std::vector<uint8_t> bytes(16);
  CHECK_NOTHROW(b.constant({F32, {4}}, bytes));                                           // Uint8Array ok
  CHECK(ErrorName([&] { b.constant({F32, {4}}, MLBufferSource({}, MLArrayBufferViewType::kFloat32Array, true)); }) ==
        "TypeError");  // detached
  CHECK(ErrorName([&] { b.constant(F32, MLNumber::BigInt(3)); }) == "TypeError");
  CHECK(ErrorName([&] { b.constant(MLOperandDataType::kInt4, 3); }) == "TypeError");

  // The graph keeps its own copy: changing the buffer after constant() has no effect.
  MLGraphBuilder g(ctx);
  MLOperand k = g.constant({F32, {4}}, data);
  MLOperand x = g.input("x", {F32, {4}});
  MLGraph graph = g.build({{"y", g.add(x, k)}});
  data = {100, 100, 100, 100};
  MLTensor tx = Writable(ctx, {4}), ty = Readable(ctx, {4});
  ctx.writeTensor(tx, std::vector<float>{1, 1, 1, 1});
  ctx.dispatch(graph, {{"x", tx}}, {{"y", ty}});
  CHECK(FromBytes<float>(ctx.readTensor(ty)) == std::vector<float>{2, 3, 4, 5});
}

TEST_CASE("scalar constants cast their MLNumber", "[api]") {
  auto out = Run(MLDeviceType::kReference, {Tensor<int32_t>(MLOperandDataType::kInt32, {3}, {1, 2, 3})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   MLOperand k = b.constant(MLOperandDataType::kInt32, 3.9);  // truncates to 3
                   MLOperand big = b.constant(MLOperandDataType::kInt64, MLNumber::BigInt(9007199254740993));
                   return MLNamedOperands{{"sum", b.add(in[0], k)}, {"big", b.identity(big)}};
                 });
  CHECK(FromBytes<int32_t>(out["sum"].data) == std::vector<int32_t>{4, 5, 6});
  CHECK(FromBytes<int64_t>(out["big"].data) == std::vector<int64_t>{9007199254740993});
}

TEST_CASE("build() rules", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2}});
  MLOperand k = b.constant(F32, 1.0);
  CHECK(ErrorName([&] { b.build({}); }) == "TypeError");
  CHECK(ErrorName([&] { b.build({{"x", x}}); }) == "TypeError");  // an input as output
  CHECK(ErrorName([&] { b.build({{"k", k}}); }) == "TypeError");  // a constant as output
  CHECK(ErrorName([&] { b.build({{"", b.relu(x)}}); }) == "TypeError");
  MLGraphBuilder other(ctx);
  MLOperand o = other.relu(other.input("o", {F32, {2}}));
  CHECK(ErrorName([&] { b.build({{"o", o}}); }) == "TypeError");
  // Failed builds leave the builder usable; a successful one ends it.
  MLOperand y = b.relu(x);
  MLGraph g = b.build({{"y", y}});
  CHECK(ErrorName([&] { b.build({{"y", y}}); }) == "InvalidStateError");
  CHECK(ErrorName([&] { b.relu(x); }) == "InvalidStateError");
  CHECK(ErrorName([&] { b.input("z", {F32, {1}}); }) == "InvalidStateError");
  CHECK(ErrorName([&] { b.constant(F32, 2.0); }) == "InvalidStateError");
  CHECK(g.inputDescriptors().size() == 1);
}

TEST_CASE("a rejected operation leaves the builder intact", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2, 3}});
  CHECK(ErrorName([&] { b.softmax(x, 5); }) == "TypeError");
  CHECK(ErrorName([&] { b.reshape(x, {7}); }) == "TypeError");
  MLOperand y = b.softmax(x, 1);
  CHECK(y.shape() == std::vector<MLDimension>{2, 3});
  CHECK_NOTHROW(b.build({{"y", y}}));
}

TEST_CASE("dispatch() validates graphs and tensors", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2, 2}});
  MLGraph g = b.build({{"y", b.relu(x)}});
  MLTensor tx = Writable(ctx, {2, 2}), ty = Readable(ctx, {2, 2});
  CHECK_NOTHROW(ctx.dispatch(g, {{"x", tx}}, {{"y", ty}}));
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"wrong", tx}}, {{"y", ty}}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.dispatch(g, {}, {{"y", ty}}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", tx}}, {{"z", ty}}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", Writable(ctx, {4})}}, {{"y", ty}}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", Writable(ctx, {2, 2}, MLOperandDataType::kInt32)}}, {{"y", ty}}); }) ==
        "TypeError");
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", tx}}, {{"y", Readable(ctx, {4})}}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", tx}}, {{"y", tx}}); }) == "TypeError");  // same tensor twice
  // A wrong or missing name is named, with the names the graph has.
  CHECK(ErrorMessage([&] { ctx.dispatch(g, {{"wrong", tx}}, {{"y", ty}}); }) ==
        "dispatch: the graph has no input named 'wrong'; its inputs are 'x'");
  CHECK(ErrorMessage([&] { ctx.dispatch(g, {}, {{"y", ty}}); }) ==
        "dispatch: no tensor for the graph's input 'x'; its inputs are 'x'");
  CHECK(ErrorMessage([&] { ctx.dispatch(g, {{"x", tx}}, {{"z", ty}}); }) ==
        "dispatch: the graph has no output named 'z'; its outputs are 'y'");
  MLContext other = Context();
  CHECK(ErrorName([&] { other.dispatch(g, {{"x", Writable(other, {2, 2})}}, {{"y", Readable(other, {2, 2})}}); }) ==
        "TypeError");  // graph from another context
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", Writable(other, {2, 2})}}, {{"y", ty}}); }) == "TypeError");
  MLTensor dead = Writable(ctx, {2, 2});
  dead.destroy();
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", dead}}, {{"y", ty}}); }) == "TypeError");
  MLTensor constant = ctx.createConstantTensor({F32, {2, 2}}, std::vector<float>{1, 2, 3, 4});
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", constant}}, {{"y", ty}}); }) == "TypeError");
  g.destroy();
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", tx}}, {{"y", ty}}); }) == "InvalidStateError");
}

TEST_CASE("tensor reads and writes follow their flags", "[api][validation]") {
  MLContext ctx = Context();
  MLTensor w = Writable(ctx, {3});
  MLTensor r = Readable(ctx, {3});
  CHECK(ErrorName([&] { ctx.readTensor(w); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.writeTensor(r, std::vector<float>{1, 2, 3}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.writeTensor(w, std::vector<float>{1, 2}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.writeTensor(w, std::vector<int32_t>{1, 2, 3}); }) == "TypeError");
  std::vector<float> small(2);
  CHECK(ErrorName([&] { ctx.readTensor(r, small); }) == "TypeError");
  CHECK(FromBytes<float>(ctx.readTensor(r)) == std::vector<float>{0, 0, 0});  // created zeroed
  MLContext other = Context();
  CHECK(ErrorName([&] { other.readTensor(r); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.createTensor({.dataType = F32, .shape = {0}}); }) == "TypeError");
  MLTensor c = ctx.createConstantTensor({F32, {3}}, std::vector<float>{1, 2, 3});
  CHECK(c.constant());
  CHECK_FALSE(c.readable());
}

TEST_CASE("constant tensors feed graphs and outlive their destruction", "[api]") {
  MLContext ctx = Context();
  MLTensor c = ctx.createConstantTensor({F32, {3}}, std::vector<float>{1, 2, 3});
  MLGraphBuilder b(ctx);
  MLOperand k = b.constant(c);
  MLOperand x = b.input("x", {F32, {3}});
  MLGraph g = b.build({{"y", b.mul(x, k)}});
  c.destroy();  // the graph keeps the data (spec note under dispatch())
  MLTensor tx = Writable(ctx, {3}), ty = Readable(ctx, {3});
  ctx.writeTensor(tx, std::vector<float>{2, 2, 2});
  ctx.dispatch(g, {{"x", tx}}, {{"y", ty}});
  CHECK(FromBytes<float>(ctx.readTensor(ty)) == std::vector<float>{2, 4, 6});
  MLGraphBuilder b2(ctx);
  CHECK(ErrorName([&] { b2.constant(c); }) == "TypeError");                // destroyed
  CHECK(ErrorName([&] { b2.constant(Writable(ctx, {3})); }) == "TypeError");  // not constant
}

TEST_CASE("a lost context refuses work", "[api]") {
  MLContext ctx = Context();
  auto lost = ctx.lost();
  MLTensor t = Readable(ctx, {2});
  ctx.destroy();
  REQUIRE(lost.wait_for(std::chrono::seconds(1)) == std::future_status::ready);
  CHECK_FALSE(lost.get().message.empty());
  CHECK(ErrorName([&] { MLGraphBuilder b(ctx); }) == "InvalidStateError");
  CHECK(ErrorName([&] { ctx.createTensor({.dataType = F32, .shape = {2}}); }) == "InvalidStateError");
  CHECK(ErrorName([&] { ctx.readTensor(t); }) == "TypeError");  // destroyed with the context
}

TEST_CASE("one operand may be two outputs", "[api]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2}});
  MLOperand y = b.neg(x);
  MLGraph g = b.build({{"a", y}, {"b", y}});
  MLTensor tx = Writable(ctx, {2}), ta = Readable(ctx, {2}), tb = Readable(ctx, {2});
  ctx.writeTensor(tx, std::vector<float>{1, -2});
  ctx.dispatch(g, {{"x", tx}}, {{"a", ta}, {"b", tb}});
  CHECK(FromBytes<float>(ctx.readTensor(ta)) == std::vector<float>{-1, 2});
  CHECK(FromBytes<float>(ctx.readTensor(tb)) == std::vector<float>{-1, 2});
}

TEST_CASE("weightless constants are bound after build", "[api][weightless]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2, 3}});
  MLOperand w = b.constant(MLConstantDescriptor{F32, {3, 2}, "w"});
  CHECK(w.shape() == std::vector<MLDimension>{3, 2});
  CHECK(ErrorName([&] { b.constant(MLConstantDescriptor{F32, {1}, "w"}); }) == "TypeError");  // duplicate label
  CHECK(ErrorName([&] { b.constant(MLConstantDescriptor{F32, {1}, ""}); }) == "TypeError");
  MLGraph g = b.build({{"y", b.matmul(x, w)}});
  CHECK(g.unboundConstants() == std::vector<std::string>{"w"});
  MLTensor tx = Writable(ctx, {2, 3}), ty = Readable(ctx, {2, 2});
  ctx.writeTensor(tx, std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", tx}}, {{"y", ty}}); }) == "InvalidStateError");
  CHECK(ErrorName([&] { ctx.bindConstants(g, {{"w", std::vector<float>{1, 2}}}); }) == "TypeError");
  CHECK(ErrorName([&] { ctx.bindConstants(g, {{"nope", std::vector<float>(6)}}); }) == "DataError");
  std::vector<float> wv = {1, 0, 0, 1, 1, 1};
  ctx.bindConstants(g, {{"w", wv}});
  CHECK(g.unboundConstants().empty());
  ctx.dispatch(g, {{"x", tx}}, {{"y", ty}});
  CHECK(FromBytes<float>(ctx.readTensor(ty)) == std::vector<float>{4, 5, 10, 11});
  // A constant is bound once: its raw bytes may be gone once packed.
  CHECK(ErrorName([&] { g.setConstantData("w", std::vector<float>{2, 0, 0, 2, 0, 0}); }) == "InvalidStateError");
  ctx.dispatch(g, {{"x", tx}}, {{"y", ty}});
  CHECK(FromBytes<float>(ctx.readTensor(ty)) == std::vector<float>{4, 5, 10, 11});
}

TEST_CASE("named dynamic dimensions are checked at build and bound at dispatch", "[api][dynamic]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {MLDynamicDimension{"batch", 8}, 3}});
  MLOperand m = b.input("m", {F32, {MLDynamicDimension{"batch", 8}, 3}});
  MLOperand sum = b.reduceSum(b.mul(x, m), {.axes = std::vector<uint32_t>{1}});
  CHECK(sum.shape()[0].isDynamic());
  CHECK(sum.shape()[0].name() == "batch");
  MLOperand flat = b.reshape(x, {MLDynamicDimension{"batch", 8}, 3, 1});
  CHECK(ErrorName([&] { b.reshape(x, {MLDynamicDimension{"batch", 9}, 3}); }) == "TypeError");  // maxSize mismatch
  MLGraph g = b.build({{"sum", sum}, {"flat", flat}});
  CHECK(g.inputDescriptors().at("x").shape[0].isDynamic());
  CHECK(g.computeShapes({{"x", {5, 3}}, {"m", {5, 3}}}).at("flat") == std::vector<uint32_t>{5, 3, 1});

  for (uint32_t n : {1u, 5u, 8u}) {
    MLTensor tx = Writable(ctx, {n, 3}), tm = Writable(ctx, {n, 3});
    std::vector<float> xv(n * 3), mv(n * 3, 2.0f);
    for (uint32_t i = 0; i < n * 3; ++i) xv[i] = static_cast<float>(i);
    ctx.writeTensor(tx, xv);
    ctx.writeTensor(tm, mv);
    MLTensor ts = Readable(ctx, {n}), tf = Readable(ctx, {n, 3, 1});
    ctx.dispatch(g, {{"x", tx}, {"m", tm}}, {{"sum", ts}, {"flat", tf}});
    std::vector<float> s = FromBytes<float>(ctx.readTensor(ts));
    for (uint32_t i = 0; i < n; ++i) CHECK(s[i] == 2.0f * (3 * i + 3 * i + 1 + 3 * i + 2));
    CHECK(FromBytes<float>(ctx.readTensor(tf)) == xv);
  }
  MLTensor big = Writable(ctx, {9, 3});
  CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", big}, {"m", Writable(ctx, {9, 3})}}, {{"sum", Readable(ctx, {9})}, {"flat", Readable(ctx, {9, 3, 1})}}); }) ==
        "TypeError");  // beyond maxSize
  CHECK(ErrorMessage([&] {
          ctx.dispatch(g, {{"x", Writable(ctx, {2, 3})}, {"m", Writable(ctx, {3, 3})}},
                       {{"sum", Readable(ctx, {2})}, {"flat", Readable(ctx, {2, 3, 1})}});
        }).find("'batch'") != std::string::npos);  // one name, two sizes
  CHECK(ErrorName([&] {
          ctx.dispatch(g, {{"x", Writable(ctx, {2, 3})}, {"m", Writable(ctx, {2, 3})}},
                       {{"sum", Readable(ctx, {3})}, {"flat", Readable(ctx, {2, 3, 1})}});
        }) == "TypeError");  // output tensor of the wrong concrete shape
}

TEST_CASE("dynamic dimensions reach ops whose output sizes are computed", "[api][dynamic]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {1, 1, MLDynamicDimension{"h", 16}, MLDynamicDimension{"w", 16}}});
  MLOperand pooled = b.maxPool2d(x, {.windowDimensions = std::vector<uint32_t>{2, 2},
                                     .strides = std::vector<uint32_t>{2, 2}});
  CHECK(pooled.shape()[2].isDynamic());
  CHECK(pooled.shape()[2].size() == 8);  // the bound
  MLGraph g = b.build({{"y", pooled}});
  CHECK(g.computeShapes({{"x", {1, 1, 6, 10}}}).at("y") == std::vector<uint32_t>{1, 1, 3, 5});
  CHECK(ErrorName([&] { g.computeShapes({{"x", {1, 1, 1, 10}}}); }) == "TypeError");  // window larger than input
}

TEST_CASE("designated initializers reach the label of an option struct", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {1, 4, 5, 5}});
  MLOperand w = b.input("w", {F32, {4, 1, 3, 3}});
  // groups = 3 does not divide 4 channels: the error names the label.
  const std::string msg = ErrorMessage([&] { b.conv2d(x, w, {.label = "dw", .groups = 3}); });
  CHECK(msg.rfind("conv2d [dw]: ", 0) == 0);
  CHECK(b.conv2d(x, w, {.label = "dw", .groups = 4}).shape() == std::vector<MLDimension>{1, 4, 3, 3});
}

// Issue 13: {.label = ..., .member = ...} compiles for every options struct
// (label is an ordinary first member, not a base). Each struct of
// include/webnn/options.h is listed here by a macro that builds it with a
// designated initializer; the test reads options.h and fails for a struct
// this list lacks, so a new struct cannot skip the check. The non-operator
// option structs take designated initializers of their own members.
#define WEBNN_DESIGNATED(T, ...) std::pair<std::string, std::string>{#T, T{.label = "x", __VA_ARGS__}.label}
TEST_CASE("designated initializers work on every options struct", "[api]") {
  const std::map<std::string, std::string> built = {
      {"MLOperatorOptions", MLOperatorOptions{.label = "x"}.label},
      WEBNN_DESIGNATED(MLArgMinMaxOptions, .keepDimensions = true),
      WEBNN_DESIGNATED(MLBatchNormalizationOptions, .axis = 3),
      WEBNN_DESIGNATED(MLClampOptions, .minValue = 0),
      WEBNN_DESIGNATED(MLConv2dOptions, .groups = 8),
      WEBNN_DESIGNATED(MLConvTranspose2dOptions, .groups = 2),
      WEBNN_DESIGNATED(MLCumulativeSumOptions, .exclusive = true),
      WEBNN_DESIGNATED(MLEluOptions, .alpha = 2),
      WEBNN_DESIGNATED(MLGatherOptions, .axis = 1),
      WEBNN_DESIGNATED(MLGemmOptions, .alpha = 2),
      WEBNN_DESIGNATED(MLGruOptions, .returnSequence = true),
      WEBNN_DESIGNATED(MLGruCellOptions, .resetAfter = false),
      WEBNN_DESIGNATED(MLHardSigmoidOptions, .beta = 0.25),
      WEBNN_DESIGNATED(MLInstanceNormalizationOptions, .epsilon = 1e-3),
      WEBNN_DESIGNATED(MLLayerNormalizationOptions, .epsilon = 1e-3),
      WEBNN_DESIGNATED(MLLeakyReluOptions, .alpha = 0.1),
      WEBNN_DESIGNATED(MLLinearOptions, .beta = 1),
      WEBNN_DESIGNATED(MLLstmOptions, .returnSequence = true),
      WEBNN_DESIGNATED(MLLstmCellOptions, .layout = MLLstmWeightLayout::kIfgo),
      WEBNN_DESIGNATED(MLPadOptions, .mode = MLPaddingMode::kEdge),
      WEBNN_DESIGNATED(MLPool2dOptions, .layout = MLInputOperandLayout::kNhwc),
      WEBNN_DESIGNATED(MLReduceOptions, .keepDimensions = true),
      WEBNN_DESIGNATED(MLResample2dOptions, .mode = MLInterpolationMode::kLinear),
      WEBNN_DESIGNATED(MLReverseOptions, .axes = std::vector<uint32_t>{0}),
      WEBNN_DESIGNATED(MLScatterOptions, .axis = 1),
      WEBNN_DESIGNATED(MLSliceOptions, .strides = std::vector<uint32_t>{1}),
      WEBNN_DESIGNATED(MLSplitOptions, .axis = 1),
      WEBNN_DESIGNATED(MLTransposeOptions, .permutation = std::vector<uint32_t>{1, 0}),
      WEBNN_DESIGNATED(MLTriangularOptions, .upper = false),
  };
  for (const auto& [name, label] : built) CHECK(label == "x");
  std::ifstream header(std::filesystem::path(WEBNN_TEST_DATA_DIR).parent_path().parent_path() / "include" /
                       "webnn" / "options.h");
  REQUIRE(header);
  size_t structs = 0;
  for (std::string line; std::getline(header, line);)
    if (std::smatch m; std::regex_search(line, m, std::regex("^struct (ML\\w+Options) \\{"))) {
      ++structs;
      INFO(m[1].str() << " is in options.h but not in this test");
      CHECK(built.count(m[1].str()));
    }
  CHECK(structs == built.size());

  const MLContextOptions context{.device = MLDeviceType::kCpu, .numThreads = 1};
  const MLGraphOptions graph{.strictPlacement = true};
  const MLDispatchOptions dispatch{.profile = true};
  const MLQoSOptions qos{.weightsSparsity = true};
  CHECK((context.numThreads == 1 && graph.strictPlacement && dispatch.profile && qos.weightsSparsity));
}
#undef WEBNN_DESIGNATED

TEST_CASE("labels are sanitized in messages", "[api][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2}});
  // U+202E (right-to-left override) would let a label disguise a message.
  const std::string msg = ErrorMessage([&] { b.softmax(x, 3, {.label = "evil\xE2\x80\xAElabel"}); });
  CHECK(msg.rfind("softmax [evillabel]: ", 0) == 0);
}
