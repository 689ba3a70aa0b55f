#include "bench_util.h"

#include <cstring>

#include "core/float16.h"
#include "core/shape.h"
#include "io/webnn_graph.h"

namespace webnn::bench {

namespace {
std::vector<std::byte> RandomData(const BenchInput& in, std::mt19937_64& rng) {
  const uint64_t n = core::ElementCount(in.shape);
  std::vector<std::byte> d(ByteLengthFor(in.type, n));
  std::uniform_real_distribution<float> uf(-1, 1);
  for (uint64_t k = 0; k < n; ++k) {
    if (in.type == MLOperandDataType::kFloat32) {
      float v = uf(rng);
      std::memcpy(d.data() + 4 * k, &v, 4);
    } else if (in.type == MLOperandDataType::kFloat16) {
      uint16_t v = core::FloatToHalfBits(uf(rng));
      std::memcpy(d.data() + 2 * k, &v, 2);
    } else if (BitsPerElement(in.type) >= 8) {
      d[k * (BitsPerElement(in.type) / 8)] = static_cast<std::byte>(rng() % 4);
    }
  }
  return d;
}
}  // namespace

BenchGraph::BenchGraph(MLDeviceType device, uint32_t threads, const std::vector<BenchInput>& inputs,
                       const GraphBody& body)
    : BenchGraph(MLContextOptions{.device = device, .numThreads = threads}, inputs, body) {}

BenchGraph::BenchGraph(const MLContextOptions& options, const std::vector<BenchInput>& inputs, const GraphBody& body)
    : context_(ML::createContext(options)) {
  std::mt19937_64 rng(1);
  MLGraphBuilder builder(context_);
  std::vector<MLOperand> operands;
  std::vector<std::vector<std::byte>> data;
  for (size_t i = 0; i < inputs.size(); ++i) {
    data.push_back(RandomData(inputs[i], rng));
    MLOperandDescriptor desc{inputs[i].type, {}};
    for (uint32_t d : inputs[i].shape) desc.shape.emplace_back(d);
    operands.push_back(inputs[i].constant ? builder.constant(desc, MLBufferSource(std::span<const std::byte>(data[i])))
                                          : builder.input("in" + std::to_string(i), desc));
  }
  MLNamedOperands outs = body(builder, operands);
  graph_ = builder.build(outs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].constant) continue;
    MLTensor t = context_.createTensor({inputs[i].type, inputs[i].shape, false, true});
    context_.writeTensor(t, MLBufferSource(std::span<const std::byte>(data[i])));
    inputs_["in" + std::to_string(i)] = t;
  }
  for (const auto& [name, o] : outs) {
    std::vector<uint32_t> shape;
    for (const auto& d : o.shape()) shape.push_back(static_cast<uint32_t>(d.size()));
    outputs_[name] = context_.createTensor({o.dataType(), shape, true, false});
  }
}

BenchGraph::BenchGraph(const MLContextOptions& options, const std::string& model_path)
    : context_(ML::createContext(options)) {
  io::LoadedGraph loaded = io::LoadGraphFile(context_, model_path, {});
  graph_ = loaded.graph;
  std::mt19937_64 rng(1);
  for (const auto& [name, desc] : loaded.inputs) {
    BenchInput in{desc.dataType, {}};
    for (const MLDimension& d : desc.shape) in.shape.push_back(static_cast<uint32_t>(d.size()));
    const std::vector<std::byte> data = RandomData(in, rng);
    inputs_[name] = context_.createTensor({in.type, in.shape, false, true});
    context_.writeTensor(inputs_[name], MLBufferSource(std::span<const std::byte>(data)));
  }
  for (const auto& [name, desc] : loaded.outputs) {
    std::vector<uint32_t> shape;
    for (const MLDimension& d : desc.shape) shape.push_back(static_cast<uint32_t>(d.size()));
    outputs_[name] = context_.createTensor({desc.dataType, shape, true, false});
  }
}

void SetRates(benchmark::State& state, double flops, double bytes) {
  if (flops > 0)
    state.counters["GFLOP"] =
        benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  if (bytes > 0)
    state.counters["GB"] =
        benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

uint32_t ThreadsArg(const benchmark::State& state, int index) {
  return static_cast<uint32_t>(state.range(index));
}

MLOperand ConvLayer(MLGraphBuilder& b, const std::vector<MLOperand>& in, uint32_t pad, uint32_t stride,
                    uint32_t groups, bool nhwc) {
  MLConv2dOptions o;
  if (nhwc) {
    o.inputLayout = MLInputOperandLayout::kNhwc;
    o.filterLayout = MLConv2dFilterOperandLayout::kOhwi;
  }
  o.padding = std::vector<uint32_t>{pad, pad, pad, pad};
  o.strides = std::vector<uint32_t>{stride, stride};
  o.groups = groups;
  o.bias = in[2];
  return b.conv2d(in[0], in[1], o);
}

}  // namespace webnn::bench
