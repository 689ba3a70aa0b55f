/* The minimal embedded build (meson -Dfile_io=false), linked statically:
 * a 3x3 convolution on the cpu device through the C API, checked against
 * sums computed here, and graph-file loading refused with NotSupportedError
 * (the entry points link, and say why). Run by scripts/check-minimal.sh. */
#include <math.h>
#include <stdio.h>

#include "webnn/webnn_c.h"

static int Fail(const char* what, WNNError error) {
  fprintf(stderr, "minimal_check: %s: %s: %s\n", what, wnnError_name(error), wnnError_message(error));
  return 1;
}

int main(void) {
  WNNError error = wnnError_create();
  WNNContextOptions options = {.device = WNNDeviceType_Cpu};
  WNNContext context = wnnML_createContext(&options, error);
  if (!context) return Fail("createContext", error);
  WNNGraphBuilder builder = wnnGraphBuilder_create(context, error);
  /* x: 1x1x5x6 (0, 1, 2, ...), filter 1x1x3x3 of ones, padding 1: each output
   * is the sum of x over its 3x3 neighbourhood inside the image. */
  enum { H = 5, W = 6 };
  const uint32_t x_shape[] = {1, 1, H, W}, w_shape[] = {1, 1, 3, 3};
  WNNOperandDescriptor x_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = x_shape};
  WNNOperandDescriptor w_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = w_shape};
  const float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  WNNOperand x = wnnGraphBuilder_input(builder, "x", &x_desc, error);
  WNNOperand w = wnnGraphBuilder_constant(builder, &w_desc, ones, sizeof ones, error);
  const uint32_t padding[] = {1, 1, 1, 1};
  WNNConv2dOptions conv = {.padding = padding, .paddingCount = 4};
  WNNNamedOperand outputs[] = {{"y", wnnGraphBuilder_conv2d(builder, x, w, &conv, error)}};
  WNNGraph graph = wnnGraphBuilder_build(builder, outputs, 1, error);
  if (!graph) return Fail("build", error);
  WNNTensorDescriptor in_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = x_shape, .writable = 1};
  WNNTensorDescriptor out_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = x_shape, .readable = 1};
  WNNTensor in = wnnContext_createTensor(context, &in_desc, error);
  WNNTensor out = wnnContext_createTensor(context, &out_desc, error);
  float values[H * W], result[H * W];
  for (int i = 0; i < H * W; ++i) values[i] = (float)i;
  wnnContext_writeTensor(context, in, values, sizeof values, error);
  WNNNamedTensor ins[] = {{"x", in}}, outs[] = {{"y", out}};
  wnnContext_dispatch(context, graph, ins, 1, outs, 1, error);
  if (wnnContext_readTensor(context, out, result, sizeof result, error) != WNNErrorType_NoError)
    return Fail("readTensor", error);
  int failures = 0;
  for (int r = 0; r < H; ++r)
    for (int c = 0; c < W; ++c) {
      float sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (r + dy >= 0 && r + dy < H && c + dx >= 0 && c + dx < W) sum += values[(r + dy) * W + c + dx];
      failures += fabsf(result[r * W + c] - sum) > 0;
    }
  /* Loading a graph file: NotSupportedError naming the build option. */
  WNNGraph loaded = wnnLoadGraph(context, "model.json", NULL, error);
  const int refused = !loaded && wnnError_type(error) == WNNErrorType_NotSupportedError;
  printf("webnn %s, file_io off: conv2d on cpu %s, loadGraph %s\n", wnnML_version(), failures ? "WRONG" : "ok",
         refused ? "refused (NotSupportedError)" : "NOT refused");
  wnnTensor_release(in);
  wnnTensor_release(out);
  wnnGraph_release(graph);
  if (loaded) wnnGraph_release(loaded);
  wnnGraphBuilder_release(builder);
  wnnContext_release(context);
  wnnError_release(error);
  return failures || !refused ? 1 : 0;
}
