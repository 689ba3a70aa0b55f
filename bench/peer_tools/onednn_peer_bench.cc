// oneDNN peer of the conv2d and matmul comparison (scripts/bench-peers.sh):
// Intel's own CPU library for the shapes of peer_cases.h, as a framework built
// on it would call it. Debian's libdnnl (2.6) dispatches its kernels at run
// time (AVX-512 here) and runs on GNU OpenMP, so omp_set_num_threads picks 1 or
// 2 threads per case, before the primitive is created (some oneDNN kernels fix
// their thread split at creation).
//
// conv2d: convolution_forward (forward_inference, convolution_direct), f32, with
// bias; src, weights and dst descriptors are format_tag::any, so oneDNN picks
// the layouts its fastest kernel wants (nhwc for brgconv, nChw16c for the jit
// direct kernels, ...). Weights and bias are reordered from plain OIHW (GOIHW
// when grouped) into that layout once, outside the timing, as every framework
// does at load time. Two timings per case:
//   onednn/conv/<case>/t:<n>       the convolution primitive alone, src already
//                                  in the chosen layout (oneDNN's best case: a
//                                  graph that stays in that layout);
//   onednn_nchw/conv/<case>/t:<n>  reorder src NCHW -> chosen, the primitive,
//                                  reorder dst chosen -> NCHW: what a caller
//                                  holding NCHW tensors (as ours and ORT's
//                                  single-op graphs do) pays. When a layout is
//                                  already plain NCHW its reorder is skipped; the
//                                  counters src_reorder / dst_reorder say which
//                                  ran (1) or not (0).
//   onednn_chain/conv/<case>/t:<n> the layer's primitive, then its
//                                  ConvCase::ChainPartner's taking the first
//                                  one's dst as it is (src in the chosen layout,
//                                  no reorder in between or at the ends): a
//                                  layout carried through two layers.
// The label names the layouts oneDNN chose, in its verbose notation (abcd =
// nchw, acdb = nhwc, aBcd16b = nChw16c; uppercase letters are blocked dims) and
// the implementation (e.g. brgconv:avx512_core).
//
// matmul: dnnl::matmul f32, A [M,K] and C [M,N] plain row-major, B [K,N] as
// format_tag::any (oneDNN's packed layout), reordered once outside the timing
// (B is a constant for every engine). Name onednn/matmul/<case>/t:<n>.
//
// Inputs are uniform in [-1, 1]; one warm-up run before the timing; one
// dnnl::engine(cpu) and one dnnl::stream, stream.wait() inside the timed loop.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "peer_cases.h"

namespace webnn::bench::peers {
namespace {

using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

dnnl::engine& Engine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

dnnl::stream& Stream() {
  static dnnl::stream s(Engine());
  return s;
}

// A memory descriptor's layout in oneDNN's verbose notation: dims ordered
// outermost first by stride, 'a' + dim index, uppercase where the dim is also
// blocked, then the inner blocks ("aBcd16b" = nChw16c). Equal strides mean the
// inner of the two has one (outer) block: the dim with more blocks goes first,
// and the order among such extent-1 dims is lost (index order).
std::string FormatOf(const memory::desc& md) {
  const dnnl_memory_desc_t& d = md.data;
  if (d.format_kind != dnnl_blocked) return "non-blocked";
  const auto& blk = d.format_desc.blocking;
  std::vector<bool> blocked(d.ndims, false);
  std::vector<memory::dim> outer(d.padded_dims, d.padded_dims + d.ndims);
  for (int i = 0; i < blk.inner_nblks; ++i) {
    blocked[blk.inner_idxs[i]] = true;
    outer[blk.inner_idxs[i]] /= blk.inner_blks[i];
  }
  std::vector<int> order(d.ndims);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return blk.strides[a] != blk.strides[b] ? blk.strides[a] > blk.strides[b] : outer[a] > outer[b];
  });
  std::string s;
  for (int dim : order) s += static_cast<char>((blocked[dim] ? 'A' : 'a') + dim);
  for (int i = 0; i < blk.inner_nblks; ++i)
    s += std::to_string(blk.inner_blks[i]) + static_cast<char>('a' + blk.inner_idxs[i]);
  return s;
}

std::string SrcKind(const std::string& f) {
  if (f == "abcd") return "nchw";
  if (f == "acdb") return "nhwc";
  return "blocked";
}

