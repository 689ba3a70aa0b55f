// builder.constant() for the engine's own loaders (src/io): the constant keeps
// a reference to immutable bytes (a view of a read-only mapped weights file)
// instead of a copy. Not public API: the spec's constant(descriptor, buffer)
// must copy a user's buffer, which the user may change afterwards; these bytes
// cannot change.
#pragma once

#include <memory>

#include "webnn/webnn.h"

namespace webnn::memory {
class ConstantBytes;
}

namespace webnn::internal {

// Validates like MLGraphBuilder::constant(descriptor, buffer) (same errors).
MLOperand ConstantFromBytes(MLGraphBuilder& builder, const MLOperandDescriptor& descriptor,
                            std::shared_ptr<const memory::ConstantBytes> bytes);

}  // namespace webnn::internal
