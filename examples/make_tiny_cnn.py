#!/usr/bin/env python3
"""Writes examples/tiny_cnn.{json,weights,manifest.json}: a small image classifier
in the webnn-graph format, plus an input and the expected output computed here
with NumPy in float64 (tiny_cnn.input.npy, tiny_cnn.expected.npy), so that the
engine's result can be checked against an independent implementation.

    /usr/bin/python3 examples/make_tiny_cnn.py
"""
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261121)


def conv2d(x, w, b, stride, pad):
    # x: NCHW, w: OIHW
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return y + b.reshape(1, -1, 1, 1)


weights = {
    "conv1.weight": (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32),
    "conv1.bias": (rng.standard_normal(8) * 0.1).astype(np.float32),
    "conv2.weight": (rng.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32),
    "conv2.bias": (rng.standard_normal(16) * 0.1).astype(np.float32),
    "fc.weight": (rng.standard_normal((16, 10)) * 0.3).astype(np.float32),
    "fc.bias": (rng.standard_normal(10) * 0.1).astype(np.float32),
}

graph = {
    "format": "webnn-graph-json",
    "version": 2,
    "name": "tiny_cnn",
    "inputs": {"image": {"dataType": "float32", "shape": [1, 3, 32, 32]}},
    "consts": {name: {"dataType": "float32", "shape": list(w.shape), "init": {"kind": "weights", "ref": name}}
               for name, w in weights.items()},
    "nodes": [
        {"id": "conv1", "op": "conv2d", "inputs": ["image", "conv1.weight", "conv1.bias"],
         "options": {"padding": [1, 1, 1, 1]}},
        {"id": "relu1", "op": "relu", "inputs": ["conv1"], "options": {}},
        {"id": "pool1", "op": "maxPool2d", "inputs": ["relu1"],
         "options": {"windowDimensions": [2, 2], "strides": [2, 2]}},
        {"id": "conv2", "op": "conv2d", "inputs": ["pool1", "conv2.weight"],
         "options": {"padding": [1, 1, 1, 1], "strides": [2, 2], "bias": "conv2.bias"}},
        {"id": "relu2", "op": "relu", "inputs": ["conv2"], "options": {}},
        {"id": "gap", "op": "averagePool2d", "inputs": ["relu2"], "options": {}},
        {"id": "flat", "op": "reshape", "inputs": ["gap"], "options": {"newShape": [1, 16]}},
        {"id": "fc", "op": "gemm", "inputs": ["flat", "fc.weight", "fc.bias"], "options": {}},
        {"id": "probs", "op": "softmax", "inputs": ["fc"], "options": {"axis": 1}},
    ],
    "outputs": {"probabilities": "probs"},
}

# The .weights file: "WGWT", u32 version 1, then the tensors back to back.
manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {}}
blob = bytearray(b"WGWT" + struct.pack("<I", 1))
for name, w in weights.items():
    manifest["tensors"][name] = {"dataType": "float32", "shape": list(w.shape),
                                 "byteOffset": len(blob), "byteLength": w.nbytes}
    blob += w.tobytes()

with open(os.path.join(HERE, "tiny_cnn.json"), "w") as f:
    json.dump(graph, f, indent=1)
    f.write("\n")
with open(os.path.join(HERE, "tiny_cnn.weights"), "wb") as f:
    f.write(blob)
with open(os.path.join(HERE, "tiny_cnn.manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")

# Expected output, in float64.
x = rng.random((1, 3, 32, 32)).astype(np.float32)
w = {k: v.astype(np.float64) for k, v in weights.items()}
y = np.maximum(conv2d(x.astype(np.float64), w["conv1.weight"], w["conv1.bias"], 1, 1), 0)
y = y.reshape(1, 8, 16, 2, 16, 2).max(axis=(3, 5))
y = np.maximum(conv2d(y, w["conv2.weight"], w["conv2.bias"], 2, 1), 0)
y = y.mean(axis=(2, 3))
y = y @ w["fc.weight"] + w["fc.bias"]
y = np.exp(y - y.max(axis=1, keepdims=True))
y = y / y.sum(axis=1, keepdims=True)
np.save(os.path.join(HERE, "tiny_cnn.input.npy"), x)
np.save(os.path.join(HERE, "tiny_cnn.expected.npy"), y.astype(np.float32))
print("wrote tiny_cnn.{json,weights,manifest.json,input.npy,expected.npy}")
