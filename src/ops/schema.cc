#include "ops/schema.h"

#include <algorithm>
#include <iterator>

namespace webnn::ops {

// Each family defines its schema accessor in src/ops/<family>.cc.
#define WEBNN_OP(name, Family) const OpSchema& Family##Schema(OpKind op);
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) const OpSchema& Family##Schema(OpKind op);
#include "ops/internal_op_list.inc"

namespace {
constexpr std::string_view kOpNames[] = {
#define WEBNN_OP(name, Family) #name,
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) #name,
#include "ops/internal_op_list.inc"
};
constexpr std::string_view kOpFamilies[] = {
#define WEBNN_OP(name, Family) #Family,
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) #Family,
#include "ops/internal_op_list.inc"
};
static_assert(std::size(kOpNames) == kOpKindCount && std::size(kOpFamilies) == kOpKindCount);
}  // namespace

std::string_view OpName(OpKind op) { return kOpNames[static_cast<int>(op)]; }
std::string_view OpFamily(OpKind op) { return kOpFamilies[static_cast<int>(op)]; }

std::optional<OpKind> ParseOpKind(std::string_view name) {
  for (int i = 0; i < kOpCount; ++i)
    if (kOpNames[i] == name) return static_cast<OpKind>(i);
  return std::nullopt;
}

const OpSchema& GetSchema(OpKind op) {
  switch (op) {
#define WEBNN_OP(name, Family) \
  case OpKind::name:           \
    return Family##Schema(op);
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) \
  case OpKind::name:                    \
    return Family##Schema(op);
#include "ops/internal_op_list.inc"
  }
  throw std::logic_error("unknown OpKind");
}

const OpLimits& SchemaLimits(OpKind op) {
  // Built once: contexts, devices and kernel lookups ask for these on every
  // context creation and compiled step.
  static const std::vector<OpLimits> table = [] {
    std::vector<OpLimits> all(kOpKindCount);
    for (int i = 0; i < kOpKindCount; ++i) {
      const OpSchema& schema = GetSchema(static_cast<OpKind>(i));
      auto resolve = [&](const TensorSlot& slot) {
        DataTypeSet types = slot.same_as >= 0 ? schema.inputs.at(slot.same_as).allowed : slot.allowed;
        return SlotLimits{types, slot.ranks};
      };
      for (const auto& s : schema.inputs) all[i].inputs.push_back(resolve(s));
      for (const auto& s : schema.outputs) all[i].outputs.push_back(resolve(s));
    }
    return all;
  }();
  return table[static_cast<int>(op)];
}

std::string InferContext::Prefix() const {
  std::string p(OpName(op_));
  if (!label_.empty()) {
    p += " [";
    // Labels are caller-controlled: drop control and bidi-override characters so
    // a message cannot be spoofed (spec advisement on labels).
    for (size_t i = 0; i < label_.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(label_[i]);
      if (c < 0x20 || c == 0x7f) continue;
      // U+202A..U+202E and U+2066..U+2069 are E2 80 AA..AE and E2 81 A6..A9 in UTF-8.
      if (c == 0xE2 && i + 2 < label_.size()) {
        unsigned char c1 = static_cast<unsigned char>(label_[i + 1]);
        unsigned char c2 = static_cast<unsigned char>(label_[i + 2]);
        if ((c1 == 0x80 && c2 >= 0xAA && c2 <= 0xAE) || (c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9)) {
          i += 2;
          continue;
        }
      }
      p += static_cast<char>(c);
    }
    p += "]";
  }
  return p + ": ";
}

void InferContext::ThrowTypeError(const std::string& message) const {
  throw webnn::TypeError(Prefix() + message);
}

Dim InferContext::MakeDim(uint64_t size, std::initializer_list<Dim> from, std::string_view what) const {
  return MakeDim(size, std::vector<Dim>(from), what);
}

Dim InferContext::MakeDim(uint64_t size, const std::vector<Dim>& from, std::string_view what) const {
  if (size == 0) Fail(what, " must be greater than 0, got 0");
  if (size > core::kMaxDimension) Fail(what, " is ", size, ", more than the maximum ", core::kMaxDimension);
  const bool dynamic = std::any_of(from.begin(), from.end(), [](const Dim& d) { return !d.IsStatic(); });
  if (!dynamic || symbols_ == nullptr) return Dim::Static(static_cast<uint32_t>(size));
  // If the result is one of the inputs unchanged, keep its symbol.
  for (const Dim& d : from)
    if (!d.IsStatic() && d.size == size && from.size() == 1) return d;
  uint32_t id = symbols_->AddDerived(core::StrCat(OpName(op_), ".", what), static_cast<uint32_t>(size));
  return Dim{static_cast<uint32_t>(size), id};
}

Dim InferContext::ResolveDimension(const MLDimension& d, std::string_view what) const {
  if (!d.isDynamic()) {
    if (d.size() <= 0 || static_cast<uint64_t>(d.size()) > core::kMaxDimension)
      Fail(what, " must be in [1, ", core::kMaxDimension, "], got ", d.size());
    return Dim::Static(static_cast<uint32_t>(d.size()));
  }
  if (d.size() <= 0 || static_cast<uint64_t>(d.size()) > core::kMaxDimension)
    Fail(what, " '", d.name(), "' maxSize must be in [1, ", core::kMaxDimension, "], got ", d.size());
  if (symbols_ == nullptr) Fail(what, " '", d.name(), "' is dynamic but no symbols are available");
  auto id = symbols_->Find(d.name());
  if (id) {
    const auto& sym = symbols_->Get(*id);
    if (sym.max_size != d.size())
      Fail(what, " '", d.name(), "' has maxSize ", d.size(), " but the graph declares it with maxSize ",
           sym.max_size);
    if (sym.value) return Dim::Static(*sym.value);
    return Dim{sym.max_size, *id};
  }
  auto created = symbols_->Intern(d.name(), static_cast<uint32_t>(d.size()));
  return Dim{static_cast<uint32_t>(d.size()), *created};
}

std::string InferContext::DimToString(const Dim& d) const {
  if (d.IsStatic()) return std::to_string(d.size);
  if (symbols_ != nullptr && d.symbol < symbols_->size())
    return core::StrCat(symbols_->Get(d.symbol).name, "(<=", d.size, ")");
  return core::StrCat("dynamic(<=", d.size, ")");
}

std::string InferContext::ShapeToString(const Shape& s) const {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + DimToString(s[i]);
  return out + "]";
}

void InferContext::CheckOutput(const OperandDesc& out, std::string_view name) const {
  if (out.rank() > core::kMaxRank)
    Fail(name, " rank ", out.rank(), " exceeds the maximum rank ", core::kMaxRank);
  for (const Dim& d : out.shape)
    if (d.size == 0 || d.size > core::kMaxDimension)
      Fail(name, " shape ", ShapeToString(out.shape), " has an invalid dimension");
  const uint64_t elements = core::ElementCount(out.shape);
  if (elements > core::kMaxDimension)
    Fail(name, " shape ", ShapeToString(out.shape), " has ", elements, " elements, more than ", core::kMaxDimension);
  const uint64_t bytes = ByteLengthFor(out.type, elements);
  if (bytes > core::kMaxTensorByteLength)
    Fail(name, " shape ", ShapeToString(out.shape), " of ", ToString(out.type), " needs ", bytes,
         " bytes, more than maxTensorByteLength ", core::kMaxTensorByteLength);
}

}  // namespace webnn::ops
