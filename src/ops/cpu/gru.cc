// cpu kernels of gru and gruCell on the GEMM core (gemm.h).
//
// Per direction:
//   P = X W^T + bias              one GEMM over every step ([steps * batch, 3H])
//   per step t (reversed for the backward direction):
//     resetAfter:   G = h R^T + recurrentBias             one GEMM, [batch, 3H]
//                   z = f(Pz + Gz), r = f(Pr + Gr), n = g(Pn + r * Gn)
//     otherwise:    G = h Rzr^T + recurrentBias[zr]        [batch, 2H]
//                   z = f(Pz + Gz), r = f(Pr + Gr)
//                   Gn = (r * h) Rn^T + recurrentBias[n]   [batch, H]
//                   n = g(Pn + Gn)
//     h = z * h + (1 - z) * n
// W and R are packed once at compile time when they are constants (else per
// dispatch, once for all steps). The gate math is element-wise SIMD. States
// are carried in float32 between steps; float16 operands are widened first
// and the outputs rounded once.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/gru.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/gemm_rnn-inl.h"

#ifndef WEBNN_OPS_CPU_GRU_ONCE
#define WEBNN_OPS_CPU_GRU_ONCE
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include <array>
#include <utility>
#include "ops/cpu/float16.h"
#include "ops/cpu/gemm.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/recurrent_workspace.h"
#include "ops/gru.h"

namespace webnn::ops::cpu {
// One step's element-wise gate math over rows [b0, b1) of the batch.
struct GruRowArgs {
  size_t hidden;
  const float* p;  // input projection of the step: [batch, 3H] in layout order
  const float* g;  // recurrent projection: [batch, g_stride], z and r columns in layout order
  size_t g_stride;
  const float* gn;  // recurrent projection of n: [batch, gn_stride]
  size_t gn_stride;
  const float* h;   // [batch, H]
  float* h_next;    // [batch, H]
  float* z;         // reset-before: z saved between the two phases [batch, H]
  float* rh;        // reset-before: r * h [batch, H]
  size_t z_col, r_col;
  MLRecurrentNetworkActivation f, g_act;
};
}  // namespace webnn::ops::cpu
#endif  // WEBNN_OPS_CPU_GRU_ONCE

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// resetAfter: z, r, n and the new state in one pass.
void GruRowsResetAfter(const GruRowArgs& a, size_t b0, size_t b1) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), H = a.hidden;
  const auto one = hn::Set(d, 1.0f);
  for (size_t b = b0; b < b1; ++b) {
    const float* p = a.p + b * 3 * H;
    const float* g = a.g + b * a.g_stride;
    const float* gn = a.gn + b * a.gn_stride;
    const float* h = a.h + b * H;
    float* out = a.h_next + b * H;
    for (size_t j = 0; j < H; j += N) {
      const size_t c = H - j;
      const auto z = RnnActivate(d, a.f, hn::Add(RnnLoad(d, p + a.z_col + j, c), RnnLoad(d, g + a.z_col + j, c)));
      const auto r = RnnActivate(d, a.f, hn::Add(RnnLoad(d, p + a.r_col + j, c), RnnLoad(d, g + a.r_col + j, c)));
      const auto n = RnnActivate(d, a.g_act, hn::MulAdd(r, RnnLoad(d, gn + j, c), RnnLoad(d, p + 2 * H + j, c)));
      const auto hv = RnnLoad(d, h + j, c);
      RnnStore(d, hn::MulAdd(z, hv, hn::Mul(hn::Sub(one, z), n)), out + j, c);
    }
  }
}

