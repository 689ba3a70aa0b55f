// cpu kernels of lstm and lstmCell on the GEMM core (gemm.h).
//
// Per direction:
//   P = X W^T + bias                 one GEMM over every step ([steps * batch, 4H])
//   per step t (reversed for the backward direction):
//     G = h R^T + recurrentBias      one GEMM, [batch, 4H]
//     i = f(Pi + Gi + pi * c), f = f(Pf + Gf + pf * c), g = g(Pg + Gg), o = f(Po + Go + po * c)
//     c = f * c + i * g, h = o * h(c)          (element-wise SIMD)
// with the gate columns in layout order (iofg or ifgo) and the peephole
// weights ordered i, o, f. W and R are packed once at compile time when they
// are constants (else per dispatch, once for all steps). States are carried in
// float32 between steps; float16 operands are widened first and the outputs
// rounded once.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/lstm.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/gemm_rnn-inl.h"

#ifndef WEBNN_OPS_CPU_LSTM_ONCE
#define WEBNN_OPS_CPU_LSTM_ONCE
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
#include "ops/lstm.h"

namespace webnn::ops::cpu {
// One step's element-wise gate math over rows [b0, b1) of the batch.
struct LstmRowArgs {
  size_t hidden;
  const float* p;         // input projection of the step: [batch, 4H] in layout order
  const float* g;         // recurrent projection: [batch, 4H] in layout order
  const float* peephole;  // [3H] (i, o, f) or null
  const float* c;         // [batch, H]
  float* h_next;          // [batch, H]
  float* c_next;          // [batch, H]
  size_t i_col, o_col, f_col, g_col;
  MLRecurrentNetworkActivation f, g_act, h_act;
};
}  // namespace webnn::ops::cpu
#endif  // WEBNN_OPS_CPU_LSTM_ONCE

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void LstmRows(const LstmRowArgs& a, size_t b0, size_t b1) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), H = a.hidden;
  for (size_t b = b0; b < b1; ++b) {
    const float* p = a.p + b * 4 * H;
    const float* g = a.g + b * 4 * H;
    const float* c = a.c + b * H;
    for (size_t j = 0; j < H; j += N) {
      const size_t n = H - j;
      auto pre_i = hn::Add(RnnLoad(d, p + a.i_col + j, n), RnnLoad(d, g + a.i_col + j, n));
      auto pre_f = hn::Add(RnnLoad(d, p + a.f_col + j, n), RnnLoad(d, g + a.f_col + j, n));
      auto pre_o = hn::Add(RnnLoad(d, p + a.o_col + j, n), RnnLoad(d, g + a.o_col + j, n));
      const auto pre_g = hn::Add(RnnLoad(d, p + a.g_col + j, n), RnnLoad(d, g + a.g_col + j, n));
      const auto cv = RnnLoad(d, c + j, n);
      if (a.peephole) {
        pre_i = hn::MulAdd(cv, RnnLoad(d, a.peephole + j, n), pre_i);
        pre_o = hn::MulAdd(cv, RnnLoad(d, a.peephole + H + j, n), pre_o);
        pre_f = hn::MulAdd(cv, RnnLoad(d, a.peephole + 2 * H + j, n), pre_f);
      }
      const auto gi = RnnActivate(d, a.f, pre_i);
      const auto gf = RnnActivate(d, a.f, pre_f);
      const auto gg = RnnActivate(d, a.g_act, pre_g);
      const auto go = RnnActivate(d, a.f, pre_o);
      const auto cell = hn::MulAdd(gf, cv, hn::Mul(gi, gg));
      RnnStore(d, cell, a.c_next + b * H + j, n);
      RnnStore(d, hn::Mul(go, RnnActivate(d, a.h_act, cell)), a.h_next + b * H + j, n);
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(LstmRows);

namespace {

struct LstmPrepared {
  std::vector<PackedB> w;  // per direction: W^T [input_size, 4H] (weight constant), else empty
  std::vector<PackedB> r;  // per direction: R^T [H, 4H] (recurrentWeight constant), else empty
};

// Rows [dir * rows, (dir + 1) * rows) of a [dirs, rows, cols] weight as B = W^T.
PackedB PackWeight(const TensorView& t, size_t dir, size_t rows, size_t cols, core::ParallelFor& parallel) {
  const size_t offset = dir * rows * cols;
  if (t.type == DataType::kFloat32) return PackB(t.as<float>() + offset, cols, rows, cols, true, parallel);
  return PackBF16(t.as<uint16_t>() + offset, cols, rows, cols, true, parallel);
}


struct LstmProblem {
  size_t steps, batch, input_size, hidden, directions;
  bool backward_only;
  size_t i_col, o_col, f_col, g_col;
  MLRecurrentNetworkActivation f, g, h;
  const float* x;         // [steps, batch, I]
  const float* bias;      // [dirs, 4H] or null
  const float* rbias;     // [dirs, 4H] or null
  const float* peephole;  // [dirs, 3H] or null
  const float* h0;        // [dirs, batch, H] or null
  const float* c0;        // [dirs, batch, H] or null
  float* out_h;           // [dirs, batch, H]
  float* out_c;           // [dirs, batch, H]
  float* out_seq;         // [steps, dirs, batch, H] or null
};

void LstmDirection(const LstmProblem& pb, size_t dir, const PackedB& w, const PackedB& r,
                   core::ParallelFor& parallel) {
  const size_t H = pb.hidden, B = pb.batch, G = 4 * H;
  const size_t state = B * H;
  const memory::Scratch<float> proj(pb.steps * B * G, "lstm: input projections");
  GemmEpilogue input_epilogue;
  input_epilogue.bias = pb.bias ? pb.bias + dir * G : nullptr;
  GemmF32(pb.steps * B, G, pb.input_size, pb.x, pb.input_size, w, proj.data(), G, input_epilogue, parallel);

  const memory::Scratch<float> h_a(state, 0.0f, "lstm: state"), c_a(state, 0.0f, "lstm: cell state"),
      h_b(state, "lstm: next state"), c_b(state, "lstm: next cell state"), rec(B * G, "lstm: recurrent gates");
  float *h = h_a.data(), *c = c_a.data(), *h_next = h_b.data(), *c_next = c_b.data();
  if (pb.h0) std::memcpy(h, pb.h0 + dir * state, state * sizeof(float));
  if (pb.c0) std::memcpy(c, pb.c0 + dir * state, state * sizeof(float));
  GemmEpilogue rec_epilogue;
  rec_epilogue.bias = pb.rbias ? pb.rbias + dir * G : nullptr;
  const size_t grain = std::max<size_t>(1, 8192 / H);
  const bool backward = dir == 1 || pb.backward_only;
  for (size_t step = 0; step < pb.steps; ++step) {
    const size_t t = backward ? pb.steps - 1 - step : step;
    GemmF32(B, G, H, h, H, r, rec.data(), G, rec_epilogue, parallel);
    LstmRowArgs a{};
    a.hidden = H;
    a.p = proj.data() + t * B * G;
    a.g = rec.data();
    a.peephole = pb.peephole ? pb.peephole + dir * 3 * H : nullptr;
    a.c = c;
    a.h_next = h_next;
    a.c_next = c_next;
    a.i_col = pb.i_col;
    a.o_col = pb.o_col;
    a.f_col = pb.f_col;
    a.g_col = pb.g_col;
    a.f = pb.f;
    a.g_act = pb.g;
    a.h_act = pb.h;
    parallel.Run(B, grain, [&](size_t b0, size_t b1) { HWY_DYNAMIC_DISPATCH(LstmRows)(a, b0, b1); });
    std::swap(h, h_next);
    std::swap(c, c_next);
    // The sequence is indexed by input time: the backward direction's state
    // after consuming input t is stored at t.
    if (pb.out_seq) std::memcpy(pb.out_seq + (t * pb.directions + dir) * state, h, state * sizeof(float));
  }
  std::memcpy(pb.out_h + dir * state, h, state * sizeof(float));
  std::memcpy(pb.out_c + dir * state, c, state * sizeof(float));
}

// LstmDirection's workspace, run inside a parallel-for body or not.
void AddLstmDirectionWorkspace(memory::WorkspaceSize& ws, size_t steps, size_t B, size_t I, size_t H, bool in_body) {
  const size_t G = 4 * H, state = B * H;
  memory::WorkspaceSize own;
  own.AddShared<float>(steps * B * G);
  for (int i = 0; i < 4; ++i) own.AddShared<float>(state);
  own.AddShared<float>(B * G);
  memory::WorkspaceSize gemms;  // one at a time
  for (const auto [m, k] : {std::array<size_t, 2>{steps * B, I}, {B, H}}) {
    memory::WorkspaceSize one;
    AddGemmWorkspace(one, m, G, k, /*b_packed=*/true, false, in_body);
    gemms.Max(one);
  }
  if (in_body) ws.per_worker += own.shared + gemms.shared + gemms.per_worker;
  else ws.shared += own.shared + gemms.shared, ws.per_worker += gemms.per_worker;
}

void RunLstm(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<LstmAttrs>(ctx.attrs);
  const bool cell = ctx.op == OpKind::lstmCell;
  const TensorView& input = ctx.inputs[0];
  const TensorView& weight = ctx.inputs[1];
  const TensorView& recurrent = ctx.inputs[2];
  // Operand slots: lstm (input, W, R, bias, recurrentBias, peepholeWeight,
  // initialHiddenState, initialCellState); lstmCell (input, W, R, hiddenState,
  // cellState, bias, recurrentBias, peepholeWeight).
  const TensorView* bias = OptionalInput(ctx.inputs, cell ? 5 : 3);
  const TensorView* rbias = OptionalInput(ctx.inputs, cell ? 6 : 4);
  const TensorView* peephole = OptionalInput(ctx.inputs, cell ? 7 : 5);
  const TensorView* h0 = OptionalInput(ctx.inputs, cell ? 3 : 6);
  const TensorView* c0 = OptionalInput(ctx.inputs, cell ? 4 : 7);

  LstmProblem pb{};
  pb.steps = cell ? 1 : input.shape[0];
  pb.batch = input.shape[cell ? 0 : 1];
  pb.input_size = weight.shape.back();
  pb.hidden = attrs.hiddenSize;
  pb.directions = !cell && attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  pb.backward_only = !cell && attrs.direction == MLRecurrentNetworkDirection::kBackward;
  const size_t H = pb.hidden;
  const bool iofg = attrs.layout == MLLstmWeightLayout::kIofg;
  pb.i_col = 0;
  pb.o_col = (iofg ? 1 : 3) * H;
  pb.f_col = (iofg ? 2 : 1) * H;
  pb.g_col = (iofg ? 3 : 2) * H;
  pb.f = attrs.activations[0];
  pb.g = attrs.activations[1];
  pb.h = attrs.activations[2];
  const bool f16 = input.type == DataType::kFloat16;

  const F32Input x32(&input, ctx.parallel), bias32(bias, ctx.parallel), rbias32(rbias, ctx.parallel),
      peephole32(peephole, ctx.parallel), h032(h0, ctx.parallel), c032(c0, ctx.parallel);
  pb.x = x32.get();
  pb.bias = bias32.get();
  pb.rbias = rbias32.get();
  pb.peephole = peephole32.get();
  pb.h0 = h032.get();
  pb.c0 = c032.get();
  const TensorView& out_h = ctx.outputs[0];
  const TensorView& out_c = ctx.outputs[1];
  const TensorView* out_seq = !cell && attrs.returnSequence && ctx.outputs.size() > 2 ? &ctx.outputs[2] : nullptr;
  const memory::Scratch<float> out_h32(f16 ? out_h.elements() : 0, "lstm: float32 hidden state"),
      out_c32(f16 ? out_c.elements() : 0, "lstm: float32 cell state"),
      out_seq32(f16 && out_seq ? out_seq->elements() : 0, "lstm: float32 sequence");
  if (f16) {
    pb.out_h = out_h32.data();
    pb.out_c = out_c32.data();
    pb.out_seq = out_seq ? out_seq32.data() : nullptr;
  } else {
    pb.out_h = out_h.as<float>();
    pb.out_c = out_c.as<float>();
    pb.out_seq = out_seq ? out_seq->as<float>() : nullptr;
  }

  const auto* prepared = static_cast<const LstmPrepared*>(ctx.prepared);
  std::vector<PackedB> packed_w, packed_r;
  if (!prepared || prepared->w.empty())
    for (size_t dir = 0; dir < pb.directions; ++dir)
      packed_w.push_back(PackWeight(weight, dir, 4 * H, pb.input_size, ctx.parallel));
  if (!prepared || prepared->r.empty())
    for (size_t dir = 0; dir < pb.directions; ++dir) packed_r.push_back(PackWeight(recurrent, dir, 4 * H, H, ctx.parallel));
  const auto& wp = packed_w.empty() ? prepared->w : packed_w;
  const auto& rp = packed_r.empty() ? prepared->r : packed_r;
  uint64_t local_bytes = 0;  // weights that are not constants, packed for this dispatch
  for (const auto* packs : {&packed_w, &packed_r})
    for (const PackedB& p : *packs) local_bytes += p.bytes();
  const memory::Charge local_charge = memory::ChargeRunMemory(local_bytes, "lstm: packing weights that are not constants");

  // Both directions at once, one per thread, when a step is too small to split.
  const double step_flops = 2.0 * pb.batch * 4 * H * H;
  if (pb.directions == 2 && ctx.parallel.NumThreads() > 1 && step_flops < 1e6) {
    ctx.parallel.Run(2, 1, [&](size_t d0, size_t d1) {
      core::SerialFor serial;
      for (size_t dir = d0; dir < d1; ++dir) LstmDirection(pb, dir, wp[dir], rp[dir], serial);
    });
  } else {
    for (size_t dir = 0; dir < pb.directions; ++dir) LstmDirection(pb, dir, wp[dir], rp[dir], ctx.parallel);
  }

  if (f16) {
    ConvertF32ToF16(out_h32.data(), out_h.as<uint16_t>(), out_h32.size(), ctx.parallel);
    ConvertF32ToF16(out_c32.data(), out_c.as<uint16_t>(), out_c32.size(), ctx.parallel);
    if (out_seq) ConvertF32ToF16(out_seq32.data(), out_seq->as<uint16_t>(), out_seq32.size(), ctx.parallel);
  }
}

std::shared_ptr<const void> PrepareLstm(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<LstmAttrs>(ctx.attrs);
  const bool cell = ctx.op == OpKind::lstmCell;
  const TensorView& input = ctx.inputs[0];
  const TensorView& weight = ctx.inputs[1];
  const TensorView& recurrent = ctx.inputs[2];
  const size_t directions = !cell && attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const size_t H = attrs.hiddenSize, input_size = weight.shape.back();
  const size_t steps = cell ? 1 : input.shape[0], batch = input.shape[cell ? 0 : 1];
  AddRecurrentWorkspace(ctx, [&](memory::WorkspaceSize& ws, bool in_body) {
    AddLstmDirectionWorkspace(ws, steps, batch, input_size, H, in_body);
  });
  if (!weight.present() && !recurrent.present()) return nullptr;
  auto prepared = std::make_shared<LstmPrepared>();
  core::SerialFor serial;
  for (size_t dir = 0; dir < directions; ++dir) {
    if (weight.present()) prepared->w.push_back(PackWeight(weight, dir, 4 * H, input_size, serial));
    if (recurrent.present()) prepared->r.push_back(PackWeight(recurrent, dir, 4 * H, H, serial));
  }
  for (const auto* packs : {&prepared->w, &prepared->r})
    for (const PackedB& p : *packs) ctx.prepared_bytes += p.bytes();
  return prepared;
}

}  // namespace

void RegisterLstmKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    const size_t outputs = op == OpKind::lstm ? 3 : 2;
    registry.Add(CpuKernel{op, &RunLstm, &PrepareLstm, std::vector<DataTypeSet>(8, s),
                           std::vector<DataTypeSet>(outputs, s)});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
