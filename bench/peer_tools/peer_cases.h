// The single-op cases of the peer comparison (scripts/bench-peers.sh): one list
// that our benchmark (webnn_peer_bench), the Eigen benchmark and the ONNX model
// generator (make_onnx_models.py, fed by `webnn_peer_bench --peer_cases_json`)
// all read, so every engine times exactly the same shapes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace webnn::bench::peers {

// C[M,N] = A[M,K] x B[K,N], B a constant (weights) for every engine.
struct MatmulCase {
  const char* name;
  const char* origin;
  uint32_t m, k, n;
  double Flops() const { return 2.0 * m * k * n; }
};

inline const std::vector<MatmulCase>& MatmulCases() {
  static const std::vector<MatmulCase> cases = {
      {"sq256", "square", 256, 256, 256},
      {"sq512", "square", 512, 512, 512},
      {"sq1024", "square", 1024, 1024, 1024},
      {"sq2048", "square", 2048, 2048, 2048},
      {"sq4096", "square", 4096, 4096, 4096},
      // LLM-like: M tokens x hidden K -> N, weights [K,N] constant.
      {"llm_decode", "LLM decode, 1 token, 4096->4096 (GEMV)", 1, 4096, 4096},
      {"llm_batch16", "LLM decode, 16 tokens, 4096->4096", 16, 4096, 4096},
      {"llm_prefill128", "LLM prefill chunk, 128 tokens, 4096->4096", 128, 4096, 4096},
      {"llm_ffn_up", "FFN up, 512 tokens, 1024->4096", 512, 1024, 4096},
      {"llm_ffn_down", "FFN down, 512 tokens, 4096->1024", 512, 4096, 1024},
      {"llm_qkv_4k", "QKV, 4096 tokens, 1024->1024", 4096, 1024, 1024},
      {"llm_k256", "2048 tokens, 256->2048 (small K)", 2048, 256, 2048},
  };
  return cases;
}

// conv2d NCHW / OIHW with bias (folded batch norm), as in the source nets.
struct ConvCase {
  const char* name;
  const char* origin;
  uint32_t n, c, h, w;  // input
  uint32_t oc, kh, kw;  // filter [oc, c/groups, kh, kw]
  uint32_t stride, pad, groups;
  uint32_t OutH() const { return (h + 2 * pad - kh) / stride + 1; }
  uint32_t OutW() const { return (w + 2 * pad - kw) / stride + 1; }
  // Multiply-adds actually needed (per group), times 2.
  double Flops() const { return 2.0 * n * oc * OutH() * OutW() * (c / groups) * kh * kw; }
  // The second layer of the two-layer chain (peer_chain, onednn_chain), which
  // shows a layout carried from one layer to the next: it takes this layer's
  // output and gives back this layer's input channels, at stride 1 with the
  // same padding (every case pads (k - 1) / 2, so the plane keeps its size);
  // depthwise stays depthwise. It does the same work as this layer: a
  // pointwise expand is followed by its projection, a stride-2 layer by the
  // stride-1 layer at its output size.
  ConvCase ChainPartner() const {
    ConvCase p = *this;
    p.c = oc, p.oc = c, p.h = OutH(), p.w = OutW(), p.stride = 1, p.groups = groups == 1 ? 1 : oc;
    return p;
  }
  double ChainFlops() const { return Flops() + ChainPartner().Flops(); }
  // Input read + filter read + output written, once each (the memory floor).
  double Bytes() const {
    return 4.0 * (double(n) * c * h * w + double(oc) * (c / groups) * kh * kw + double(n) * oc * OutH() * OutW());
  }
};

inline const std::vector<ConvCase>& ConvCases() {
  static const std::vector<ConvCase> cases = {
      {"resnet50_conv2_3x3", "ResNet-50 conv2_x 3x3", 1, 64, 56, 56, 64, 3, 3, 1, 1, 1},
      {"resnet50_conv2_1x1_reduce", "ResNet-50 conv2_x 1x1 256->64", 1, 256, 56, 56, 64, 1, 1, 1, 0, 1},
      {"resnet50_conv4_3x3", "ResNet-50 conv4_x 3x3", 1, 256, 14, 14, 256, 3, 3, 1, 1, 1},
      {"mobilenetv2_dw3x3", "MobileNetV2 block 1 depthwise 3x3", 1, 32, 112, 112, 32, 3, 3, 1, 1, 32},
      {"mobilenetv2_dw3x3_s2", "MobileNetV2 block 2 depthwise 3x3 s2", 1, 96, 112, 112, 96, 3, 3, 2, 1, 96},
      {"mobilenetv2_pw_expand", "MobileNetV2 block 3 1x1 24->144", 1, 24, 56, 56, 144, 1, 1, 1, 0, 1},
      {"ppocr_det_stem", "PP-OCRv4 det first conv 3x3 s2 3->16", 1, 3, 640, 640, 16, 3, 3, 2, 1, 1},
      {"ppocr_det_dw3x3", "PP-OCRv4 det backbone depthwise 3x3 at 320x320", 1, 16, 320, 320, 16, 3, 3, 1, 1, 16},
      {"ppocr_det_dw5x5", "PP-OCRv4 det backbone depthwise 5x5 at 40x40", 1, 192, 40, 40, 192, 5, 5, 1, 2, 192},
      {"dw5x5_96x80", "depthwise 5x5 96ch 80x80 (PP-OCR-like, not from one net)", 1, 96, 80, 80, 96, 5, 5, 1, 2, 96},
  };
  return cases;
}

// Element-wise ops on float32 vectors; binary ops read two inputs of the same
// shape (no broadcasting).
struct EltwiseCase {
  const char* op;  // add, mul, relu, sigmoid, exp
  bool binary;
  uint32_t elements;
  std::string Name() const { return std::string(op) + "_" + std::to_string(elements >> 20) + "M"; }
  // STREAM-style counting: each input read once, the output written once
  // (the write-allocate read is not counted, as STREAM does not count it).
  double Bytes() const { return 4.0 * elements * (binary ? 3 : 2); }
};

inline const std::vector<EltwiseCase>& EltwiseCases() {
  static const std::vector<EltwiseCase> cases = [] {
    std::vector<EltwiseCase> v;
    const std::pair<const char*, bool> ops[] = {{"add", true}, {"mul", true}, {"relu", false}, {"sigmoid", false}, {"exp", false}};
    for (const auto& [op, binary] : ops)
      for (uint32_t n : {1u << 20, 1u << 22, 1u << 24}) v.push_back({op, binary, n});
    return v;
  }();
  return cases;
}

inline const std::vector<uint32_t>& PeerThreadCounts() {
  static const std::vector<uint32_t> t = {1, 2};
  return t;
}

}  // namespace webnn::bench::peers
