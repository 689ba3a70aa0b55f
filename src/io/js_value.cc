#include "io/js_value.h"

#include <cmath>

#include "core/strings.h"

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

JsValue FromJson(const nlohmann::json& v, int depth) {
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
  if (depth >= kMaxJsonDepth)
    throw DataError(core::StrCat("JSON value nests deeper than the limit of ", kMaxJsonDepth, " levels"));
  if (v.is_array()) {
    JsValue a = JsValue::Array();
    for (const auto& item : v) a.items.push_back(FromJson(item, depth + 1));
    return a;
  }
  JsValue o = JsValue::Object();
  for (const auto& [k, item] : v.items()) o.Set(k, FromJson(item, depth + 1));
  return o;
}
}  // namespace

nlohmann::json ParseJsonDocument(std::string_view text, const std::string& what) {
  // Counts brackets outside strings; a malformed document is left for the
  // parser to reject with its own message.
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw DataError(core::StrCat(what, ": JSON nests deeper than the limit of ", kMaxJsonDepth,
                                     " levels (at byte ", i, ")"));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw DataError(core::StrCat(what, ": not valid JSON: ", e.what()));
  }
}

JsValue JsValueFromJson(const nlohmann::json& v) { return FromJson(v, 0); }

}  // namespace webnn::io
