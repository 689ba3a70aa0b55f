// Hostile or absurd input and concurrent misuse (issue 13): each must end in a
// spec error (or success), never a crash, a hang or an allocation of what the
// input merely declares.
#include <string>

#include <nlohmann/json.hpp>

#include "io/js_value.h"
#include "io/webnn_graph.h"
#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

// ---- deeply nested JSON ---------------------------------------------------------

namespace {

// `depth` nested JSON objects around the number 1: {"a":{"a":...1...}}.
std::string NestedObjects(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  s += std::string(static_cast<size_t>(depth), '}');
  return s;
}

std::string GraphWithReluOptions(const std::string& options) {
  return R"({"format": "webnn-graph-json", "version": 2, "inputs": {"x": {"dataType": "float32", "shape": [2]}},)"
         R"( "nodes": [{"id": "r", "op": "relu", "inputs": ["x"], "options": )" +
         options + R"(}], "outputs": {"y": "r"}})";
}

}  // namespace

TEST_CASE("deeply nested JSON is a DataError naming the limit, not a stack overflow", "[robustness][json]") {
  MLContext ctx = Context();
  // 20,000 nested objects in a node's options crashed `webnn run` (SIGSEGV).
  const std::string deep = GraphWithReluOptions(NestedObjects(20000));
  CHECK(ErrorName([&] { io::BuildGraphFromJson(ctx, deep, nullptr, "deep.json"); }) == "DataError");
  CHECK_THAT(ErrorMessage([&] { io::BuildGraphFromJson(ctx, deep, nullptr, "deep.json"); }),
             Catch::Contains("deep.json") && Catch::Contains(std::to_string(io::kMaxJsonDepth)));
  // Brackets inside strings do not count.
  const std::string brackets = std::string(20000, '[');
  CHECK_NOTHROW(io::ParseJsonDocument("{\"s\": \"" + brackets + "\"}", "strings.json"));
  // Nesting up to the limit is fine (the options are simply unknown members).
  CHECK_NOTHROW(io::ParseJsonDocument(NestedObjects(io::kMaxJsonDepth), "limit.json"));
  CHECK(ErrorName([&] { io::ParseJsonDocument(NestedObjects(io::kMaxJsonDepth + 1), "over.json"); }) == "DataError");

  // A value built in memory (not parsed from text) is checked by the converter.
  nlohmann::json value = 1;
  for (int i = 0; i < io::kMaxJsonDepth + 1; ++i) value = nlohmann::json::array({std::move(value)});
  CHECK(ErrorName([&] { io::JsValueFromJson(value); }) == "DataError");
  CHECK_THAT(ErrorMessage([&] { io::JsValueFromJson(value); }),
             Catch::Contains(std::to_string(io::kMaxJsonDepth)));
  CHECK_NOTHROW(io::JsValueFromJson(value[0]));  // exactly the limit
}
