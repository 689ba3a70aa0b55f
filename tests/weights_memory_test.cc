// Weights loaded at 1x their size (issue 9): a weights file is mapped, its
// constants are views of the mapping, and a device that packs a constant
// drops its view once packed.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>

#include "api/constant_bytes_builder.h"
#include "io/webnn_graph.h"
#include "memory/constant_bytes.h"
#include "test_util.h"

namespace webnn::test {
namespace {

namespace fs = std::filesystem;
constexpr auto F32 = MLOperandDataType::kFloat32;

// A directory of its own, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("webnn_weights_test_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// Three matmul + relu layers of [K, K] weights (K = 64), input [2, K]: every
// constant is a matmul B, so the cpu device packs every one.
constexpr uint32_t kK = 64;
constexpr int kLayers = 3;

std::vector<std::vector<float>> LayerWeights() {
  std::mt19937 rng(901);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  std::vector<std::vector<float>> w(kLayers, std::vector<float>(kK * kK));
  for (auto& layer : w)
    for (float& v : layer) v = u(rng);
  return w;
}

std::string ChainJson() {
  std::ostringstream j;
  j << R"({"format":"webnn-graph-json","version":2,"name":"chain",
    "inputs":{"x":{"dataType":"float32","shape":[2,)" << kK << R"(]}},"consts":{)";
  for (int i = 0; i < kLayers; ++i)
    j << (i ? "," : "") << "\"w" << i << "\":{\"dataType\":\"float32\",\"shape\":[" << kK << "," << kK
      << "],\"init\":{\"kind\":\"weights\",\"ref\":\"w" << i << "\"}}";
  j << R"(},"nodes":[)";
  std::string x = "x";
  for (int i = 0; i < kLayers; ++i) {
    j << (i ? "," : "") << "{\"id\":\"mm" << i << "\",\"op\":\"matmul\",\"inputs\":[\"" << x << "\",\"w" << i
      << "\"]},{\"id\":\"r" << i << "\",\"op\":\"relu\",\"inputs\":[\"mm" << i << "\"]}";
    x = "r" + std::to_string(i);
  }
  j << R"(],"outputs":{"y":")" << x << "\"}}";
  return j.str();
}

// The chain's weights as a .weights file + manifest, or a .safetensors file.
// Returns the weights path.
fs::path WriteWeights(const fs::path& dir, bool safetensors) {
  const auto w = LayerWeights();
  const size_t bytes = kK * kK * sizeof(float);
  std::string blob;
  if (safetensors) {
    std::ostringstream h;
    h << "{";
    for (int i = 0; i < kLayers; ++i)
      h << (i ? "," : "") << "\"w" << i << "\":{\"dtype\":\"F32\",\"shape\":[" << kK << "," << kK
        << "],\"data_offsets\":[" << i * bytes << "," << (i + 1) * bytes << "]}";
    h << "}";
    std::string header = h.str();
    header.append((8 - header.size() % 8) % 8, ' ');
    const uint64_t n = header.size();
    blob.append(reinterpret_cast<const char*>(&n), 8);
    blob += header;
  } else {
    std::ostringstream m;
    m << R"({"format":"wg-weights-manifest","version":1,"tensors":{)";
    for (int i = 0; i < kLayers; ++i)
      m << (i ? "," : "") << "\"w" << i << "\":{\"dataType\":\"float32\",\"shape\":[" << kK << "," << kK
        << "],\"byteOffset\":" << 8 + i * bytes << ",\"byteLength\":" << bytes << "}";
    m << "}}";
    WriteFile(dir / "chain.manifest.json", m.str());
    blob = std::string("WGWT\1\0\0\0", 8);
  }
  for (const auto& layer : w) blob.append(reinterpret_cast<const char*>(layer.data()), bytes);
  const fs::path path = dir / (safetensors ? "chain.safetensors" : "chain.weights");
  WriteFile(path, blob);
  WriteFile(dir / "chain.json", ChainJson());
  return path;
}

std::vector<float> Input() {
  std::vector<float> x(2 * kK);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
  return x;
}

std::vector<float> Run(MLContext& ctx, const MLGraph& g) {
  MLTensor x = ctx.createTensor({.dataType = F32, .shape = {2, kK}, .writable = true});
  MLTensor y = ctx.createTensor({.dataType = F32, .shape = {2, kK}, .readable = true});
  ctx.writeTensor(x, MLBufferSource(std::span<const float>(Input())));
  ctx.dispatch(g, {{"x", x}}, {{"y", y}});
  return FromBytes<float>(ctx.readTensor(y));
}

// The same chain built with the public constant(): copies of the weights.
MLGraph BuildFromBuffers(MLContext& ctx) {
  const auto w = LayerWeights();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {2, kK}});
  for (const auto& layer : w) x = b.relu(b.matmul(x, b.constant({F32, {kK, kK}}, std::span<const float>(layer))));
  return b.build({{"y", x}});
}

