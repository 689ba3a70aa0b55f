/* Error reporting of the C API (C11): invalid shapes and arguments give the
 * spec's error type with the C++ API's message, a failed call leaves its
 * builder usable, NULL handles are refused with a TypeError, and releasing
 * NULL handles does nothing.
 *
 *   capi_errors_test --device reference|cpu|gpu   (77: device not available) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test_util.h"

/* The C and C++ views of an enum agree on its size (webnn_c.h: WNN_ENUM_BASE). */
_Static_assert(sizeof(WNNLatencyHint) == sizeof(uint32_t) && sizeof(WNNOperandDataType) == sizeof(uint32_t) &&
                   sizeof(WNNRecurrentNetworkActivation) == sizeof(uint32_t),
               "a C enum of webnn_c.h is not 4 bytes");

/* The error is `type` and its message starts with `prefix` and contains `part`. */
static void ExpectError(WNNError error, WNNErrorType type, const char* prefix, const char* part, int line) {
  const char* message = wnnError_message(error);
  if (wnnError_type(error) != type || strncmp(message, prefix, strlen(prefix)) != 0 ||
      (part && !strstr(message, part))) {
    fprintf(stderr, "line %d: expected %s starting '%s'%s%s, got %s: '%s'\n", line, wnnErrorType_name(type), prefix,
            part ? " containing " : "", part ? part : "", wnnError_name(error), message);
    ++failures;
  }
}
#define EXPECT_ERROR(error, type, prefix, part) ExpectError(error, type, prefix, part, __LINE__)

