/* A program that uses an installed webnn as an application would: found by
 * CMake (find_package) or pkg-config, only installed headers, the C API.
 * relu over four numbers on the reference device, checked here. */
#include <stdio.h>

#include "webnn/webnn_c.h"

int main(void) {
  WNNError error = wnnError_create();
  WNNContextOptions options = {.device = WNNDeviceType_Reference};
  WNNContext context = wnnML_createContext(&options, error);
  WNNGraphBuilder builder = wnnGraphBuilder_create(context, error);
  const uint32_t shape[] = {4};
  WNNOperandDescriptor desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = shape};
  WNNOperand x = wnnGraphBuilder_input(builder, "x", &desc, error);
  WNNNamedOperand outputs[] = {{"y", wnnGraphBuilder_relu(builder, x, NULL, error)}};
  WNNGraph graph = wnnGraphBuilder_build(builder, outputs, 1, error);
  if (!graph) {
    fprintf(stderr, "%s: %s\n", wnnError_name(error), wnnError_message(error));
    return 1;
  }
  WNNTensorDescriptor in_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = shape, .writable = 1};
  WNNTensorDescriptor out_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = shape, .readable = 1};
  WNNTensor in = wnnContext_createTensor(context, &in_desc, error);
  WNNTensor out = wnnContext_createTensor(context, &out_desc, error);
  const float values[4] = {-1.5f, 0.0f, 2.0f, -0.0f};
  float result[4] = {9, 9, 9, 9};
  wnnContext_writeTensor(context, in, values, sizeof values, error);
  WNNNamedTensor ins[] = {{"x", in}}, outs[] = {{"y", out}};
  wnnContext_dispatch(context, graph, ins, 1, outs, 1, error);
  if (wnnContext_readTensor(context, out, result, sizeof result, error) != WNNErrorType_NoError) {
    fprintf(stderr, "%s: %s\n", wnnError_name(error), wnnError_message(error));
    return 1;
  }
  int failures = 0;
  for (int i = 0; i < 4; ++i) failures += result[i] != (values[i] > 0 ? values[i] : 0.0f);
  printf("webnn %s (headers %s): relu %s\n", wnnML_version(), WEBNN_VERSION_STRING, failures ? "WRONG" : "ok");
  wnnTensor_release(in);
  wnnTensor_release(out);
  wnnGraph_release(graph);
  wnnGraphBuilder_release(builder);
  wnnContext_release(context);
  wnnError_release(error);
  return failures ? 1 : 0;
}