MLDeviceType DeviceOf(const std::string& name) {
  return name == "cpu" ? MLDeviceType::kCpu : MLDeviceType::kReference;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("constants from a mapped weights file give the results of copied buffers", "[io][memory]") {
  TempDir dir;
  for (bool safetensors : {false, true}) {
    const fs::path weights = WriteWeights(dir.path, safetensors);
    for (const std::string device : {"reference", "cpu"}) {
      INFO((safetensors ? "safetensors" : ".weights") << " on " << device);
      MLContext ctx = ML::createContext({.device = DeviceOf(device)});
      MLGraph copied = BuildFromBuffers(ctx);
      const std::vector<float> expected = Run(ctx, copied);
      // Views of the mapping (0), or streamed through MLConstantWriter in
      // chunks that split elements and layers unevenly.
      for (uint64_t chunk : {0, 1000}) {
        INFO("stream_chunk_bytes " << chunk);
        io::LoadedGraph loaded = io::LoadGraphFile(ctx, (dir.path / "chain.json").string(),
                                                   {.weights_path = weights.string(), .stream_chunk_bytes = chunk});
        CHECK(loaded.graph.unboundConstants().empty());
        CHECK(Run(ctx, loaded.graph) == expected);
        CHECK(Run(ctx, loaded.graph) == expected);  // the packed copy again, with the mapping's pages gone
      }
    }
  }
}

TEST_CASE("the cpu device drops a mapped weights file once every weight is packed", "[io][memory]") {
  TempDir dir;
  for (bool safetensors : {false, true}) {
    INFO((safetensors ? "safetensors" : ".weights"));
    const fs::path weights = WriteWeights(dir.path, safetensors);
    const std::string json = ReadText(dir.path / "chain.json");
    std::weak_ptr<const memory::MappedFile> mapping;
    std::vector<float> expected;
    {
      MLContext ref = ML::createContext({.device = MLDeviceType::kReference});
      expected = Run(ref, BuildFromBuffers(ref));
    }

    // cpu: every constant is a packed matmul B; after build nothing holds a
    // view of the file, so it is unmapped as soon as the store goes.
    MLContext cpu = ML::createContext({.device = MLDeviceType::kCpu});
    MLGraph g;
    {
      io::WeightStore store = io::WeightStore::Load(weights.string());
      REQUIRE(store.mapping());
      mapping = store.mapping();
      g = io::BuildGraphFromJson(cpu, json, &store, "chain.json").graph;
    }
    CHECK(mapping.expired());
    const std::vector<float> out = Run(cpu, g);
    REQUIRE(out.size() == expected.size());
    for (size_t i = 0; i < out.size(); ++i) CHECK(out[i] == Approx(expected[i]).margin(1e-5));

    // reference: runs from the raw bytes, so the graph keeps the mapping
    // until the graph goes.
    MLContext ref = ML::createContext({.device = MLDeviceType::kReference});
    {
      MLGraph rg;
      {
        io::WeightStore store = io::WeightStore::Load(weights.string());
        mapping = store.mapping();
        rg = io::BuildGraphFromJson(ref, json, &store, "chain.json").graph;
      }
      CHECK_FALSE(mapping.expired());
      CHECK(Run(ref, rg) == expected);
    }
    CHECK(mapping.expired());
  }
}

TEST_CASE("the cpu device frees a packed constant's owned bytes after build", "[io][memory]") {
  // Owned bytes (a copy, as constant(desc, buffer) makes) through the
  // loaders' entry point, to watch them go.
  const auto w = LayerWeights();
  for (const MLDeviceType device : {MLDeviceType::kCpu, MLDeviceType::kReference}) {
    MLContext ctx = ML::createContext({.device = device});
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {F32, {2, kK}});
    auto bytes = memory::ConstantBytes::Copy(std::as_bytes(std::span<const float>(w[0])));
    std::weak_ptr<const memory::ConstantBytes> watch = bytes;
    MLOperand y = b.relu(b.matmul(x, internal::ConstantFromBytes(b, {F32, {kK, kK}}, std::move(bytes))));
    MLGraph g = b.build({{"y", y}});
    CHECK(watch.expired() == (device == MLDeviceType::kCpu));
    // A constant the kernel reads at run (an add's operand) stays.
    MLGraphBuilder b2(ctx);
    MLOperand x2 = b2.input("x", {F32, {2, kK}});
    auto raw = memory::ConstantBytes::Copy(std::as_bytes(std::span<const float>(w[1]).subspan(0, 2 * kK)));
    std::weak_ptr<const memory::ConstantBytes> watch2 = raw;
    MLGraph g2 = b2.build({{"y", b2.add(x2, internal::ConstantFromBytes(b2, {F32, {2, kK}}, std::move(raw)))}});
    CHECK_FALSE(watch2.expired());
  }
}

