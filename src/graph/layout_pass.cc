#include "graph/layout_pass.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string_view>
#include <unordered_map>

#include "ops/concat.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/normalization.h"
#include "ops/pool2d.h"
#include "ops/reduce.h"
#include "ops/resample2d.h"
#include "ops/transpose.h"

namespace webnn::graph {

namespace {

using Perm = std::vector<uint32_t>;
const Perm kToNhwc = {0, 2, 3, 1};    // nhwc = transpose(nchw, kToNhwc)
const Perm kFromNhwc = {0, 3, 1, 2};  // its inverse; also: logical axis a is nhwc axis kFromNhwc[a]

bool IsIdentity(const Perm& p) {
  for (uint32_t i = 0; i < p.size(); ++i)
    if (p[i] != i) return false;
  return true;
}

// transpose(x, perm)'s shape: out[i] = in[perm[i]].
OperandDesc Permuted(const OperandDesc& d, const Perm& perm) {
  OperandDesc out{d.type, {}};
  for (uint32_t a : perm) out.shape.push_back(d.shape.at(a));
  return out;
}

std::shared_ptr<const ops::OpAttrs> TransposeTo(const Perm& perm) {
  auto attrs = std::make_shared<ops::TransposeAttrs>();
  attrs->permutation = perm;
  return attrs;
}

template <typename T>
std::shared_ptr<T> CopyAttrs(const Node& n) {
  return std::make_shared<T>(static_cast<const T&>(*n.attrs));
}

// Input channels up to which a conv whose input would need a transpose to
// nhwc stays nchw (Convert).
constexpr uint64_t kStemChannels = 3;

// How a node relates to layouts.
enum class Kind {
  kOther,        // needs its inputs in their logical layout
  kConv,         // converted whenever it qualifies
  kFollower,     // converted when its (first) input is native nhwc
  kElementwise,  // every input broadcast to the output: converted when one input is native
  kConcat,
  kTranspose,
};

Kind Classify(ops::OpKind op) {
  switch (op) {
    case ops::OpKind::conv2d:
    case ops::OpKind::convTranspose2d: return Kind::kConv;
    case ops::OpKind::averagePool2d:
    case ops::OpKind::l2Pool2d:
    case ops::OpKind::maxPool2d:
    case ops::OpKind::resample2d:
    case ops::OpKind::batchNormalization:
    case ops::OpKind::instanceNormalization:
    case ops::OpKind::reduceL1:
    case ops::OpKind::reduceL2:
    case ops::OpKind::reduceLogSum:
    case ops::OpKind::reduceLogSumExp:
    case ops::OpKind::reduceMax:
    case ops::OpKind::reduceMean:
    case ops::OpKind::reduceMin:
    case ops::OpKind::reduceProduct:
    case ops::OpKind::reduceSum:
    case ops::OpKind::reduceSumSquare: return Kind::kFollower;
    case ops::OpKind::concat: return Kind::kConcat;
    case ops::OpKind::transpose: return Kind::kTranspose;
    default: break;
  }
  static const std::set<std::string_view> kElementwiseFamilies = {
      "ElementwiseBinary", "Comparison", "Logical", "ElementwiseUnary", "Activation", "Prelu", "Cast", "Where"};
  return kElementwiseFamilies.count(ops::OpFamily(op)) ? Kind::kElementwise : Kind::kOther;
}

class NhwcRewriter {
 public:
  NhwcRewriter(Graph& graph, const std::map<std::string, OperandId>& outputs) : g_(graph) {
    for (const auto& [name, id] : outputs) outputs_.push_back(id);
  }

  int Run() {
    for (uint32_t n : g_.NodesReaching(outputs_)) {
      const Node node = g_.nodes()[n];  // a copy: appending nodes may move the vector
      if (Convert(node)) continue;
      for (OperandId in : node.inputs) NeedLogical(in);
    }
    for (OperandId id : outputs_) NeedLogical(id);
    return converted_;
  }

 private:
  bool IsNative(OperandId id) const { return id != kNoOperand && native_.count(id); }
  bool IsOutput(OperandId id) const { return std::count(outputs_.begin(), outputs_.end(), id) > 0; }

