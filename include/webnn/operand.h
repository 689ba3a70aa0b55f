// MLOperand: a value handle to an operand of one MLGraphBuilder's graph.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "webnn/types.h"

namespace webnn {

namespace internal {
class BuilderImpl;
}

class WEBNN_EXPORT MLOperand {
 public:
  MLOperand() = default;  // a null handle; every builder call rejects it with TypeError

  MLOperandDataType dataType() const;
  // Dimensions; a named dynamic dimension reports its name and maxSize.
  std::vector<MLDimension> shape() const;
  uint32_t rank() const;
  bool isNull() const { return builder_ == nullptr; }

  // Implementation access (not part of the WebNN API).
  MLOperand(std::shared_ptr<internal::BuilderImpl> builder, uint32_t id)
      : builder_(std::move(builder)), id_(id) {}
  const std::shared_ptr<internal::BuilderImpl>& builderImpl() const { return builder_; }
  uint32_t id() const { return id_; }

 private:
  std::shared_ptr<internal::BuilderImpl> builder_;
  uint32_t id_ = 0;
};

}  // namespace webnn
