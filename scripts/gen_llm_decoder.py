#!/usr/bin/python3
"""gen_llm_decoder.py: writes a Llama/Qwen2-style decoder as ONNX with random (seeded) int4 weights.

Issue 12's workload. The default shapes are those of a real small model (Qwen2-0.5B-like):
hidden 896, 24 layers, 14 query heads, 2 KV heads, head dim 64, SwiGLU FFN 4864, vocab 151936,
RMSNorm (eps 1e-6), RoPE (theta 1e6, rotate-half layout), q/k/v biases, batch 1.

Weights: every projection (q, k, v, o, gate, up, down and the LM head) is int4 with one float32
scale per block of 32 along the input (K) dimension.
  --quant int4   symmetric: signed int4 values in [-8, 7], no zero point (ONNX INT4, data_type 22)
  --quant uint4  asymmetric: uint4 values in [0, 15] with a random uint4 zero point per block
                 (ONNX UINT4, data_type 21)
The embedding table [vocab, hidden] stays float (float16, gathered then cast to float32): it is
read one row per token, so quantizing it only adds a dequantize of the whole table to the graph.

Inputs (batch 1):
  input_ids       int64   [1, sequence_length]
  attention_mask  int64   [1, total_sequence_length]     (all ones; total = past + sequence)
  position_ids    int64   [1, sequence_length]           (past, past + 1, ...)
  past_key_values.N.key / .value   float32 [1, kv_heads, past_sequence_length, head_dim]
Outputs: logits float32 [1, sequence_length, vocab], present.N.key / .value
         float32 [1, kv_heads, total_sequence_length, head_dim].

Forms (same weights for the same --seed and shapes):
  --form a  standard ONNX ops only, opset 21: blockwise DequantizeLinear + MatMul, RMSNorm written out
            (Pow, ReduceMean, Add, Sqrt, Div, Mul), RoPE (Gather cos/sin, Split halves, Mul/Sub/Add,
            Concat), KV cache Concat, GQA by Unsqueeze + Expand + Reshape of the KV heads, a causal mask
            from CumSum(attention_mask) <= position_ids, MatMul/Softmax attention, SwiGLU.
  --form b  ONNX Runtime contrib ops (what its LLM tooling ships): MatMulNBits, GroupQueryAttention,
            RotaryEmbedding, SkipSimplifiedLayerNormalization (com.microsoft) and
            SimplifiedLayerNormalization.
onnx 1.12 (Debian) knows neither opset 21 nor INT4, so tensors of type 21/22 are written by number
with two values per byte, low nibble first, and the checker is not run.

  gen_llm_decoder.py --form a -o llm_a.onnx                 # the full model
  gen_llm_decoder.py --form a --layers 1 --hidden 64 --heads 4 --kv-heads 2 --head-dim 16 \\
      --ffn 128 --vocab 256 -o tiny.onnx                     # a tiny one for tests
  gen_llm_decoder.py --inputs DIR --seq 1 --past 512        # input .npy files for a run
"""
import argparse
import os
import sys
import time

import numpy as np

