#include "test_util.h"

#include <stdexcept>

namespace webnn::test {

std::map<std::string, HostTensor> Run(
    MLDeviceType device, const std::vector<HostTensor>& inputs,
    const std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>& body) {
  MLContext ctx = Context(device);
  MLGraphBuilder builder(ctx);
  std::vector<MLOperand> operands;
  for (size_t i = 0; i < inputs.size(); ++i) {
    MLOperandDescriptor desc{inputs[i].type, {}};
    for (uint32_t d : inputs[i].shape) desc.shape.emplace_back(d);
    operands.push_back(builder.input("in" + std::to_string(i), desc));
  }
  MLNamedOperands outs = body(builder, operands);
  MLGraph graph = builder.build(outs);
  MLNamedTensors in_tensors, out_tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    MLTensor t = ctx.createTensor({inputs[i].type, inputs[i].shape, false, true});
    ctx.writeTensor(t, MLBufferSource(inputs[i].data));
    in_tensors["in" + std::to_string(i)] = t;
  }
  std::map<std::string, HostTensor> result;
  for (const auto& [name, operand] : outs) {
    std::vector<uint32_t> shape;
    for (const MLDimension& d : operand.shape()) shape.push_back(static_cast<uint32_t>(d.size()));
    out_tensors[name] = ctx.createTensor({operand.dataType(), shape, true, false});
    result[name] = HostTensor{operand.dataType(), shape, {}};
  }
  ctx.dispatch(graph, in_tensors, out_tensors);
  for (auto& [name, t] : result) t.data = ctx.readTensor(out_tensors[name]);
  return result;
}

std::string ErrorName(const std::function<void()>& f) {
  try {
    f();
  } catch (const MLException& e) {
    return e.name();
  }
  return "";
}

std::string ErrorMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const MLException& e) {
    return e.what();
  }
  return "";
}

MLOperand ApplyUnaryOp(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const UnaryOpOptions& o) {
  if (op == "abs") return b.abs(x);
  if (op == "ceil") return b.ceil(x);
  if (op == "cos") return b.cos(x);
  if (op == "erf") return b.erf(x);
  if (op == "exp") return b.exp(x);
  if (op == "floor") return b.floor(x);
  if (op == "identity") return b.identity(x);
  if (op == "log") return b.log(x);
  if (op == "neg") return b.neg(x);
  if (op == "reciprocal") return b.reciprocal(x);
  if (op == "roundEven") return b.roundEven(x);
  if (op == "sin") return b.sin(x);
  if (op == "sign") return b.sign(x);
  if (op == "sqrt") return b.sqrt(x);
  if (op == "tan") return b.tan(x);
  if (op == "elu") return b.elu(x, {.alpha = o.alpha});
  if (op == "gelu") return b.gelu(x);
  if (op == "hardSigmoid") return b.hardSigmoid(x, {.alpha = o.alpha, .beta = o.beta});
  if (op == "hardSwish") return b.hardSwish(x);
  if (op == "leakyRelu") return b.leakyRelu(x, {.alpha = o.alpha});
  if (op == "linear") return b.linear(x, {.alpha = o.alpha, .beta = o.beta});
  if (op == "relu") return b.relu(x);
  if (op == "sigmoid") return b.sigmoid(x);
  if (op == "softplus") return b.softplus(x);
  if (op == "softsign") return b.softsign(x);
  if (op == "tanh") return b.tanh(x);
  if (op == "clamp") return b.clamp(x, {.minValue = o.lo, .maxValue = o.hi});
  throw std::invalid_argument("ApplyUnaryOp: unknown op " + op);
}

}  // namespace webnn::test
