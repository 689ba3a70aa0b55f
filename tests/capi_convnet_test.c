/* A small conv net built and run through the C API (C11), checked against the
 * same net computed here in double precision:
 *
 *   x [1, 2, 6, 6] -> conv2d 3x3, 4 filters, padding 1, bias -> relu
 *     -> maxPool2d 2x2, strides 2 -> [1, 4, 3, 3] ("features")
 *     -> reshape [1, 36] -> gemm with W [36, 3] and c [3]   ("logits")
 *
 *   capi_convnet_test --device reference|cpu|gpu
 * Exits 0 when every output element is within tolerance, 77 when the device is
 * not available on this machine (meson: skipped), 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test_util.h"

enum { N = 1, C = 2, H = 6, W = 6, K = 4, P = 3, CLASSES = 3, FEATURES = K * P * P };


/* Deterministic values in [-1, 1). */
static uint32_t lcg_state = 12345u;
static float NextValue(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (float)((lcg_state >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

/* The log at info: the build's summary must arrive. Messages come from this
 * thread here (createContext, build); a lost device would log from another. */
static int build_summaries = 0, log_messages = 0;
static void Log(WNNLogLevel level, const char* message, void* userdata) {
  (void)userdata;
  ++log_messages;
  if (level == WNNLogLevel_Info && strncmp(message, "build: ", 7) == 0 && strstr(message, " nodes built") != NULL)
    ++build_summaries;
}

/* readTensorAsync's delivery of the logits (wnnContext_finish orders it
 * before the checks). */
typedef struct AsyncRead {
  int calls;
  WNNErrorType error;
  size_t byteLength;
  float values[CLASSES];
} AsyncRead;
static void DeliverRead(const void* data, size_t byteLength, WNNError error, void* userdata) {
  AsyncRead* read = (AsyncRead*)userdata;
  ++read->calls;
  read->error = wnnError_type(error);
  read->byteLength = byteLength;
  if (data && byteLength == sizeof read->values) memcpy(read->values, data, byteLength);
}

static int Check(WNNErrorType status, WNNError error, const char* what) {
  if (status == WNNErrorType_NoError) return 1;
  fprintf(stderr, "%s: %s: %s\n", what, wnnError_name(error), wnnError_message(error));
  ++failures;
  return 0;
}

/* The net in double precision, from the same float inputs. */
/* Also the sum of the magnitudes of the terms of each output (*_scale), for
 * its error bound. */
static void Reference(const float* x, const float* filter, const float* bias, const float* fc, const float* fc_bias,
                      double* features, double* features_scale, double* logits, double* logits_scale) {
  double conv[K][H][W], conv_scale[K][H][W];
  for (int k = 0; k < K; ++k)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w) {
        double sum = bias[k], scale = fabs(bias[k]);
        for (int c = 0; c < C; ++c)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              const int ih = h + i - 1, iw = w + j - 1;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              const double term = (double)x[(c * H + ih) * W + iw] * filter[((k * C + c) * 3 + i) * 3 + j];
              sum += term;
              scale += fabs(term);
            }
        conv[k][h][w] = sum > 0 ? sum : 0;
        conv_scale[k][h][w] = scale;
      }
  for (int k = 0; k < K; ++k)
    for (int h = 0; h < P; ++h)
      for (int w = 0; w < P; ++w) {
        double m = conv[k][2 * h][2 * w], scale = 0;
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) {
            if (conv[k][2 * h + i][2 * w + j] > m) m = conv[k][2 * h + i][2 * w + j];
            if (conv_scale[k][2 * h + i][2 * w + j] > scale) scale = conv_scale[k][2 * h + i][2 * w + j];
          }
        features[(k * P + h) * P + w] = m;
        features_scale[(k * P + h) * P + w] = scale;
      }
  for (int o = 0; o < CLASSES; ++o) {
    double sum = fc_bias[o], scale = fabs(fc_bias[o]);
    for (int f = 0; f < FEATURES; ++f) {
      sum += features[f] * fc[f * CLASSES + o];
      scale += features_scale[f] * fabs(fc[f * CLASSES + o]);
    }
    logits[o] = sum;
    logits_scale[o] = scale;
  }
}

