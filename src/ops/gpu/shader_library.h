// The compute shaders of src/ops/gpu/shaders, compiled to SPIR-V at build time
// (glslangValidator), validated with spirv-val and embedded by
// scripts/embed_spirv.py into the generated gpu_shaders.cc.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace webnn::ops::gpu {

// The SPIR-V words of a shader variant ("elementwise_binary.f32"); empty if
// the build has no such shader.
std::span<const uint32_t> FindShader(std::string_view name);

}  // namespace webnn::ops::gpu
