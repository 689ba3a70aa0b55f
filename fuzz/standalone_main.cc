// Runs a fuzz target without libFuzzer, for the regular test suite: every file
// of a seed corpus, then a fixed number of deterministic mutations of them
// (bit flips, byte changes, truncation, insertion, splicing). Coverage-guided
// fuzzing uses the same targets with clang's libFuzzer (scripts/fuzz.sh).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR... [--mutations N]\n", argv[0]);
    return 2;
  }
  size_t mutations = 2000;
  std::vector<std::vector<uint8_t>> seeds;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--mutations" && i + 1 < argc) {
      mutations = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    for (const auto& e : std::filesystem::directory_iterator(a)) {
      std::ifstream in(e.path(), std::ios::binary);
      seeds.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
  }
  for (const auto& s : seeds) LLVMFuzzerTestOneInput(s.data(), s.size());
  std::mt19937_64 rng(20261121);
  for (size_t m = 0; m < mutations && !seeds.empty(); ++m) {
    std::vector<uint8_t> x = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = x.empty() ? 0 : rng() % x.size();
      switch (rng() % 6) {
        case 0: if (!x.empty()) x[pos] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        case 1: if (!x.empty()) x[pos] = static_cast<uint8_t>(rng()); break;
        case 2: x.resize(pos); break;
        case 3: x.insert(x.begin() + static_cast<std::ptrdiff_t>(pos), static_cast<uint8_t>("0123456789-[]{},\":e."[rng() % 20])); break;
        case 4: {  // splice part of another seed
          const auto& o = seeds[rng() % seeds.size()];
          if (!o.empty()) {
            const size_t from = rng() % o.size(), len = std::min<size_t>(o.size() - from, 1 + rng() % 32);
            x.insert(x.begin() + static_cast<std::ptrdiff_t>(pos), o.begin() + static_cast<std::ptrdiff_t>(from),
                     o.begin() + static_cast<std::ptrdiff_t>(from + len));
          }
          break;
        }
        default: if (pos < x.size()) x.erase(x.begin() + static_cast<std::ptrdiff_t>(pos)); break;
      }
    }
    LLVMFuzzerTestOneInput(x.data(), x.size());
  }
  std::printf("%zu seeds, %zu mutations: no crash\n", seeds.size(), mutations);
  return 0;
}
