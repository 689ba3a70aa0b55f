#include "io/wpt_tolerance.h"

#include <sstream>

#include "core/strings.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/gemm.h"
#include "ops/pool2d.h"
#include "ops/reduce.h"
#include "ops/resample2d.h"
#include "ops/softmax.h"
#include "webnn/webnn.h"

namespace webnn::io {

namespace {

using ops::OpKind;

uint64_t ReducedCount(const ops::ReduceAttrs& attrs, const std::vector<uint32_t>& input) {
  uint64_t n = 1;
  for (uint32_t axis : ops::ResolveReduceAxes(attrs, static_cast<uint32_t>(input.size()))) n *= input[axis];
  return n;
}

// Values that depend on shapes and options: the formulas of WPT's utils.js
// (getConv2dPrecisionTolerance, getGemmPrecisionTolerance, ...).
uint64_t ShapedUlp(const graph::Node& node, const std::vector<std::vector<uint32_t>>& shapes, bool f16) {
  auto in = [&](size_t i) -> const std::vector<uint32_t>& { return shapes.at(node.inputs.at(i)); };
  switch (node.op) {
    case OpKind::conv2d: {
      const auto g = ops::ComputeConv2dGeometry(static_cast<const ops::Conv2dAttrs&>(*node.attrs), in(0), in(1));
      return 2ull * g.kernel_h * g.kernel_w * (g.in_channels / g.groups);
    }
    case OpKind::convTranspose2d: {
      const auto g = ops::ComputeConvTranspose2dGeometry(static_cast<const ops::ConvTranspose2dAttrs&>(*node.attrs),
                                                         in(0), in(1));
      return 2ull * g.kernel_h * g.kernel_w * (g.in_channels / g.groups);
    }
    case OpKind::matmul: return 2ull * in(0).back();
    case OpKind::gemm: {
      const auto& a = static_cast<const ops::GemmAttrs&>(*node.attrs);
      uint64_t ulp = 2ull * (a.aTranspose ? in(0)[0] : in(0)[1]);
      if (a.alpha != 1.0) ++ulp;
      const bool has_c = node.inputs.size() > 2 && node.inputs[2] != graph::kNoOperand;
      if (has_c && a.beta != 0.0) ulp += a.beta != 1.0 ? 2 : 1;
      return ulp;
    }
    case OpKind::softmax: return 3ull * in(0)[static_cast<const ops::SoftmaxAttrs&>(*node.attrs).axis] + 3;
    case OpKind::averagePool2d:
    case OpKind::l2Pool2d: {
      const auto g = ops::ComputePool2dGeometry(static_cast<const ops::Pool2dAttrs&>(*node.attrs), in(0),
                                                shapes.at(node.outputs.at(0)));
      return uint64_t{g.window_h} * g.window_w + 2;
    }
    case OpKind::reduceL1:
    case OpKind::reduceProduct:
    case OpKind::reduceSum:
    case OpKind::reduceL2:
    case OpKind::reduceMean:
    case OpKind::reduceLogSum:
    case OpKind::reduceLogSumExp:
    case OpKind::reduceSumSquare: {
      const uint64_t n = ReducedCount(static_cast<const ops::ReduceAttrs&>(*node.attrs), in(0));
      switch (node.op) {
        case OpKind::reduceL2: return 2 * n + 2;
        case OpKind::reduceMean: return n + 2;
        case OpKind::reduceLogSum: return n + 18;
        case OpKind::reduceLogSumExp: return 2 * n + 18;
        case OpKind::reduceSumSquare: return 2 * n;
        default: return n;
      }
    }
    case OpKind::resample2d:
      return static_cast<const ops::Resample2dAttrs&>(*node.attrs).mode == MLInterpolationMode::kLinear ? (f16 ? 10 : 84)
                                                                                                          : 0;
    default: return 0;
  }
}

}  // namespace

Tolerance WptOpTolerance(const graph::Graph&, const graph::Node& node,
                         const std::vector<std::vector<uint32_t>>& shapes, MLOperandDataType type) {
  const bool f16 = type == MLOperandDataType::kFloat16;
  if (!IsFloatingPoint(type)) {
    // Integer arithmetic is exact; quantizeLinear rounds a float to an integer.
    return {node.op == OpKind::quantizeLinear ? 1u : 0u, 0};
  }
  switch (node.op) {
    // Exact: data movement, selection, comparisons, sign and rounding ops.
    case OpKind::add:
    case OpKind::sub:
    case OpKind::mul: return {1, 0};
    case OpKind::div:
    case OpKind::reciprocal: return {2, 0};
    case OpKind::pow: return {f16 ? 2u : 32u, 0};
    case OpKind::exp: return {f16 ? 1u : 32u, 0};
    case OpKind::log: return {8, 0};
    case OpKind::sqrt: return {1, 0};
    case OpKind::cos:
    case OpKind::sin: return {0, f16 ? 1.0 / 128 : 1.0 / 1024};
    case OpKind::tan:
    case OpKind::erf: return {0, f16 ? 1.0 / 512 : 1.0 / 1024};
    case OpKind::tanh: return {16, 0};
    case OpKind::sigmoid: return {f16 ? 10u : 34u, 0};
    case OpKind::elu:
    case OpKind::gelu:
    case OpKind::softplus: return {18, 0};
    case OpKind::softsign: return {3, 0};
    case OpKind::hardSigmoid:
    case OpKind::linear: return {2, 0};
    case OpKind::hardSwish: return {4, 0};
    case OpKind::leakyRelu: return {f16 ? 2u : 1u, 0};
    case OpKind::prelu: return {1, 0};
    case OpKind::cast:
    case OpKind::dequantizeLinear:
    case OpKind::quantizeLinear:
    case OpKind::lstmCell: return {1, 0};
    case OpKind::cumulativeSum:
    case OpKind::gruCell: return {3, 0};
    case OpKind::batchNormalization:
    case OpKind::gru: return {6, 0};
    case OpKind::instanceNormalization: return {f16 ? 8400u : 840u, 0};
    case OpKind::layerNormalization: return {f16 ? 30u : 14u, 0};
    case OpKind::lstm: return {f16 ? 10u : 3u, 0};
    default: return {ShapedUlp(node, shapes, f16), 0};
  }
}

ConeTolerance WptConeTolerance(const graph::Graph& ir, graph::OperandId output,
                               const std::vector<std::vector<uint32_t>>& shapes) {
  const MLOperandDataType type = ir.operand(output).desc.type;
  ConeTolerance cone;
  for (uint32_t n : ir.NodesReaching({output})) {
    const graph::Node& node = ir.nodes()[n];
    if (ops::IsInternalOp(node.op))
      throw NotSupportedError(core::StrCat("tolerance: WPT has none for the internal op ", ops::OpName(node.op),
                                           " (compute the truth on a context without graph passes)"));
    ++cone.ops;
    const Tolerance t = WptOpTolerance(ir, node, shapes, type);
    cone.total.ulp += t.ulp;
    cone.total.atol += t.atol;
    if (t.ulp == 0 && t.atol == 0) continue;
    std::ostringstream term;
    term << ops::OpName(node.op) << (node.label.empty() ? "" : " '" + node.label + "'") << " ";
    if (t.ulp) term << t.ulp << " ULP";
    if (t.atol) term << (t.ulp ? " + " : "") << "atol " << t.atol;
    cone.terms.push_back(term.str());
  }
  return cone;
}

}  // namespace webnn::io