  // Whether `id`'s nhwc form costs no transpose: it exists (a native operand,
  // or one already transposed), or `id` is a transpose of an nhwc operand.
  bool NhwcIsFree(OperandId id) const {
    if (IsNative(id) || nhwc_.count(id)) return true;
    const Operand& o = g_.operand(id);
    return o.producer >= 0 && g_.nodes()[o.producer].op == ops::OpKind::transpose &&
           IsIdentity(NhwcOfTransposed(g_.nodes()[o.producer]));
  }

  // For the output of transpose node `t` (t = transpose(src, q)): the
  // permutation of src that gives that output in nhwc (nhwc axis j is src
  // axis q[kToNhwc[j]]).
  Perm NhwcOfTransposed(const Node& t) const {
    const Perm q = ops::ResolvePermutation(static_cast<const ops::TransposeAttrs&>(*t.attrs), 4);
    Perm r;
    for (uint32_t a : kToNhwc) r.push_back(q[a]);
    return r;
  }

  // The operand holding `id`'s value in nhwc, made on first use.
  OperandId Nhwc(OperandId id) {
    if (auto it = nhwc_.find(id); it != nhwc_.end()) return it->second;
    const Operand& o = g_.operand(id);
    OperandId result;
    if (o.kind == Operand::Kind::kConstant && o.constant->host && BitsPerElement(o.desc.type) >= 8) {
      result = PermutedConstant(id);
    } else if (o.producer >= 0 && g_.nodes()[o.producer].op == ops::OpKind::transpose) {
      const Node& t = g_.nodes()[o.producer];
      const OperandId src = t.inputs[0];
      const Perm r = NhwcOfTransposed(t);
      result = IsIdentity(r) ? src : AppendTranspose(src, r);
    } else {
      result = AppendTranspose(id, kToNhwc);
    }
    nhwc_[id] = result;
    return result;
  }

  // Makes the logical operand `id` exist again if it is native and only its
  // nhwc form is computed: a transpose back now produces it.
  void NeedLogical(OperandId id) {
    if (!IsNative(id) || materialized_.count(id)) return;
    const OperandId tmp = AppendTranspose(nhwc_.at(id), kFromNhwc);
    g_.SetNodeOutput(static_cast<uint32_t>(g_.operand(tmp).producer), 0, id);
    materialized_.insert(id);
  }

  OperandId AppendTranspose(OperandId x, const Perm& perm) {
    return g_.AppendNode(ops::OpKind::transpose, "", {x}, TransposeTo(perm), {Permuted(g_.operand(x).desc, perm)})[0];
  }

  // A host constant broadcast against rank-4 operands, padded to rank 4 and
  // transposed to nhwc on the host.
  OperandId PermutedConstant(OperandId id) {
    const Operand& o = g_.operand(id);
    OperandDesc padded{o.desc.type, core::Shape(4 - o.desc.rank(), core::Dim::Static(1))};
    padded.shape.insert(padded.shape.end(), o.desc.shape.begin(), o.desc.shape.end());
    const std::vector<uint32_t> in = core::Sizes(padded.shape);
    const OperandDesc out_desc = Permuted(padded, kToNhwc);
    const std::vector<uint32_t> out = core::Sizes(out_desc.shape);
    const std::vector<uint64_t> in_strides = core::RowMajorStrides(in);
    const size_t element = static_cast<size_t>(BitsPerElement(o.desc.type) / 8);
    const memory::ConstantBytes& src = *o.constant->host;
    std::vector<std::byte> bytes(src.size());
    size_t k = 0;
    for (uint32_t i0 = 0; i0 < out[0]; ++i0)
      for (uint32_t i1 = 0; i1 < out[1]; ++i1)
        for (uint32_t i2 = 0; i2 < out[2]; ++i2)
          for (uint32_t i3 = 0; i3 < out[3]; ++i3, ++k) {
            const uint64_t s = i0 * in_strides[kToNhwc[0]] + i1 * in_strides[kToNhwc[1]] +
                               i2 * in_strides[kToNhwc[2]] + i3 * in_strides[kToNhwc[3]];
            std::memcpy(bytes.data() + k * element, src.data() + s * element, element);
          }
    return g_.AddHostConstant(out_desc, std::move(bytes));
  }

