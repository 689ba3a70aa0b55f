#include "qos/calibrate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include <unistd.h>

#include "api/impl.h"
#include "ops/op_kind.h"
#include "qos/microbench.h"
#include "qos/peak.h"
#include "qos/probe.h"
#include "qos/profile_file.h"
#include "scheduler/cpu_threads.h"

namespace webnn::qos {

namespace {

using ops::OpKind;
using Dims = std::vector<uint32_t>;
constexpr MLOperandDataType kF32 = MLOperandDataType::kFloat32;
constexpr MLOperandDataType kU8 = MLOperandDataType::kUint8;
constexpr MLOperandDataType kI32 = MLOperandDataType::kInt32;

// The steps of cost-model class `cls`, with their work.
StepMatch ClassSteps(const std::string& cls) {
  return [cls](const ops::Program& program, const ops::ProgramStep& step,
               const std::vector<std::vector<uint32_t>>& shapes) -> std::optional<double> {
    const StepKey k = KeyOf(program, step, shapes);
    if (k.cls != cls) return std::nullopt;
    return k.work;
  };
}

// Builds the graph of one grid point (coordinates in real units); false when
// the point is not built (too much work or memory for a probe).
using BuildFn = std::function<bool(ProbeGraph& g, const std::vector<double>& point, MLOperand& out)>;

struct Probe {
  std::string cls;
  std::vector<std::vector<double>> axes;  // real units
  BuildFn build;
  // Time each sample with the caches flushed first: the rate of a kernel
  // whose constants stream from memory (a model's weights beyond the
  // last-level cache), the ".cold" classes EstimateProgram uses then.
  bool cold = false;
};

// Evicts the caches by reading a buffer twice the last-level cache (at most
// 1 GiB), kept for the process. Reading, not writing: a written buffer
// leaves the caches full of dirty lines, whose write-backs then halved the
// probe's bandwidth (7.5 GB/s after a memset flush against the 11.2 GB/s the
// decoder's layers stream at).
void FlushCaches() {
  static const std::vector<char> buffer(
      std::clamp<size_t>(2 * static_cast<size_t>(std::max(0L, sysconf(_SC_LEVEL3_CACHE_SIZE))), size_t{64} << 20,
                         size_t{1} << 30),
      1);
  uint64_t sum = 0;
  for (size_t i = 0; i < buffer.size(); i += 64) sum += static_cast<unsigned char>(buffer[i]);
  volatile uint64_t sink = sum;  // the reads must happen
  (void)sink;
}

// Limits of one probe: about 10-20 ms of work at our rates, and inputs that
// stay far from the memory of a small machine.
constexpr double kMaxFlops = 2.2e9;
constexpr double kMaxElements = 16.0 * 1024 * 1024;

uint32_t U(double v) { return static_cast<uint32_t>(std::llround(v)); }
uint32_t Side(double pixels) { return U(std::sqrt(pixels)); }

std::vector<Probe> ComputeProbes() {
  std::vector<Probe> probes;
  // Products: M, K, N. The axes avoid powers of two (the peer table's shapes
  // are held out of the grid); B [K, N] is a constant, as weights are.
  const std::vector<double> kn = {24, 48, 96, 192, 384, 768, 1536, 3072, 6144};
  probes.push_back({"matmul", {{1, 3, 12, 48, 192, 768, 3072}, kn, kn},
                    [](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                      if (2 * p[0] * p[1] * p[2] > kMaxFlops || p[1] * p[2] > kMaxElements) return false;
                      out = g.b().matmul(g.Input({U(p[0]), U(p[1])}), g.Const({U(p[1]), U(p[2])}));
                      return true;
                    }});
  probes.push_back({"matmul.dynamic", {{1, 16, 256, 2048}, {16, 64, 256, 1024}, {16, 256, 2048}},
                    [](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                      if (2 * p[0] * p[1] * p[2] > kMaxFlops) return false;
                      out = g.b().matmul(g.Input({U(p[0]), U(p[1])}), g.Input({U(p[1]), U(p[2])}));
                      return true;
                    }});
  // conv2d, with a bias as the converted models have: C/groups, OC/groups, taps, output pixels.
  auto conv = [](bool strided) {
    return [strided](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
      const uint32_t cin = U(p[0]), cout = U(p[1]), k = Side(p[2]), side = Side(p[3]);
      const uint32_t in_side = strided ? 2 * side : side;
      if (2 * p[0] * p[1] * p[2] * p[3] > kMaxFlops || double(cin) * in_side * in_side > kMaxElements) return false;
      MLConv2dOptions o;
      o.padding = Dims{(k - 1) / 2, k / 2, (k - 1) / 2, k / 2};
      if (strided) o.strides = Dims{2, 2};
      o.bias = g.Const({cout});
      out = g.b().conv2d(g.Input({1, cin, in_side, in_side}), g.Const({cout, cin, k, k}), o);
      return true;
    };
  };
  // Output pixels: squares of 7, 21, 57 and 159.
  const std::vector<double> pixels = {49, 441, 3249, 25281};
  probes.push_back(
      {"conv2d", {{3, 8, 20, 50, 125, 320, 800}, {8, 20, 50, 125, 320, 800}, {1, 9, 25}, pixels}, conv(false)});
  probes.push_back({"conv2d.strided", {{3, 8, 20, 50, 125, 320}, {8, 20, 50, 125, 320}, {9}, pixels}, conv(true)});
  auto depthwise = [](bool strided) {
    return [strided](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
      // Output [1, c, pixels / width, width]: the row length matters to the
      // sliding window (thin images: PP-OCR rec and cls).
      const uint32_t c = U(p[0]), k = Side(p[1]), width = U(p[3]), height = U(p[2] / p[3]);
      if (height < 1) return false;
      const uint32_t in_h = strided ? 2 * height : height, in_w = strided ? 2 * width : width;
      if (double(c) * in_h * in_w > kMaxElements) return false;
      MLConv2dOptions o;
      o.padding = Dims{(k - 1) / 2, k / 2, (k - 1) / 2, k / 2};
      if (strided) o.strides = Dims{2, 2};
      o.groups = c;
      o.bias = g.Const({c});
      out = g.b().conv2d(g.Input({1, c, in_h, in_w}), g.Const({c, 1, k, k}), o);
      return true;
    };
  };
  probes.push_back({"conv2d.depthwise", {{8, 32, 128, 512}, {9, 25}, {64, 1024, 16384, 65536}, {8, 32, 128}},
                    depthwise(false)});
  probes.push_back({"conv2d.depthwise.strided", {{8, 32, 128, 512}, {9, 25}, {64, 1024, 16384}, {8, 32, 128}},
                    depthwise(true)});
  // convTranspose2d: 2x2 stride 2 (the upsampling of detection heads), or 3x3 stride 1.
  probes.push_back({"convTranspose2d", {{8, 64, 256}, {8, 64, 256}, {4, 9}, {64, 1024, 16384}},
                    [](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                      const uint32_t cin = U(p[0]), cout = U(p[1]), k = Side(p[2]), side = Side(p[3]);
                      if (2 * p[0] * p[1] * p[2] * p[3] > kMaxFlops) return false;
                      MLConvTranspose2dOptions o;
                      if (k == 2) o.strides = Dims{2, 2};
                      else o.padding = Dims{1, 1, 1, 1};
                      out = g.b().convTranspose2d(g.Input({1, cin, side, side}), g.Const({cin, cout, k, k}), o);
                      return true;
                    }});
  // Pools: 2x2 stride 2, 3x3 stride 1, or global over 32x32 or 128x128; output elements.
  for (const char* op : {"averagePool2d", "maxPool2d", "l2Pool2d"}) {
    const std::string name = op;
    probes.push_back({name, {{4, 9, 1024, 16384}, {256, 4096, 262144}},
                      [name](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                        const uint32_t window = U(p[0]), outputs = U(p[1]);
                        MLPool2dOptions o;
                        Dims in;
                        if (window >= 1024) {  // global over 32x32 or 128x128
                          in = {1, outputs, Side(window), Side(window)};
                        } else {
                          in = {1, std::max(outputs / 256, 1u), window == 4 ? 32u : 16u, window == 4 ? 32u : 16u};
                          o.windowDimensions = window == 4 ? Dims{2, 2} : Dims{3, 3};
                          if (window == 4) o.strides = Dims{2, 2};
                          else o.padding = Dims{1, 1, 1, 1};
                        }
                        if (double(in[1]) * in[2] * in[3] > kMaxElements) return false;
                        MLOperand x = g.Input(in);
                        out = name == "averagePool2d" ? g.b().averagePool2d(x, o)
                              : name == "maxPool2d"   ? g.b().maxPool2d(x, o)
                                                      : g.b().l2Pool2d(x, o);
                        return true;
                      }});
  }
  // The MatMulNBits pattern the passes fuse into quantizedMatmul: an int4
  // weight [K, N] dequantized in blocks of 32 along K, M rows of float
  // activations (M = 1: LLM decode, bandwidth-bound).
  probes.push_back({"quantizedMatmul", {{1, 3, 12, 48, 192}, {384, 1536, 6144}, {384, 1536, 6144}},
                    [](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                      if (2 * p[0] * p[1] * p[2] > kMaxFlops) return false;
                      const uint32_t m = U(p[0]), k = U(p[1]), n = U(p[2]);
                      constexpr MLOperandDataType kI4 = MLOperandDataType::kInt4;
                      MLOperand w = g.b().dequantizeLinear(g.Const({k, n}, kI4), g.Const({k / 32, n}),
                                                           g.Const({k / 32, n}, kI4));
                      out = g.b().matmul(g.Input({m, k}), w);
                      return true;
                    }});
  // The same with the weights streaming from memory (M up to 12: decode),
  // at the largest weight only: after a flush, a smaller one measures the
  // memory's latency more than the kernel's streaming rate, which a
  // model's layers one after another see.
  probes.push_back(probes.back());
  probes.back().cls = "quantizedMatmul.cold";
  probes.back().axes = {{1, 3, 12}, {6144}, {6144}};
  probes.back().cold = true;
  // Scaled dot-product attention as converters write it (fused into one
  // attention step): seqQ queries against seqKV keys, heads of 64, query
  // heads per key/value head (grouped-query attention: the key and value
  // heads repeated by reshape + expand + reshape).
  probes.push_back({"attention", {{1, 24, 384}, {96, 384, 1536}, {64}, {4, 16}, {1, 4}},
                    [](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                      const uint32_t s = U(p[0]), t = U(p[1]), d = U(p[2]), h = U(p[3]), group = U(p[4]);
                      const uint32_t kv = h / group;
                      auto repeat = [&](MLOperand x) {
                        if (group == 1) return x;
                        MLOperand r = g.b().reshape(x, {1, kv, 1, t, d});
                        return g.b().reshape(g.b().expand(r, {1, kv, group, t, d}), {1, h, t, d});
                      };
                      MLOperand q = g.Input({1, h, s, d});
                      MLOperand k = repeat(g.Input({1, kv, t, d})), v = repeat(g.Input({1, kv, t, d}));
                      MLOperand scores = g.b().matmul(q, g.b().transpose(k, {.permutation = Dims{0, 1, 3, 2}}));
                      MLOperand scaled = g.b().mul(scores, g.b().constant(kF32, 0.125));
                      out = g.b().matmul(g.b().softmax(scaled, 3), v);
                      return true;
                    }});
  // Recurrent networks: hidden size, batch; 8 steps, input size = hidden size.
  for (const bool gru : {true, false}) {
    probes.push_back({gru ? "gru" : "lstm", {{16, 64, 256}, {1, 16}},
                      [gru](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                        const uint32_t h = U(p[0]), batch = U(p[1]), gates = gru ? 3 : 4;
                        MLOperand x = g.Input({8, batch, h});
                        MLOperand w = g.Const({1, gates * h, h}), r = g.Const({1, gates * h, h});
                        out = gru ? g.b().gru(x, w, r, 8, h)[0] : g.b().lstm(x, w, r, 8, h)[0];
                        return true;
                      }});
  }
  return probes;
}

// An op measured by its bytes: its graph with `n` elements in its largest
// operand (`r`: the length a reduction reduces over). Null for ops calibrated
// by another class.
MLOperand BuildBytesOp(ProbeGraph& g, OpKind op, uint32_t n, uint32_t r) {
  MLGraphBuilder& b = g.b();
  const uint32_t rows = n / 256;
  auto x = [&] { return g.Input({n}); };
  auto x2 = [&] { return g.Input({rows, 256}); };
  switch (op) {
#define BINARY(name) \
  case OpKind::name: return b.name(x(), x());
    BINARY(add) BINARY(sub) BINARY(mul) BINARY(div) BINARY(max) BINARY(min) BINARY(pow) BINARY(equal)
    BINARY(notEqual) BINARY(greater) BINARY(greaterOrEqual) BINARY(lesser) BINARY(lesserOrEqual)
#undef BINARY
    case OpKind::logicalAnd: return b.logicalAnd(g.Input({n}, kU8), g.Input({n}, kU8));
    case OpKind::logicalOr: return b.logicalOr(g.Input({n}, kU8), g.Input({n}, kU8));
    case OpKind::logicalXor: return b.logicalXor(g.Input({n}, kU8), g.Input({n}, kU8));
    case OpKind::logicalNot: return b.logicalNot(g.Input({n}, kU8));
#define UNARY(name) \
  case OpKind::name: return b.name(x());
    UNARY(isNaN) UNARY(isInfinite) UNARY(abs) UNARY(ceil) UNARY(cos) UNARY(erf) UNARY(exp) UNARY(floor)
    UNARY(identity) UNARY(log) UNARY(neg) UNARY(reciprocal) UNARY(roundEven) UNARY(sin) UNARY(sign) UNARY(sqrt)
    UNARY(tan) UNARY(elu) UNARY(gelu) UNARY(hardSigmoid) UNARY(hardSwish) UNARY(leakyRelu) UNARY(linear)
    UNARY(relu) UNARY(sigmoid) UNARY(softplus) UNARY(softsign) UNARY(tanh)
#undef UNARY
    case OpKind::clamp: {
      MLClampOptions o;
      o.minValue = 0.6;
      o.maxValue = 1.2;
      return b.clamp(x(), o);
    }
    case OpKind::cast: return b.cast(x(), MLOperandDataType::kFloat16);
    case OpKind::prelu: return b.prelu(x2(), g.Const({256}));
    case OpKind::softmax: return b.softmax(x2(), 1);
    case OpKind::argMin: return b.argMin(x2(), 1);
    case OpKind::argMax: return b.argMax(x2(), 1);
    case OpKind::cumulativeSum: return b.cumulativeSum(x2(), 1);
    case OpKind::concat: return b.concat({g.Input({n / 512, 256}), g.Input({n / 512, 256})}, 1);
    case OpKind::split: return b.split(g.Input({n / 512, 512}), 2u, {.axis = 1})[0];
    case OpKind::slice: return b.slice(g.Input({n / 512, 512}), {0, 128}, {n / 512, 256});
    case OpKind::transpose: return b.transpose(g.Input({1, 64, n / 64}), {.permutation = Dims{0, 2, 1}});
    case OpKind::reshape: return b.reshape(x(), {n / 16, 16});
    case OpKind::expand: return b.expand(g.Input({1, 256}), {rows, 256});
    case OpKind::tile: return b.tile(g.Input({n / 512, 256}), {1, 2});
    case OpKind::pad: {
      const uint32_t side = Side(n / 16.0);  // the output is [1, 16, side, side]
      return b.pad(g.Input({1, 16, side - 2, side - 2}), {0, 0, 1, 1}, {0, 0, 1, 1});
    }
    case OpKind::reverse: return b.reverse(x2(), {.axes = Dims{1}});
    case OpKind::gather: return b.gather(x2(), g.Input({rows / 2}, kI32));
    case OpKind::gatherElements: return b.gatherElements(x2(), g.Input({rows, 256}, kI32));
    case OpKind::gatherND: return b.gatherND(x2(), g.Input({rows / 2, 1}, kI32));
    case OpKind::scatterElements: return b.scatterElements(x2(), g.Input({rows, 256}, kI32), x2());
    case OpKind::scatterND: return b.scatterND(x2(), g.Input({rows / 2, 1}, kI32), g.Input({rows / 2, 256}));
    case OpKind::where: return b.where(g.Input({n}, kU8), x(), x());
    case OpKind::triangular: return b.triangular(x2());
    case OpKind::resample2d: {
      const uint32_t side = Side(n / 64.0);  // the output is [1, 16, 2 side, 2 side]
      MLResample2dOptions o;
      o.scales = std::vector<float>{2, 2};
      return b.resample2d(g.Input({1, 16, side, side}), o);
    }
    case OpKind::quantizeLinear: return b.quantizeLinear(x2(), g.Const({1, 1}), g.Const({1, 1}, kU8));
    case OpKind::dequantizeLinear:
      return b.dequantizeLinear(g.Input({rows, 256}, kU8), g.Const({1, 1}), g.Const({1, 1}, kU8));
    case OpKind::batchNormalization:
      return b.batchNormalization(g.Input({1, 64, n / 64}), g.Const({64}), g.Const({64}));
    case OpKind::instanceNormalization: {
      const uint32_t side = Side(n / 64.0);
      return b.instanceNormalization(g.Input({1, 64, side, side}));
    }
    case OpKind::layerNormalization: {
      MLLayerNormalizationOptions o;
      o.axes = Dims{1};
      o.scale = g.Const({256});
      o.bias = g.Const({256});
      return b.layerNormalization(x2(), o);
    }
#define REDUCE(name) \
  case OpKind::name: return b.name(g.Input({n / r, r}), {.axes = Dims{1}});
    REDUCE(reduceL1) REDUCE(reduceL2) REDUCE(reduceLogSum) REDUCE(reduceLogSumExp) REDUCE(reduceMax)
    REDUCE(reduceMean) REDUCE(reduceMin) REDUCE(reduceProduct) REDUCE(reduceSum) REDUCE(reduceSumSquare)
#undef REDUCE
    default: return {};
  }
}

bool IsReduction(OpKind op) {
  switch (op) {
    case OpKind::reduceL1: case OpKind::reduceL2: case OpKind::reduceLogSum: case OpKind::reduceLogSumExp:
    case OpKind::reduceMax: case OpKind::reduceMean: case OpKind::reduceMin: case OpKind::reduceProduct:
    case OpKind::reduceSum: case OpKind::reduceSumSquare:
      return true;
    default: return false;
  }
}

// The WebNN ops measured in another op's class.
std::string SharedClass(OpKind op) {
  switch (op) {
    case OpKind::matmul: case OpKind::gemm: return "matmul";
    case OpKind::conv2d: return "conv2d";
    case OpKind::convTranspose2d: return "convTranspose2d";
    case OpKind::averagePool2d: return "averagePool2d";
    case OpKind::maxPool2d: return "maxPool2d";
    case OpKind::l2Pool2d: return "l2Pool2d";
    case OpKind::gru: case OpKind::gruCell: return "gru";
    case OpKind::lstm: case OpKind::lstmCell: return "lstm";
    default: return "";
  }
}

std::vector<Probe> BytesProbes() {
  std::vector<Probe> probes;
  const std::vector<double> sizes = {4096, 65536, 1048576, 4194304, 16777216};
  for (OpKind op : ops::kAllOps) {
    if (!SharedClass(op).empty()) continue;
    const bool reduction = IsReduction(op);
    Probe p{"bytes." + std::string(ops::OpName(op)), {sizes}, nullptr};
    if (reduction) p.axes.push_back({16, 256, 4096});
    p.build = [op, reduction](ProbeGraph& g, const std::vector<double>& point, MLOperand& out) {
      out = BuildBytesOp(g, op, U(point[0]), reduction ? U(point[1]) : 1);
      return !out.isNull();
    };
    probes.push_back(std::move(p));
  }
  // Fused element-wise chains (the fusion pass makes them from unary chains):
  // elements, chain length.
  probes.push_back({"bytes.fusedElementwise", {sizes, {2, 4, 8}},
                    [](ProbeGraph& g, const std::vector<double>& p, MLOperand& out) {
                      out = g.Input({U(p[0])});
                      for (uint32_t i = 0; i < U(p[1]); ++i) out = i % 2 ? g.b().relu(out) : g.b().sigmoid(out);
                      return true;
                    }});
  return probes;
}

// Points of a grid that were not measured (too much work or memory for a
// probe) take the value of the nearest measured point that is no larger on
// any axis (work grows along every axis, and rates level off with size), or
// failing that of the nearest measured point.
void FillUnmeasured(Grid& grid) {
  const size_t d = grid.axes.size(), n = grid.ln_ns.size();
  auto index_of = [&](size_t flat) {
    std::vector<size_t> idx(d);
    for (size_t i = d; i-- > 0;) {
      idx[i] = flat % grid.axes[i].size();
      flat /= grid.axes[i].size();
    }
    return idx;
  };
  const std::vector<double> before = grid.ln_ns;
  for (size_t p = 0; p < n; ++p) {
    if (!std::isnan(before[p])) continue;
    const auto a = index_of(p);
    size_t best = SIZE_MAX, best_dominated = SIZE_MAX;
    for (size_t q = 0; q < n; ++q) {
      if (std::isnan(before[q])) continue;
      const auto b = index_of(q);
      size_t distance = 0;
      bool dominated = true;
      for (size_t i = 0; i < d; ++i) {
        distance += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
        dominated = dominated && b[i] <= a[i];
      }
      if (dominated && distance < best_dominated) {
        best_dominated = distance;
        grid.ln_ns[p] = before[q];
      } else if (best_dominated == SIZE_MAX && distance < best) {
        best = distance;
        grid.ln_ns[p] = before[q];
      }
    }
  }
}

// The largest working set that one thread reads again at well above the
// speed of memory: the cache a model's constants must fit in to stay warm
// between dispatches. Measured, not taken from sysconf: a VM reports its
// host's whole last-level cache (480 MiB on the Xeon host), of which it
// keeps much less. Repeated reads of 1 MiB to 256 MiB against a 512 MiB one;
// about a second.
double EffectiveCacheBytes() {
  auto read_gbps = [](size_t bytes) {
    std::vector<uint64_t> buffer(bytes / 8, 1);
    uint64_t sum = 0;
    double best = 0;
    for (int pass = 0; pass < 4; ++pass) {  // the first pass brings it in
      const auto t0 = std::chrono::steady_clock::now();
      for (uint64_t v : buffer) sum += v;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (pass > 0 && s > 0) best = std::max(best, static_cast<double>(bytes) / s * 1e-9);
    }
    volatile uint64_t sink = sum;  // the reads must happen
    (void)sink;
    return best;
  };
  const double memory = read_gbps(size_t{512} << 20);
  double cache = 0;
  for (size_t mib = 1; mib <= 256; mib *= 2)
    if (read_gbps(mib << 20) > 1.5 * memory) cache = static_cast<double>(mib << 20);
  return cache;
}

std::pair<double, double> FitLogLine(const std::vector<std::pair<double, double>>& points) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(points.size());
  for (const auto& [x, y] : points) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double den = n * sxx - sx * sx;
  const double c1 = den != 0 ? (n * sxy - sx * sy) / den : 0;
  return {(sy - c1 * sx) / n, c1};
}

bool Wanted(const CalibrationOptions& options, const std::string& cls) {
  if (options.only.empty()) return true;
  for (const std::string& prefix : options.only)
    if (cls.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace

std::string ProbedClassOf(const std::string& op) {
  const std::optional<OpKind> kind = ops::ParseOpKind(op);
  if (!kind) return "";
  const std::string shared = SharedClass(*kind);
  if (!shared.empty()) return shared;
  // Build the smallest bytes probe on the reference device to see that one exists.
  static const MLContext context = ML::createContext({.device = MLDeviceType::kReference});
  ProbeGraph g(context);
  return !BuildBytesOp(g, *kind, 4096, 16).isNull() ? "bytes." + op : "";
}

Profile Calibrate(const CalibrationOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  MLContextOptions co;
  co.device = options.device;
  co.numThreads = options.threads;
  MLContext context = ML::createContext(co);
  const std::string device = context.deviceName();
  // The description a context's model matches its profile by (api/context.cc).
  const std::string machine = MachineKey(context.impl()->device().description());
  const unsigned threads = options.threads ? options.threads : static_cast<unsigned>(scheduler::CpuThreadCount());
  Profile profile = DefaultProfile(device, machine, threads);
  profile.engine_version = ML::version();
  profile.calibrated = true;
  profile.step_ms = 0;  // the grids' smallest points carry each step's overhead

  TimingOptions timing;
  timing.threads = 0;  // a step's threads are not busy all the time (small steps); no CPU-time check
  timing.min_seconds = options.quick ? 0.002 : 0.01;
  timing.min_samples = options.quick ? 2 : 3;
  timing.max_samples = options.quick ? 3 : 15;
  timing.max_seconds = options.quick ? 0.1 : 0.3;

  std::vector<Probe> probes = ComputeProbes();
  for (Probe& p : BytesProbes()) probes.push_back(std::move(p));
  std::erase_if(probes, [&](const Probe& p) { return !Wanted(options, p.cls); });
  if (options.quick)
    for (Probe& p : probes)
      for (auto& axis : p.axes)
        if (axis.size() > 2) axis = {axis.front(), axis.back()};
  size_t total = 0, done = 0;
  for (const Probe& p : probes) {
    size_t n = 1;
    for (const auto& axis : p.axes) n *= axis.size();
    total += n;
  }
  total += 1 + 42;  // the dispatch overhead, the polyfill's points

  for (const Probe& probe : probes) {
    Grid grid;
    for (const auto& axis : probe.axes) {
      std::vector<double> a;
      for (double v : axis) a.push_back(std::log2(v));
      grid.axes.push_back(a);
    }
    grid.ln_ns.assign(grid.points(), std::numeric_limits<double>::quiet_NaN());
    bool any = false;
    for (size_t flat = 0; flat < grid.points(); ++flat) {
      std::vector<double> point(probe.axes.size());
      for (size_t i = probe.axes.size(), rest = flat; i-- > 0;) {
        point[i] = probe.axes[i][rest % probe.axes[i].size()];
        rest /= probe.axes[i].size();
      }
      try {
        ProbeGraph g(context);
        MLOperand out;
        if (probe.build(g, point, out)) {
          // (a ".cold" class times the steps of its plain class)
          ProbeRun run(context, g, out, ClassSteps(probe.cold ? FallbackClass(probe.cls) : probe.cls));
          if (run.found()) {
            TimingOptions cold_timing = timing;
            cold_timing.min_samples = std::max(timing.min_samples, 5);
            const Timing t = Measure(
                [&] {
                  if (probe.cold) FlushCaches();
                  return run.Run();
                },
                probe.cold ? cold_timing : timing);
            // Cold samples vary by 2x between runs (how much of the
            // flushed data the memory system still had in flight); their
            // fastest is the steady streaming a model's layers see.
            const double ms = probe.cold ? t.min_ms : t.median_ms;
            grid.ln_ns[flat] = std::log(std::max(ms, 1e-6) * 1e6 / run.work());
            // The smallest shape's time is the class's floor (its fixed
            // costs); a cold class has none (its shapes are all large).
            if (flat == 0 && !probe.cold) grid.floor_ms = t.median_ms;
            any = true;
          }
        }
      } catch (const MLException& e) {
        // A probe the device does not run (a data type it lacks): the class
        // keeps the default's rate.
        std::fprintf(stderr, "webnn calibrate: %s: %s: %s\n", probe.cls.c_str(), e.name(), e.what());
      }
      if (options.progress) options.progress(++done, total, probe.cls);
    }
    if (!any) continue;
    FillUnmeasured(grid);
    profile.grids[probe.cls] = std::move(grid);
  }
  // The generic byte rate, for ops without a class of their own: add's.
  if (profile.grids.count("bytes.add")) profile.grids["bytes"] = profile.grids["bytes.add"];

  // What streaming constants cost (cost_model.h): memory bandwidth at these
  // threads, and the cache they must exceed, as measured.
  profile.dram_gbps = MeasureMemoryBandwidthGBps(threads);
  profile.llc_bytes = EffectiveCacheBytes();

  // A dispatch's cost beyond its steps: a one-element add, by wall clock
  // against its step's time.
  {
    ProbeGraph g(context);
    MLOperand out = g.b().add(g.Input({1}), g.Input({1}));
    ProbeRun run(context, g, out, ClassSteps("bytes.add"));
    const Sample candidates[] = {[&] {
                                   run.Dispatch();
                                   return std::numeric_limits<double>::quiet_NaN();
                                 },
                                 [&] { return run.Run(); }};
    TimingOptions t = timing;
    t.min_samples = 20;
    t.max_samples = 200;
    const std::vector<Timing> r = MeasureInterleaved(candidates, t);
    profile.dispatch_ms = std::max(0.0, r[0].median_ms - r[1].median_ms);
    if (options.progress) options.progress(++done, total, "dispatch");
  }

  // The DAOP polyfill's baseline: 7 ops at 6 sizes, one log-log line each
  // over the first input's elements (its time: the op's step).
  for (const char* op : {"conv2d", "add", "mul", "relu", "sigmoid", "clamp", "averagePool2d"}) {
    std::vector<std::pair<double, double>> points;
    for (int i = 0; i < 6; ++i) {
      const uint32_t side = 4u << i;  // conv2d and pool inputs [1, 16, side, side]
      const uint32_t n = 1024u << (2 * i);
      ProbeGraph g(context);
      const std::string name = op;
      MLOperand out;
      double elements = n;
      if (name == "conv2d" || name == "averagePool2d") {
        MLOperand x = g.Input({1, 16, side, side});
        elements = 16.0 * side * side;
        if (name == "conv2d") {
          MLConv2dOptions o;
          o.padding = Dims{1, 1, 1, 1};
          out = g.b().conv2d(x, g.Const({16, 16, 3, 3}), o);
        } else {
          MLPool2dOptions o;
          o.windowDimensions = Dims{3, 3};
          o.padding = Dims{1, 1, 1, 1};
          out = g.b().averagePool2d(x, o);
        }
      } else {
        out = BuildBytesOp(g, *ops::ParseOpKind(name), n, 1);
      }
      const std::string cls = name == "conv2d" || name == "averagePool2d" ? name : "bytes." + name;
      ProbeRun run(context, g, out, ClassSteps(cls));
      const Timing t = Measure([&] { return run.Run(); }, timing);
      points.push_back({std::log(elements), std::log(std::max(t.median_ms, 1e-6))});
      if (options.progress) options.progress(++done, total, std::string("polyfill ") + op);
    }
    profile.polyfill_lines[op] = FitLogLine(points);
  }
  profile.calibration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return profile;
}

}  // namespace webnn::qos
