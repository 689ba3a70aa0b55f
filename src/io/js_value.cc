#include "io/js_value.h"

#include <cmath>

namespace webnn::io {

namespace {
bool IsIntegerLiteral(const std::string& s) {
  if (s.empty()) return false;
  size_t k = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (k == s.size()) return false;
  for (; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  return true;
}
}  // namespace

JsValue JsValueFromJson(const nlohmann::json& v) {
  if (v.is_null()) {
    JsValue j;
    j.kind = JsValue::Kind::kNull;
    return j;
  }
  if (v.is_boolean()) return JsValue::Boolean(v.get<bool>());
  if (v.is_number()) return JsValue::Number(v.get<double>());
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "NaN") return JsValue::Number(std::nan(""));
    if (s == "Infinity") return JsValue::Number(INFINITY);
    if (s == "-Infinity") return JsValue::Number(-INFINITY);
    if (s == "-0") return JsValue::Number(-0.0);
    if (IsIntegerLiteral(s)) return JsValue::BigInt(s[0] == '+' ? s.substr(1) : s);
    return JsValue::String(s);
  }
  if (v.is_array()) {
    JsValue a = JsValue::Array();
    for (const auto& item : v) a.items.push_back(JsValueFromJson(item));
    return a;
  }
  JsValue o = JsValue::Object();
  for (const auto& [k, item] : v.items()) o.Set(k, JsValueFromJson(item));
  return o;
}

}  // namespace webnn::io
