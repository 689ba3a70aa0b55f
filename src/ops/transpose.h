#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"

namespace webnn::ops {

struct TransposeAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> permutation;  // default: reversed axes
};

// The permutation transpose applies for an input of `rank`.
std::vector<uint32_t> ResolvePermutation(const TransposeAttrs& attrs, uint32_t rank);

}  // namespace webnn::ops
