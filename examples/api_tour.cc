// A tour of the API: build y = relu(x @ W + b) with W and b as constants, run it
// on the cpu device, read the result, then show a validation error.
#include <cstdio>
#include <vector>

#include "webnn/webnn.h"

int main() {
  using namespace webnn;
  // 1. A context on a device: kAuto picks a GPU (not lavapipe), then cpu, then reference.
  MLContext context = ML::createContext({.device = MLDeviceType::kCpu});

  // 2. Build a graph. Operands are typed and shaped; options mirror the IDL.
  MLGraphBuilder builder(context);
  MLOperand x = builder.input("x", {MLOperandDataType::kFloat32, {2, 3}});
  std::vector<float> w = {1, -1, 0.5f, 2, 0, 1};  // [3, 2]
  std::vector<float> b = {0.25f, -0.5f};          // [2]
  MLOperand weights = builder.constant({MLOperandDataType::kFloat32, {3, 2}}, w);
  MLOperand bias = builder.constant({MLOperandDataType::kFloat32, {2}}, b);
  MLOperand y = builder.relu(builder.add(builder.matmul(x, weights), bias), {.label = "activation"});
  MLGraph graph = builder.build({{"y", y}});

  // 3. Tensors live on the device; write inputs, dispatch, read outputs.
  MLTensor x_tensor = context.createTensor({.dataType = MLOperandDataType::kFloat32, .shape = {2, 3}, .writable = true});
  MLTensor y_tensor = context.createTensor({.dataType = MLOperandDataType::kFloat32, .shape = {2, 2}, .readable = true});
  context.writeTensor(x_tensor, std::vector<float>{1, 2, 3, -1, 0, 1});
  context.dispatch(graph, {{"x", x_tensor}}, {{"y", y_tensor}});
  std::vector<float> result(4);
  context.readTensor(y_tensor, result);
  std::printf("y = [[%g, %g], [%g, %g]]\n", result[0], result[1], result[2], result[3]);

  // 4. Invalid graphs throw the spec's error types with a message naming the
  // op, its label, the argument and the rule.
  MLGraphBuilder second(context);
  MLOperand a = second.input("a", {MLOperandDataType::kFloat32, {2, 3}});
  MLOperand c = second.input("c", {MLOperandDataType::kFloat32, {4, 3}});
  try {
    second.add(a, c, {.label = "broken"});
  } catch (const TypeError& e) {
    std::printf("%s: %s\n", e.name(), e.what());
  }
  // Expected: y = [[2.25, 5.5], [0, 1.5]] (x @ W + b, negatives clamped to 0).
  return result == std::vector<float>{2.25f, 5.5f, 0.0f, 1.5f} ? 0 : 1;
}
