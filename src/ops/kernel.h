// What a kernel receives: typed views of its input and output buffers with
// concrete shapes, the node's attributes, and the scheduler's parallel-for.
// Kernels know nothing about graphs and never allocate tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/data_type.h"
#include "core/parallel.h"
#include "core/shape.h"
#include "ops/op_kind.h"
#include "ops/schema.h"

namespace webnn::ops {

struct TensorView {
  DataType type = DataType::kFloat32;
  std::vector<uint32_t> shape;
  std::byte* data = nullptr;  // null: optional operand not given
  // Outputs only, reference device only: where ref::Store also writes each
  // element's float64 value before rounding it to `type` (the oracle's truth,
  // src/api/unrounded_outputs.h); null otherwise, and kernels that move bytes
  // without computing (reshape, transpose, ...) never write it.
  double* unrounded = nullptr;

  bool present() const { return data != nullptr; }
  uint32_t rank() const { return static_cast<uint32_t>(shape.size()); }
  uint64_t elements() const { return core::ElementCount(shape); }
  uint64_t bytes() const { return ByteLengthFor(type, elements()); }
  template <typename T> T* as() const { return reinterpret_cast<T*>(data); }
};

struct KernelContext {
  OpKind op;
  const OpAttrs& attrs;
  std::span<const TensorView> inputs;   // schema order; absent options have data == nullptr
  std::span<const TensorView> outputs;  // written by the kernel
  core::ParallelFor& parallel;
  // What the device prepared for this step when the graph was compiled (packed
  // weights, tables); null when the kernel prepares nothing.
  const void* prepared = nullptr;
};

using KernelFn = void (*)(const KernelContext& ctx);

// inputs[i] when the operation was given it (an optional operand is an absent
// view, or missing from the end of the list), else null.
inline const TensorView* OptionalInput(std::span<const TensorView> inputs, size_t i) {
  return i < inputs.size() && inputs[i].present() ? &inputs[i] : nullptr;
}

}  // namespace webnn::ops
