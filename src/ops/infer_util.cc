// Shape-inference helpers shared by the operator families.
#include <algorithm>

#include "ops/schema.h"

namespace webnn::ops {

Shape BroadcastShapes(const InferContext& ctx, const Shape& a, const Shape& b,
                      std::string_view a_name, std::string_view b_name) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Right-aligned: missing leading dims act as 1.
    const Dim one = Dim::Static(1);
    const Dim& da = i + a.size() >= rank ? a[i + a.size() - rank] : one;
    const Dim& db = i + b.size() >= rank ? b[i + b.size() - rank] : one;
    if (da.IsStatic() && da.size == 1) {
      out[i] = db;
    } else if (db.IsStatic() && db.size == 1) {
      out[i] = da;
    } else if (SurelyEqual(da, db)) {
      out[i] = da;
    } else if (da.IsStatic() && db.IsStatic()) {
      ctx.Fail("shapes of '", a_name, "' ", ctx.ShapeToString(a), " and '", b_name, "' ",
               ctx.ShapeToString(b), " are not bidirectionally broadcastable (dimension ", i,
               ": ", da.size, " vs ", db.size, ")");
    } else {
      // A dynamic dim against another size: at dispatch it must equal it or be 1.
      // The output is the static one if there is one, else the larger bound.
      if (da.IsStatic()) out[i] = da;
      else if (db.IsStatic()) out[i] = db;
      else out[i] = da.size >= db.size ? da : db;
    }
  }
  return out;
}

bool IsUnidirectionallyBroadcastable(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  const size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    const Dim& f = from[i];
    const Dim& t = to[i + offset];
    if (f.IsStatic() && f.size == 1) continue;
    if (!MaybeEqual(f, t)) return false;
  }
  return true;
}

bool IsBlockwiseBroadcastable(const Shape& from, const Shape& to) {
  if (from.size() != to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    if (!from[i].IsStatic() || !to[i].IsStatic()) {
      if (!MaybeEqual(from[i], to[i]) && !(from[i].IsStatic() && from[i].size == 1)) return false;
      continue;
    }
    if (from[i].size == 0 || to[i].size % from[i].size != 0) return false;
  }
  return true;
}

void CheckAxes(const InferContext& ctx, const std::vector<uint32_t>& axes, uint32_t rank,
               std::string_view what) {
  std::vector<bool> seen(rank, false);
  for (uint32_t axis : axes) {
    if (axis >= rank) ctx.Fail(what, " contains ", axis, ", which is not less than the input rank ", rank);
    if (seen[axis]) ctx.Fail(what, " contains ", axis, " more than once");
    seen[axis] = true;
  }
}

void CheckRank(const InferContext& ctx, const OperandDesc& d, RankRange range, std::string_view what) {
  if (range.Contains(d.rank())) return;
  if (range.min == range.max) ctx.Fail("argument '", what, "' must have rank ", range.min, ", got ", d.rank());
  ctx.Fail("argument '", what, "' must have rank in [", range.min, ", ", range.max, "], got ", d.rank());
}

void CheckRank(const InferContext& ctx, const OperandDesc& d, uint32_t rank, std::string_view what) {
  CheckRank(ctx, d, Rank(rank), what);
}

void CheckSameType(const InferContext& ctx, const OperandDesc& a, const OperandDesc& b,
                   std::string_view a_name, std::string_view b_name) {
  if (a.type != b.type)
    ctx.Fail("argument '", b_name, "' data type ", ToString(b.type), " must match '", a_name, "' (",
             ToString(a.type), ")");
}

void CheckType(const InferContext& ctx, const OperandDesc& d, DataTypeSet allowed, std::string_view what) {
  if (!allowed.Contains(d.type))
    ctx.Fail("argument '", what, "' data type ", ToString(d.type), " is not supported; allowed: ",
             allowed.ToString());
}

void CheckShape(const InferContext& ctx, const OperandDesc& d, const Shape& expected, std::string_view what) {
  bool ok = d.shape.size() == expected.size();
  for (size_t i = 0; ok && i < expected.size(); ++i) ok = MaybeEqual(d.shape[i], expected[i]);
  if (!ok)
    ctx.Fail("argument '", what, "' shape must be ", ctx.ShapeToString(expected), ", got ",
             ctx.ShapeToString(d.shape));
}

}  // namespace webnn::ops
