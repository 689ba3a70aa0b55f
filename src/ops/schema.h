// Operator schemas: the operand slots of each operation with the spec's allowed
// data types and ranks, and the shape-inference function that validates an
// operation and computes its output descriptors.
//
// An Infer function is written once per operation and runs both when the graph
// is built (dynamic dims at their upper bounds, symbols carried through) and at
// dispatch (all dims concrete). It never reads tensor data.
#pragma once

#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/data_type.h"
#include "core/shape.h"
#include "core/strings.h"
#include "core/symbols.h"
#include "ops/op_kind.h"
#include "webnn/types.h"

namespace webnn::ops {

using core::DataType;
using core::DataTypeSet;
using core::Dim;
using core::OperandDesc;
using core::Shape;
using core::SpecElementTypes;
using core::TypeList;
using core::TypeTag;
using core::VisitType;

// Attributes of one operation node (everything that is not an operand).
// Each family defines its own struct deriving from this.
struct OpAttrs {
  virtual ~OpAttrs() = default;
};
struct NoAttrs final : OpAttrs {};

struct RankRange {
  uint32_t min = 0;
  uint32_t max = core::kMaxRank;
  bool Contains(uint32_t r) const { return r >= min && r <= max; }
};
inline constexpr RankRange kAnyRank{0, core::kMaxRank};
constexpr RankRange Rank(uint32_t r) { return RankRange{r, r}; }
constexpr RankRange RanksFrom(uint32_t min) { return RankRange{min, core::kMaxRank}; }

struct TensorSlot {
  std::string_view name;  // as in the spec's tensor-limits table: "input", "filter", "output", ...
  DataTypeSet allowed;    // the spec's allowed data types (used when same_as < 0)
  int same_as = -1;       // must have the data type of this input slot
  RankRange ranks = kAnyRank;
  bool optional = false;  // operand-valued option; may be absent
  bool variadic = false;  // concat's `inputs`, split's `outputs`: a list of operands
};

class InferContext;
using InferFn = std::vector<OperandDesc> (*)(const InferContext& ctx, const OpAttrs& attrs,
                                             std::span<const OperandDesc* const> inputs);

struct OpSchema {
  OpKind kind;
  std::vector<TensorSlot> inputs;   // positional operands, then operand-valued options
  std::vector<TensorSlot> outputs;
  InferFn infer = nullptr;
};

const OpSchema& GetSchema(OpKind op);

// Per-slot support limits (spec's allowed set narrowed by a device).
struct SlotLimits {
  DataTypeSet types;
  RankRange ranks;
};
struct OpLimits {
  std::vector<SlotLimits> inputs;
  std::vector<SlotLimits> outputs;
};
// The schema's own limits: allowed types with same_as resolved.
const OpLimits& SchemaLimits(OpKind op);

// Error reporting and dimension creation for Infer functions.
class InferContext {
 public:
  // `symbols` may be null when every dimension is static (dispatch).
  InferContext(OpKind op, std::string_view label, core::SymbolTable* symbols)
      : op_(op), label_(label), symbols_(symbols) {}

  OpKind op() const { return op_; }
  std::string_view label() const { return label_; }

  // "conv2d [stem]: " (the label in brackets, as WPT checks) or "conv2d: ".
  std::string Prefix() const;

  // Throws TypeError with the op/label prefix.
  template <typename... Args>
  [[noreturn]] void Fail(const Args&... args) const {
    ThrowTypeError(core::StrCat(args...));
  }
  [[noreturn]] void ThrowTypeError(const std::string& message) const;

  // A computed output dimension. Validates 0 < size <= kMaxDimension (TypeError
  // naming `what` otherwise). If any of `from` is dynamic the result is a new
  // derived dynamic dimension bounded by `size`.
  Dim MakeDim(uint64_t size, std::initializer_list<Dim> from, std::string_view what) const;
  Dim MakeDim(uint64_t size, const std::vector<Dim>& from, std::string_view what) const;
  // A dimension given as an argument (reshape/expand new shapes).
  Dim ResolveDimension(const MLDimension& d, std::string_view what) const;
  // Describes a dim for messages: "5" or "batch(<=8)".
  std::string DimToString(const Dim& d) const;
  std::string ShapeToString(const Shape& s) const;

  // Validates a finished output: dims valid, rank <= kMaxRank, byte length within
  // kMaxTensorByteLength. Infer drivers call this; Infer functions need not.
  void CheckOutput(const OperandDesc& out, std::string_view name) const;

 private:
  OpKind op_;
  std::string_view label_;
  core::SymbolTable* symbols_;
};

// ---------------------------------------------------------------------------
// Shared validation/inference helpers (implemented in ops/infer_util.cc).
// ---------------------------------------------------------------------------

// The spec's "bidirectionally broadcast the shapes"; fails with TypeError.
Shape BroadcastShapes(const InferContext& ctx, const Shape& a, const Shape& b,
                      std::string_view a_name, std::string_view b_name);
// "unidirectionally broadcast" `from` to `to`; returns false on failure.
bool IsUnidirectionallyBroadcastable(const Shape& from, const Shape& to);
// "blockwise broadcastable": same rank, every from[i] divides to[i].
bool IsBlockwiseBroadcastable(const Shape& from, const Shape& to);

// Validates an axes list against `rank`: each < rank, no duplicates.
void CheckAxes(const InferContext& ctx, const std::vector<uint32_t>& axes, uint32_t rank,
               std::string_view what);
// Requires ranks in [range]: "argument 'filter' rank must be 4, got 3".
void CheckRank(const InferContext& ctx, const OperandDesc& d, RankRange range,
               std::string_view what);
void CheckRank(const InferContext& ctx, const OperandDesc& d, uint32_t rank, std::string_view what);
void CheckSameType(const InferContext& ctx, const OperandDesc& a, const OperandDesc& b,
                   std::string_view a_name, std::string_view b_name);
void CheckType(const InferContext& ctx, const OperandDesc& d, DataTypeSet allowed,
               std::string_view what);
// Requires `d` to have exactly `expected` (static-aware) as shape.
void CheckShape(const InferContext& ctx, const OperandDesc& d, const Shape& expected,
                std::string_view what);

// Typed access to a node's attributes.
template <typename T>
const T& AttrsAs(const OpAttrs& attrs) {
  return static_cast<const T&>(attrs);
}

}  // namespace webnn::ops
