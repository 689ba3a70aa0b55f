// The bytes of a constant and what keeps them alive, without copies where the
// source allows: a user's buffer is copied once (the spec requires the copy at
// constant() time), a weights file is mapped read-only and each constant is a
// view into the mapping. Devices that pack a constant drop their view once
// packed (ops::HostDevice), so the mapped pages of a packed weight leave the
// process's resident set and the packed form is the only copy retained.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace webnn::memory {

// A file mapped read-only (MAP_PRIVATE, PROT_READ). Its pages are page cache:
// they count in the process's RSS once touched, until released (ReleasePages)
// or unmapped (the destructor).
class MappedFile {
 public:
  // DataError naming `path` when it cannot be opened or mapped.
  static std::shared_ptr<const MappedFile> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  // Drops this process's resident pages that lie wholly inside `range` (a part
  // of bytes()): madvise(MADV_DONTNEED). The bytes stay readable; a later read
  // faults them in again from the file. Pages shared with a neighbouring range
  // are kept.
  void ReleasePages(std::span<const std::byte> range) const;

 private:
  MappedFile(const std::byte* data, size_t size) : data_(data), size_(size) {}
  const std::byte* data_;
  size_t size_;
};

// Immutable bytes of one constant.
class ConstantBytes {
 public:
  // An owned copy of `bytes`.
  static std::shared_ptr<const ConstantBytes> Copy(std::span<const std::byte> bytes);
  static std::shared_ptr<const ConstantBytes> Adopt(std::vector<std::byte> bytes);
  // Bytes already held in a shared vector (e.g. a copy made elsewhere), not
  // copied again; the vector lives as long as the ConstantBytes.
  static std::shared_ptr<const ConstantBytes> Share(std::shared_ptr<const std::vector<std::byte>> bytes);
  // `bytes` inside `file`, not copied; the view keeps the file mapped. When
  // `bytes` is not aligned to `alignment` (the element size, for typed reads)
  // the bytes are copied instead.
  static std::shared_ptr<const ConstantBytes> View(std::shared_ptr<const MappedFile> file,
                                                   std::span<const std::byte> bytes, size_t alignment);
  // A view releases its pages (MappedFile::ReleasePages) when it goes.
  ~ConstantBytes();
  ConstantBytes(const ConstantBytes&) = delete;
  ConstantBytes& operator=(const ConstantBytes&) = delete;

  const std::byte* data() const { return bytes_.data(); }
  size_t size() const { return bytes_.size(); }
  std::span<const std::byte> bytes() const { return bytes_; }
  bool mapped() const { return file_ != nullptr; }
  // Nothing will read these bytes soon (a device has packed them): a mapped
  // view's pages leave the resident set; an owned copy stays (its memory goes
  // with the last reference).
  void ReleaseResidentPages() const;

 private:
  ConstantBytes() = default;
  std::shared_ptr<const std::vector<std::byte>> owned_;
  std::shared_ptr<const MappedFile> file_;
  std::span<const std::byte> bytes_;
};

}  // namespace webnn::memory
