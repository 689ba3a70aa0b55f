#!/usr/bin/env python3
"""Writes a webnn-graph file whose weights are a MatMul chain, for the peak-RSS
benchmark (bench/memory/weights_rss.sh): LAYERS x (matmul + relu) of SIZE x SIZE
weights, either float32 or int4 (dequantizeLinear of int4 weights with float32
scales and int4 zero points in blocks of 32 along K, feeding the matmul).

    make_matmul_chain.py --layers 16 --size 4096 --type float32 --format weights OUT_STEM

writes OUT_STEM.json and OUT_STEM.weights + OUT_STEM.manifest.json (--format
weights) or OUT_STEM.safetensors (--format safetensors; float32 only: the
safetensors dtypes have no int4). Weights are written one tensor at a time, so
the generator itself never holds more than one layer.
"""
import argparse
import json
import struct

import numpy as np

BLOCK = 32  # int4 quantization block along K


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--batch", type=int, default=1, help="rows of the input")
    p.add_argument("--type", choices=["float32", "int4"], default="float32")
    p.add_argument("--format", choices=["weights", "safetensors"], default="weights")
    p.add_argument("stem")
    a = p.parse_args()
    if a.format == "safetensors" and a.type != "float32":
        p.error("safetensors has no int4 dtype; use --format weights")
    n, rng = a.size, np.random.default_rng(901)

    # (name, dataType, shape, byte length, generator of the bytes)
    tensors = []
    consts, nodes = {}, []
    x = "x"
    for i in range(a.layers):
        if a.type == "float32":
            name = f"w{i}"
            # Uniform in +-sqrt(3/n): variance 1/n keeps activations O(1) down the chain.
            gen = lambda: ((rng.random((n, n), dtype=np.float32) * 2 - 1) * np.float32((3.0 / n) ** 0.5)).tobytes()
            tensors.append((name, "float32", [n, n], n * n * 4, gen))
            consts[name] = {"dataType": "float32", "shape": [n, n], "init": {"kind": "weights", "ref": name}}
            b = name
        else:
            q, s, z = f"w{i}.q", f"w{i}.scale", f"w{i}.zero"
            nb = n // BLOCK
            def gen_q():
                # Symmetric values in [-7, 7] (mean 0, so the relu chain stays
                # alive), two nibbles a byte, the first element low.
                v = rng.integers(-7, 8, size=n * n, dtype=np.int8).astype(np.uint8) & 0xF
                return (v[0::2] | (v[1::2] << 4)).tobytes()
            gen_s = lambda: np.full((nb, n), (3.0 / n) ** 0.5 / 8, dtype=np.float32).tobytes()
            gen_z = lambda: np.zeros((nb * n + 1) // 2, dtype=np.uint8).tobytes()
            tensors.append((q, "int4", [n, n], (n * n + 1) // 2, gen_q))
            tensors.append((s, "float32", [nb, n], nb * n * 4, gen_s))
            tensors.append((z, "int4", [nb, n], (nb * n + 1) // 2, gen_z))
            for name, t, shape in ((q, "int4", [n, n]), (s, "float32", [nb, n]), (z, "int4", [nb, n])):
                consts[name] = {"dataType": t, "shape": shape, "init": {"kind": "weights", "ref": name}}
            b = f"deq{i}"
            nodes.append({"id": b, "op": "dequantizeLinear", "inputs": [q, s, z], "options": {}})
        nodes.append({"id": f"mm{i}", "op": "matmul", "inputs": [x, b], "options": {}})
        nodes.append({"id": f"relu{i}", "op": "relu", "inputs": [f"mm{i}"], "options": {}})
        x = f"relu{i}"

    graph = {"format": "webnn-graph-json", "version": 2,
             "name": f"matmul_chain_{a.layers}x{n}_{a.type}",
             "inputs": {"x": {"dataType": "float32", "shape": [a.batch, n]}},
             "consts": consts, "nodes": nodes, "outputs": {"y": x}}
    with open(a.stem + ".json", "w") as f:
        json.dump(graph, f, indent=1)

    if a.format == "weights":
        manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {}}
        offset = 8
        for name, t, shape, length, _ in tensors:
            manifest["tensors"][name] = {"dataType": t, "shape": shape, "byteOffset": offset, "byteLength": length}
            offset += length
        with open(a.stem + ".manifest.json", "w") as f:
            json.dump(manifest, f, indent=1)
        with open(a.stem + ".weights", "wb") as f:
            f.write(b"WGWT" + struct.pack("<I", 1))
            for _, _, _, length, gen in tensors:
                data = gen()
                assert len(data) == length
                f.write(data)
    else:
        header, offset = {}, 0
        for name, t, shape, length, _ in tensors:
            header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + length]}
            offset += length
        h = json.dumps(header).encode()
        h += b" " * (-len(h) % 8)  # safetensors pads the header to 8 bytes
        with open(a.stem + ".safetensors", "wb") as f:
            f.write(struct.pack("<Q", len(h)) + h)
            for _, _, _, length, gen in tensors:
                data = gen()
                assert len(data) == length
                f.write(data)
    total = sum(t[3] for t in tensors)
    print(f"{a.stem}: {a.layers} layers of {n}x{n} {a.type}, {total} weight bytes ({total / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
