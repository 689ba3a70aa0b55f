// WorkgroupSum(v): the float-pair sum (float_float.glsl's FFAdd) of every
// invocation's v over a 256-invocation workgroup, returned to all of them
// (softmax, normalization and fusedNormalization's row sums). It has its own
// shared array; call it from uniform control flow. Include after
// float_float.glsl.
shared vec2 workgroup_sum_partial[256];

vec2 WorkgroupSum(vec2 v) {
  const uint lid = gl_LocalInvocationID.x;
  workgroup_sum_partial[lid] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) workgroup_sum_partial[lid] = FFAdd(workgroup_sum_partial[lid], workgroup_sum_partial[lid + s]);
    barrier();
  }
  const vec2 r = workgroup_sum_partial[0];
  barrier();
  return r;
}