// Reset before: z and r * h (the input of the n product).
void GruRowsGates(const GruRowArgs& a, size_t b0, size_t b1) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), H = a.hidden;
  for (size_t b = b0; b < b1; ++b) {
    const float* p = a.p + b * 3 * H;
    const float* g = a.g + b * a.g_stride;
    const float* h = a.h + b * H;
    for (size_t j = 0; j < H; j += N) {
      const size_t c = H - j;
      const auto z = RnnActivate(d, a.f, hn::Add(RnnLoad(d, p + a.z_col + j, c), RnnLoad(d, g + a.z_col + j, c)));
      const auto r = RnnActivate(d, a.f, hn::Add(RnnLoad(d, p + a.r_col + j, c), RnnLoad(d, g + a.r_col + j, c)));
      RnnStore(d, z, a.z + b * H + j, c);
      RnnStore(d, hn::Mul(r, RnnLoad(d, h + j, c)), a.rh + b * H + j, c);
    }
  }
}

// Reset before: n and the new state.
void GruRowsFinish(const GruRowArgs& a, size_t b0, size_t b1) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), H = a.hidden;
  const auto one = hn::Set(d, 1.0f);
  for (size_t b = b0; b < b1; ++b) {
    const float* p = a.p + b * 3 * H;
    const float* gn = a.gn + b * a.gn_stride;
    for (size_t j = 0; j < H; j += N) {
      const size_t c = H - j;
      const auto n = RnnActivate(d, a.g_act, hn::Add(RnnLoad(d, p + 2 * H + j, c), RnnLoad(d, gn + j, c)));
      const auto z = RnnLoad(d, a.z + b * H + j, c);
      const auto hv = RnnLoad(d, a.h + b * H + j, c);
      RnnStore(d, hn::MulAdd(z, hv, hn::Mul(hn::Sub(one, z), n)), a.h_next + b * H + j, c);
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(GruRowsResetAfter);
HWY_EXPORT(GruRowsGates);
HWY_EXPORT(GruRowsFinish);

namespace {

// One direction's weights, packed as GEMM B operands.
struct GruPackedDirection {
  PackedB w;           // W^T: [input_size, 3H]
  PackedB r_all;       // resetAfter: R^T [H, 3H]
  PackedB r_zr, r_n;   // reset before: R^T split into z,r [H, 2H] and n [H, H]
};

struct GruPrepared {
  std::vector<GruPackedDirection> w;  // per direction: `w` packed (weight constant)
  std::vector<GruPackedDirection> r;  // per direction: recurrent parts packed (recurrentWeight constant)
};

// W [3H, I] (row-major, float32 or float16 bits) as B = W^T.
PackedB PackWeight(const TensorView& t, size_t offset, size_t rows, size_t cols, core::ParallelFor& parallel) {
  if (t.type == DataType::kFloat32) return PackB(t.as<float>() + offset, cols, rows, cols, true, parallel);
  return PackBF16(t.as<uint16_t>() + offset, cols, rows, cols, true, parallel);
}

void PackInputWeight(GruPackedDirection& p, const TensorView& w, size_t dir, size_t hidden, size_t input_size,
                     core::ParallelFor& parallel) {
  p.w = PackWeight(w, dir * 3 * hidden * input_size, 3 * hidden, input_size, parallel);
}

void PackRecurrentWeight(GruPackedDirection& p, const TensorView& r, size_t dir, size_t hidden, bool reset_after,
                         core::ParallelFor& parallel) {
  const size_t base = dir * 3 * hidden * hidden;
  if (reset_after) {
    p.r_all = PackWeight(r, base, 3 * hidden, hidden, parallel);
  } else {
    p.r_zr = PackWeight(r, base, 2 * hidden, hidden, parallel);
    p.r_n = PackWeight(r, base + 2 * hidden * hidden, hidden, hidden, parallel);
  }
}


struct GruProblem {
  size_t steps, batch, input_size, hidden, directions;
  bool reset_after, backward_only, return_sequence;
  size_t z_col, r_col;
  MLRecurrentNetworkActivation f, g;
  const float* x;      // [steps, batch, I]
  const float* bias;   // [dirs, 3H] or null
  const float* rbias;  // [dirs, 3H] or null
  const float* h0;     // [dirs, batch, H] or null
  float* out_h;        // [dirs, batch, H]
  float* out_seq;      // [steps, dirs, batch, H] or null
};

// The steps of one direction.
void GruDirection(const GruProblem& pb, size_t dir, const GruPackedDirection& wp, const GruPackedDirection& rp,
                  core::ParallelFor& parallel) {
  const size_t H = pb.hidden, B = pb.batch, G = 3 * H;
  const size_t state = B * H;
  const memory::Scratch<float> proj(pb.steps * B * G, "gru: input projections");
  GemmEpilogue input_epilogue;
  input_epilogue.bias = pb.bias ? pb.bias + dir * G : nullptr;
  GemmF32(pb.steps * B, G, pb.input_size, pb.x, pb.input_size, wp.w, proj.data(), G, input_epilogue, parallel);

  const memory::Scratch<float> h_a(state, 0.0f, "gru: state"), h_b(state, "gru: next state"),
      rec(B * (pb.reset_after ? G : 2 * H), "gru: recurrent gates"),
      rec_n(pb.reset_after ? 0 : state, "gru: recurrent n"), z(pb.reset_after ? 0 : state, "gru: z"),
      rh(pb.reset_after ? 0 : state, "gru: r * h");
  float* h = h_a.data();
  float* h_next = h_b.data();
  if (pb.h0) std::memcpy(h, pb.h0 + dir * state, state * sizeof(float));
  const float* rbias = pb.rbias ? pb.rbias + dir * G : nullptr;
  GemmEpilogue rec_epilogue, rec_n_epilogue;
  rec_epilogue.bias = rbias;
  rec_n_epilogue.bias = rbias ? rbias + 2 * H : nullptr;
  // The gate math costs ~100 flops per element: split rows past ~8K elements.
  const size_t grain = std::max<size_t>(1, 8192 / H);
  const bool backward = dir == 1 || pb.backward_only;
  for (size_t step = 0; step < pb.steps; ++step) {
    const size_t t = backward ? pb.steps - 1 - step : step;
    GruRowArgs a{};
    a.hidden = H;
    a.p = proj.data() + t * B * G;
    a.h = h;
    a.h_next = h_next;
    a.z_col = pb.z_col;
    a.r_col = pb.r_col;
    a.f = pb.f;
    a.g_act = pb.g;
    if (pb.reset_after) {
      GemmF32(B, G, H, h, H, rp.r_all, rec.data(), G, rec_epilogue, parallel);
      a.g = rec.data();
      a.g_stride = G;
      a.gn = rec.data() + 2 * H;
      a.gn_stride = G;
      parallel.Run(B, grain, [&](size_t b0, size_t b1) { HWY_DYNAMIC_DISPATCH(GruRowsResetAfter)(a, b0, b1); });
    } else {
      GemmF32(B, 2 * H, H, h, H, rp.r_zr, rec.data(), 2 * H, rec_epilogue, parallel);
      a.g = rec.data();
      a.g_stride = 2 * H;
      a.z = z.data();
      a.rh = rh.data();
      parallel.Run(B, grain, [&](size_t b0, size_t b1) { HWY_DYNAMIC_DISPATCH(GruRowsGates)(a, b0, b1); });
      GemmF32(B, H, H, rh.data(), H, rp.r_n, rec_n.data(), H, rec_n_epilogue, parallel);
      a.gn = rec_n.data();
      a.gn_stride = H;
      parallel.Run(B, grain, [&](size_t b0, size_t b1) { HWY_DYNAMIC_DISPATCH(GruRowsFinish)(a, b0, b1); });
    }
    std::swap(h, h_next);
    // The sequence is indexed by input time: the backward direction's state
    // after consuming input t is stored at t.
    if (pb.out_seq) std::memcpy(pb.out_seq + (t * pb.directions + dir) * state, h, state * sizeof(float));
  }
  std::memcpy(pb.out_h + dir * state, h, state * sizeof(float));
}

// GruDirection's workspace, run inside a parallel-for body or not.
void AddGruDirectionWorkspace(memory::WorkspaceSize& ws, size_t steps, size_t B, size_t I, size_t H,
                              bool reset_after, bool in_body) {
  const size_t G = 3 * H, state = B * H;
  memory::WorkspaceSize own;
  own.AddShared<float>(steps * B * G);
  own.AddShared<float>(state);
  own.AddShared<float>(state);
  own.AddShared<float>(B * (reset_after ? G : 2 * H));
  if (!reset_after) own.AddShared<float>(state), own.AddShared<float>(state), own.AddShared<float>(state);
  memory::WorkspaceSize gemms;  // one at a time
  for (const auto [m, n, k] : {std::array<size_t, 3>{steps * B, G, I}, {B, G, H}, {B, 2 * H, H}, {B, H, H}}) {
    memory::WorkspaceSize one;
    AddGemmWorkspace(one, m, n, k, /*b_packed=*/true, false, in_body);
    gemms.Max(one);
  }
  if (in_body) ws.per_worker += own.shared + gemms.shared + gemms.per_worker;
  else ws.shared += own.shared + gemms.shared, ws.per_worker += gemms.per_worker;
}

void RunGru(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<GruAttrs>(ctx.attrs);
  const bool cell = ctx.op == OpKind::gruCell;
  const TensorView& input = ctx.inputs[0];
  const TensorView& weight = ctx.inputs[1];
  const TensorView& recurrent = ctx.inputs[2];
  // Operand slots: gru (input, W, R, bias, recurrentBias, initialHiddenState);
  // gruCell (input, W, R, hiddenState, bias, recurrentBias).
  const TensorView* bias = OptionalInput(ctx.inputs, cell ? 4 : 3);
  const TensorView* rbias = OptionalInput(ctx.inputs, cell ? 5 : 4);
  const TensorView* h0 = OptionalInput(ctx.inputs, cell ? 3 : 5);

  GruProblem pb{};
  pb.steps = cell ? 1 : input.shape[0];
  pb.batch = input.shape[cell ? 0 : 1];
  pb.input_size = weight.shape.back();
  pb.hidden = attrs.hiddenSize;
  pb.directions = !cell && attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  pb.backward_only = !cell && attrs.direction == MLRecurrentNetworkDirection::kBackward;
  pb.reset_after = attrs.resetAfter;
  const bool zrn = attrs.layout == MLGruWeightLayout::kZrn;
  pb.z_col = zrn ? 0 : pb.hidden;
  pb.r_col = zrn ? pb.hidden : 0;
  pb.f = attrs.activations[0];
  pb.g = attrs.activations[1];
  const bool f16 = input.type == DataType::kFloat16;

  const F32Input x32(&input, ctx.parallel), bias32(bias, ctx.parallel), rbias32(rbias, ctx.parallel),
      h032(h0, ctx.parallel);
  pb.x = x32.get();
  pb.bias = bias32.get();
  pb.rbias = rbias32.get();
  pb.h0 = h032.get();
  const TensorView& out_h = ctx.outputs[0];
  const TensorView* out_seq = !cell && attrs.returnSequence && ctx.outputs.size() > 1 ? &ctx.outputs[1] : nullptr;
  const memory::Scratch<float> out_h32(f16 ? out_h.elements() : 0, "gru: float32 hidden state"),
      out_seq32(f16 && out_seq ? out_seq->elements() : 0, "gru: float32 sequence");
  if (f16) {
    pb.out_h = out_h32.data();
    pb.out_seq = out_seq ? out_seq32.data() : nullptr;
  } else {
    pb.out_h = out_h.as<float>();
    pb.out_seq = out_seq ? out_seq->as<float>() : nullptr;
  }

  const auto* prepared = static_cast<const GruPrepared*>(ctx.prepared);
  std::vector<GruPackedDirection> packed_w, packed_r;
  if (!prepared || prepared->w.empty()) {
    packed_w.resize(pb.directions);
    for (size_t dir = 0; dir < pb.directions; ++dir)
      PackInputWeight(packed_w[dir], weight, dir, pb.hidden, pb.input_size, ctx.parallel);
  }
  if (!prepared || prepared->r.empty()) {
    packed_r.resize(pb.directions);
    for (size_t dir = 0; dir < pb.directions; ++dir)
      PackRecurrentWeight(packed_r[dir], recurrent, dir, pb.hidden, pb.reset_after, ctx.parallel);
  }
  const auto& wp = packed_w.empty() ? prepared->w : packed_w;
  const auto& rp = packed_r.empty() ? prepared->r : packed_r;
  uint64_t local_bytes = 0;  // weights that are not constants, packed for this dispatch
  for (const auto* dirs : {&packed_w, &packed_r})
    for (const GruPackedDirection& d : *dirs) local_bytes += d.w.bytes() + d.r_all.bytes() + d.r_zr.bytes() + d.r_n.bytes();
  const memory::Charge local_charge = memory::ChargeRunMemory(local_bytes, "gru: packing weights that are not constants");

  // Both directions at once, one per thread, when a step is too small to split.
  const double step_flops = 2.0 * pb.batch * 3 * pb.hidden * pb.hidden;
  if (pb.directions == 2 && ctx.parallel.NumThreads() > 1 && step_flops < 1e6) {
    ctx.parallel.Run(2, 1, [&](size_t d0, size_t d1) {
      core::SerialFor serial;
      for (size_t dir = d0; dir < d1; ++dir) GruDirection(pb, dir, wp[dir], rp[dir], serial);
    });
  } else {
    for (size_t dir = 0; dir < pb.directions; ++dir) GruDirection(pb, dir, wp[dir], rp[dir], ctx.parallel);
  }

  if (f16) {
    ConvertF32ToF16(out_h32.data(), out_h.as<uint16_t>(), out_h32.size(), ctx.parallel);
    if (out_seq) ConvertF32ToF16(out_seq32.data(), out_seq->as<uint16_t>(), out_seq32.size(), ctx.parallel);
  }
}

std::shared_ptr<const void> PrepareGru(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<GruAttrs>(ctx.attrs);
  const bool cell = ctx.op == OpKind::gruCell;
  const TensorView& input = ctx.inputs[0];
  const TensorView& weight = ctx.inputs[1];
  const TensorView& recurrent = ctx.inputs[2];
  const size_t directions = !cell && attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const size_t input_size = weight.shape.back();
  const size_t steps = cell ? 1 : input.shape[0], batch = input.shape[cell ? 0 : 1];
  AddRecurrentWorkspace(ctx, [&](memory::WorkspaceSize& ws, bool in_body) {
    AddGruDirectionWorkspace(ws, steps, batch, input_size, attrs.hiddenSize, attrs.resetAfter, in_body);
  });
  if (!weight.present() && !recurrent.present()) return nullptr;
  auto prepared = std::make_shared<GruPrepared>();
  core::SerialFor serial;
  if (weight.present()) {
    prepared->w.resize(directions);
    for (size_t dir = 0; dir < directions; ++dir)
      PackInputWeight(prepared->w[dir], weight, dir, attrs.hiddenSize, input_size, serial);
  }
  if (recurrent.present()) {
    prepared->r.resize(directions);
    for (size_t dir = 0; dir < directions; ++dir)
      PackRecurrentWeight(prepared->r[dir], recurrent, dir, attrs.hiddenSize, attrs.resetAfter, serial);
  }
  for (const auto* dirs : {&prepared->w, &prepared->r})
    for (const GruPackedDirection& d : *dirs)
      ctx.prepared_bytes += d.w.bytes() + d.r_all.bytes() + d.r_zr.bytes() + d.r_n.bytes();
  return prepared;
}

}  // namespace

void RegisterGruKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    const size_t outputs = op == OpKind::gru ? 2 : 1;
    registry.Add(CpuKernel{op, &RunGru, &PrepareGru, std::vector<DataTypeSet>(6, s), std::vector<DataTypeSet>(outputs, s)});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
