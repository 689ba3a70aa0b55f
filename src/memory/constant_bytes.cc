#include "memory/constant_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::memory {

std::shared_ptr<const MappedFile> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw DataError(core::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw DataError(core::StrCat("cannot map ", path, ": not a regular file"));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* p = nullptr;
  if (size > 0) {
    p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw DataError(core::StrCat("cannot map ", path, " (", size, " bytes): ", std::strerror(err)));
    }
  }
  ::close(fd);  // the mapping keeps the file
  return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const std::byte*>(p), size));
}

MappedFile::~MappedFile() {
  if (size_ > 0) ::munmap(const_cast<std::byte*>(data_), size_);
}

void MappedFile::ReleasePages(std::span<const std::byte> range) const {
  if (range.empty()) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(range.data()) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(range.data()) + range.size()) / page * page;
  // A hint: on failure the pages simply stay resident.
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

std::shared_ptr<const ConstantBytes> ConstantBytes::Copy(std::span<const std::byte> bytes) {
  return Adopt(std::vector<std::byte>(bytes.begin(), bytes.end()));
}

std::shared_ptr<const ConstantBytes> ConstantBytes::Adopt(std::vector<std::byte> bytes) {
  return Share(std::make_shared<const std::vector<std::byte>>(std::move(bytes)));
}

std::shared_ptr<const ConstantBytes> ConstantBytes::Share(std::shared_ptr<const std::vector<std::byte>> bytes) {
  std::shared_ptr<ConstantBytes> c(new ConstantBytes());
  c->owned_ = std::move(bytes);
  c->bytes_ = *c->owned_;
  return c;
}

std::shared_ptr<const ConstantBytes> ConstantBytes::View(std::shared_ptr<const MappedFile> file,
                                                         std::span<const std::byte> bytes, size_t alignment) {
  if (alignment > 1 && reinterpret_cast<uintptr_t>(bytes.data()) % alignment != 0) return Copy(bytes);
  std::shared_ptr<ConstantBytes> c(new ConstantBytes());
  c->file_ = std::move(file);
  c->bytes_ = bytes;
  return c;
}

ConstantBytes::~ConstantBytes() { ReleaseResidentPages(); }

void ConstantBytes::ReleaseResidentPages() const {
  if (file_) file_->ReleasePages(bytes_);
}

}  // namespace webnn::memory
