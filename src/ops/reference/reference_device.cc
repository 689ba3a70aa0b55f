#include "ops/reference/reference_device.h"

namespace webnn::ops {

namespace ref {
// One kernel per family, defined in src/ops/reference/<family>.cc.
#define WEBNN_OP(name, Family) void Run##Family(const KernelContext& ctx);
#include "ops/op_list.inc"
}  // namespace ref

namespace {

KernelFn ReferenceKernel(OpKind op) {
  switch (op) {
#define WEBNN_OP(name, Family) \
  case OpKind::name:           \
    return &ref::Run##Family;
#include "ops/op_list.inc"
    default: break;  // internal ops (graph passes) never reach the reference device
  }
  return nullptr;
}

class ReferenceDevice final : public HostDevice {
 public:
  MLDeviceType type() const override { return MLDeviceType::kReference; }
  std::string_view name() const override { return "reference"; }
  std::string description() const override { return "scalar float64 reference kernels"; }
  bool accelerated() const override { return false; }

  DataTypeSet SupportedTypes(OpKind op, bool is_output, size_t slot) const override {
    const OpLimits& limits = SchemaLimits(op);
    const auto& slots = is_output ? limits.outputs : limits.inputs;
    return slot < slots.size() ? slots[slot].types : DataTypeSet{};
  }

 protected:
  CompiledStep CompileStep(const Program&, const ProgramStep& step,
                           std::span<const std::shared_ptr<DeviceBuffer>>) const override {
    return {ReferenceKernel(step.op), nullptr};
  }
};

}  // namespace

std::shared_ptr<Device> CreateReferenceDevice() { return std::make_shared<ReferenceDevice>(); }

}  // namespace webnn::ops