  // An input of an element-wise op or concat whose output is rank 4 and runs
  // in nhwc: the operand to read instead, or kNoOperand if there is none.
  OperandId BroadcastInput(OperandId id) {
    if (IsNative(id)) return nhwc_.at(id);
    const Operand& o = g_.operand(id);
    bool single = o.desc.rank() <= 4;
    for (const core::Dim& d : o.desc.shape) single = single && d == core::Dim::Static(1);
    if (single) return id;  // one element: the same in every layout
    if (o.kind == Operand::Kind::kConstant && o.constant->host && o.desc.rank() <= 4 &&
        BitsPerElement(o.desc.type) >= 8)
      return Nhwc(id);
    if (o.desc.rank() == 4) return Nhwc(id);
    return kNoOperand;
  }

  // The node's nhwc form (new inputs and attributes), or false to leave it.
  bool Convert(const Node& node) {
    if (node.outputs.size() != 1) return false;
    const OperandDesc out = g_.operand(node.outputs[0]).desc;  // a copy: appending operands may move it
    std::vector<OperandId> inputs = node.inputs;
    std::shared_ptr<const ops::OpAttrs> attrs = node.attrs;
    switch (Classify(node.op)) {
      case Kind::kOther: return false;
      case Kind::kConv: {
        const Operand& x = g_.operand(node.inputs[0]);
        const Operand& filter = g_.operand(node.inputs[1]);
        if (x.desc.rank() != 4 || !IsFloatingPoint(x.desc.type) || filter.kind != Operand::Kind::kConstant) return false;
        if (node.op == ops::OpKind::conv2d) {
          auto a = CopyAttrs<ops::Conv2dAttrs>(node);
          if (a->inputLayout != MLInputOperandLayout::kNchw) return false;
          a->inputLayout = MLInputOperandLayout::kNhwc;
          attrs = a;
        } else {
          auto a = CopyAttrs<ops::ConvTranspose2dAttrs>(node);
          if (a->inputLayout != MLInputOperandLayout::kNchw) return false;
          a->inputLayout = MLInputOperandLayout::kNhwc;
          attrs = a;
        }
        // A stem (at most 3 input channels) whose input would need a
        // transpose stays nchw: its nchw kernel runs along pixels, the nhwc
        // one along 3 of 16 channel lanes, and its wider output costs less to
        // transpose than its input costs to run in nhwc. PP-OCR det's 3 -> 16
        // 3x3 s2 at 640x640, 1 thread (Xeon model 207): input transpose 0.35
        // + nhwc conv 2.02 ms, against nchw conv 1.18 + output transpose
        // 0.49 ms (in the graph's profile 2.74 against 2.25 ms).
        const core::Dim channels = g_.operand(node.inputs[0]).desc.shape[1];
        if (channels.IsStatic() && channels.size <= kStemChannels && !NhwcIsFree(node.inputs[0])) return false;
        inputs[0] = Nhwc(node.inputs[0]);
        break;
      }
      case Kind::kFollower: {
        if (!IsNative(node.inputs[0])) return false;
        if (!FollowerAttrs(node, attrs)) return false;
        inputs[0] = nhwc_.at(node.inputs[0]);
        break;
      }
      case Kind::kElementwise:
      case Kind::kConcat: {
        if (out.rank() != 4 || std::none_of(inputs.begin(), inputs.end(), [&](OperandId id) { return IsNative(id); }))
          return false;
        for (OperandId& in : inputs) {
          if (in == kNoOperand) continue;
          if (node.op == ops::OpKind::concat && g_.operand(in).desc.rank() != 4) return false;
          in = BroadcastInput(in);
          if (in == kNoOperand) return false;
        }
        if (node.op == ops::OpKind::concat) {
          auto a = CopyAttrs<ops::ConcatAttrs>(node);
          a->axis = kFromNhwc.at(a->axis);
          attrs = a;
        }
        break;
      }
      case Kind::kTranspose: {
        if (!IsNative(node.inputs[0])) return false;
        // out axis i = logical axis q[i] = nhwc axis kFromNhwc[q[i]].
        const Perm q = ops::ResolvePermutation(static_cast<const ops::TransposeAttrs&>(*node.attrs), 4);
        Perm r;
        for (uint32_t a : q) r.push_back(kFromNhwc[a]);
        const OperandId phys = nhwc_.at(node.inputs[0]);
        const OperandId y = node.outputs[0];
        if (IsIdentity(r) && !IsOutput(y)) {
          g_.ReplaceUses(y, phys);
        } else if (IsIdentity(r) && !IsOutput(phys)) {
          // A graph output: the node computing `phys` writes it directly.
          const Operand p = g_.operand(phys);
          g_.ReplaceUses(phys, y);
          g_.SetNodeOutput(static_cast<uint32_t>(p.producer), p.producer_output, y);
          for (auto& [logical, nhwc] : nhwc_)
            if (nhwc == phys) nhwc = y;
        } else {
          const OperandId tmp = AppendTranspose(phys, r);
          g_.SetNodeOutput(static_cast<uint32_t>(g_.operand(tmp).producer), 0, y);
        }
        return true;
      }
    }
    // Inputs read as they are (filters, biases, statistics) must be logical.
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i] == node.inputs[i]) NeedLogical(inputs[i]);
    const OperandId y = g_.AppendNode(node.op, node.label, inputs, attrs, {Permuted(out, kToNhwc)})[0];
    native_.insert(node.outputs[0]);
    nhwc_[node.outputs[0]] = y;
    ++converted_;
    return true;
  }

