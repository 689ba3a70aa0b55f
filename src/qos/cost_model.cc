#include "qos/cost_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/shape.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/fused_elementwise.h"
#include "ops/gemm.h"
#include "ops/gru.h"
#include "ops/lstm.h"
#include "ops/pool2d.h"
#include "ops/reduce.h"
#include "ops/step_cost.h"

namespace webnn::qos {

namespace {

double L2(double v) { return std::log2(std::max(v, 1.0)); }

std::string TypeSuffix(MLOperandDataType type) {
  return type == MLOperandDataType::kFloat32 ? "" : "." + std::string(ToString(type));
}

}  // namespace

StepKey KeyOf(const ops::Program& program, const ops::ProgramStep& step,
              std::span<const std::vector<uint32_t>> shapes) {
  using ops::OpKind;
  StepKey k;
  const ops::StepCost cost = ops::CostOf(program, step, shapes);
  auto shape = [&](size_t i) -> const std::vector<uint32_t>& {
    static const std::vector<uint32_t> kNone;
    return i < step.inputs.size() && step.inputs[i] >= 0 ? shapes[step.inputs[i]] : kNone;
  };
  auto elements = [&](const std::vector<uint32_t>& s) { return static_cast<double>(core::ElementCount(s)); };
  const std::vector<uint32_t>& out = step.outputs.empty() ? shape(99) : shapes[step.outputs[0]];
  const MLOperandDataType type =
      step.inputs.empty() || step.inputs[0] < 0 ? MLOperandDataType::kFloat32
                                                : program.values[step.inputs[0]].desc.type;
  const bool b_constant = step.inputs.size() > 1 && step.inputs[1] >= 0 &&
                          program.values[step.inputs[1]].kind == ops::ProgramValue::Kind::kConstant;
  // Products, convolutions and recurrent networks are measured in flops, the
  // rest in bytes.
  switch (step.op) {
    case OpKind::matmul:
    case OpKind::gemm:
    case OpKind::quantizedMatmul: {
      const std::vector<uint32_t>& a = shape(0);
      if (a.empty() || out.empty()) break;
      double kdim = a.back();
      if (step.op == OpKind::gemm && ops::AttrsAs<ops::GemmAttrs>(*step.attrs).aTranspose) kdim = a[0];
      const double n = out.back();
      const double m = elements(out) / std::max(n, 1.0);
      k.cls = step.op == OpKind::quantizedMatmul
                  ? "quantizedMatmul"
                  : std::string(b_constant ? "matmul" : "matmul.dynamic") + TypeSuffix(type);
      k.x = {L2(m), L2(kdim), L2(n)};
      k.work = cost.flops;
      return k;
    }
    case OpKind::conv2d: {
      const auto& attrs = ops::AttrsAs<ops::Conv2dAttrs>(*step.attrs);
      if (shape(0).size() != 4 || shape(1).size() != 4) break;
      const ops::Conv2dGeometry g = ops::ComputeConv2dGeometry(attrs, shape(0), shape(1));
      const double cin = g.in_channels / std::max(g.groups, 1u), cout = g.out_channels / std::max(g.groups, 1u);
      const double taps = static_cast<double>(g.kernel_h) * g.kernel_w;
      const double pixels = static_cast<double>(g.batch) * g.out_h * g.out_w;
      const bool strided = g.stride_h > 1 || g.stride_w > 1;
      const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
      const std::string variant = std::string(strided ? ".strided" : "") + (nhwc ? ".nhwc" : "") + TypeSuffix(type);
      if (cin == 1 && cout == 1 && g.groups > 1) {
        k.cls = "conv2d.depthwise" + variant;
        k.x = {L2(g.groups), L2(taps), L2(pixels), L2(g.out_w)};
      } else {
        k.cls = "conv2d" + variant;
        k.x = {L2(cin), L2(cout), L2(taps), L2(pixels)};
      }
      k.work = cost.flops;
      return k;
    }
    case OpKind::convTranspose2d: {
      const auto& attrs = ops::AttrsAs<ops::ConvTranspose2dAttrs>(*step.attrs);
      if (shape(0).size() != 4 || shape(1).size() != 4) break;
      const ops::ConvTranspose2dGeometry g = ops::ComputeConvTranspose2dGeometry(attrs, shape(0), shape(1));
      const double groups = std::max(g.groups, 1u);
      k.cls = "convTranspose2d" + TypeSuffix(type);
      k.x = {L2(g.in_channels / groups), L2(g.out_channels / groups), L2(double(g.kernel_h) * g.kernel_w),
             L2(double(g.batch) * g.in_h * g.in_w)};
      k.work = cost.flops;
      return k;
    }
    case OpKind::averagePool2d:
    case OpKind::maxPool2d:
    case OpKind::l2Pool2d: {
      if (shape(0).size() != 4) break;
      const ops::Pool2dGeometry g =
          ops::ComputePool2dGeometry(ops::AttrsAs<ops::Pool2dAttrs>(*step.attrs), shape(0), out);
      const double window = static_cast<double>(g.window_h) * g.window_w;
      k.cls = std::string(ops::OpName(step.op)) + TypeSuffix(type);
      k.x = {L2(window), L2(elements(out))};
      k.work = window * elements(out);  // window operations
      return k;
    }
    case OpKind::gru:
    case OpKind::gruCell:
    case OpKind::lstm:
    case OpKind::lstmCell: {
      const bool is_gru = step.op == OpKind::gru || step.op == OpKind::gruCell;
      const uint32_t hidden = is_gru ? ops::AttrsAs<ops::GruAttrs>(*step.attrs).hiddenSize
                                     : ops::AttrsAs<ops::LstmAttrs>(*step.attrs).hiddenSize;
      // Per step and direction: the gates' products with the input and the
      // hidden state (weights [dirs, gates x hidden, input], recurrent
      // weights [dirs, gates x hidden, hidden]), 2 flops per multiply-add.
      const std::vector<uint32_t>& x = shape(0);
      const bool cell = step.op == OpKind::gruCell || step.op == OpKind::lstmCell;
      const double steps = cell || x.size() < 3 ? 1 : x[0];
      const double batch = x.size() >= 2 ? x[x.size() - 2] : 1;
      const double w = elements(shape(1)) + elements(shape(2));  // all directions
      k.cls = std::string(is_gru ? "gru" : "lstm") + TypeSuffix(type);
      k.x = {L2(hidden), L2(batch)};
      k.work = 2.0 * steps * batch * w;
      return k;
    }
    case OpKind::attention: {
      // The key and value are the unrepeated [B, Hkv, T, D] (GQA).
      const std::vector<uint32_t>& q = shape(0);
      const std::vector<uint32_t>& v = shape(2);
      if (q.size() != 4 || v.size() != 4 || v[1] == 0) break;
      k.cls = "attention" + TypeSuffix(type);
      k.x = {L2(q[2]), L2(v[2]), L2(q[3]), L2(q[1]), L2(static_cast<double>(q[1]) / v[1])};
      k.work = cost.flops;
      return k;
    }
    default: break;
  }
  // Bytes. Reductions also depend on the length they reduce over, and a
  // fused element-wise chain on its length.
  // The coordinate is the largest operand's element count (calibration
  // builds each op's probe to a given one), the work its bytes.
  double largest = 0;
  const bool gather = ops::IsGather(step.op);
  for (const auto* list : {&step.inputs, &step.outputs})
    for (size_t i = 0; i < list->size(); ++i)
      // (a gather's input is not read whole: its indices and output count)
      if ((*list)[i] >= 0 && !(gather && list == &step.inputs && i == 0))
        largest = std::max(largest, elements(shapes[(*list)[i]]));
  k.cls = "bytes." + std::string(ops::OpName(step.op)) + TypeSuffix(type);
  k.work = cost.bytes;
  k.x = {L2(largest)};
  switch (step.op) {
    case OpKind::reduceL1:
    case OpKind::reduceL2:
    case OpKind::reduceLogSum:
    case OpKind::reduceLogSumExp:
    case OpKind::reduceMax:
    case OpKind::reduceMean:
    case OpKind::reduceMin:
    case OpKind::reduceProduct:
    case OpKind::reduceSum:
    case OpKind::reduceSumSquare:
      k.x.push_back(L2(elements(shape(0)) / std::max(elements(out), 1.0)));
      break;
    case OpKind::fusedElementwise:
      k.x.push_back(L2(static_cast<double>(ops::AttrsAs<ops::FusedElementwiseAttrs>(*step.attrs).steps.size())));
      break;
    default: break;
  }
  return k;
}

std::string FallbackClass(const std::string& cls) {
  // Drop the last ".suffix" of a conv/product class (".float16", ".nhwc",
  // ".strided"); an op's byte class goes to "bytes" (the generic rate).
  if (cls.rfind("bytes.", 0) == 0) {
    const size_t dot = cls.rfind('.');
    return dot > 5 ? cls.substr(0, dot) : "bytes";
  }
  const size_t dot = cls.rfind('.');
  if (dot == std::string::npos) return "";
  return cls.substr(0, dot);
}

size_t Grid::points() const {
  size_t n = 1;
  for (const auto& a : axes) n *= a.size();
  return n;
}

double Grid::Interpolate(std::span<const double> x) const {
  const size_t d = axes.size();
  if (d == 0) return ln_ns.empty() ? std::numeric_limits<double>::quiet_NaN() : ln_ns[0];
  // Per axis: the lower index and the weight of the upper one.
  std::vector<size_t> lo(d);
  std::vector<double> t(d);
  for (size_t i = 0; i < d; ++i) {
    const std::vector<double>& a = axes[i];
    const double v = i < x.size() ? x[i] : a.front();
    if (a.size() == 1 || v <= a.front()) {
      lo[i] = 0;
      t[i] = 0;
    } else if (v >= a.back()) {
      lo[i] = a.size() - 2;
      t[i] = 1;
    } else {
      size_t j = std::upper_bound(a.begin(), a.end(), v) - a.begin() - 1;
      lo[i] = j;
      t[i] = (v - a[j]) / (a[j + 1] - a[j]);
    }
  }
  double sum = 0, weight = 0;
  for (size_t corner = 0; corner < (size_t{1} << d); ++corner) {
    size_t index = 0;
    double w = 1;
    for (size_t i = 0; i < d; ++i) {
      const bool up = corner >> i & 1;
      if (axes[i].size() == 1 && up) {
        w = 0;
        break;
      }
      w *= up ? t[i] : 1 - t[i];
      index = index * axes[i].size() + lo[i] + (up ? 1 : 0);
    }
    if (w <= 0 || std::isnan(ln_ns[index])) continue;
    sum += w * ln_ns[index];
    weight += w;
  }
  return weight > 0 ? sum / weight : std::numeric_limits<double>::quiet_NaN();
}

Profile DefaultProfile(const std::string& device, const std::string& machine, unsigned threads) {
  Profile p;
  p.device = device;
  p.machine = machine;
  p.threads = std::max(threads, 1u);
  p.calibrated = false;
  p.dispatch_ms = 0.1;
  p.step_ms = 0.02;
  const double t = p.threads;
  auto constant = [](double ns_per_unit) { return Grid{{}, {std::log(ns_per_unit)}}; };
  const Grid flops = constant(0.1 / t);  // 10 GFLOP/s per thread
  for (const char* cls : {"matmul", "matmul.dynamic", "quantizedMatmul", "conv2d", "conv2d.depthwise",
                          "convTranspose2d", "gru", "lstm", "attention"})
    p.grids[cls] = flops;
  p.grids["bytes"] = constant(0.5 / t);  // 2 GB/s per thread
  for (const char* cls : {"averagePool2d", "maxPool2d", "l2Pool2d"}) p.grids[cls] = constant(0.5 / t);
  return p;
}

void WarmCorrections::Observe(const std::string& cls, double predicted_ms, double measured_ms) {
  if (!(predicted_ms > 0) || !(measured_ms > 0)) return;
  // Older observations fade: each new one weighs as much as the last ~16.
  auto& [sum, weight] = ln_ratio_[cls];
  constexpr double kKeep = 15.0 / 16.0;
  sum = sum * kKeep + measured_ms * std::log(measured_ms / predicted_ms);
  weight = weight * kKeep + measured_ms;
  ++observations_;
}

double WarmCorrections::Factor(const std::string& cls) const {
  auto it = ln_ratio_.find(cls);
  if (it == ln_ratio_.end() || !(it->second.second > 0)) return 1.0;
  return std::exp(it->second.first / it->second.second);
}

Estimate EstimateProgram(const Profile& profile, const ops::Program& program,
                         std::span<const std::vector<uint32_t>> shapes, const WarmCorrections* warm) {
  Estimate e;
  e.ms = profile.dispatch_ms;
  e.steps.reserve(program.steps.size());
  // Constants that do not stay in the cache between dispatches (more of
  // them than half of what calibration measured it holds) stream from
  // memory on every dispatch (an LLM decoder's weights): a class's ".cold"
  // grid answers where there is one, and a step takes at least its
  // constants' bytes over the measured bandwidth. The other probes run on
  // warm caches.
  auto constant_bytes = [&](int32_t v) {
    return v >= 0 && program.values[v].kind == ops::ProgramValue::Kind::kConstant
               ? static_cast<double>(ByteLengthFor(program.values[v].desc.type, core::ElementCount(shapes[v])))
               : 0.0;
  };
  double all_constants = 0;
  for (size_t v = 0; v < program.values.size(); ++v) all_constants += constant_bytes(static_cast<int32_t>(v));
  const bool streaming = profile.dram_gbps > 0 && profile.llc_bytes > 0 && all_constants > 0.5 * profile.llc_bytes;
  for (const ops::ProgramStep& step : program.steps) {
    const StepKey key = KeyOf(program, step, shapes);
    StepEstimate s;
    double ln_ns = std::numeric_limits<double>::quiet_NaN();
    double floor_ms = 0;
    // Streaming, a class's ".cold" grid (calibrated with flushed caches)
    // answers first.
    for (std::string cls = streaming ? key.cls + ".cold" : key.cls; !cls.empty() && std::isnan(ln_ns);
         cls = FallbackClass(cls)) {
      auto it = profile.grids.find(cls);
      if (it == profile.grids.end()) continue;
      // A cold grid covers the bandwidth-bound shapes (few rows): beyond
      // its first axis the step computes more than it streams.
      const bool cold = cls.size() > 5 && cls.compare(cls.size() - 5, 5, ".cold") == 0;
      if (cold && !key.x.empty() && !it->second.axes.empty() && key.x[0] > it->second.axes[0].back()) continue;
      ln_ns = it->second.Interpolate(key.x);
      floor_ms = it->second.floor_ms;
      s.cls = cls;
    }
    // Below the grid's smallest point a step still costs what the smallest
    // measured one did (its fixed overheads), not a rate times less work.
    s.ms = profile.step_ms + (std::isnan(ln_ns) ? 0.0 : std::max(key.work * std::exp(ln_ns) * 1e-6, floor_ms));
    if (streaming) {
      double bytes = 0;
      for (size_t i = ops::IsGather(step.op) ? 1 : 0; i < step.inputs.size(); ++i)
        bytes += constant_bytes(step.inputs[i]);
      s.ms = std::max(s.ms, bytes / (profile.dram_gbps * 1e6));
    }
    if (warm) s.ms *= warm->Factor(key.cls);
    e.ms += s.ms;
    e.steps.push_back(std::move(s));
  }
  return e;
}

double PolyfillEstimateMs(const Profile& profile, const ops::Program& program,
                          std::span<const std::vector<uint32_t>> shapes) {
  double ms = 0.5 + 0.005 * static_cast<double>(program.steps.size());
  for (const ops::ProgramStep& step : program.steps) {
    auto it = profile.polyfill_lines.find(std::string(ops::OpName(step.op)));
    const double n = step.inputs.empty() || step.inputs[0] < 0
                         ? 1.0
                         : static_cast<double>(core::ElementCount(shapes[step.inputs[0]]));
    ms += it == profile.polyfill_lines.end()
              ? 0.1
              : std::exp(it->second.first + it->second.second * std::log(std::max(n, 1.0)));
  }
  return ms;
}

}  // namespace webnn::qos
