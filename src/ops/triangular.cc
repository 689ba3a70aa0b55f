// triangular: validation and shape inference.
#include <stdexcept>

#include "ops/triangular.h"

namespace webnn::ops {
namespace {

// The only failing step beyond the generic ones is the rank (2 to N), which
// the schema's rank range already enforces.
std::vector<OperandDesc> InferTriangular(const InferContext&, const OpAttrs&,
                                         std::span<const OperandDesc* const> in) {
  return {*in[0]};
}

}  // namespace

const OpSchema& TriangularSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::triangular,
                                {{"input", core::kAnySpecType, -1, RanksFrom(2)}},
                                {{"output", {}, 0, RanksFrom(2)}},
                                &InferTriangular};
  if (op != OpKind::triangular) throw std::logic_error("TriangularSchema: not triangular");
  return kSchema;
}

}  // namespace webnn::ops
