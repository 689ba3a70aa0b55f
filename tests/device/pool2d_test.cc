// The device's averagePool2d, l2Pool2d and maxPool2d against the reference device:
// random windows, strides (1, 2 and gathered), dilations, padding, floor/ceil
// rounding (empty windows), both layouts, every type each op allows, special
// values, global pooling and ResNet-sized inputs that use both threads.
// Tolerance: WPT's window elements + 2 ULP for average/L2; max is exact.
#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

struct Geometry {
  std::vector<uint32_t> window, strides, dilations, padding;
  bool nhwc = false, ceil = false, default_window = false;
};

MLOperand Pool(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const MLPool2dOptions& o) {
  if (op == "averagePool2d") return b.averagePool2d(x, o);
  if (op == "l2Pool2d") return b.l2Pool2d(x, o);
  return b.maxPool2d(x, o);
}

void Check(const std::string& op, T type, const std::vector<uint32_t>& nchw_shape, const Geometry& geo,
           double special, uint64_t seed) {
  std::vector<uint32_t> shape = nchw_shape;
  if (geo.nhwc) shape = {nchw_shape[0], nchw_shape[2], nchw_shape[3], nchw_shape[1]};
  const uint32_t window_elements =
      geo.default_window ? nchw_shape[2] * nchw_shape[3] : geo.window[0] * geo.window[1];
  const bool is_float = type == T::kFloat32 || type == T::kFloat16;
  InputSpec s{type, shape, is_float ? -10.0 : -100.0, 100.0, special};
  if (type == T::kUint8 || type == T::kUint32 || type == T::kUint64) s.lo = 0;
  CheckAgainstReference(DeviceUnderTest(), op + " " + std::string(ToString(type)) + (geo.nhwc ? " nhwc" : " nchw"),
                        {s},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLPool2dOptions o;
                          if (!geo.default_window) o.windowDimensions = geo.window;
                          if (!geo.strides.empty()) o.strides = geo.strides;
                          if (!geo.dilations.empty()) o.dilations = geo.dilations;
                          if (!geo.padding.empty()) o.padding = geo.padding;
                          o.layout = geo.nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                          o.outputShapeRounding = geo.ceil ? MLRoundingType::kCeil : MLRoundingType::kFloor;
                          return MLNamedOperands{{"out", Pool(g, op, in[0], o)}};
                        },
                        Tolerance::Ulp(op == "maxPool2d" ? 0 : window_elements + 2), seed);
}

// A random valid geometry for spatial size h x w.
Geometry RandomGeometry(std::mt19937_64& rng, uint32_t h, uint32_t w) {
  for (;;) {
    Geometry g;
    g.window = {1 + static_cast<uint32_t>(rng() % 4), 1 + static_cast<uint32_t>(rng() % 4)};
    g.strides = {1 + static_cast<uint32_t>(rng() % 3), 1 + static_cast<uint32_t>(rng() % 4)};
    g.dilations = {rng() % 4 == 0 ? 2u : 1u, rng() % 4 == 0 ? 2u : 1u};
    g.padding = {static_cast<uint32_t>(rng() % 3), static_cast<uint32_t>(rng() % 3),
                 static_cast<uint32_t>(rng() % 3), static_cast<uint32_t>(rng() % 3)};
    g.nhwc = rng() % 2;
    g.ceil = rng() % 2;
    const int64_t eh = int64_t{g.dilations[0]} * (g.window[0] - 1) + 1;
    const int64_t ew = int64_t{g.dilations[1]} * (g.window[1] - 1) + 1;
    if (int64_t{h} + g.padding[0] + g.padding[1] >= eh && int64_t{w} + g.padding[2] + g.padding[3] >= ew) return g;
  }
}

// Runs `body` once per SIMD target compiled in and supported by this CPU
// (e.g. AVX3, AVX2, SSE4 and the scalar fallback), so every target's code runs.
template <class F>
void ForEachSimdTarget(F&& body) {
  struct Restore {  // back to runtime dispatch even when a check throws
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("SIMD target " << hwy::TargetName(target));
    body();
  }
}

}  // namespace