void FillRandom(memory& m, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  float* p = static_cast<float*>(m.get_data_handle());
  const size_t n = m.get_desc().get_size() / sizeof(float);
  for (size_t i = 0; i < n; ++i) p[i] = dist(rng);
}

// `plain` reordered into a new memory of layout `want` (or `plain` itself when
// the layouts match), once, outside any timing.
memory ReorderOnce(memory& plain, const memory::desc& want) {
  if (plain.get_desc() == want) return plain;
  memory out(want, Engine());
  dnnl::reorder(plain, out).execute(Stream(), plain, out);
  Stream().wait();
  return out;
}

void SetGflop(benchmark::State& state, double flops) {
  state.counters["GFLOP"] =
      benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  state.counters["omp_threads"] = omp_get_max_threads();
}

// One warm-up run (first touch of dst and oneDNN's scratchpad), then the timed runs.
template <class Run>
void TimeRuns(benchmark::State& state, const Run& run) {
  run();
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
}

// Everything of one conv case outside the timing: the primitive with the
// layouts oneDNN picked, the plain NCHW tensors, and the same tensors in the
// chosen layouts (weights and bias already reordered).
struct ConvSetup {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward conv;
  memory src_plain, dst_plain, src, wei, bias, dst;

  // `src_md`: the src layout to take (a chain's second layer takes the
  // first's dst as it is), instead of letting oneDNN choose.
  explicit ConvSetup(const ConvCase& c, const memory::desc* src_md = nullptr) {
    const memory::dim n = c.n, ic = c.c, h = c.h, w = c.w, oc = c.oc, g = c.groups;
    const memory::dims src_dims = {n, ic, h, w};
    const memory::dims dst_dims = {n, oc, c.OutH(), c.OutW()};
    const memory::dims wei_dims =
        g > 1 ? memory::dims{g, oc / g, ic / g, c.kh, c.kw} : memory::dims{oc, ic, c.kh, c.kw};
    const memory::dims strides = {c.stride, c.stride};
    const memory::dims pad = {c.pad, c.pad};
    // Right padding: what makes the output size come out as OutH/OutW
    // (symmetric for every case here; computed rather than assumed).
    const memory::dims pad_r = {(memory::dim(c.OutH()) - 1) * c.stride + c.kh - h - c.pad,
                                (memory::dim(c.OutW()) - 1) * c.stride + c.kw - w - c.pad};
    dnnl::convolution_forward::desc d(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        src_md ? *src_md : memory::desc(src_dims, dt::f32, tag::any),
        memory::desc(wei_dims, dt::f32, tag::any), memory::desc({oc}, dt::f32, tag::any),
        memory::desc(dst_dims, dt::f32, tag::any), strides, pad, pad_r);
    pd = dnnl::convolution_forward::primitive_desc(d, Engine());
    conv = dnnl::convolution_forward(pd);

    src_plain = memory({src_dims, dt::f32, tag::nchw}, Engine());
    dst_plain = memory({dst_dims, dt::f32, tag::nchw}, Engine());
    memory wei_plain({wei_dims, dt::f32, g > 1 ? tag::goihw : tag::oihw}, Engine());
    memory bias_plain({{oc}, dt::f32, tag::x}, Engine());
    FillRandom(src_plain, 1);
    FillRandom(wei_plain, 2);
    FillRandom(bias_plain, 3);
    src = ReorderOnce(src_plain, pd.src_desc());
    wei = ReorderOnce(wei_plain, pd.weights_desc());
    bias = ReorderOnce(bias_plain, pd.bias_desc());
    dst = pd.dst_desc() == dst_plain.get_desc() ? dst_plain : memory(pd.dst_desc(), Engine());
  }

  void Run() {
    conv.execute(Stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}});
  }

  std::string Label() const {
    const std::string s = FormatOf(pd.src_desc());
    return "src " + s + " (" + SrcKind(s) + "), wei " + FormatOf(pd.weights_desc()) + ", dst " +
           FormatOf(pd.dst_desc()) + ", " + pd.impl_info_str();
  }
};

