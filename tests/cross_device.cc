#include "cross_device.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "core/float16.h"
#include "core/shape.h"

namespace webnn::test {
namespace {

double Get(const std::vector<std::byte>& d, MLOperandDataType t, uint64_t k, int64_t* i = nullptr, uint64_t* u = nullptr) {
  auto raw = [&](auto x) {
    std::memcpy(&x, d.data() + k * sizeof(x), sizeof(x));
    return x;
  };
  int64_t iv = 0;
  uint64_t uv = 0;
  double f = 0;
  switch (t) {
    case MLOperandDataType::kFloat32: f = raw(float{}); break;
    case MLOperandDataType::kFloat16: f = core::HalfBitsToDouble(raw(uint16_t{})); break;
    case MLOperandDataType::kInt32: iv = raw(int32_t{}); break;
    case MLOperandDataType::kUint32: uv = raw(uint32_t{}); break;
    case MLOperandDataType::kInt64: iv = raw(int64_t{}); break;
    case MLOperandDataType::kUint64: uv = raw(uint64_t{}); break;
    case MLOperandDataType::kInt8: iv = raw(int8_t{}); break;
    case MLOperandDataType::kUint8: uv = raw(uint8_t{}); break;
    case MLOperandDataType::kInt4: {
      uint8_t b = static_cast<uint8_t>(d[k / 2]);
      int nib = (k & 1) ? (b >> 4) : (b & 0xf);
      iv = nib >= 8 ? nib - 16 : nib;
      break;
    }
    case MLOperandDataType::kUint4: {
      uint8_t b = static_cast<uint8_t>(d[k / 2]);
      uv = (k & 1) ? (b >> 4) : (b & 0xf);
      break;
    }
  }
  if (IsSignedInteger(t)) f = static_cast<double>(iv), uv = static_cast<uint64_t>(iv);
  if (IsUnsignedInteger(t)) f = static_cast<double>(uv), iv = static_cast<int64_t>(uv);
  if (i) *i = iv;
  if (u) *u = uv;
  return f;
}

int64_t OrderedBits(const std::vector<std::byte>& d, MLOperandDataType t, uint64_t k) {
  if (t == MLOperandDataType::kFloat16) {
    uint16_t h;
    std::memcpy(&h, d.data() + k * 2, 2);
    return (h & 0x8000) ? -int64_t(h & 0x7fff) : int64_t(h);
  }
  uint32_t b;
  std::memcpy(&b, d.data() + k * 4, 4);
  return (b & 0x80000000u) ? -int64_t(b & 0x7fffffffu) : int64_t(b);
}

}  // namespace

std::vector<std::byte> RandomTensorData(const InputSpec& spec, std::mt19937_64& rng) {
  const uint64_t n = core::ElementCount(spec.shape);
  std::vector<std::byte> d(ByteLengthFor(spec.type, n));
  std::uniform_real_distribution<double> uf(spec.lo, spec.hi);
  std::uniform_int_distribution<int64_t> ui(static_cast<int64_t>(std::ceil(spec.lo)),
                                            static_cast<int64_t>(std::floor(spec.hi)));
  std::uniform_real_distribution<double> pick(0, 1);
  const double specials[] = {std::nan(""), INFINITY, -INFINITY, -0.0, 0.0, 65504.0, -65504.0, 3.0e38, 1e-7};
  for (uint64_t k = 0; k < n; ++k) {
    const bool special = spec.special_fraction > 0 && pick(rng) < spec.special_fraction;
    auto put = [&](auto x) { std::memcpy(d.data() + k * sizeof(x), &x, sizeof(x)); };
    if (IsFloatingPoint(spec.type)) {
      double v = special ? specials[rng() % std::size(specials)] : uf(rng);
      if (spec.type == MLOperandDataType::kFloat32) put(static_cast<float>(v));
      else put(core::DoubleToHalfBits(v));
      continue;
    }
    int64_t v = ui(rng);
    if (special) {
      // Integer extremes of the type.
      const int bits = BitsPerElement(spec.type);
      if (IsSignedInteger(spec.type))
        v = (rng() & 1) ? (bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1)))
                        : (bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1);
      else v = (rng() & 1) ? 0 : (bits == 64 ? -1 : (int64_t{1} << bits) - 1);
    }
    switch (spec.type) {
      case MLOperandDataType::kInt32: put(static_cast<int32_t>(v)); break;
      case MLOperandDataType::kUint32: put(static_cast<uint32_t>(v)); break;
      case MLOperandDataType::kInt64: put(v); break;
      case MLOperandDataType::kUint64: put(static_cast<uint64_t>(v)); break;
      case MLOperandDataType::kInt8: put(static_cast<int8_t>(v)); break;
      case MLOperandDataType::kUint8: put(static_cast<uint8_t>(v)); break;
      case MLOperandDataType::kInt4:
      case MLOperandDataType::kUint4: {
        uint8_t& b = reinterpret_cast<uint8_t&>(d[k / 2]);
        const uint8_t nib = static_cast<uint8_t>(v & 0xf);
        b = (k & 1) ? static_cast<uint8_t>((b & 0x0f) | (nib << 4)) : static_cast<uint8_t>((b & 0xf0) | nib);
        break;
      }
      default: break;
    }
  }
  return d;
}