TEST_CASE("pooling matches reference on random geometries", "[device][pool2d]") {
  std::mt19937_64 rng(41);
  for (const std::string op : {"averagePool2d", "l2Pool2d", "maxPool2d"}) {
    const std::vector<T> types = op == "maxPool2d"
                                     ? std::vector<T>{T::kFloat32, T::kFloat16, T::kInt32, T::kUint32, T::kInt64,
                                                      T::kUint64, T::kInt8, T::kUint8}
                                     : std::vector<T>{T::kFloat32, T::kFloat16};
    for (T type : types) {
      for (int trial = 0; trial < 16; ++trial) {
        const uint32_t h = 1 + static_cast<uint32_t>(rng() % (trial < 8 ? 8 : 40));
        const uint32_t w = 1 + static_cast<uint32_t>(rng() % (trial < 8 ? 8 : 40));
        const std::vector<uint32_t> shape = {1 + static_cast<uint32_t>(rng() % 2),
                                             1 + static_cast<uint32_t>(rng() % (trial % 2 ? 5 : 37)), h, w};
        Check(op, type, shape, RandomGeometry(rng, h, w), trial % 4 == 3 ? 0.05 : 0, rng());
      }
    }
  }
}

TEST_CASE("pooling: global windows and network-sized layers", "[device][pool2d]") {
  std::mt19937_64 rng(42);
  for (const std::string op : {"averagePool2d", "l2Pool2d", "maxPool2d"}) {
    for (T type : {T::kFloat32, T::kFloat16}) {
      for (bool nhwc : {false, true}) {
        Geometry global;
        global.default_window = true;
        global.nhwc = nhwc;
        Check(op, type, {2, 33, 7, 7}, global, 0, rng());
        Check(op, type, {1, 96, 40, 40}, global, 0, rng());  // PP-OCR det's squeeze-and-excitation, nhwc: 6 blocks
        Check(op, type, {2, 17, 3, 5}, global, 0.05, rng());  // NaN and infinities
        Check(op, type, {2, 5, 50, 47}, global, 0, rng());    // nhwc sums: 2 blocks of pixels per image
        Geometry resnet{{3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, nhwc};
        Check(op, type, {1, 64, 112, 112}, resnet, 0, rng());
        Geometry s1{{5, 5}, {1, 1}, {1, 1}, {2, 2, 2, 2}, nhwc};
        Check(op, type, {1, 19, 33, 35}, s1, 0.01, rng());
      }
    }
  }
  Geometry resnet{{3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}};
  Check("maxPool2d", T::kUint8, {1, 64, 112, 112}, resnet, 0, rng());
  for (T type : {T::kInt32, T::kUint32, T::kInt64, T::kUint64, T::kInt8, T::kUint8}) {
    Geometry global;
    global.default_window = true;
    global.nhwc = true;
    Check("maxPool2d", type, {2, 21, 4, 6}, global, 0, rng());
  }
}

TEST_CASE("cpu pooling on every SIMD target", "[cpu][pool2d]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(43);
  ForEachSimdTarget([&] {
    for (const std::string op : {"averagePool2d", "l2Pool2d", "maxPool2d"}) {
      const std::vector<T> types = op == "maxPool2d"
                                       ? std::vector<T>{T::kFloat32, T::kFloat16, T::kInt32, T::kUint32, T::kInt64,
                                                        T::kUint64, T::kInt8, T::kUint8}
                                       : std::vector<T>{T::kFloat32, T::kFloat16};
      for (T type : types) {
        for (uint32_t stride : {1u, 2u, 3u}) {
          for (bool nhwc : {false, true}) {
            Geometry geo{{3, 2}, {stride, stride}, {1, 1}, {1, 0, 2, 1}, nhwc, stride == 3};
            Check(op, type, {1, 5, 19, 23}, geo, 0.02, rng());
          }
          Geometry global;
          global.default_window = true;
          global.nhwc = stride == 2;
          Check(op, type, {2, 7, 5, 9}, global, 0.02, rng());
        }
      }
    }
  });
}
