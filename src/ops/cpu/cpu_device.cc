#include "ops/cpu/cpu_device.h"

#include <hwy/targets.h>

#include <cctype>
#include <cstdlib>
#include <string>

#include "core/strings.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/host_device.h"

namespace webnn::ops {
namespace {

// WEBNN_CPU_MAX_TARGET=NAME caps runtime dispatch at a Highway target named
// as `webnn info` prints them (AVX3, AVX2, SSE4, NEON, SVE, EMU128, ...):
// the tests run every kernel of each x86 target this way, and kernel
// engineers compare targets on one machine. A cap above what the CPU has
// changes nothing. Applied once, when the device is created, before any
// kernel is packed or dispatched (conv tilings are cached per process).
// Returns the error for a name this build has no target for, or "".
std::string ApplyMaxTargetFromEnvironment() {
  const char* env = std::getenv("WEBNN_CPU_MAX_TARGET");
  if (!env || !*env) return "";
  std::string want(env);
  for (char& c : want) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int64_t cap = 0;
  std::string compiled;
  for (int64_t t = HWY_TARGETS; t != 0; t &= t - 1) {
    const int64_t target = t & -t;
    compiled += core::StrCat(compiled.empty() ? "" : ", ", hwy::TargetName(target));
    if (want == hwy::TargetName(target)) cap = target;
  }
  if (!cap)
    return core::StrCat("WEBNN_CPU_MAX_TARGET=", env, ": this build has no such SIMD target (it has ", compiled, ")");
  hwy::DisableTargets(cap - 1);  // every better target: the lower bits in Highway's encoding
  return "";
}

class CpuDevice final : public HostDevice {
 public:
  CpuDevice() : target_error_(ApplyMaxTargetFromEnvironment()) {}
  MLDeviceType type() const override { return MLDeviceType::kCpu; }
  std::string_view name() const override { return "cpu"; }
  std::string description() const override {
    if (!target_error_.empty()) return target_error_;
    // Runtime dispatch picks the best compiled target the CPU supports (the
    // lowest set bit is the best in Highway's encoding).
    const int64_t supported = hwy::SupportedTargets();
    // Highway 1.0.3's SupportedTargets() re-detects the CPU and points
    // dispatch at the best target it has, ignoring DisableTargets: without
    // this, the first description() (createContext logs it, ML::devices()
    // lists it) lifted WEBNN_CPU_MAX_TARGET's cap for every later kernel.
    // Pointing dispatch back at the capped set is what Highway's own first
    // dispatch does.
    hwy::GetChosenTarget().Update(supported);
    const int64_t targets = supported & HWY_TARGETS;
    return core::StrCat("Highway SIMD kernels, target ", hwy::TargetName(targets & -targets));
  }
  bool accelerated() const override { return false; }
  // The dot products of the gemm microkernels start at +0.
  FloatBehaviour float_behaviour() const override {
    return {.float32_denormal_filters = false, .negative_zero_sums = {}};
  }
  // Every fused form; fusedElementwise chains of any length (its kernel
  // walks the program per cache-sized block).
  DeviceFusions Fusions() const override { return DeviceFusions::All(); }

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
    if (!target_error_.empty()) throw NotSupportedError(core::StrCat("cpu: ", target_error_));
    const cpu::CpuKernel* k = cpu::Registry().Find(step.op, in_types, out_types);
    if (!k) throw NotSupportedError(core::StrCat("cpu: no kernel for ", OpName(step.op), " with these data types"));
    CompiledStep compiled{k->run, nullptr};
    if (k->prepare) {
      cpu::PrepareContext prepare{step.op, *step.attrs, inputs, outputs};
      for (int pass = 0; pass < 2; ++pass)
        for (int32_t v : pass ? step.outputs : step.inputs)
          if (v >= 0)
            for (const core::Dim& d : program.values[v].desc.shape) prepare.static_shapes &= d.IsStatic();
      compiled.prepared = k->prepare(prepare);
      compiled.prepared_bytes = prepare.prepared_bytes;
      compiled.packed_inputs = prepare.packed_inputs;
      compiled.workspace = prepare.workspace;
    }
    return compiled;
  }

 private:
  std::string target_error_;
};

}  // namespace

std::shared_ptr<Device> CreateCpuDevice() { return std::make_shared<CpuDevice>(); }

}  // namespace webnn::ops
