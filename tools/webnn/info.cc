// webnn info: version, devices, CPU features, and the operator x device x data
// type table derived from each device's opSupportLimits().
#include <cstdio>
#include <string>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "commands.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

std::string Short(MLOperandDataType t) {
  switch (t) {
    case MLOperandDataType::kFloat32: return "f32";
    case MLOperandDataType::kFloat16: return "f16";
    case MLOperandDataType::kInt32: return "i32";
    case MLOperandDataType::kUint32: return "u32";
    case MLOperandDataType::kInt64: return "i64";
    case MLOperandDataType::kUint64: return "u64";
    case MLOperandDataType::kInt8: return "i8";
    case MLOperandDataType::kUint8: return "u8";
    case MLOperandDataType::kInt4: return "i4";
    case MLOperandDataType::kUint4: return "u4";
  }
  return "?";
}

#if defined(__x86_64__) || defined(__i386__)
// CPUID leaf 1, ECX bit 29. (clang 14 rejects __builtin_cpu_supports("f16c").)
// F16C instructions use the AVX register state, so they need AVX enabled too.
bool HasF16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  return (ecx & bit_F16C) != 0 && __builtin_cpu_supports("avx");
}
#endif

std::string CpuFeatures() {
  std::string s;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  struct Feature {
    const char* name;
    bool present;
  };
  const Feature features[] = {
      {"sse4.2", static_cast<bool>(__builtin_cpu_supports("sse4.2"))},
      {"avx", static_cast<bool>(__builtin_cpu_supports("avx"))},
      {"avx2", static_cast<bool>(__builtin_cpu_supports("avx2"))},
      {"fma", static_cast<bool>(__builtin_cpu_supports("fma"))},
      {"f16c", HasF16c()},
      {"avx512f", static_cast<bool>(__builtin_cpu_supports("avx512f"))},
      {"avx512bw", static_cast<bool>(__builtin_cpu_supports("avx512bw"))},
      {"avx512vl", static_cast<bool>(__builtin_cpu_supports("avx512vl"))},
      {"avx512vnni", static_cast<bool>(__builtin_cpu_supports("avx512vnni"))},
      {"avx512bf16", static_cast<bool>(__builtin_cpu_supports("avx512bf16"))},
  };
  for (const auto& f : features)
    if (f.present) s.append(s.empty() ? "" : " ").append(f.name);  // (not "" + string: GCC 12 -Wrestrict)
#elif defined(__aarch64__)
  s = "aarch64 (neon)";
#endif
  return s.empty() ? "(none detected)" : s;
}

// The input-slot data types of `op`: the union over its operands, which for
// most ops is the type set of the first operand.
std::string TypesOf(const MLOperatorSupportLimits& limits) {
  std::string s;
  for (const char* slot : {"input", "a", "inputs", "condition"}) {
    auto it = limits.find(slot);
    if (it == limits.end()) continue;
    if (std::string(slot) == "condition") it = limits.find("trueValue");  // where: the value type
    for (MLOperandDataType t : it->second.dataTypes) s.append(s.empty() ? "" : ",").append(Short(t));
    break;
  }
  return s.empty() ? "-" : s;
}

}  // namespace

int Info(const Args& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::printf("usage: webnn info\nPrints the version, devices, CPU features and the operator table.\n");
    return 0;
  }
  std::printf("webnn %s\n", ML::version().c_str());
  std::printf("cpu features: %s\n", CpuFeatures().c_str());
  std::printf("hardware threads: %u\n", std::thread::hardware_concurrency());
  std::printf("devices:\n");
  std::vector<MLDeviceInfo> devices = ML::devices();
  std::vector<MLOpSupportLimits> limits;
  for (const MLDeviceInfo& d : devices) {
    std::printf("  %-10s %s%s\n", d.name.c_str(), d.description.c_str(), d.accelerated ? " (accelerated)" : "");
    if (!d.features.empty()) std::printf("  %-10s %s\n", "", d.features.c_str());
    limits.push_back(ML::createContext({.device = d.type}).opSupportLimits());
  }
  if (const std::string why = ML::whyUnavailable(MLDeviceType::kGpu); !why.empty())
    std::printf("  %-10s not available: %s\n", "gpu", why.c_str());
  const size_t ops = limits.empty() ? 0 : limits[0].operators.size();
  std::printf("\n%zu operators; data types of each operator's main input per device:\n\n", ops);
  std::printf("%-22s", "operator");
  for (const MLDeviceInfo& d : devices) std::printf(" | %-34s", d.name.c_str());
  std::printf("\n");
  if (limits.empty()) return 0;
  for (const auto& [op, op_limits] : limits[0].operators) {
    std::printf("%-22s", op.c_str());
    for (const MLOpSupportLimits& l : limits) {
      auto it = l.operators.find(op);
      std::printf(" | %-34s", it == l.operators.end() ? "-" : TypesOf(it->second).c_str());
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace webnn::cli
