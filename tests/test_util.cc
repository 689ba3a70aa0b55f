#include "test_util.h"

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

}  // namespace webnn::test
