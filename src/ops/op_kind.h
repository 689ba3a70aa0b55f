// OpKind: one enumerator per entry of op_list.inc.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace webnn::ops {

enum class OpKind : uint8_t {
#define WEBNN_OP(name, Family) name,
#include "ops/op_list.inc"
};

inline constexpr int kOpCount = 0
#define WEBNN_OP(name, Family) +1
#include "ops/op_list.inc"
    ;

std::string_view OpName(OpKind op);      // "conv2d"
std::string_view OpFamily(OpKind op);    // "Conv2d"
std::optional<OpKind> ParseOpKind(std::string_view name);

// All operators, in op_list.inc order.
inline constexpr OpKind kAllOps[] = {
#define WEBNN_OP(name, Family) OpKind::name,
#include "ops/op_list.inc"
};

}  // namespace webnn::ops