void ConvBench(benchmark::State& state, const ConvCase& c, uint32_t t, bool nchw_io) {
  omp_set_num_threads(static_cast<int>(t));
  try {
    ConvSetup s(c);
    const bool src_reorder = nchw_io && s.src.get() != s.src_plain.get();
    const bool dst_reorder = nchw_io && s.dst.get() != s.dst_plain.get();
    dnnl::reorder to_chosen, to_plain;
    if (src_reorder) to_chosen = dnnl::reorder(s.src_plain, s.src);
    if (dst_reorder) to_plain = dnnl::reorder(s.dst, s.dst_plain);
    auto run = [&] {
      if (src_reorder) to_chosen.execute(Stream(), s.src_plain, s.src);
      s.Run();
      if (dst_reorder) to_plain.execute(Stream(), s.dst, s.dst_plain);
      Stream().wait();
    };
    TimeRuns(state, run);
    SetGflop(state, c.Flops());
    if (nchw_io) {
      state.counters["src_reorder"] = src_reorder;
      state.counters["dst_reorder"] = dst_reorder;
    }
    state.SetLabel(s.Label());
  } catch (const dnnl::error& e) {
    state.SkipWithError((std::string("oneDNN: ") + e.what()).c_str());
  }
}

void ChainBench(benchmark::State& state, const ConvCase& c, uint32_t t) {
  omp_set_num_threads(static_cast<int>(t));
  try {
    ConvSetup first(c);
    const memory::desc carried = first.pd.dst_desc();
    ConvSetup second(c.ChainPartner(), &carried);
    auto run = [&] {
      first.Run();
      second.conv.execute(Stream(), {{DNNL_ARG_SRC, first.dst},
                                     {DNNL_ARG_WEIGHTS, second.wei},
                                     {DNNL_ARG_BIAS, second.bias},
                                     {DNNL_ARG_DST, second.dst}});
      Stream().wait();
    };
    TimeRuns(state, run);
    SetGflop(state, c.ChainFlops());
    state.SetLabel("1: " + first.Label() + "; 2: " + second.Label());
  } catch (const dnnl::error& e) {
    state.SkipWithError((std::string("oneDNN: ") + e.what()).c_str());
  }
}

void MatmulBench(benchmark::State& state, const MatmulCase& c, uint32_t t) {
  omp_set_num_threads(static_cast<int>(t));
  try {
    const memory::dim m = c.m, k = c.k, n = c.n;
    dnnl::matmul::desc d(memory::desc({m, k}, dt::f32, tag::ab), memory::desc({k, n}, dt::f32, tag::any),
                         memory::desc({m, n}, dt::f32, tag::ab));
    dnnl::matmul::primitive_desc pd(d, Engine());
    dnnl::matmul mm(pd);
    memory a(pd.src_desc(), Engine()), b_plain({{k, n}, dt::f32, tag::ab}, Engine()), out(pd.dst_desc(), Engine());
    FillRandom(a, 1);
    FillRandom(b_plain, 2);
    memory b = ReorderOnce(b_plain, pd.weights_desc());
    auto run = [&] {
      mm.execute(Stream(), {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, out}});
      Stream().wait();
    };
    TimeRuns(state, run);
    SetGflop(state, c.Flops());
    state.SetLabel("B " + FormatOf(pd.weights_desc()) + ", " + pd.impl_info_str());
  } catch (const dnnl::error& e) {
    state.SkipWithError((std::string("oneDNN: ") + e.what()).c_str());
  }
}

void RegisterAll() {
  auto reg = [](const std::string& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn)->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
  };
  for (uint32_t t : PeerThreadCounts()) {
    const std::string ts = "/t:" + std::to_string(t);
    for (const ConvCase& c : ConvCases()) {
      reg(std::string("onednn/conv/") + c.name + ts, [c, t](benchmark::State& s) { ConvBench(s, c, t, false); });
      reg(std::string("onednn_nchw/conv/") + c.name + ts, [c, t](benchmark::State& s) { ConvBench(s, c, t, true); });
      reg(std::string("onednn_chain/conv/") + c.name + ts, [c, t](benchmark::State& s) { ChainBench(s, c, t); });
    }
    for (const MatmulCase& c : MatmulCases())
      reg(std::string("onednn/matmul/") + c.name + ts, [c, t](benchmark::State& s) { MatmulBench(s, c, t); });
  }
}

}  // namespace
}  // namespace webnn::bench::peers

int main(int argc, char** argv) {
  webnn::bench::peers::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
