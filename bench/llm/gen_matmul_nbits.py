#!/usr/bin/env python3
"""One int4 product y = a x W, W [K, N] blockwise int4 (block 32, symmetric), as the decoder
workload writes its projections (scripts/gen_llm_decoder.py, whose weights and packing this
reuses): form (a) DequantizeLinear + MatMul (opset 21), form (b) ONNX Runtime's MatMulNBits
(accuracy_level 1: float activations). Input a [M, K] float32, output y [M, N].

  gen_matmul_nbits.py --form a -o mm_a.onnx [--m 1 --k 4096 --n 4096]
  gen_matmul_nbits.py --inputs DIR [--m 1 --k 4096]       # DIR/a.npy
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "gen_llm_decoder", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "gen_llm_decoder.py"))
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--form", choices=["a", "b"], default="a")
    p.add_argument("-o", "--output")
    p.add_argument("--m", type=int, default=1)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--inputs", metavar="DIR")
    a = p.parse_args()
    if a.inputs:
        os.makedirs(a.inputs, exist_ok=True)
        np.save(os.path.join(a.inputs, "a.npy"), np.random.default_rng(1).standard_normal((a.m, a.k)).astype(np.float32))
        return 0
    cfg = argparse.Namespace(seed=12, block=32, quant="int4", accuracy_level=1)
    u, scale, _ = gen.Weights(cfg).quant("w", a.k, a.n)
    b = gen.Builder()
    if a.form == "a":
        q = b.init4("w.qweight", u ^ 8, gen.INT4)
        w = b.node("DequantizeLinear", [q, b.init("w.scales", scale)], name="w/dq", axis=0, block_size=32)
        b.node("MatMul", ["a", w], n_out=["y"], name="w/matmul")
        opsets = [("", 21)]
    else:
        nb = a.k // 32
        blob = gen.pack_nibbles(np.ascontiguousarray(u.T).reshape(a.n, nb, 32)).reshape(a.n, nb, 16)
        b.node("MatMulNBits", ["a", b.init("w.qweight", blob), b.init("w.scales", np.ascontiguousarray(scale.T).reshape(-1))],
               n_out=["y"], name="w/matmul", domain="com.microsoft", K=a.k, N=a.n, bits=4, block_size=32,
               accuracy_level=1)
        opsets = [("", 21), ("com.microsoft", 1)]
    h, TP = b.helper, b.TP
    g = h.make_graph(b.nodes, f"matmul_nbits_{a.form}", [h.make_tensor_value_info("a", TP.FLOAT, [a.m, a.k])],
                     [h.make_tensor_value_info("y", TP.FLOAT, [a.m, a.n])], initializer=b.inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid(d, v) for d, v in opsets], producer_name="gen_matmul_nbits.py")
    m.ir_version = 10
    with open(a.output, "wb") as f:
        f.write(m.SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main())
