// JsValue: the values a JavaScript caller can pass to the WebNN API (numbers,
// BigInts, strings, arrays, dictionaries, operands, buffers). Every input format
// we read (WPT conformance and validation vectors, webnn-graph files) is turned
// into JsValues and goes through one binding (io/op_binding.h) that converts
// them with WebIDL's rules, so all formats get the same checks and errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "webnn/webnn.h"

namespace webnn::io {

struct JsBuffer {
  MLArrayBufferViewType view = MLArrayBufferViewType::kArrayBuffer;
  std::vector<std::byte> bytes;
  bool detached = false;
};

struct JsValue {
  enum class Kind { kUndefined, kNull, kBoolean, kNumber, kBigInt, kString, kArray, kObject, kOperand, kBuffer, kOther };
  Kind kind = Kind::kUndefined;
  bool boolean = false;
  double number = 0;      // kNumber; kOther: its valueOf() when known
  std::string text;       // kString; kBigInt: decimal digits with optional '-'; kOther: a type name
  std::vector<JsValue> items;                              // kArray
  std::vector<std::pair<std::string, JsValue>> members;    // kObject, in insertion order
  MLOperand operand;                                       // kOperand
  JsBuffer buffer;                                         // kBuffer

  static JsValue Undefined() { return {}; }
  static JsValue Number(double v) {
    JsValue j;
    j.kind = Kind::kNumber;
    j.number = v;
    return j;
  }
  static JsValue String(std::string s) {
    JsValue j;
    j.kind = Kind::kString;
    j.text = std::move(s);
    return j;
  }
  static JsValue Boolean(bool b) {
    JsValue j;
    j.kind = Kind::kBoolean;
    j.boolean = b;
    return j;
  }
  static JsValue BigInt(std::string digits) {
    JsValue j;
    j.kind = Kind::kBigInt;
    j.text = std::move(digits);
    return j;
  }
  static JsValue Operand(MLOperand o) {
    JsValue j;
    j.kind = Kind::kOperand;
    j.operand = std::move(o);
    return j;
  }
  static JsValue Array(std::vector<JsValue> items = {}) {
    JsValue j;
    j.kind = Kind::kArray;
    j.items = std::move(items);
    return j;
  }
  static JsValue Object() {
    JsValue j;
    j.kind = Kind::kObject;
    return j;
  }

  bool IsUndefined() const { return kind == Kind::kUndefined; }
  // Member of a dictionary; null when absent (or when this is not an object).
  const JsValue* Get(const std::string& name) const {
    for (const auto& [k, v] : members)
      if (k == name) return &v;
    return nullptr;
  }
  void Set(const std::string& name, JsValue v) {
    for (auto& [k, old] : members)
      if (k == name) {
        old = std::move(v);
        return;
      }
    members.emplace_back(name, std::move(v));
  }
};

// The deepest nesting of arrays and objects we accept in a JSON document or
// value. Real files nest a handful of levels (a graph file's node options sit
// at depth 4); the limit exists because every walk over a JSON tree recurses
// (nlohmann's copy, dump and comparison, and our converters), so 20,000 nested
// objects would overflow the stack instead of being rejected.
inline constexpr int kMaxJsonDepth = 128;

// Parses `text` as JSON, first checking with a scan of the raw text (which
// recurses into nothing) that it nests at most kMaxJsonDepth levels. Throws
// DataError naming `what` for a document that is too deep or not valid JSON.
nlohmann::json ParseJsonDocument(std::string_view text, const std::string& what);

// JSON as a JavaScript caller would pass it. Strings that are integer literals
// become BigInts (the vector files write MLNumber bigints that way); "NaN",
// "Infinity", "-Infinity" and "-0" become numbers. Throws DataError when `v`
// nests more than kMaxJsonDepth levels.
JsValue JsValueFromJson(const nlohmann::json& v);

}  // namespace webnn::io