#ifdef __linux__
namespace {
// Resident kB of the mapping that starts at `address` (/proc/self/smaps).
int64_t MappingRssKb(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in = false;
  char start[32];
  std::snprintf(start, sizeof start, "%lx-", reinterpret_cast<unsigned long>(address));
  while (std::getline(smaps, line)) {
    if (line.find('-') != std::string::npos && line.find(' ') > line.find('-') &&
        std::isxdigit(static_cast<unsigned char>(line[0])))
      in = line.rfind(start, 0) == 0;
    else if (in && line.rfind("Rss:", 0) == 0)
      return std::stoll(line.substr(4));
  }
  return -1;
}
}  // namespace

TEST_CASE("releasing a mapped constant's pages takes them out of the resident set", "[io][memory]") {
  TempDir dir;
  const size_t size = size_t{4} << 20;
  WriteFile(dir.path / "blob", std::string(size, '\x2a'));
  auto file = memory::MappedFile::Open((dir.path / "blob").string());
  const std::byte* base = file->bytes().data();
  auto view = memory::ConstantBytes::View(file, file->bytes().subspan(4096, size - 8192), 4);
  REQUIRE(view->mapped());
  uint64_t sum = 0;
  for (size_t i = 0; i < view->size(); i += 4096) sum += static_cast<uint8_t>(view->data()[i]);
  CHECK(sum == 0x2a * (view->size() / 4096));
  CHECK(MappingRssKb(base) >= static_cast<int64_t>((size - 8192) / 1024));
  view->ReleaseResidentPages();
  CHECK(MappingRssKb(base) == 0);
  // Still readable: the pages come back from the file.
  CHECK(static_cast<uint8_t>(view->data()[12345]) == 0x2a);
  // An unaligned view is a copy, not a view.
  CHECK_FALSE(memory::ConstantBytes::View(file, file->bytes().subspan(2, 64), 4)->mapped());
}
#endif

}  // namespace webnn::test