  // Attributes of a pooling / resample / normalization / reduction node run
  // on nhwc data; false when the node does not qualify.
  bool FollowerAttrs(const Node& node, std::shared_ptr<const ops::OpAttrs>& attrs) {
    if (g_.operand(node.inputs[0]).desc.rank() != 4) return false;
    switch (node.op) {
      case ops::OpKind::averagePool2d:
      case ops::OpKind::l2Pool2d:
      case ops::OpKind::maxPool2d: {
        auto a = CopyAttrs<ops::Pool2dAttrs>(node);
        if (a->layout != MLInputOperandLayout::kNchw) return false;
        a->layout = MLInputOperandLayout::kNhwc;
        attrs = a;
        return true;
      }
      case ops::OpKind::resample2d: {
        auto a = CopyAttrs<ops::Resample2dAttrs>(node);
        for (uint32_t& axis : a->axes) axis = kFromNhwc.at(axis);
        attrs = a;
        return true;
      }
      case ops::OpKind::batchNormalization: {
        auto a = CopyAttrs<ops::BatchNormalizationAttrs>(node);
        a->axis = kFromNhwc.at(a->axis);
        attrs = a;
        return true;
      }
      case ops::OpKind::instanceNormalization: {
        auto a = CopyAttrs<ops::InstanceNormalizationAttrs>(node);
        if (a->layout != MLInputOperandLayout::kNchw) return false;
        a->layout = MLInputOperandLayout::kNhwc;
        attrs = a;
        return true;
      }
      default: {  // reductions
        auto a = CopyAttrs<ops::ReduceAttrs>(node);
        if (!a->keepDimensions) return false;
        std::vector<uint32_t> axes = ops::ResolveReduceAxes(*a, 4);
        for (uint32_t& axis : axes) axis = kFromNhwc.at(axis);
        std::sort(axes.begin(), axes.end());
        a->axes = axes;
        attrs = a;
        return true;
      }
    }
  }

  Graph& g_;
  std::vector<OperandId> outputs_;
  std::set<OperandId> native_;        // logical operands whose producer now runs in nhwc
  std::set<OperandId> materialized_;  // native operands also computed in their logical layout
  std::unordered_map<OperandId, OperandId> nhwc_;  // logical operand -> its value in nhwc
  int converted_ = 0;
};

}  // namespace

int ConvertToNhwc(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  return NhwcRewriter(graph, outputs).Run();
}

}  // namespace webnn::graph
