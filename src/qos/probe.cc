#include "qos/probe.h"

#include <algorithm>
#include <cstring>
#include <random>

#include "api/impl.h"

namespace webnn::qos {

MLOperand ProbeGraph::Input(const Dims& shape, MLOperandDataType type) {
  return builder_.input("in" + std::to_string(inputs_++), {type, {shape.begin(), shape.end()}});
}

MLOperand ProbeGraph::Const(const Dims& shape, MLOperandDataType type) {
  std::vector<std::byte> bytes = Data(type, shape);
  return builder_.constant({type, {shape.begin(), shape.end()}}, MLBufferSource(std::span<const std::byte>(bytes)));
}

std::vector<std::byte> ProbeGraph::Data(MLOperandDataType type, const Dims& shape) {
  uint64_t n = 1;
  for (uint32_t d : shape) n *= d;
  if (type != MLOperandDataType::kFloat32) return std::vector<std::byte>(ByteLengthFor(type, n));
  // One random block repeated: generating 16M random floats per probe
  // took longer than timing it.
  static const std::vector<float> block = [] {
    std::vector<float> v(4096);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.5f, 1.5f);
    for (float& x : v) x = u(rng);
    return v;
  }();
  std::vector<std::byte> bytes(n * 4);
  for (uint64_t i = 0; i < n; i += block.size())
    std::memcpy(bytes.data() + i * 4, block.data(), std::min<uint64_t>(block.size(), n - i) * 4);
  return bytes;
}

void MakeProbeTensors(MLContext& context, const MLGraph& graph, MLNamedTensors& inputs, MLNamedTensors& outputs) {
  const auto largest = [](const MLOperandDescriptor& desc) {
    ProbeGraph::Dims shape;
    for (const MLDimension& d : desc.shape) shape.push_back(static_cast<uint32_t>(d.size()));
    return shape;
  };
  for (const auto& [name, desc] : graph.inputDescriptors()) {
    const ProbeGraph::Dims shape = largest(desc);
    MLTensor t = context.createTensor({desc.dataType, shape, false, true});
    context.writeTensor(t, MLBufferSource(std::span<const std::byte>(ProbeGraph::Data(desc.dataType, shape))));
    inputs[name] = t;
  }
  for (const auto& [name, desc] : graph.outputDescriptors())
    outputs[name] = context.createTensor({desc.dataType, largest(desc), true, false});
}

ProbeRun::ProbeRun(MLContext& context, ProbeGraph& g, const MLOperand& out, const StepMatch& match,
                   const ProbeRun* share)
    : context_(context) {
  graph_ = g.b().build({{"out", out}});
  if (share) {
    inputs_ = share->inputs_;
    outputs_ = share->outputs_;
  } else {
    MakeProbeTensors(context, graph_, inputs_, outputs_);
  }
  const auto& exe = *static_cast<internal::GraphImpl&>(*graph_.impl()).executable;
  Run();  // the shapes of the program's values, from a profiled run
  const auto profile = exe.last_profile();
  for (size_t s = 0; s < exe.program().steps.size(); ++s) {
    const std::optional<double> work = match(exe.program(), exe.program().steps[s], profile.shapes);
    if (!work) continue;
    steps_.push_back(s);
    work_ += *work;
  }
}

ProbeRun::~ProbeRun() { graph_.destroy(); }

double ProbeRun::Run() {
  MLDispatchOptions o;
  o.profile = true;
  context_.dispatch(graph_, inputs_, outputs_, o);
  context_.finish();
  const auto& exe = *static_cast<internal::GraphImpl&>(*graph_.impl()).executable;
  const auto profile = exe.last_profile();
  double ms = 0;
  for (size_t s : steps_) ms += profile.step_ms[s];
  return ms;
}

void ProbeRun::Dispatch() {
  context_.dispatch(graph_, inputs_, outputs_);
  context_.finish();
}

}  // namespace webnn::qos
