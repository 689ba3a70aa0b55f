// Microbenchmarks of the conv_transpose2d family (cpu device): decoder /
// upsampling layers, float32, constant filter and bias, both input layouts,
// 1 and 2 threads. GFLOP/s counts 2 flops per multiply-add of the transposed
// convolution proper (2 * N * H * W * Cin * Cout/groups * KH * KW, input side).
#include "bench_util.h"

namespace webnn::bench {
namespace {

struct Layer {
  const char* name;
  uint32_t cin, h, w, cout, k, stride, pad, out_pad;
};

// PP-OCR det (DB head) 2x2 stride-2 upsampling; a U-Net style 3x3 stride-2
// decoder with output padding; a 4x4 stride-2 (DCGAN-like) layer.
constexpr Layer kLayers[] = {
    {"db_head_2x2s2_64to64_80", 64, 80, 80, 64, 2, 2, 0, 0},
    {"unet_3x3s2_128to64_28", 128, 28, 28, 64, 3, 2, 1, 1},
    {"dcgan_4x4s2_256to128_16", 256, 16, 16, 128, 4, 2, 1, 0},
};

void BM_ConvTranspose2d(benchmark::State& state) {
  const Layer& l = kLayers[state.range(0)];
  const bool nhwc = state.range(1) != 0;
  state.SetLabel(std::string(l.name) + (nhwc ? " nhwc" : " nchw"));
  const auto f32 = MLOperandDataType::kFloat32;
  const std::vector<uint32_t> in = nhwc ? std::vector<uint32_t>{1, l.h, l.w, l.cin} : std::vector<uint32_t>{1, l.cin, l.h, l.w};
  // iohw for nchw (as converted ONNX models), ohwi for nhwc (as TFLite models).
  const std::vector<uint32_t> filter = nhwc ? std::vector<uint32_t>{l.cout, l.k, l.k, l.cin}
                                            : std::vector<uint32_t>{l.cin, l.cout, l.k, l.k};
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{f32, in}, {f32, filter, true}, {f32, {l.cout}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& x) {
                 MLConvTranspose2dOptions o;
                 o.padding = std::vector<uint32_t>{l.pad, l.pad, l.pad, l.pad};
                 o.strides = std::vector<uint32_t>{l.stride, l.stride};
                 o.outputPadding = std::vector<uint32_t>{l.out_pad, l.out_pad};
                 o.bias = x[2];
                 o.inputLayout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                 o.filterLayout = nhwc ? MLConvTranspose2dFilterOperandLayout::kOhwi
                                       : MLConvTranspose2dFilterOperandLayout::kIohw;
                 return MLNamedOperands{{"out", b.convTranspose2d(x[0], x[1], o)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 2.0 * l.h * l.w * l.cin * l.cout * l.k * l.k, 0);
}
BENCHMARK(BM_ConvTranspose2d)
    ->ArgNames({"layer", "nhwc", "threads"})
    ->ArgsProduct({{0, 1, 2}, {0, 1}, {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