INT4, UINT4 = 22, 21  # TensorProto data types (onnx >= 1.16 names them INT4 / UINT4)


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--form", choices=["a", "b"], default="a")
    p.add_argument("-o", "--output", help="the .onnx to write")
    p.add_argument("--layers", type=int, default=24)
    p.add_argument("--hidden", type=int, default=896)
    p.add_argument("--heads", type=int, default=14)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--head-dim", type=int, default=64)
    p.add_argument("--ffn", type=int, default=4864)
    p.add_argument("--vocab", type=int, default=151936)
    p.add_argument("--block", type=int, default=32, help="quantization block along K (default 32)")
    p.add_argument("--quant", choices=["int4", "uint4"], default="int4",
                   help="int4: symmetric signed, no zero point (default); uint4: with zero points")
    p.add_argument("--eps", type=float, default=1e-6)
    p.add_argument("--theta", type=float, default=1e6)
    p.add_argument("--max-pos", type=int, default=4096, help="rows of the RoPE cos/sin tables")
    p.add_argument("--accuracy-level", type=int, default=1,
                   help="form b: MatMulNBits accuracy_level (1: float activations, 4: int8 activations)")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--inputs", metavar="DIR", help="instead of a model, write input .npy files to DIR")
    p.add_argument("--seq", type=int, default=1, help="with --inputs: new tokens")
    p.add_argument("--past", type=int, default=0, help="with --inputs: cached tokens")
    a = p.parse_args(argv)
    if a.hidden != a.heads * a.head_dim:
        p.error("--hidden must equal --heads x --head-dim")
    if a.heads % a.kv_heads:
        p.error("--heads must be a multiple of --kv-heads")
    for k in (a.hidden, a.ffn):
        if k % a.block or a.block % 2:
            p.error(f"{k} is not a multiple of the block size {a.block} (or the block is odd)")
    if not a.inputs and not a.output:
        p.error("give -o FILE (or --inputs DIR)")
    return a


# ---- weights ----------------------------------------------------------------------------