std::vector<uint32_t> RandomShape(std::mt19937_64& rng, uint32_t rank, uint32_t max_dim) {
  std::vector<uint32_t> s;
  for (uint32_t i = 0; i < rank; ++i) {
    const uint64_t r = rng() % 4;
    if (r == 0) s.push_back(1);
    else if (r == 1) s.push_back(static_cast<uint32_t>(1 + 2 * (rng() % ((max_dim + 1) / 2))));  // odd
    else s.push_back(static_cast<uint32_t>(1 + rng() % max_dim));
  }
  return s;
}

namespace {
std::map<std::string, HostTensor> RunOn(const MLContextOptions& options, const std::vector<InputSpec>& specs,
                                        const std::vector<std::vector<std::byte>>& data, const GraphBody& body) {
  // Strict placement: the kernel tests measure the device itself.
  MLContextOptions strict = options;
  strict.strictPlacement = true;
  MLContext ctx = ML::createContext(strict);
  MLGraphBuilder builder(ctx);
  std::vector<MLOperand> operands;
  for (size_t i = 0; i < specs.size(); ++i) {
    MLOperandDescriptor desc{specs[i].type, {}};
    for (uint32_t d : specs[i].shape) desc.shape.emplace_back(d);
    if (specs[i].constant) operands.push_back(builder.constant(desc, MLBufferSource(std::span<const std::byte>(data[i]))));
    else operands.push_back(builder.input("in" + std::to_string(i), desc));
  }
  MLNamedOperands outs = body(builder, operands);
  MLGraph graph = builder.build(outs);
  MLNamedTensors in_tensors, out_tensors;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].constant) continue;
    MLTensor t = ctx.createTensor({specs[i].type, specs[i].shape, false, true});
    ctx.writeTensor(t, MLBufferSource(std::span<const std::byte>(data[i])));
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
}  // namespace

size_t CheckAgainstReference(MLDeviceType device, const std::string& what, const std::vector<InputSpec>& inputs,
                             const GraphBody& body, Tolerance tolerance, uint64_t seed) {
  return CheckAgainstReference(MLContextOptions{.device = device}, what, inputs, body, tolerance, seed);
}

size_t CheckAgainstReference(const MLContextOptions& options, const std::string& what,
                             const std::vector<InputSpec>& inputs, const GraphBody& body, Tolerance tolerance,
                             uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::byte>> data;
  for (const InputSpec& s : inputs) data.push_back(RandomTensorData(s, rng));
  const auto want = RunOn(MLContextOptions{.device = MLDeviceType::kReference}, inputs, data, body);
  std::map<std::string, HostTensor> got;
  // A device that may leave ops out (gpu) counts a graph it refuses as
  // unsupported; the reference and cpu devices fail on it.
  if (!RunUnlessUnsupported(options.device, what, [&] { got = RunOn(options, inputs, data, body); })) return 0;
  size_t compared = 0;
  for (const auto& [name, w] : want) {
    const HostTensor& g = got.at(name);
    INFO(what << " | output " << name);
    REQUIRE(g.type == w.type);
    REQUIRE(g.shape == w.shape);
    const uint64_t n = core::ElementCount(w.shape);
    uint64_t bad = 0, first_bad = 0;
    double worst = 0;
    for (uint64_t k = 0; k < n; ++k) {
      bool ok;
      double dist = 0;
      if (IsFloatingPoint(w.type)) {
        const double a = Get(g.data, g.type, k), b = Get(w.data, w.type, k);
        if (std::isnan(a) || std::isnan(b)) {
          ok = std::isnan(a) && std::isnan(b);
        } else if (std::isinf(a) || std::isinf(b)) {
          ok = a == b;
        } else if (tolerance.metric == Tolerance::Metric::kAtol) {
          dist = std::fabs(a - b);
          ok = dist <= tolerance.value;
        } else if (tolerance.metric == Tolerance::Metric::kScaled) {
          dist = std::fabs(a - b);
          ok = dist <= tolerance.value * std::max(1.0, std::fabs(b));
        } else {
          dist = static_cast<double>(std::llabs(OrderedBits(g.data, g.type, k) - OrderedBits(w.data, w.type, k)));
          ok = dist <= tolerance.value;
        }
      } else {
        int64_t ai, bi;
        uint64_t au, bu;
        Get(g.data, g.type, k, &ai, &au);
        Get(w.data, w.type, k, &bi, &bu);
        ok = au == bu;
        dist = ok ? 0 : 1;
      }
      if (!ok) {
        if (bad == 0) first_bad = k;
        ++bad;
      }
      worst = std::max(worst, dist);
    }
    if (bad) {
      std::ostringstream os;
      os << bad << " of " << n << " elements differ; first at index " << first_bad << ": got "
         << Get(g.data, g.type, first_bad) << ", reference " << Get(w.data, w.type, first_bad)
         << "; worst distance " << worst;
      FAIL_CHECK(os.str());
    }
    compared += n;
  }
  return compared;
}

}  // namespace webnn::test
