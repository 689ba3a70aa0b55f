// Microbenchmarks of the conv2d family (cpu device): conv layers of real
// models, float32, constant filter and bias (packed at build), both input
// layouts, 1 and 2 threads. GFLOP/s counts 2 flops per multiply-add of the
// convolution proper (2 * N * OH * OW * Cout * Cin/groups * KH * KW).
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct Layer {
  const char* name;
  uint32_t cin, h, w, cout, k, stride, pad, groups;
};

// ResNet-50 conv2_x 3x3 and 1x1 reduce, MobileNetV2 depthwise 3x3, PP-OCR det
// stem (3x3 stride 2, 3 -> 16) and depthwise 5x5, ResNet-50 conv4_x 3x3 (14x14:
// nchw through IgemmNhwc), PP-OCR det 3x3 96 -> 24 (24 channels: IgemmNhwc's
// 8-lane tiles).
constexpr Layer kLayers[] = {
    {"resnet_3x3_64", 64, 56, 56, 64, 3, 1, 1, 1},
    {"resnet_1x1_256to64", 256, 56, 56, 64, 1, 1, 0, 1},
    {"mbv2_dw3x3_32_112", 32, 112, 112, 32, 3, 1, 1, 32},
    {"ppocr_stem_3to16_s2", 3, 640, 640, 16, 3, 2, 1, 1},
    {"ppocr_dw5x5_96_80", 96, 80, 80, 96, 5, 1, 2, 96},
    {"resnet_3x3_256_14", 256, 14, 14, 256, 3, 1, 1, 1},
    {"ppocr_3x3_96to24_160", 96, 160, 160, 24, 3, 1, 1, 1},
};

void BM_Conv2d(benchmark::State& state) {
  const Layer& l = kLayers[state.range(0)];
  const bool nhwc = state.range(1) != 0;
  const auto type = state.range(3) ? MLOperandDataType::kFloat16 : MLOperandDataType::kFloat32;
  state.SetLabel(std::string(l.name) + (nhwc ? " nhwc" : " nchw") + (state.range(3) ? " f16" : ""));
  const std::vector<uint32_t> in = nhwc ? std::vector<uint32_t>{1, l.h, l.w, l.cin} : std::vector<uint32_t>{1, l.cin, l.h, l.w};
  // oihw for nchw (as converted ONNX models), ohwi for nhwc (as TFLite models).
  const std::vector<uint32_t> filter = nhwc ? std::vector<uint32_t>{l.cout, l.k, l.k, l.cin / l.groups}
                                            : std::vector<uint32_t>{l.cout, l.cin / l.groups, l.k, l.k};
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{type, in}, {type, filter, true}, {type, {l.cout}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& x) {
                 MLConv2dOptions o;
                 o.padding = std::vector<uint32_t>{l.pad, l.pad, l.pad, l.pad};
                 o.strides = std::vector<uint32_t>{l.stride, l.stride};
                 o.groups = l.groups;
                 o.bias = x[2];
                 o.inputLayout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                 o.filterLayout = nhwc ? MLConv2dFilterOperandLayout::kOhwi : MLConv2dFilterOperandLayout::kOihw;
                 return MLNamedOperands{{"out", b.conv2d(x[0], x[1], o)}};
               });
  for (auto _ : state) g.Dispatch();
  const double oh = (l.h + 2.0 * l.pad - l.k) / l.stride + 1, ow = (l.w + 2.0 * l.pad - l.k) / l.stride + 1;
  const double flops = 2.0 * static_cast<int>(oh) * static_cast<int>(ow) * l.cout * (l.cin / l.groups) * l.k * l.k;
  SetRates(state, flops, 0);
}
BENCHMARK(BM_Conv2d)
    ->ArgNames({"layer", "nhwc", "threads", "f16"})
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {0, 1}, {1, 2}, {0}})
    ->UseRealTime();
// float16 (converted to float32 around the same kernels), nchw only.
BENCHMARK(BM_Conv2d)
    ->ArgNames({"layer", "nhwc", "threads", "f16"})
    ->ArgsProduct({{0, 2}, {0}, {1, 2}, {1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
