#include "ops/cpu/cpu_device.h"

#include <hwy/targets.h>

#include "core/strings.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/host_device.h"

namespace webnn::ops {
namespace {

class CpuDevice final : public HostDevice {
 public:
  MLDeviceType type() const override { return MLDeviceType::kCpu; }
  std::string_view name() const override { return "cpu"; }
  std::string description() const override {
    // Runtime dispatch picks the best compiled target the CPU supports (the
    // lowest set bit is the best in Highway's encoding).
    const int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
    return core::StrCat("Highway SIMD kernels, target ", hwy::TargetName(targets & -targets));
  }
  bool accelerated() const override { return false; }

  DataTypeSet SupportedTypes(OpKind op, bool is_output, size_t slot) const override {
    return cpu::Registry().SupportedTypes(op, is_output, slot);
  }

 protected:
  CompiledStep CompileStep(const Program& program, const ProgramStep& step,
                           std::span<const std::shared_ptr<DeviceBuffer>> constants) const override {
    std::vector<std::optional<DataType>> in_types;
    std::vector<DataType> out_types;
    std::vector<TensorView> inputs, outputs;
    auto view = [&](int32_t v) {
      TensorView t;
      if (v < 0) return t;
      t.type = program.values[v].desc.type;
      t.shape = core::Sizes(program.values[v].desc.shape);
      if (program.values[v].kind == ProgramValue::Kind::kConstant && constants[v]) t.data = constants[v]->host_data();
      return t;
    };
    for (int32_t v : step.inputs) {
      in_types.push_back(v < 0 ? std::nullopt : std::optional<DataType>(program.values[v].desc.type));
      inputs.push_back(view(v));
    }
    for (int32_t v : step.outputs) {
      out_types.push_back(program.values[v].desc.type);
      outputs.push_back(view(v));
    }
    const cpu::CpuKernel* k = cpu::Registry().Find(step.op, in_types, out_types);
    if (!k) throw NotSupportedError(core::StrCat("cpu: no kernel for ", OpName(step.op), " with these data types"));
    CompiledStep compiled{k->run, nullptr};
    if (k->prepare) compiled.prepared = k->prepare(cpu::PrepareContext{step.op, *step.attrs, inputs, outputs});
    return compiled;
  }
};

}  // namespace

std::shared_ptr<Device> CreateCpuDevice() { return std::make_shared<CpuDevice>(); }

}  // namespace webnn::ops
