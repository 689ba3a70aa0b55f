// Included by every compute shader (after #version and
// `#extension GL_GOOGLE_include_directive : require`): the params binding and
// the shared conventions of src/ops/gpu/gpu_kernel.h.
#include "types.glsl"

// Binding 0: words 0..7 are the element offsets of bindings 1..8 (the device
// binds at aligned offsets and passes the rest here), the kernel's words follow.
layout(std430, set = 0, binding = 0) readonly buffer Params { uint params[]; };
#define BASE(binding) params[(binding) - 1]
#define P(i) params[8 + (i)]
#define PF(i) uintBitsToFloat(P(i))

// Grid-stride loop over n items: works for any n with the grid of GridFor().
#define GRID_STRIDE_LOOP(i, n)                                                                 \
  for (uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; \
       i < (n); i += gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x)

const uint kMaxRank = 8;
