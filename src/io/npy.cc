#include "io/npy.h"

#include <cstring>
#include <fstream>
#include <iterator>

#include "core/shape.h"
#include "core/strings.h"

namespace webnn::io {

using core::StrCat;

namespace {

struct DescrEntry {
  const char* descr;
  MLOperandDataType type;
};
// bool arrays ('|b1') load as uint8, as WebNN has no bool type.
constexpr DescrEntry kDescrs[] = {
    {"<f4", MLOperandDataType::kFloat32}, {"<f2", MLOperandDataType::kFloat16}, {"<i4", MLOperandDataType::kInt32},
    {"<u4", MLOperandDataType::kUint32},  {"<i8", MLOperandDataType::kInt64},   {"<u8", MLOperandDataType::kUint64},
    {"|i1", MLOperandDataType::kInt8},    {"|u1", MLOperandDataType::kUint8},   {"|b1", MLOperandDataType::kUint8},
};

std::string HeaderValue(const std::string& header, const std::string& key, const std::string& what) {
  const std::string quoted = "'" + key + "'";
  size_t k = header.find(quoted);
  if (k == std::string::npos) throw DataError(StrCat(what, ": npy header has no ", quoted));
  size_t colon = header.find(':', k + quoted.size());
  if (colon == std::string::npos) throw DataError(StrCat(what, ": malformed npy header"));
  size_t b = header.find_first_not_of(' ', colon + 1);
  if (b == std::string::npos) throw DataError(StrCat(what, ": malformed npy header"));
  size_t e;
  if (header[b] == '\'') {
    e = header.find('\'', b + 1);
    if (e == std::string::npos) throw DataError(StrCat(what, ": malformed npy header"));
    return header.substr(b + 1, e - b - 1);
  }
  if (header[b] == '(') {
    e = header.find(')', b);
    if (e == std::string::npos) throw DataError(StrCat(what, ": malformed npy header"));
    return header.substr(b, e - b + 1);
  }
  e = header.find_first_of(",}", b);
  if (e == std::string::npos) throw DataError(StrCat(what, ": malformed npy header"));
  return header.substr(b, e - b);
}

}  // namespace

NpyArray ParseNpy(const std::vector<std::byte>& bytes, const std::string& what) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    throw DataError(StrCat(what, ": not a .npy file (bad magic)"));
  const uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, offset;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw DataError(StrCat(what, ": truncated npy header"));
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    offset = 12;
  } else {
    throw DataError(StrCat(what, ": unsupported npy version ", int(major)));
  }
  if (offset + header_len > bytes.size()) throw DataError(StrCat(what, ": truncated npy header"));
  const std::string header(reinterpret_cast<const char*>(bytes.data()) + offset, header_len);
  NpyArray a;
  const std::string descr = HeaderValue(header, "descr", what);
  bool found = false;
  for (const auto& d : kDescrs)
    if (descr == d.descr) a.dataType = d.type, found = true;
  if (!found) throw DataError(StrCat(what, ": unsupported npy dtype '", descr, "'"));
  if (HeaderValue(header, "fortran_order", what) != "False")
    throw DataError(StrCat(what, ": Fortran-ordered arrays are not supported"));
  const std::string shape = HeaderValue(header, "shape", what);
  uint64_t elements = 1;
  for (size_t i = 1; i < shape.size();) {
    size_t j = shape.find_first_of(",)", i);
    if (j == std::string::npos) break;
    std::string item = shape.substr(i, j - i);
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty()) {
      char* end = nullptr;
      unsigned long long v = std::strtoull(item.c_str(), &end, 10);
      if (*end != '\0' || v > 0xffffffffull) throw DataError(StrCat(what, ": bad npy shape ", shape));
      a.shape.push_back(static_cast<uint32_t>(v));
      elements *= v;
      if (elements > (uint64_t{1} << 40)) throw DataError(StrCat(what, ": npy array too large"));
    }
    i = j + 1;
  }
  const uint64_t n = ByteLengthFor(a.dataType, elements);
  const size_t data_offset = offset + header_len;
  if (bytes.size() - data_offset < n)
    throw DataError(StrCat(what, ": npy data has ", bytes.size() - data_offset, " bytes, the shape needs ", n));
  a.data.assign(bytes.begin() + data_offset, bytes.begin() + data_offset + n);
  return a;
}