int main(int argc, char** argv) {
  const WNNDeviceType device = ParseDevice(argc, argv);
  const char* why = wnnML_whyUnavailable(device);
  if (why[0] != '\0') {
    printf("skipped: %s\n", why);
    return 77;
  }

  float x[N * C * H * W], filter[K * C * 3 * 3], bias[K], fc[FEATURES * CLASSES], fc_bias[CLASSES];
  for (size_t i = 0; i < sizeof x / sizeof x[0]; ++i) x[i] = NextValue();
  for (size_t i = 0; i < sizeof filter / sizeof filter[0]; ++i) filter[i] = NextValue();
  for (size_t i = 0; i < K; ++i) bias[i] = NextValue();
  for (size_t i = 0; i < sizeof fc / sizeof fc[0]; ++i) fc[i] = NextValue();
  for (size_t i = 0; i < CLASSES; ++i) fc_bias[i] = NextValue();

  WNNError error = wnnError_create();
  WNNContextOptions context_options = {
      .device = device, .logLevel = WNNLogLevel_Info, .logCallback = Log, .logUserdata = NULL};
  WNNContext context = wnnML_createContext(&context_options, error);
  if (!context) {
    fprintf(stderr, "createContext: %s: %s\n", wnnError_name(error), wnnError_message(error));
    return 1;
  }
  printf("device %s\n", wnnContext_deviceName(context));

  /* Build. Options are designated initializers; what they leave out takes
   * the IDL default (strides 1, dilations 1, groups 1, nchw, oihw). */
  WNNGraphBuilder builder = wnnGraphBuilder_create(context, error);
  const uint32_t x_shape[] = {N, C, H, W}, filter_shape[] = {K, C, 3, 3}, bias_shape[] = {K},
                 fc_shape[] = {FEATURES, CLASSES}, fc_bias_shape[] = {CLASSES};
  WNNOperandDescriptor x_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = x_shape};
  WNNOperand input = wnnGraphBuilder_input(builder, "x", &x_desc, error);
  WNNOperandDescriptor filter_desc = {.dataType = WNNOperandDataType_Float32, .rank = 4, .shape = filter_shape};
  WNNOperand filter_op = wnnGraphBuilder_constant(builder, &filter_desc, filter, sizeof filter, error);
  WNNOperandDescriptor bias_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = bias_shape};
  WNNOperand bias_op = wnnGraphBuilder_constant(builder, &bias_desc, bias, sizeof bias, error);
  const uint32_t padding[] = {1, 1, 1, 1};
  WNNConv2dOptions conv_options = {.label = "conv", .padding = padding, .paddingCount = 4, .bias = bias_op};
  WNNOperand conv = wnnGraphBuilder_conv2d(builder, input, filter_op, &conv_options, error);
  WNNOperand relu = wnnGraphBuilder_relu(builder, conv, NULL, error);
  const uint32_t window[] = {2, 2}, strides[] = {2, 2};
  WNNPool2dOptions pool_options = {
      .windowDimensions = window, .windowDimensionsCount = 2, .strides = strides, .stridesCount = 2};
  WNNOperand pool = wnnGraphBuilder_maxPool2d(builder, relu, &pool_options, error);
  const uint32_t flat[] = {1, FEATURES};
  WNNOperand reshaped = wnnGraphBuilder_reshape(builder, pool, flat, 2, NULL, NULL, error);
  WNNOperandDescriptor fc_desc = {.dataType = WNNOperandDataType_Float32, .rank = 2, .shape = fc_shape};
  WNNOperand fc_op = wnnGraphBuilder_constant(builder, &fc_desc, fc, sizeof fc, error);
  WNNOperandDescriptor fc_bias_desc = {.dataType = WNNOperandDataType_Float32, .rank = 1, .shape = fc_bias_shape};
  WNNOperand fc_bias_op = wnnGraphBuilder_constant(builder, &fc_bias_desc, fc_bias, sizeof fc_bias, error);
  WNNGemmOptions gemm_options = {.c = fc_bias_op};
  WNNOperand logits = wnnGraphBuilder_gemm(builder, reshaped, fc_op, &gemm_options, error);
  if (!logits) {
    fprintf(stderr, "building: %s: %s\n", wnnError_name(error), wnnError_message(error));
    return 1;
  }
  size_t rank = 0;
  const uint32_t* pool_shape = wnnOperand_shape(pool, &rank);
  EXPECT(rank == 4 && pool_shape[1] == K && pool_shape[2] == P && pool_shape[3] == P);

  WNNNamedOperand outputs[] = {{"features", pool}, {"logits", logits}};
  WNNGraph graph = wnnGraphBuilder_build(builder, outputs, 2, error);
  if (!Check(graph ? WNNErrorType_NoError : wnnError_type(error), error, "build")) return 1;
  wnnGraphBuilder_release(builder);
  EXPECT(wnnGraph_inputCount(graph) == 1 && wnnGraph_outputCount(graph) == 2);
  EXPECT(build_summaries == 1);
  EXPECT(log_messages >= 2); /* the device chosen, the build */

  /* Every node on the context's device (each device runs the whole net). */
  WNNGraphPlacement placement;
  if (!Check(wnnGraph_placement(graph, &placement, error), error, "placement")) return 1;
  EXPECT(placement.device == device && placement.effectivePolicy == WNNPowerPreference_Default);
  EXPECT(placement.nodeCount > 0 && placement.transfers == 0 && placement.transferBytes == 0);
  for (size_t i = 0; i < placement.nodeCount; ++i) {
    WNNPlacedNode node;
    if (!Check(wnnGraph_getPlacedNode(graph, i, &node, error), error, "getPlacedNode")) return 1;
    EXPECT(node.device == device && node.op[0] != 0 && node.label != NULL);
  }
  WNNPlacedNode past;
  EXPECT(wnnGraph_getPlacedNode(graph, placement.nodeCount, &past, error) == WNNErrorType_TypeError);

  /* Run twice, the second time on other input values, with dispatch options
   * (profiled, latency queue, a deadline) and the logits read asynchronously
   * as well. */
  for (int round = 0; round < 2; ++round) {
    if (round == 1)
      for (size_t i = 0; i < sizeof x / sizeof x[0]; ++i) x[i] = NextValue();
    WNNTensorDescriptor x_tensor_desc = {
        .dataType = WNNOperandDataType_Float32, .rank = 4, .shape = x_shape, .writable = 1};
    const uint32_t features_shape[] = {N, K, P, P}, logits_shape[] = {1, CLASSES};
    WNNTensorDescriptor features_desc = {
        .dataType = WNNOperandDataType_Float32, .rank = 4, .shape = features_shape, .readable = 1};
    WNNTensorDescriptor logits_desc = {
        .dataType = WNNOperandDataType_Float32, .rank = 2, .shape = logits_shape, .readable = 1};
    WNNTensor x_tensor = wnnContext_createTensor(context, &x_tensor_desc, error);
    WNNTensor features_tensor = wnnContext_createTensor(context, &features_desc, error);
    WNNTensor logits_tensor = wnnContext_createTensor(context, &logits_desc, error);
    Check(wnnContext_writeTensor(context, x_tensor, x, sizeof x, error), error, "writeTensor");
    WNNNamedTensor inputs[] = {{"x", x_tensor}};
    WNNNamedTensor results[] = {{"features", features_tensor}, {"logits", logits_tensor}};
    WNNDispatchOptions dispatch_options = {
        .latencyHint = WNNLatencyHint_Low, .deadline = {.hasValue = 1, .value = 5000}, .profile = 1};
    Check(wnnContext_dispatchWithOptions(context, graph, inputs, 1, results, 2, round == 1 ? &dispatch_options : NULL,
                                         error),
          error, "dispatch");
    AsyncRead async_read = {0};
    if (round == 1) Check(wnnContext_readTensorAsync(context, logits_tensor, DeliverRead, &async_read, error), error,
                          "readTensorAsync");
    wnnContext_finish(context);
    float features[FEATURES], out_logits[CLASSES];
    Check(wnnContext_readTensor(context, features_tensor, features, sizeof features, error), error, "readTensor");
    Check(wnnContext_readTensor(context, logits_tensor, out_logits, sizeof out_logits, error), error, "readTensor");

    double want_features[FEATURES], features_scale[FEATURES], want_logits[CLASSES], logits_scale[CLASSES];
    Reference(x, filter, bias, fc, fc_bias, want_features, features_scale, want_logits, logits_scale);
    /* A float32 sum of n terms in any order is within n * 2^-24 * (sum of
     * their magnitudes) of the exact sum, per rounding step: 19 terms for the
     * conv, 37 for gemm, whose inputs carry the conv's error: at most
     * (19 + 37) * 6e-8 = 3.4e-6 of the scale. 1e-5 of it leaves a margin of 3. */
    double max_error = 0;
    for (int i = 0; i < FEATURES; ++i) {
      const double e = fabs(features[i] - want_features[i]);
      if (e > max_error) max_error = e;
      EXPECT(e <= 1e-5 * features_scale[i] + 1e-30);
    }
    for (int i = 0; i < CLASSES; ++i) {
      const double e = fabs(out_logits[i] - want_logits[i]);
      if (e > max_error) max_error = e;
      EXPECT(e <= 1e-5 * logits_scale[i] + 1e-30);
    }
    if (round == 1) {
      /* The async read gave the very bytes of the blocking one. */
      EXPECT(async_read.calls == 1 && async_read.error == WNNErrorType_NoError);
      EXPECT(async_read.byteLength == sizeof out_logits);
      EXPECT(memcmp(async_read.values, out_logits, sizeof out_logits) == 0);
      /* The profile lists the placement's nodes, in order, on the device. */
      WNNGraphProfile profile;
      if (!Check(wnnGraph_profile(graph, &profile, error), error, "profile")) return 1;
      EXPECT(profile.stepCount == placement.nodeCount);
      double flops = 0;
      for (size_t i = 0; i < profile.stepCount && i < placement.nodeCount; ++i) {
        WNNStepProfile step;
        WNNPlacedNode node;
        if (!Check(wnnGraph_getProfiledStep(graph, i, &step, error), error, "getProfiledStep")) return 1;
        Check(wnnGraph_getPlacedNode(graph, i, &node, error), error, "getPlacedNode");
        EXPECT(strcmp(step.op, node.op) == 0 && strcmp(step.label, node.label) == 0 && step.device == node.device);
        EXPECT(isnan(step.ms) || step.ms >= 0);
        EXPECT(step.outputCount >= 1 && step.bytes > 0);
        flops += step.flops;
        printf("  step %zu: %s on %d, %.3f ms, %.0f flops\n", i, step.op, (int)step.device, step.ms, step.flops);
      }
      /* conv2d: 2 per multiply-add of 4 x 6 x 6 outputs of 2 x 3 x 3 terms;
       * gemm: 2 x 36 x 3. */
      EXPECT(flops == 2.0 * K * H * W * C * 9 + 2.0 * FEATURES * CLASSES);
    } else {
      WNNGraphProfile profile;
      Check(wnnGraph_profile(graph, &profile, error), error, "profile");
      EXPECT(profile.stepCount == 0); /* no profiled dispatch yet */
    }
    printf("round %d: logits %.6f %.6f %.6f, max |error| %.3g\n", round, out_logits[0], out_logits[1], out_logits[2],
           max_error);
    wnnTensor_release(x_tensor);
    wnnTensor_release(features_tensor);
    wnnTensor_release(logits_tensor);
  }

  wnnGraph_release(graph);
  wnnContext_release(context);
  wnnError_release(error);
  if (failures) fprintf(stderr, "%d failures\n", failures);
  return failures ? 1 : 0;
}
