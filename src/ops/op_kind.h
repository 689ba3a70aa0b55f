// OpKind: one enumerator per entry of op_list.inc (the WebNN operators), then
// one per entry of internal_op_list.inc (ops that only graph passes create).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace webnn::ops {

enum class OpKind : uint8_t {
#define WEBNN_OP(name, Family) name,
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) name,
#include "ops/internal_op_list.inc"
};

// The WebNN operators (op_list.inc) only.
inline constexpr int kOpCount = 0
#define WEBNN_OP(name, Family) +1
#include "ops/op_list.inc"
    ;

// Every OpKind, internal ones included: the size of arrays indexed by OpKind.
inline constexpr int kOpKindCount = kOpCount
#define WEBNN_INTERNAL_OP(name, Family) +1
#include "ops/internal_op_list.inc"
    ;

// True for ops of internal_op_list.inc (created by graph passes only).
constexpr bool IsInternalOp(OpKind op) { return static_cast<int>(op) >= kOpCount; }

// The Gather family: reads its indices and the input elements they name,
// not its whole input (what step costs and the QoS model count).
constexpr bool IsGather(OpKind op) {
  return op == OpKind::gather || op == OpKind::gatherElements || op == OpKind::gatherND;
}

std::string_view OpName(OpKind op);      // "conv2d"
std::string_view OpFamily(OpKind op);    // "Conv2d"
// WebNN operators only: internal ops have no name a graph file may use.
std::optional<OpKind> ParseOpKind(std::string_view name);

// All WebNN operators, in op_list.inc order (no internal ops).
inline constexpr OpKind kAllOps[] = {
#define WEBNN_OP(name, Family) OpKind::name,
#include "ops/op_list.inc"
};

}  // namespace webnn::ops