NpyArray ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(StrCat("cannot open ", path));
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(raw.size());
  if (!raw.empty()) std::memcpy(bytes.data(), raw.data(), raw.size());
  return ParseNpy(bytes, path);
}

namespace {

void WriteNpyData(const std::string& path, const char* descr, const std::vector<uint32_t>& dims,
                  std::span<const std::byte> data) {
  std::string shape = "(";
  for (uint32_t d : dims) shape += std::to_string(d) + ",";
  if (dims.size() > 1) shape.pop_back();
  shape += ")";
  std::string header = StrCat("{'descr': '", descr, "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Pad so the data starts on a 64-byte boundary (npy convention), newline-terminated.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw DataError(StrCat("cannot write ", path));
  out.write("\x93NUMPY\x01\x00", 8);
  const uint16_t len = static_cast<uint16_t>(header.size());
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(len_bytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!out) throw DataError(StrCat("cannot write ", path));
}

}  // namespace

void WriteNpy(const std::string& path, const NpyArray& a) {
  const char* descr = nullptr;
  for (const auto& d : kDescrs)
    if (d.type == a.dataType && std::string(d.descr) != "|b1") descr = d.descr;
  if (!descr) throw NotSupportedError(StrCat("cannot write ", ToString(a.dataType), " to .npy"));
  WriteNpyData(path, descr, a.shape, a.data);
}

NpyArray NpyArrayOfTensor(MLOperandDataType type, const std::vector<uint32_t>& shape, std::vector<std::byte> bytes) {
  if (type != MLOperandDataType::kInt4 && type != MLOperandDataType::kUint4) return {type, shape, std::move(bytes)};
  const uint64_t n = core::ElementCount(shape);
  NpyArray a{type == MLOperandDataType::kInt4 ? MLOperandDataType::kInt8 : MLOperandDataType::kUint8, shape,
             std::vector<std::byte>(n)};
  for (uint64_t k = 0; k < n; ++k) {
    const uint8_t b = static_cast<uint8_t>(bytes[k / 2]);
    uint8_t nibble = (k & 1) ? (b >> 4) : (b & 0xf);
    if (type == MLOperandDataType::kInt4 && (nibble & 8)) nibble |= 0xf0;  // sign-extend
    a.data[k] = static_cast<std::byte>(nibble);
  }
  return a;
}

std::vector<std::byte> TensorBytesOfNpy(const NpyArray& array, MLOperandDataType type, const std::string& what) {
  const bool four_bit = type == MLOperandDataType::kInt4 || type == MLOperandDataType::kUint4;
  const MLOperandDataType stored =
      !four_bit ? type : type == MLOperandDataType::kInt4 ? MLOperandDataType::kInt8 : MLOperandDataType::kUint8;
  if (array.dataType != stored && !(four_bit && array.dataType == type))
    throw DataError(StrCat(what, ": holds ", ToString(array.dataType), ", expected ", ToString(type),
                           four_bit ? StrCat(" (as ", ToString(stored), ", one value per byte)") : std::string()));
  if (!four_bit || array.dataType == type) return array.data;
  const uint64_t n = core::ElementCount(array.shape);
  std::vector<std::byte> packed(ByteLengthFor(type, n));
  for (uint64_t k = 0; k < n; ++k) {
    const int v = type == MLOperandDataType::kInt4 ? static_cast<int>(static_cast<int8_t>(array.data[k]))
                                                  : static_cast<int>(static_cast<uint8_t>(array.data[k]));
    if (type == MLOperandDataType::kInt4 ? (v < -8 || v > 7) : v > 15)
      throw DataError(StrCat(what, ": element ", k, " is ", v, ", outside ", ToString(type)));
    packed[k / 2] |= static_cast<std::byte>((v & 0xf) << ((k & 1) * 4));
  }
  return packed;
}

void WriteNpyFloat64(const std::string& path, const std::vector<uint32_t>& shape, std::span<const double> values) {
  WriteNpyData(path, "<f8", shape, std::as_bytes(values));
}

}  // namespace webnn::io
