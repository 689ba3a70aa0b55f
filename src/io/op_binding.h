// The binding from JavaScript-like calls to the C++ API: converts JsValue
// arguments with WebIDL's rules (EnforceRange, restricted doubles, enums,
// sequences, dictionaries) and calls the MLGraphBuilder method. Conversion
// failures are TypeErrors naming the method, the argument and the rule, as a
// browser's binding would raise them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/js_value.h"
#include "webnn/webnn.h"

namespace webnn::io {

// One positional parameter of an operation (the options dictionary excluded).
struct ParamInfo {
  enum class Kind { kOperand, kOperandList, kValue };
  std::string name;
  Kind kind;
};

// The positional parameters of an operation, in IDL order; nullptr if `op` is
// not one of the 95 operations.
const std::vector<ParamInfo>* OpParams(std::string_view op);

// Calls builder.<op>(args...). `args` are the positional arguments, optionally
// followed by the options dictionary. Returns the operand(s) produced.
// `strict`: unknown members of the options dictionary are a TypeError (JS
// ignores them; graph files should not have them).
std::vector<MLOperand> InvokeOp(MLGraphBuilder& builder, std::string_view op, const std::vector<JsValue>& args,
                                bool strict = false);

// WebIDL conversions, exposed for the runners (input(), constant()).
MLOperandDescriptor ToOperandDescriptor(const JsValue& v, const std::string& what);
MLOperandDataType ToDataType(const JsValue& v, const std::string& what);
MLNumber ToMLNumber(const JsValue& v, const std::string& what);
std::string ToUSVString(const JsValue& v, const std::string& what);

}  // namespace webnn::io