int main(int argc, char** argv) {
  const WNNDeviceType device = ParseDevice(argc, argv);
  if (wnnML_whyUnavailable(device)[0] != '\0') {
    printf("skipped: %s\n", wnnML_whyUnavailable(device));
    return 77;
  }

  /* Releasing NULL handles is safe; queries on them return neutral values. */
  wnnError_release(NULL);
  wnnContext_release(NULL);
  wnnGraphBuilder_release(NULL);
  wnnGraph_release(NULL);
  wnnTensor_release(NULL);
  wnnContext_destroy(NULL);
  wnnGraph_destroy(NULL);
  wnnTensor_destroy(NULL);
  EXPECT(wnnError_type(NULL) == WNNErrorType_NoError);
  EXPECT(strcmp(wnnError_message(NULL), "") == 0);
  EXPECT(wnnOperand_dataType(NULL) == WNNOperandDataType_Undefined);
  EXPECT(wnnGraph_inputCount(NULL) == 0);
  EXPECT(wnnContext_lostMessage(NULL) == NULL);

  WNNError error = wnnError_create();
  EXPECT(wnnError_type(error) == WNNErrorType_NoError);

  /* NULL handles in calls: a TypeError naming the call and the argument. */
  EXPECT(wnnGraphBuilder_create(NULL, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "MLGraphBuilder: context is NULL", NULL);
  EXPECT(wnnGraphBuilder_relu(NULL, NULL, NULL, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "relu: builder is NULL", NULL);
  EXPECT(wnnContext_dispatch(NULL, NULL, NULL, 0, NULL, 0, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "dispatch: context is NULL", NULL);
  /* Without an error object a failure still shows in the result. */
  EXPECT(wnnGraphBuilder_create(NULL, NULL) == NULL);

  WNNContextOptions options = {.device = device};
  WNNContext context = wnnML_createContext(&options, error);
  if (!context) {
    fprintf(stderr, "createContext: %s: %s\n", wnnError_name(error), wnnError_message(error));
    return 1;
  }
  /* Options out of range. */
  WNNContextOptions bad_device = {.device = (WNNDeviceType)9};
  EXPECT(wnnML_createContext(&bad_device, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "createContext: 9 is not a WNNDeviceType", NULL);
  /* Enums of the scheduler's and the log's options out of range, negative included. */
  WNNContextOptions bad_hint = {.device = device, .latencyHint = (WNNLatencyHint)5};
  EXPECT(wnnML_createContext(&bad_hint, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "createContext: latencyHint 5 is not a WNNLatencyHint", NULL);
  WNNContextOptions bad_level = {.device = device, .logLevel = (WNNLogLevel)-1};
  EXPECT(wnnML_createContext(&bad_level, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "createContext: logLevel 4294967295 is not a WNNLogLevel", NULL);
  WNNContextOptions bad_power = {.device = device, .powerPreference = (WNNPowerPreference)-2};
  EXPECT(wnnML_createContext(&bad_power, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "createContext: 4294967294 is not a WNNPowerPreference", NULL);
  EXPECT(strcmp(wnnLogLevel_name(WNNLogLevel_Undefined), "warning") == 0);
  EXPECT(strcmp(wnnLogLevel_name(WNNLogLevel_Debug), "debug") == 0);
  wnnContext_finish(NULL);
  EXPECT(wnnContext_readTensorAsync(NULL, NULL, NULL, NULL, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "readTensorAsync: context is NULL", NULL);
  WNNGraphProfile no_profile;
  EXPECT(wnnGraph_profile(NULL, &no_profile, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "profile: graph is NULL", NULL);
  WNNContextOptions too_many_threads = {.device = WNNDeviceType_Cpu, .numThreads = 100000};
  EXPECT(wnnML_createContext(&too_many_threads, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "", "numThreads");

  WNNGraphBuilder builder = wnnGraphBuilder_create(context, error);
  const uint32_t x_shape[] = {1, 3, 8, 8};
  WNNOperandDescriptor x_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = x_shape};
  WNNOperand x = wnnGraphBuilder_input(builder, "x", &x_desc, error);
  EXPECT(x != NULL);
  EXPECT(wnnError_type(error) == WNNErrorType_NoError);

  /* Bad shapes: a filter of rank 3, with the op and label in the message. */
  const uint32_t filter_shape[] = {4, 3, 3};
  WNNOperandDescriptor filter_desc = {.dataType = WNNOperandDataType_Float32, .rank = 3, .shape = filter_shape};
  float filter[36] = {0};
  WNNOperand bad_filter = wnnGraphBuilder_constant(builder, &filter_desc, filter, sizeof filter, error);
  EXPECT(bad_filter != NULL);
  WNNConv2dOptions conv_options = {.label = "stem"};
  EXPECT(wnnGraphBuilder_conv2d(builder, x, bad_filter, &conv_options, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "conv2d [stem]: ", "filter");
  /* Shapes that do not broadcast. */
  const uint32_t y_shape[] = {5};
  WNNOperandDescriptor y_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = y_shape};
  WNNOperand y = wnnGraphBuilder_input(builder, "y", &y_desc, error);
  EXPECT(wnnGraphBuilder_add(builder, x, y, NULL, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "add: ", NULL);
  /* A zero dimension; a duplicate input name; a byte length that does not match. */
  const uint32_t zero_shape[] = {2, 0};
  WNNOperandDescriptor zero_desc = {.dataType = WNNOperandDataType_Float32, .rank = 2, .shape = zero_shape};
  EXPECT(wnnGraphBuilder_input(builder, "zero", &zero_desc, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "input", NULL);
  EXPECT(wnnGraphBuilder_input(builder, "x", &y_desc, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "input: an input named 'x' already exists", NULL);
  EXPECT(wnnGraphBuilder_constant(builder, &filter_desc, filter, 12, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "constant", NULL);
  /* A data type out of range; an operand of another builder. */
  WNNOperandDescriptor bad_type = {.dataType = (WNNOperandDataType)42, .rank = 1, .shape = y_shape};
  EXPECT(wnnGraphBuilder_input(builder, "t", &bad_type, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "input: 42 is not a WNNOperandDataType", NULL);
  WNNGraphBuilder other = wnnGraphBuilder_create(context, error);
  WNNOperand foreign = wnnGraphBuilder_input(other, "f", &y_desc, error);
  EXPECT(wnnGraphBuilder_add(builder, y, foreign, NULL, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "add: ", NULL);
  wnnGraphBuilder_release(other);

  /* The builder is intact after the failures: a graph builds and runs. */
  WNNOperand relu = wnnGraphBuilder_relu(builder, y, NULL, error);
  EXPECT(relu != NULL);
  WNNNamedOperand no_name[] = {{NULL, relu}};
  EXPECT(wnnGraphBuilder_build(builder, no_name, 1, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "build: an output's name is NULL", NULL);
  EXPECT(wnnGraphBuilder_build(builder, NULL, 0, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "build", NULL);
  /* A NULL operand is not an operand (found by fuzz/capi_fuzzer.cc: it was
   * said to come from another builder). */
  WNNNamedOperand null_operand[] = {{"r", NULL}};
  EXPECT(wnnGraphBuilder_build(builder, null_operand, 1, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "build: output 'r' is not an operand", NULL);
  WNNNamedOperand outputs[] = {{"r", relu}};
  WNNGraph graph = wnnGraphBuilder_build(builder, outputs, 1, error);
  EXPECT(graph != NULL);
  EXPECT(wnnError_type(error) == WNNErrorType_NoError);
  /* A builder builds once. */
  EXPECT(wnnGraphBuilder_build(builder, outputs, 1, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_InvalidStateError, "build", NULL);
  EXPECT(wnnGraphBuilder_relu(builder, y, NULL, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_InvalidStateError, "relu", NULL);

  /* Dispatch with a tensor of the wrong shape, an unknown name, a write into a
   * tensor not created writable, a read of one not created readable. */
  const uint32_t six[] = {6};
  WNNTensorDescriptor wrong_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = six, .writable = 1};
  WNNTensorDescriptor in_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = y_shape, .writable = 1};
  WNNTensorDescriptor out_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = y_shape, .readable = 1};
  WNNTensor wrong = wnnContext_createTensor(context, &wrong_desc, error);
  WNNTensor in = wnnContext_createTensor(context, &in_desc, error);
  WNNTensor out = wnnContext_createTensor(context, &out_desc, error);
  EXPECT(wrong && in && out);
  WNNNamedTensor wrong_inputs[] = {{"y", wrong}}, inputs[] = {{"y", in}}, unknown[] = {{"z", in}};
  WNNNamedTensor results[] = {{"r", out}};
  EXPECT(wnnContext_dispatch(context, graph, wrong_inputs, 1, results, 1, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "dispatch", NULL);
  EXPECT(wnnContext_dispatch(context, graph, unknown, 1, results, 1, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "dispatch", NULL);
  float values[5] = {-2, -1, 0, 1, 2}, read[5] = {0};
  EXPECT(wnnContext_writeTensor(context, out, values, sizeof values, error) == WNNErrorType_TypeError);
  EXPECT(wnnContext_readTensor(context, in, read, sizeof read, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "readTensor: the tensor was not created readable", NULL);
  EXPECT(wnnContext_writeTensor(context, in, values, 3, error) == WNNErrorType_TypeError);
  EXPECT(wnnContext_writeTensor(context, in, NULL, 20, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "writeTensor: data is NULL", NULL);
  /* Dispatch options out of range; the profile of a graph never profiled. */
  WNNDispatchOptions bad_dispatch = {.latencyHint = (WNNLatencyHint)7};
  EXPECT(wnnContext_dispatchWithOptions(context, graph, inputs, 1, results, 1, &bad_dispatch, error) ==
         WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "dispatch: latencyHint 7 is not a WNNLatencyHint", NULL);
  WNNGraphProfile profile = {.stepCount = 5};
  EXPECT(wnnGraph_profile(graph, &profile, error) == WNNErrorType_NoError && profile.stepCount == 0);
  WNNStepProfile step;
  EXPECT(wnnGraph_getProfiledStep(graph, 0, &step, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "getProfiledStep: index 0 is past the profile's 0 steps", NULL);
  EXPECT(wnnContext_readTensorAsync(context, out, NULL, NULL, error) == WNNErrorType_TypeError);
  EXPECT_ERROR(error, WNNErrorType_TypeError, "readTensorAsync: callback is NULL", NULL);
  /* And the right call works after all of that. */
  EXPECT(wnnContext_writeTensor(context, in, values, sizeof values, error) == WNNErrorType_NoError);
  EXPECT(wnnContext_dispatch(context, graph, inputs, 1, results, 1, error) == WNNErrorType_NoError);
  EXPECT(wnnContext_readTensor(context, out, read, sizeof read, error) == WNNErrorType_NoError);
  for (int i = 0; i < 5; ++i) EXPECT(read[i] == (values[i] > 0 ? values[i] : 0));

  /* A destroyed graph and a destroyed tensor are refused with InvalidStateError
   * or TypeError, never a crash. */
  wnnTensor_destroy(in);
  EXPECT(wnnContext_dispatch(context, graph, inputs, 1, results, 1, error) != WNNErrorType_NoError);
  wnnGraph_destroy(graph);
  EXPECT(wnnContext_dispatch(context, graph, inputs, 1, results, 1, error) != WNNErrorType_NoError);
  EXPECT(wnnError_message(error)[0] != '\0');

  /* Loading: a malformed graph is a DataError naming the source. */
  const char* json = "{\"format\": \"webnn-graph-json\", \"version\": 2, \"nodes\": [";
  WNNGraphBuffers buffers = {.graphJson = json, .graphJsonLength = strlen(json), .name = "broken.json"};
  EXPECT(wnnLoadGraphFromMemory(context, &buffers, NULL, error) == NULL);
  EXPECT_ERROR(error, WNNErrorType_DataError, "", "broken.json");

  wnnTensor_release(wrong);
  wnnTensor_release(in);
  wnnTensor_release(out);
  wnnGraph_release(graph);
  wnnGraphBuilder_release(builder);
  wnnContext_release(context);
  wnnError_release(error);
  if (failures) fprintf(stderr, "%d failures\n", failures);
  else printf("ok\n");
  return failures ? 1 : 0;
}
