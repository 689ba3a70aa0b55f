// Helpers for tests: build a graph with a lambda, run it on a device with typed
// host data, and compare results.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/float16.h"
#include "webnn/webnn.h"

namespace webnn::test {

// Raw bytes of a typed vector.
template <typename T>
std::vector<std::byte> Bytes(const std::vector<T>& v) {
  std::vector<std::byte> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}
template <typename T>
std::vector<T> FromBytes(const std::vector<std::byte>& b) {
  std::vector<T> out(b.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), b.data(), out.size() * sizeof(T));
  return out;
}
// float16 bit patterns of doubles (round to nearest even) and back.
inline std::vector<uint16_t> Half(const std::vector<double>& v) {
  std::vector<uint16_t> out;
  for (double d : v) out.push_back(core::DoubleToHalfBits(d));
  return out;
}
inline std::vector<double> FromHalf(const std::vector<uint16_t>& v) {
  std::vector<double> out;
  for (uint16_t h : v) out.push_back(core::HalfBitsToDouble(h));
  return out;
}

struct HostTensor {
  MLOperandDataType type;
  std::vector<uint32_t> shape;
  std::vector<std::byte> data;
};
template <typename T>
HostTensor Tensor(MLOperandDataType type, std::vector<uint32_t> shape, const std::vector<T>& values) {
  return HostTensor{type, std::move(shape), Bytes(values)};
}

inline MLContext Context(MLDeviceType device = MLDeviceType::kReference) {
  return ML::createContext({.device = device});
}

// Builds a graph: `body` receives the builder and the input operands (created
// from `inputs` in order, named "in0", "in1", ...) and returns the named outputs.
// Runs it once and returns each output's bytes.
std::map<std::string, HostTensor> Run(
    MLDeviceType device, const std::vector<HostTensor>& inputs,
    const std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>& body);

// The options an element-wise unary op or activation may take.
struct UnaryOpOptions {
  double alpha = 0, beta = 0;      // elu, hardSigmoid, leakyRelu, linear
  std::optional<MLNumber> lo, hi;  // clamp
};
// builder.<op>(x, options) for the element-wise unary ops (abs ... tan) and
// the activations (elu ... clamp), by name.
MLOperand ApplyUnaryOp(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const UnaryOpOptions& o = {});

// The exception name thrown by `f`, or "" if none ("TypeError", ...).
std::string ErrorName(const std::function<void()>& f);
// The message of the exception thrown by `f`, or "" if none.
std::string ErrorMessage(const std::function<void()>& f);

}  // namespace webnn::test