class Weights:
    """Random weights, identical for both forms: one generator per tensor, seeded by name."""

    def __init__(self, a):
        self.a = a

    def rng(self, name):
        return np.random.default_rng([self.a.seed] + [ord(ch) for ch in name])

    def quant(self, name, k, n):
        """One [K, N] matrix: (nibbles u [K, N] uint8 in 0..15, scales [K/B, N] f32, zero points or None).
        int4: the signed value is u - 8 (stored two's complement, i.e. u ^ 8); uint4: u with zp."""
        r = self.rng(name)
        packed = r.integers(0, 256, size=k * n // 2, dtype=np.uint8)
        u = np.empty(k * n, np.uint8)
        u[0::2] = packed & 0xF
        u[1::2] = packed >> 4
        u = u.reshape(k, n)
        nb = k // self.a.block
        # Scales keep the output's variance near the input's: |W| ~ 1/sqrt(K).
        scale = (r.uniform(0.5, 1.5, size=(nb, n)) / (4.6 * np.sqrt(k))).astype(np.float32)
        zp = r.integers(0, 16, size=(nb, n), dtype=np.uint8) if self.a.quant == "uint4" else None
        return u, scale, zp

    def vec(self, name, n, base=0.0, spread=0.1):
        return (base + spread * self.rng(name).standard_normal(n)).astype(np.float32)

    def embedding(self):
        a = self.a
        return self.rng("embed").standard_normal((a.vocab, a.hidden), dtype=np.float32).astype(np.float16)

    def rope(self):
        a = self.a
        inv = 1.0 / (a.theta ** (np.arange(0, a.head_dim, 2, dtype=np.float64) / a.head_dim))
        f = np.arange(a.max_pos, dtype=np.float64)[:, None] * inv[None, :]
        return np.cos(f).astype(np.float32), np.sin(f).astype(np.float32)


def pack_nibbles(u):
    """Packs uint8 values 0..15 along the flattened last axis, two per byte, low nibble first."""
    u = np.ascontiguousarray(u)
    flat = u.reshape(u.shape[:-1] + (-1,))
    if flat.shape[-1] % 2:
        flat = np.concatenate([flat, np.zeros(flat.shape[:-1] + (1,), np.uint8)], axis=-1)
    return (flat[..., 0::2] | (flat[..., 1::2] << 4)).astype(np.uint8)


# ---- ONNX building ----------------------------------------------------------------------

class Builder:
    def __init__(self):
        import onnx
        from onnx import helper, numpy_helper, TensorProto
        self.onnx, self.helper, self.nph, self.TP = onnx, helper, numpy_helper, TensorProto
        self.nodes, self.inits, self.count = [], [], 0

    def init(self, name, array):
        self.inits.append(self.nph.from_array(np.ascontiguousarray(array), name))
        return name

    def init4(self, name, u, dtype):
        """A 4-bit initializer by number: u holds values 0..15 (the nibbles)."""
        t = self.TP()
        t.name = name
        t.data_type = dtype
        t.dims.extend(u.shape)
        t.raw_data = pack_nibbles(u.reshape(-1)).tobytes()
        self.inits.append(t)
        return name

    def node(self, op, inputs, n_out=1, domain="", name=None, **attrs):
        self.count += 1
        name = name or f"{op}_{self.count}"
        outs = [f"{name}/out{i}" if i else f"{name}/out" for i in range(n_out)] if isinstance(n_out, int) else n_out
        self.nodes.append(self.helper.make_node(op, inputs, outs, name=name, domain=domain or None, **attrs))
        return outs[0] if len(outs) == 1 else outs

    def const(self, name, value, dtype):
        return self.init(name, np.asarray(value, dtype=dtype))


def io_infos(b, a):
    h, TP = b.helper, b.TP
    kv = [1, a.kv_heads, "past_sequence_length", a.head_dim]
    pkv = [1, a.kv_heads, "total_sequence_length", a.head_dim]
    ins = [h.make_tensor_value_info("input_ids", TP.INT64, [1, "sequence_length"]),
           h.make_tensor_value_info("attention_mask", TP.INT64, [1, "total_sequence_length"]),
           h.make_tensor_value_info("position_ids", TP.INT64, [1, "sequence_length"])]
    outs = [h.make_tensor_value_info("logits", TP.FLOAT, [1, "sequence_length", a.vocab])]
    for i in range(a.layers):
        for kind in ("key", "value"):
            ins.append(h.make_tensor_value_info(f"past_key_values.{i}.{kind}", TP.FLOAT, kv))
            outs.append(h.make_tensor_value_info(f"present.{i}.{kind}", TP.FLOAT, pkv))
    return ins, outs


def build_a(a, w):
    b = Builder()
    nrep = a.heads // a.kv_heads
    half = a.head_dim // 2

    def dq_matmul(x, name, k, n):
        u, scale, zp = w.quant(name, k, n)
        if a.quant == "int4":
            q = b.init4(f"{name}.qweight", u ^ 8, INT4)       # signed value u - 8, two's complement
            ins = [q, b.init(f"{name}.scales", scale)]
        else:
            q = b.init4(f"{name}.qweight", u, UINT4)
            ins = [q, b.init(f"{name}.scales", scale), b.init4(f"{name}.zero_points", zp, UINT4)]
        wt = b.node("DequantizeLinear", ins, name=f"{name}/dq", axis=0, block_size=a.block)
        return b.node("MatMul", [x, wt], name=f"{name}/matmul")

    eps = b.const("eps", a.eps, np.float32)
    two = b.const("two", 2.0, np.float32)
    last = b.const("axes_last", [-1], np.int64)

    def rms_norm(x, name):
        sq = b.node("Pow", [x, two], name=f"{name}/pow")
        mean = b.node("ReduceMean", [sq, last], name=f"{name}/mean", keepdims=1)
        rs = b.node("Sqrt", [b.node("Add", [mean, eps], name=f"{name}/add_eps")], name=f"{name}/sqrt")
        y = b.node("Div", [x, rs], name=f"{name}/div")
        return b.node("Mul", [y, b.init(f"{name}.weight", w.vec(f"{name}.weight", a.hidden, 1.0))],
                      name=f"{name}/mul")

    # Embedding: float16 table, gathered, cast to float32.
    emb = b.node("Gather", [b.init("embed.weight", w.embedding()), "input_ids"], name="embed", axis=0)
    x = b.node("Cast", [emb], name="embed/cast", to=b.TP.FLOAT)

    # Causal mask [1, 1, S, T]: key j (position cumsum(mask)-1) is visible to query i when it is
    # not after position_ids[i] and not padding.
    cum = b.node("CumSum", ["attention_mask", b.const("axis1", 1, np.int64)], name="mask/cumsum")
    kpos = b.node("Sub", [cum, b.const("one_i64", 1, np.int64)], name="mask/kpos")
    kpos4 = b.node("Unsqueeze", [kpos, b.const("axes12", [1, 2], np.int64)], name="mask/kpos4")
    qpos4 = b.node("Unsqueeze", ["position_ids", b.const("axes13", [1, 3], np.int64)], name="mask/qpos4")
    causal = b.node("LessOrEqual", [kpos4, qpos4], name="mask/causal")
    am4 = b.node("Unsqueeze", ["attention_mask", b.const("axes12b", [1, 2], np.int64)], name="mask/am4")
    valid = b.node("Greater", [am4, b.const("zero_i64", 0, np.int64)], name="mask/valid")
    allowed = b.node("And", [causal, valid], name="mask/allowed")
    mask = b.node("Where", [allowed, b.const("zero_f", 0.0, np.float32), b.const("neg_inf", -np.inf, np.float32)],
                  name="mask/bias")

    cos_t, sin_t = w.rope()
    axes1 = b.const("axes1", [1], np.int64)
    cos = b.node("Unsqueeze", [b.node("Gather", [b.init("rope.cos", cos_t), "position_ids"], name="rope/cos",
                                      axis=0), axes1], name="rope/cos4")
    sin = b.node("Unsqueeze", [b.node("Gather", [b.init("rope.sin", sin_t), "position_ids"], name="rope/sin",
                                      axis=0), axes1], name="rope/sin4")
    halves = b.const("rope.halves", [half, half], np.int64)

    def rope(t, name):
        t1, t2 = b.node("Split", [t, halves], n_out=[f"{name}/x1", f"{name}/x2"], name=f"{name}/split", axis=-1)
        r1 = b.node("Sub", [b.node("Mul", [t1, cos], name=f"{name}/m1"), b.node("Mul", [t2, sin], name=f"{name}/m2")],
                    name=f"{name}/sub")
        r2 = b.node("Add", [b.node("Mul", [t2, cos], name=f"{name}/m3"), b.node("Mul", [t1, sin], name=f"{name}/m4")],
                    name=f"{name}/add")
        return b.node("Concat", [r1, r2], name=f"{name}/concat", axis=-1)

    scale = b.const("attn.scale", 1.0 / np.sqrt(a.head_dim), np.float32)
    shape_q = b.const("shape_q", [0, 0, a.heads, a.head_dim], np.int64)
    shape_kv = b.const("shape_kv", [0, 0, a.kv_heads, a.head_dim], np.int64)
    expand_kv = b.const("expand_kv", [1, a.kv_heads, nrep, 1, a.head_dim], np.int64)
    shape_rep = b.const("shape_rep", [1, a.heads, -1, a.head_dim], np.int64)
    shape_out = b.const("shape_attn", [0, 0, a.heads * a.head_dim], np.int64)
    axes2 = b.const("axes2", [2], np.int64)
    kvdim = a.kv_heads * a.head_dim

    for i in range(a.layers):
        p = f"layers.{i}"
        xn = rms_norm(x, f"{p}.input_norm")
        q = b.node("Add", [dq_matmul(xn, f"{p}.q_proj", a.hidden, a.hidden),
                           b.init(f"{p}.q_proj.bias", w.vec(f"{p}.q_proj.bias", a.hidden))], name=f"{p}.q_proj/bias")
        k = b.node("Add", [dq_matmul(xn, f"{p}.k_proj", a.hidden, kvdim),
                           b.init(f"{p}.k_proj.bias", w.vec(f"{p}.k_proj.bias", kvdim))], name=f"{p}.k_proj/bias")
        v = b.node("Add", [dq_matmul(xn, f"{p}.v_proj", a.hidden, kvdim),
                           b.init(f"{p}.v_proj.bias", w.vec(f"{p}.v_proj.bias", kvdim))], name=f"{p}.v_proj/bias")
        q = b.node("Transpose", [b.node("Reshape", [q, shape_q], name=f"{p}.q/reshape")], name=f"{p}.q/transpose",
                   perm=[0, 2, 1, 3])
        k = b.node("Transpose", [b.node("Reshape", [k, shape_kv], name=f"{p}.k/reshape")], name=f"{p}.k/transpose",
                   perm=[0, 2, 1, 3])
        v = b.node("Transpose", [b.node("Reshape", [v, shape_kv], name=f"{p}.v/reshape")], name=f"{p}.v/transpose",
                   perm=[0, 2, 1, 3])
        q, k = rope(q, f"{p}.q/rope"), rope(k, f"{p}.k/rope")
        pk = b.node("Concat", [f"past_key_values.{i}.key", k], n_out=[f"present.{i}.key"], name=f"{p}.k/cache",
                    axis=2)
        pv = b.node("Concat", [f"past_key_values.{i}.value", v], n_out=[f"present.{i}.value"],
                    name=f"{p}.v/cache", axis=2)

        def repeat(t, name):  # [1, kvh, T, d] -> [1, kvh, rep, T, d] -> [1, heads, T, d]
            t = b.node("Unsqueeze", [t, axes2], name=f"{name}/unsqueeze")
            t = b.node("Expand", [t, expand_kv], name=f"{name}/expand")
            return b.node("Reshape", [t, shape_rep], name=f"{name}/reshape")
        kr, vr = repeat(pk, f"{p}.k/repeat"), repeat(pv, f"{p}.v/repeat")
        kt = b.node("Transpose", [kr], name=f"{p}.attn/kT", perm=[0, 1, 3, 2])
        s = b.node("Mul", [b.node("MatMul", [q, kt], name=f"{p}.attn/qk"), scale], name=f"{p}.attn/scale")
        s = b.node("Add", [s, mask], name=f"{p}.attn/mask")
        pr = b.node("Softmax", [s], name=f"{p}.attn/softmax", axis=-1)
        o = b.node("MatMul", [pr, vr], name=f"{p}.attn/pv")
        o = b.node("Reshape", [b.node("Transpose", [o], name=f"{p}.attn/transpose", perm=[0, 2, 1, 3]), shape_out],
                   name=f"{p}.attn/reshape")
        x = b.node("Add", [x, dq_matmul(o, f"{p}.o_proj", a.hidden, a.hidden)], name=f"{p}.attn/residual")
        xn = rms_norm(x, f"{p}.post_norm")
        g = dq_matmul(xn, f"{p}.gate_proj", a.hidden, a.ffn)
        u = dq_matmul(xn, f"{p}.up_proj", a.hidden, a.ffn)
        hsw = b.node("Mul", [b.node("Mul", [g, b.node("Sigmoid", [g], name=f"{p}.mlp/sigmoid")], name=f"{p}.mlp/silu"),
                             u], name=f"{p}.mlp/swiglu")
        x = b.node("Add", [x, dq_matmul(hsw, f"{p}.down_proj", a.ffn, a.hidden)], name=f"{p}.mlp/residual")

    xn = rms_norm(x, "final_norm")
    logits = dq_matmul(xn, "lm_head", a.hidden, a.vocab)
    b.nodes.append(b.helper.make_node("Identity", [logits], ["logits"], name="logits"))
    return finish(b, a, [("", 21)])


def build_b(a, w):
    b = Builder()
    MS = "com.microsoft"

    def mnb(x, name, k, n):
        u, scale, zp = w.quant(name, k, n)
        nb = k // a.block
        # MatMulNBits stores unsigned q [N, K] packed along K; without zero points it subtracts 8, so
        # q = u gives form (a)'s int4 value u - 8, and with zero points q = u as in form (a)'s uint4.
        blob = pack_nibbles(np.ascontiguousarray(u.T).reshape(n, nb, a.block)).reshape(n, nb, a.block // 2)
        ins = [x, b.init(f"{name}.qweight", blob), b.init(f"{name}.scales", np.ascontiguousarray(scale.T).reshape(-1))]
        if zp is not None:
            ins.append(b.init(f"{name}.zero_points", pack_nibbles(np.ascontiguousarray(zp.T)).reshape(-1)))
        return b.node("MatMulNBits", ins, name=f"{name}/matmul", domain=MS, K=k, N=n, bits=4,
                      block_size=a.block, accuracy_level=a.accuracy_level)

    def norm_w(name):
        return b.init(f"{name}.weight", w.vec(f"{name}.weight", a.hidden, 1.0))

    emb = b.node("Gather", [b.init("embed.weight", w.embedding()), "input_ids"], name="embed", axis=0)
    x = b.node("Cast", [emb], name="embed/cast", to=b.TP.FLOAT)
    # GQA's sequence lengths, as ONNX Runtime GenAI's builder computes them.
    msum = b.node("ReduceSum", ["attention_mask", b.const("axes1", [1], np.int64)], name="gqa/msum", keepdims=0)
    seqlens = b.node("Cast", [b.node("Sub", [msum, b.const("one_i64", 1, np.int64)], name="gqa/sub")],
                     name="gqa/seqlens_k", to=b.TP.INT32)
    shp = b.node("Shape", ["attention_mask"], name="gqa/shape")
    total = b.node("Cast", [b.node("Gather", [shp, b.const("idx1", 1, np.int64)], name="gqa/total_i64", axis=0)],
                   name="gqa/total", to=b.TP.INT32)
    cos_t, sin_t = w.rope()
    cos, sin = b.init("rope.cos", cos_t), b.init("rope.sin", sin_t)
    kvdim = a.kv_heads * a.head_dim

    resid, pending = x, None
    for i in range(a.layers):
        p = f"layers.{i}"
        if pending is None:
            xn = b.node("SimplifiedLayerNormalization", [x, norm_w(f"{p}.input_norm")], name=f"{p}.input_norm",
                        axis=-1, epsilon=a.eps, stash_type=1)
        else:
            xn, _, _, resid = b.node("SkipSimplifiedLayerNormalization", [pending, resid, norm_w(f"{p}.input_norm")],
                                     n_out=[f"{p}.input_norm/out", "", "", f"{p}.input_norm/sum"],
                                     name=f"{p}.input_norm", domain=MS, epsilon=a.eps)
        q = b.node("Add", [mnb(xn, f"{p}.q_proj", a.hidden, a.hidden),
                           b.init(f"{p}.q_proj.bias", w.vec(f"{p}.q_proj.bias", a.hidden))], name=f"{p}.q_proj/bias")
        k = b.node("Add", [mnb(xn, f"{p}.k_proj", a.hidden, kvdim),
                           b.init(f"{p}.k_proj.bias", w.vec(f"{p}.k_proj.bias", kvdim))], name=f"{p}.k_proj/bias")
        v = b.node("Add", [mnb(xn, f"{p}.v_proj", a.hidden, kvdim),
                           b.init(f"{p}.v_proj.bias", w.vec(f"{p}.v_proj.bias", kvdim))], name=f"{p}.v_proj/bias")
        q = b.node("RotaryEmbedding", [q, "position_ids", cos, sin], name=f"{p}.q/rope", domain=MS,
                   num_heads=a.heads, interleaved=0)
        k = b.node("RotaryEmbedding", [k, "position_ids", cos, sin], name=f"{p}.k/rope", domain=MS,
                   num_heads=a.kv_heads, interleaved=0)
        o, _, _ = b.node("GroupQueryAttention",
                         [q, k, v, f"past_key_values.{i}.key", f"past_key_values.{i}.value", seqlens, total],
                         n_out=[f"{p}.attn/out", f"present.{i}.key", f"present.{i}.value"], name=f"{p}.attn",
                         domain=MS, num_heads=a.heads, kv_num_heads=a.kv_heads,
                         scale=float(1.0 / np.sqrt(a.head_dim)))
        o = mnb(o, f"{p}.o_proj", a.hidden, a.hidden)
        xn, _, _, resid = b.node("SkipSimplifiedLayerNormalization", [o, resid, norm_w(f"{p}.post_norm")],
                                 n_out=[f"{p}.post_norm/out", "", "", f"{p}.post_norm/sum"], name=f"{p}.post_norm",
                                 domain=MS, epsilon=a.eps)
        g = mnb(xn, f"{p}.gate_proj", a.hidden, a.ffn)
        u = mnb(xn, f"{p}.up_proj", a.hidden, a.ffn)
        hsw = b.node("Mul", [b.node("Mul", [g, b.node("Sigmoid", [g], name=f"{p}.mlp/sigmoid")], name=f"{p}.mlp/silu"),
                             u], name=f"{p}.mlp/swiglu")
        pending = mnb(hsw, f"{p}.down_proj", a.ffn, a.hidden)
    if pending is None:
        xn = b.node("SimplifiedLayerNormalization", [x, norm_w("final_norm")], name="final_norm", axis=-1,
                    epsilon=a.eps, stash_type=1)
    else:
        xn, _, _, _ = b.node("SkipSimplifiedLayerNormalization", [pending, resid, norm_w("final_norm")],
                             n_out=["final_norm/out", "", "", ""], name="final_norm", domain=MS, epsilon=a.eps)
    logits = mnb(xn, "lm_head", a.hidden, a.vocab)
    b.nodes.append(b.helper.make_node("Identity", [logits], ["logits"], name="logits"))
    return finish(b, a, [("", 21), (MS, 1)])


def finish(b, a, opsets):
    ins, outs = io_infos(b, a)
    g = b.helper.make_graph(b.nodes, f"llm_decoder_{a.form}", ins, outs, initializer=b.inits)
    m = b.helper.make_model(g, opset_imports=[b.helper.make_opsetid(d, v) for d, v in opsets],
                            producer_name="gen_llm_decoder.py")
    m.ir_version = 10  # 4-bit types need IR 10
    return m


def write_inputs(a):
    os.makedirs(a.inputs, exist_ok=True)
    r = np.random.default_rng(a.seed + 1)
    total = a.past + a.seq
    np.save(os.path.join(a.inputs, "input_ids.npy"), r.integers(0, a.vocab, size=(1, a.seq), dtype=np.int64))
    np.save(os.path.join(a.inputs, "attention_mask.npy"), np.ones((1, total), np.int64))
    np.save(os.path.join(a.inputs, "position_ids.npy"), np.arange(a.past, total, dtype=np.int64)[None, :])
    for i in range(a.layers):
        for kind in ("key", "value"):
            t = r.standard_normal((1, a.kv_heads, a.past, a.head_dim), dtype=np.float32)
            np.save(os.path.join(a.inputs, f"past_key_values.{i}.{kind}.npy"), t)
    print(f"wrote inputs to {a.inputs}: sequence {a.seq}, past {a.past}, total {total}")


def main(argv=None):
    a = parse(sys.argv[1:] if argv is None else argv)
    if a.inputs:
        write_inputs(a)
        return 0
    t0 = time.time()
    m = (build_a if a.form == "a" else build_b)(a, Weights(a))
    t1 = time.time()
    with open(a.output, "wb") as f:
        f.write(m.SerializeToString())
    t2 = time.time()
    print(f"wrote {a.output}: form {a.form}, {a.layers} layers, {a.quant} block {a.block}, "
          f"{os.path.getsize(a.output) / 1e6:.1f} MB (build {t1 - t0:.1f} s, write {t2 - t1:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
