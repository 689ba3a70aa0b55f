#!/usr/bin/python3
"""Tests of scripts/onnx2webnn: small ONNX graphs built here with onnx.helper are
converted, run with `webnn run` (device $WEBNN_TEST_DEVICE, default reference) and
compared with ONNX Runtime (npm onnxruntime-node, through scripts/ort_run.js) on
the same inputs, or with results computed here with NumPy when ONNX Runtime is not
installed. Also: unsupported ops and attributes give one error listing every such
node, and nothing is written.

    /usr/bin/python3 tests/converter/test_onnx2webnn.py [-v] [-k PATTERN]
Environment: WEBNN_CLI (the webnn tool; default build*/tools/webnn),
ORT_NODE_MODULES (default bench/peers/node_modules), WEBNN_TEST_DEVICE.
Exit status 77 (meson's "skipped") when /usr/bin/python3 lacks onnx or numpy, or
there is no webnn tool.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:  # pragma: no cover
    print(f"SKIPPED: {e} (install Debian's python3-onnx and python3-numpy; run with /usr/bin/python3)")
    sys.exit(SKIP)

sys.path.insert(0, os.path.join(ROOT, "scripts"))
from onnx2webnn_lib import ConversionError, convert_model  # noqa: E402


def find_webnn():
    if os.environ.get("WEBNN_CLI"):
        return os.environ["WEBNN_CLI"] if os.access(os.environ["WEBNN_CLI"], os.X_OK) else None
    for cand in [os.path.join(ROOT, "build", "tools", "webnn")] + sorted(glob.glob(os.path.join(ROOT, "build*",
                                                                                              "tools", "webnn"))):
        if os.access(cand, os.X_OK):
            return cand
    return None


def fetch_ort(modules):
    """npm install --ignore-scripts onnxruntime-node into bench/peers (unless WEBNN_NO_FETCH=1);
    False when that is not possible (no npm, no network)."""
    if os.environ.get("WEBNN_NO_FETCH") == "1" or not shutil.which("npm") or not shutil.which("node"):
        return False
    peers = os.path.dirname(modules)
    try:
        os.makedirs(peers, exist_ok=True)
        if not os.path.exists(os.path.join(peers, "package.json")):
            with open(os.path.join(peers, "package.json"), "w") as f:
                f.write('{"name": "webnn-peers", "private": true}\n')
        import fcntl
        with open(os.path.join(peers, ".npm.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # scripts/models.sh may be installing too
            if os.path.isdir(os.path.join(modules, "onnxruntime-node")):
                return True
            print("fetching onnxruntime-node with npm (set WEBNN_NO_FETCH=1 to skip)")
            subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "onnxruntime-node"],
                           cwd=peers, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    except (OSError, subprocess.SubprocessError):
        return False
    return os.path.isdir(os.path.join(modules, "onnxruntime-node"))


WEBNN = find_webnn()
DEVICE = os.environ.get("WEBNN_TEST_DEVICE", "reference")
ORT_MODULES = os.environ.get("ORT_NODE_MODULES", os.path.join(ROOT, "bench", "peers", "node_modules"))
HAVE_ORT = bool(shutil.which("node")) and (os.path.isdir(os.path.join(ORT_MODULES, "onnxruntime-node")) or
                                           (__name__ == "__main__" and fetch_ort(ORT_MODULES)))

NP_TO_ONNX = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
              np.dtype(np.int64): TensorProto.INT64, np.dtype(np.int32): TensorProto.INT32,
              np.dtype(np.bool_): TensorProto.BOOL, np.dtype(np.uint8): TensorProto.UINT8,
              np.dtype(np.int8): TensorProto.INT8}
rng = np.random.default_rng(4)


def rand(*shape, lo=-1.0, hi=1.0):
    return (rng.random(shape) * (hi - lo) + lo).astype(np.float32)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


# ---- cases ----------------------------------------------------------------------------------------

class Case:
    """One ONNX graph, its inputs, and how to check it."""

    def __init__(self, name, nodes, inputs, outputs, inits=(), opset=13, expected=None, tol=1e-5,
                 convert=None, run_dims=None, input_shapes=None, check=None, numpy_first=False, ort_config=None,
                 extra_opsets=()):
        self.name = name
        self.nodes = nodes
        self.inputs = inputs                    # name -> array
        self.outputs = outputs                  # [(name, np dtype)] or [name] (float32)
        self.inits = list(inits)
        self.opset = opset
        self.expected = expected                # NumPy reference: f(**inputs) -> [arrays]
        self.tol = tol
        self.convert = convert or {}            # extra convert_model arguments
        self.run_dims = run_dims or {}          # webnn run --dim
        self.input_shapes = input_shapes or {}  # declared ONNX input shapes (None entries = dim_param)
        self.check = check                      # extra check of the webnn-graph JSON
        self.numpy_first = numpy_first          # compare with `expected` even when ONNX Runtime ran
        self.ort_config = ort_config            # ONNX Runtime session config entries {key: value}
        self.extra_opsets = list(extra_opsets)  # [(domain, version)], e.g. com.microsoft

    def model(self):
        ins = []
        for n, a in self.inputs.items():
            shape = self.input_shapes.get(n, list(a.shape))
            ins.append(helper.make_tensor_value_info(n, NP_TO_ONNX[a.dtype], shape))
        outs = []
        for o in self.outputs:
            name, dt = (o, np.float32) if isinstance(o, str) else o
            outs.append(helper.make_tensor_value_info(name, NP_TO_ONNX[np.dtype(dt)], None))
        graph = helper.make_graph(self.nodes, self.name, ins, outs, self.inits)
        ir = 8 if self.opset <= 17 else (9 if self.opset <= 19 else 10)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)] +
                                 [helper.make_opsetid(d, v) for d, v in self.extra_opsets], ir_version=ir)

    def output_names(self):
        return [o if isinstance(o, str) else o[0] for o in self.outputs]


def node(op, ins, outs, name=None, **attrs):
    return helper.make_node(op, ins, outs, name=name or f"{op}_{outs[0]}", **attrs)


def unary_case(op, x, opset=13, **attrs):
    return Case(f"{op}", [node(op, ["x"], ["y"], **attrs)], {"x": x}, ["y"], opset=opset)


CASES = []


def add(*cases):
    CASES.extend(cases)


# Element-wise
for op, f in [("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply), ("Div", np.divide)]:
    add(Case(f"{op}_broadcast", [node(op, ["a", "b"], ["y"])], {"a": rand(2, 3, 4), "b": rand(3, 1) + 2}, ["y"],
             expected=lambda a, b, f=f: [f(a, b)]))
add(Case("Pow", [node("Pow", ["a", "b"], ["y"])], {"a": rand(3, 4, lo=0.1, hi=2), "b": rand(4, lo=-2, hi=2)}, ["y"],
         expected=lambda a, b: [np.power(a, b)]))
add(Case("Pow_int_exponent", [node("Pow", ["a", "e"], ["y"])], {"a": rand(3, 4)}, ["y"],
         inits=[init("e", np.array(2, np.int64))], opset=15, expected=lambda a: [a * a]))
add(Case("Div_int", [node("Div", ["a", "b"], ["y"])],
         {"a": np.array([7, -7, 9, -9, 5], np.int32), "b": np.array([2, 2, -4, -4, 5], np.int32)}, [("y", np.int32)],
         expected=lambda a, b: [np.array([3, -3, -2, 2, 1], np.int32)]))
for op, f in [("Max", np.maximum), ("Min", np.minimum), ("Sum", np.add)]:
    add(Case(f"{op}_variadic", [node(op, ["a", "b", "c"], ["y"])],
             {"a": rand(2, 3), "b": rand(3), "c": rand(2, 1)}, ["y"], expected=lambda a, b, c, f=f: [f(f(a, b), c)]))
add(Case("Mean_variadic", [node("Mean", ["a", "b", "c"], ["y"])], {"a": rand(2, 3), "b": rand(3), "c": rand(2, 1)},
         ["y"], expected=lambda a, b, c: [(a + b + c) / 3]))
add(Case("PRelu", [node("PRelu", ["x", "s"], ["y"])], {"x": rand(2, 3, 4, 4)}, ["y"],
         inits=[init("s", rand(3, 1, 1))], expected=None))
for op, f in [("Equal", np.equal), ("Less", np.less), ("LessOrEqual", np.less_equal), ("Greater", np.greater),
              ("GreaterOrEqual", np.greater_equal)]:
    a = np.round(rand(3, 4) * 2)
    add(Case(f"{op}_where", [node(op, ["a", "b"], ["c"]), node("Where", ["c", "a", "b"], ["y"])],
             {"a": a, "b": np.round(rand(4) * 2)}, [("c", np.bool_), "y"], opset=16,
             expected=lambda a, b, f=f: [f(a, b), np.where(f(a, b), a, b)]))
add(Case("Logical", [node("Greater", ["a", "b"], ["p"]), node("Less", ["a", "c"], ["q"]),
                     node("And", ["p", "q"], ["r"]), node("Or", ["p", "q"], ["s"]), node("Xor", ["p", "q"], ["t"]),
                     node("Not", ["r"], ["u"])],
         {"a": rand(4, 5), "b": rand(5), "c": rand(4, 1)}, [("r", np.bool_), ("s", np.bool_), ("t", np.bool_),
                                                            ("u", np.bool_)],
         expected=lambda a, b, c: [(a > b) & (a < c), (a > b) | (a < c), (a > b) ^ (a < c), ~((a > b) & (a < c))]))

UNARY = {"Abs": np.abs, "Ceil": np.ceil, "Cos": np.cos, "Exp": np.exp, "Floor": np.floor, "Neg": np.negative,
         "Reciprocal": np.reciprocal, "Sin": np.sin, "Sign": np.sign, "Tan": np.tan, "Tanh": np.tanh,
         "Sigmoid": lambda x: 1 / (1 + np.exp(-x)), "Relu": lambda x: np.maximum(x, 0),
         "Softplus": lambda x: np.log1p(np.exp(x)), "Softsign": lambda x: x / (1 + np.abs(x)), "Erf": None,
         "Round": np.round}
for op, f in UNARY.items():
    x = rand(3, 5) * 3
    if op == "Round":
        x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.2, -2.7], np.float32)
    add(Case(op, [node(op, ["x"], ["y"])], {"x": x}, ["y"], expected=None if f is None else lambda x, f=f: [f(x)]))
add(Case("Log", [node("Log", ["x"], ["y"])], {"x": rand(3, 5, lo=0.01, hi=4)}, ["y"], expected=lambda x: [np.log(x)]))
add(Case("Sqrt", [node("Sqrt", ["x"], ["y"])], {"x": rand(3, 5, lo=0, hi=4)}, ["y"], expected=lambda x: [np.sqrt(x)]))
add(Case("HardSwish", [node("HardSwish", ["x"], ["y"])], {"x": rand(3, 5) * 5}, ["y"], opset=14,
         expected=lambda x: [x * np.clip(x + 3, 0, 6) / 6]))
special = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -2.0], np.float32)
add(Case("IsNaN_IsInf", [node("IsNaN", ["x"], ["a"]), node("IsInf", ["x"], ["b"]),
                         node("IsInf", ["x"], ["c"], detect_negative=0), node("IsInf", ["x"], ["d"], detect_positive=0)],
         {"x": special}, [("a", np.bool_), ("b", np.bool_), ("c", np.bool_), ("d", np.bool_)],
         expected=lambda x: [np.isnan(x), np.isinf(x), np.isposinf(x), np.isneginf(x)]))
add(Case("Elu", [node("Elu", ["x"], ["y"], alpha=0.7)], {"x": rand(4, 4) * 3}, ["y"],
         expected=lambda x: [np.where(x > 0, x, 0.7 * (np.exp(x) - 1))]))
add(Case("LeakyRelu", [node("LeakyRelu", ["x"], ["y"], alpha=0.2)], {"x": rand(4, 4)}, ["y"],
         expected=lambda x: [np.where(x > 0, x, 0.2 * x)]))
add(Case("HardSigmoid", [node("HardSigmoid", ["x"], ["y"], alpha=1 / 6, beta=0.5)], {"x": rand(4, 4) * 5}, ["y"],
         expected=lambda x: [np.clip(x / 6 + 0.5, 0, 1)]))
add(Case("Selu", [node("Selu", ["x"], ["y"])], {"x": rand(4, 4) * 3}, ["y"]))
add(Case("ThresholdedRelu", [node("ThresholdedRelu", ["x"], ["y"], alpha=0.3)], {"x": rand(4, 4)}, ["y"], opset=10,
         expected=lambda x: [np.where(x > 0.3, x, 0)]))
add(Case("Celu", [node("Celu", ["x"], ["y"], alpha=0.5)], {"x": rand(4, 4) * 3}, ["y"], opset=12))
add(Case("Gelu", [node("Gelu", ["x"], ["y"])], {"x": rand(4, 4) * 3}, ["y"], opset=20))
add(Case("Gelu_tanh", [node("Gelu", ["x"], ["y"], approximate="tanh")], {"x": rand(4, 4) * 3}, ["y"], opset=20))
add(Case("Mish", [node("Mish", ["x"], ["y"])], {"x": rand(4, 4) * 3}, ["y"], opset=18))
add(Case("Clip_opset6", [node("Clip", ["x"], ["y"], min=-0.3, max=0.5)], {"x": rand(3, 4)}, ["y"], opset=7,
         expected=lambda x: [np.clip(x, -0.3, 0.5)]))
add(Case("Clip_opset13_max_only", [node("Clip", ["x", "", "hi"], ["y"])], {"x": rand(3, 4)}, ["y"],
         inits=[init("hi", np.array(0.25, np.float32))], expected=lambda x: [np.minimum(x, 0.25)]))
add(Case("Clip_relu6", [node("Clip", ["x", "lo", "hi"], ["y"])], {"x": rand(3, 4) * 8}, ["y"], opset=11,
         inits=[init("lo", np.array(0, np.float32)), init("hi", np.array(6, np.float32))],
         expected=lambda x: [np.clip(x, 0, 6)]))
add(Case("Cast", [node("Cast", ["x"], ["i"], to=TensorProto.INT32), node("Cast", ["i"], ["f"], to=TensorProto.FLOAT),
                  node("Cast", ["x"], ["b"], to=TensorProto.BOOL), node("Cast", ["b"], ["g"], to=TensorProto.FLOAT),
                  node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16)],
         {"x": np.array([-2.7, -0.5, 0.0, 0.4, 1.9, 3.0], np.float32)},
         [("i", np.int32), "f", ("b", np.bool_), "g", ("h", np.float16)],
         expected=lambda x: [x.astype(np.int32), x.astype(np.int32).astype(np.float32), x != 0,
                             (x != 0).astype(np.float32), x.astype(np.float16)]))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


add(Case("Softmax_opset13", [node("Softmax", ["x"], ["y"], axis=1)], {"x": rand(2, 3, 4) * 3}, ["y"],
         expected=lambda x: [softmax(x, 1)]))
add(Case("Softmax_opset11_coerced", [node("Softmax", ["x"], ["y"], axis=1)], {"x": rand(2, 3, 4) * 3}, ["y"],
         opset=11, expected=lambda x: [softmax(x.reshape(2, 12), 1).reshape(2, 3, 4)]))
add(Case("LogSoftmax", [node("LogSoftmax", ["x"], ["y"], axis=-1)], {"x": rand(2, 3, 4) * 3}, ["y"],
         expected=lambda x: [np.log(softmax(x, -1))]))

# Matrix
add(Case("MatMul_2d", [node("MatMul", ["a", "b"], ["y"])], {"a": rand(3, 4), "b": rand(4, 5)}, ["y"],
         expected=lambda a, b: [a @ b]))
add(Case("MatMul_batch_broadcast", [node("MatMul", ["a", "b"], ["y"])], {"a": rand(2, 1, 3, 4), "b": rand(3, 4, 5)},
         ["y"], expected=lambda a, b: [np.matmul(a, b)]))
add(Case("MatMul_1d_left", [node("MatMul", ["a", "b"], ["y"])], {"a": rand(4), "b": rand(2, 4, 5)}, ["y"],
         expected=lambda a, b: [np.matmul(a, b)]))
add(Case("MatMul_1d_right", [node("MatMul", ["a", "b"], ["y"])], {"a": rand(2, 3, 4)}, ["y"],
         inits=[init("b", rand(4))]))
C5 = rand(5)
add(Case("Gemm_trans_alpha_beta", [node("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0, transA=1, transB=1)],
         {"a": rand(4, 3), "b": rand(5, 4)}, ["y"], inits=[init("c", C5)],
         expected=lambda a, b: [0.5 * a.T @ b.T + 2.0 * C5]))
add(Case("Gemm_c_column", [node("Gemm", ["a", "b", "c"], ["y"])], {"a": rand(3, 4)}, ["y"],
         inits=[init("b", rand(4, 5)), init("c", rand(3, 1))]))
add(Case("Gemm_no_c", [node("Gemm", ["a", "b"], ["y"], transB=1)], {"a": rand(3, 4)}, ["y"],
         inits=[init("b", rand(5, 4))]))


def conv_ref(x, w, b=None, stride=1, pad=0, dil=1, group=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ekh, ekw = (kh - 1) * dil + 1, (kw - 1) * dil + 1
    oh, ow = (h + 2 * pad - ekh) // stride + 1, (wd + 2 * pad - ekw) // stride + 1
    y = np.zeros((n, o, oh, ow))
    og = o // group
    for g in range(group):
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg, i * stride:i * stride + ekh:dil, j * stride:j * stride + ekw:dil]
                y[:, g * og:(g + 1) * og, i, j] = np.tensordot(patch, w[g * og:(g + 1) * og], axes=([1, 2, 3], [1, 2, 3]))
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


W8 = rand(8, 3, 3, 3)
B8 = rand(8)
add(Case("Conv_pads_strides_bias", [node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2])],
         {"x": rand(1, 3, 9, 10)}, ["y"], inits=[init("w", W8), init("b", B8)],
         expected=lambda x: [conv_ref(x, W8, B8, stride=2, pad=1)]))
add(Case("Conv_dilations_asym_pads", [node("Conv", ["x", "w"], ["y"], pads=[0, 2, 1, 0], dilations=[2, 1])],
         {"x": rand(2, 3, 9, 10)}, ["y"], inits=[init("w", W8)]))
WD = rand(6, 1, 3, 3)
add(Case("Conv_depthwise", [node("Conv", ["x", "w"], ["y"], group=6, pads=[1, 1, 1, 1])], {"x": rand(1, 6, 7, 7)},
         ["y"], inits=[init("w", WD)], expected=lambda x: [conv_ref(x, WD, pad=1, group=6)]))
add(Case("Conv_group2", [node("Conv", ["x", "w"], ["y"], group=2)], {"x": rand(1, 4, 6, 6)}, ["y"],
         inits=[init("w", rand(6, 2, 3, 3))]))
for ap in ("SAME_UPPER", "SAME_LOWER", "VALID"):
    add(Case(f"Conv_auto_pad_{ap}", [node("Conv", ["x", "w"], ["y"], auto_pad=ap, strides=[2, 2])],
             {"x": rand(1, 3, 10, 9)}, ["y"], inits=[init("w", rand(4, 3, 4, 3))]))
add(Case("Conv_1d", [node("Conv", ["x", "w", "b"], ["y"], pads=[1, 2], strides=[2])], {"x": rand(2, 3, 11)}, ["y"],
         inits=[init("w", rand(5, 3, 3)), init("b", rand(5))]))
add(Case("Conv_runtime_weights", [node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
         {"x": rand(1, 3, 6, 6), "w": rand(2, 3, 3, 3)}, ["y"]))
add(Case("ConvTranspose_stride2", [node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2])],
         {"x": rand(1, 4, 5, 6)}, ["y"], inits=[init("w", rand(4, 3, 2, 2)), init("b", rand(3))]))
add(Case("ConvTranspose_pads_outpad_group",
         [node("ConvTranspose", ["x", "w"], ["y"], strides=[3, 2], pads=[1, 0, 2, 1], output_padding=[1, 1], group=2,
               dilations=[1, 2])],
         {"x": rand(1, 4, 5, 6)}, ["y"], inits=[init("w", rand(4, 3, 3, 3))]))
add(Case("ConvTranspose_output_shape", [node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2],
                                             output_shape=[11, 12])],
         {"x": rand(1, 2, 5, 6)}, ["y"], inits=[init("w", rand(2, 3, 3, 3))]))
add(Case("ConvTranspose_same_upper", [node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], auto_pad="SAME_UPPER")],
         {"x": rand(1, 2, 5, 6)}, ["y"], inits=[init("w", rand(2, 3, 3, 3))]))
add(Case("ConvTranspose_1d", [node("ConvTranspose", ["x", "w"], ["y"], strides=[2], pads=[1, 0])],
         {"x": rand(1, 2, 7)}, ["y"], inits=[init("w", rand(2, 3, 4))]))

# Pooling
add(Case("MaxPool_pads_strides", [node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                       strides=[2, 2])], {"x": rand(1, 2, 9, 8)}, ["y"]))
add(Case("MaxPool_ceil", [node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)],
         {"x": rand(1, 2, 8, 10)}, ["y"], opset=12))
add(Case("MaxPool_ceil_drops_window", [node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2],
                                            pads=[1, 1, 1, 1], ceil_mode=1)], {"x": rand(1, 2, 6, 6)}, ["y"], opset=12))
add(Case("MaxPool_dilations", [node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 2])],
         {"x": rand(1, 2, 7, 7)}, ["y"], opset=12))
add(Case("MaxPool_same_upper", [node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                                     auto_pad="SAME_UPPER")], {"x": rand(1, 2, 7, 8)}, ["y"]))
add(Case("AveragePool_exclude_pad", [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1])],
         {"x": rand(1, 2, 6, 7)}, ["y"]))
add(Case("AveragePool_include_pad", [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                          strides=[2, 2], count_include_pad=1)], {"x": rand(1, 2, 7, 7)}, ["y"]))
add(Case("AveragePool_ceil_include_pad", [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                               strides=[2, 2], count_include_pad=1, ceil_mode=1)],
         {"x": rand(1, 2, 8, 8)}, ["y"]))
add(Case("AveragePool_rec_style", [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 2], strides=[3, 2])],
         {"x": rand(1, 4, 3, 40)}, ["y"], opset=9))
add(Case("AveragePool_1d", [node("AveragePool", ["x"], ["y"], kernel_shape=[3], strides=[2])], {"x": rand(1, 2, 9)},
         ["y"]))
add(Case("LpPool", [node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2], p=2)], {"x": rand(1, 2, 6, 6)},
         ["y"], opset=11))
add(Case("GlobalPools", [node("GlobalAveragePool", ["x"], ["a"]), node("GlobalMaxPool", ["x"], ["m"])],
         {"x": rand(2, 3, 5, 4)}, ["a", "m"],
         expected=lambda x: [x.mean(axis=(2, 3), keepdims=True), x.max(axis=(2, 3), keepdims=True)]))
add(Case("GlobalAveragePool_3d", [node("GlobalAveragePool", ["x"], ["a"])], {"x": rand(2, 3, 5)}, ["a"],
         expected=lambda x: [x.mean(axis=2, keepdims=True)]))

# Normalization
S4, B4, M4, V4 = rand(4), rand(4), rand(4), rand(4, lo=0.5, hi=2)
add(Case("BatchNormalization", [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], epsilon=1e-3)],
         {"x": rand(2, 4, 3, 3)}, ["y"], opset=9,
         inits=[init("s", S4), init("b", B4), init("m", M4), init("v", V4)],
         expected=lambda x: [(x - M4.reshape(1, 4, 1, 1)) / np.sqrt(V4.reshape(1, 4, 1, 1) + 1e-3) *
                             S4.reshape(1, 4, 1, 1) + B4.reshape(1, 4, 1, 1)]))
add(Case("InstanceNormalization", [node("InstanceNormalization", ["x", "s", "b"], ["y"])], {"x": rand(2, 4, 3, 5)},
         ["y"], inits=[init("s", S4), init("b", B4)]))
add(Case("InstanceNormalization_3d", [node("InstanceNormalization", ["x", "s", "b"], ["y"])], {"x": rand(2, 4, 7)},
         ["y"], inits=[init("s", S4), init("b", B4)]))
add(Case("LayerNormalization", [node("LayerNormalization", ["x", "s", "b"], ["y"], epsilon=1e-5)],
         {"x": rand(2, 3, 8)}, ["y"], opset=17, inits=[init("s", rand(8)), init("b", rand(8))]))
add(Case("LayerNormalization_axis1", [node("LayerNormalization", ["x", "s"], ["y"], axis=1)],
         {"x": rand(2, 3, 4)}, ["y"], opset=17, inits=[init("s", rand(3, 4))]))

# Reductions
for op, f in [("ReduceSum", np.sum), ("ReduceMean", np.mean), ("ReduceMax", np.max), ("ReduceMin", np.min),
              ("ReduceProd", np.prod), ("ReduceL1", lambda x, **k: np.abs(x).sum(**k)),
              ("ReduceL2", lambda x, **k: np.sqrt((x * x).sum(**k))),
              ("ReduceLogSumExp", lambda x, **k: np.log(np.exp(x).sum(**k))),
              ("ReduceSumSquare", lambda x, **k: (x * x).sum(**k))]:
    add(Case(f"{op}_axes_keep", [node(op, ["x"], ["y"], axes=[1, -1], keepdims=1)], {"x": rand(2, 3, 4)}, ["y"],
             opset=11, expected=lambda x, f=f: [f(x, axis=(1, 2), keepdims=True)]))
    add(Case(f"{op}_all", [node(op, ["x"], ["y"], keepdims=0)], {"x": rand(2, 3)}, ["y"], opset=11,
             expected=lambda x, f=f: [np.asarray(f(x))]))
add(Case("ReduceLogSum", [node("ReduceLogSum", ["x"], ["y"], axes=[0], keepdims=0)], {"x": rand(3, 4, lo=0.1)},
         ["y"], opset=11, expected=lambda x: [np.log(x.sum(axis=0))]))
add(Case("ReduceSum_opset13_axes_input", [node("ReduceSum", ["x", "ax"], ["y"], keepdims=0)], {"x": rand(2, 3, 4)},
         ["y"], inits=[init("ax", np.array([0, 2], np.int64))], expected=lambda x: [x.sum(axis=(0, 2))]))
add(Case("ReduceMean_opset18_axes_input", [node("ReduceMean", ["x", "ax"], ["y"])], {"x": rand(2, 3, 4)},
         ["y"], opset=18, inits=[init("ax", np.array([-1], np.int64))],
         expected=lambda x: [x.mean(axis=-1, keepdims=True)]))
add(Case("ReduceSum_noop", [node("ReduceSum", ["x", "ax"], ["s"], noop_with_empty_axes=1),
                            node("Relu", ["s"], ["y"])], {"x": rand(2, 3)}, ["y"],
         inits=[init("ax", np.array([], np.int64))], expected=lambda x: [np.maximum(x, 0)]))
add(Case("ArgMax_ArgMin", [node("ArgMax", ["x"], ["a"], axis=1), node("ArgMin", ["x"], ["b"], axis=-1, keepdims=0)],
         {"x": rand(3, 5, 4)}, [("a", np.int64), ("b", np.int64)],
         expected=lambda x: [x.argmax(1)[:, None, :], x.argmin(-1)]))
add(Case("CumSum", [node("CumSum", ["x", "ax"], ["y"], exclusive=1, reverse=1)], {"x": rand(3, 4)}, ["y"],
         inits=[init("ax", np.array(1, np.int64))],
         expected=lambda x: [np.flip(np.cumsum(np.flip(x, 1), 1), 1) - x]))

# Shapes and data movement
add(Case("Reshape_shape_chain_folded",
         [node("Shape", ["x"], ["s"]), node("Gather", ["s", "i0"], ["n"], axis=0),
          node("Unsqueeze", ["n", "ax0"], ["nu"]), node("Concat", ["nu", "m1"], ["t"], axis=0),
          node("Reshape", ["x", "t"], ["y"])],
         {"x": rand(2, 3, 4)}, ["y"], inits=[init("i0", np.array(0, np.int64)), init("ax0", np.array([0], np.int64)),
                                               init("m1", np.array([-1], np.int64))],
         expected=lambda x: [x.reshape(2, 12)],
         check=lambda g: all(n["op"] == "reshape" for n in g["nodes"]) and not g["consts"]))
add(Case("Reshape_zero_copy", [node("Reshape", ["x", "t"], ["y"])], {"x": rand(2, 3, 4)}, ["y"],
         inits=[init("t", np.array([0, -1, 2], np.int64))], expected=lambda x: [x.reshape(2, 6, 2)]))
add(Case("Flatten", [node("Flatten", ["x"], ["a"], axis=2), node("Flatten", ["x"], ["b"], axis=0)],
         {"x": rand(2, 3, 4, 2)}, ["a", "b"], expected=lambda x: [x.reshape(6, 8), x.reshape(1, 48)]))
add(Case("Squeeze_Unsqueeze_opset11", [node("Squeeze", ["x"], ["s"], axes=[1]), node("Unsqueeze", ["s"], ["y"],
                                                                                    axes=[0, 3])],
         {"x": rand(2, 1, 3)}, ["y"], opset=11, expected=lambda x: [x.reshape(1, 2, 3, 1)]))
add(Case("Squeeze_Unsqueeze_opset13", [node("Squeeze", ["x", "a"], ["s"]), node("Unsqueeze", ["s", "b"], ["y"])],
         {"x": rand(2, 1, 3, 1)}, ["y"], inits=[init("a", np.array([1, -1], np.int64)),
                                                init("b", np.array([-1], np.int64))],
         expected=lambda x: [x.reshape(2, 3, 1)]))
add(Case("Transpose", [node("Transpose", ["x"], ["y"], perm=[2, 0, 3, 1])], {"x": rand(2, 3, 4, 5)}, ["y"],
         expected=lambda x: [x.transpose(2, 0, 3, 1)]))
add(Case("Transpose_default", [node("Transpose", ["x"], ["y"])], {"x": rand(2, 3, 4)}, ["y"],
         expected=lambda x: [x.transpose()]))
add(Case("Concat_with_const", [node("Concat", ["a", "c", "b"], ["y"], axis=-1)], {"a": rand(2, 3), "b": rand(2, 1)},
         ["y"], inits=[init("c", np.ones((2, 2), np.float32))],
         expected=lambda a, b: [np.concatenate([a, np.ones((2, 2), np.float32), b], -1)]))
add(Case("Split_opset11", [node("Split", ["x"], ["a", "b"], axis=1, split=[1, 3])], {"x": rand(2, 4)}, ["a", "b"],
         opset=11, expected=lambda x: [x[:, :1], x[:, 1:]]))
add(Case("Split_opset13_equal", [node("Split", ["x"], ["a", "b", "c"], axis=0)], {"x": rand(6, 2)}, ["a", "b", "c"],
         expected=lambda x: [x[:2], x[2:4], x[4:]]))
add(Case("Split_opset18_uneven", [node("Split", ["x"], ["a", "b", "c"], axis=1, num_outputs=3)], {"x": rand(2, 7)},
         ["a", "b", "c"], opset=18, expected=lambda x: [x[:, :3], x[:, 3:6], x[:, 6:]]))
add(Case("Slice_opset9", [node("Slice", ["x"], ["y"], starts=[1, -3], ends=[100, -1], axes=[0, 2])],
         {"x": rand(3, 4, 5)}, ["y"], opset=9, expected=lambda x: [x[1:, :, -3:-1]]))
add(Case("Slice_steps", [node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], {"x": rand(6, 7, 5)}, ["y"],
         inits=[init("st", np.array([1, 6, -1], np.int64)), init("en", np.array([6, -100, 0], np.int64)),
                init("ax", np.array([0, 1, 2], np.int64)), init("sp", np.array([2, -2, -1], np.int64))],
         expected=lambda x: [x[1:6:2, 6::-2, -1:0:-1]]))
add(Case("Gather_const_indices", [node("Gather", ["x", "i"], ["y"], axis=1)], {"x": rand(3, 5, 2)}, ["y"],
         inits=[init("i", np.array([[0, -1], [2, 2]], np.int64))], expected=lambda x: [x[:, [[0, 4], [2, 2]], :]]))
add(Case("Gather_scalar_index", [node("Gather", ["x", "i"], ["y"], axis=0)], {"x": rand(3, 5)}, ["y"],
         inits=[init("i", np.array(-2, np.int64))], expected=lambda x: [x[1]]))
add(Case("Gather_runtime_indices", [node("Gather", ["x", "i"], ["y"], axis=0)],
         {"x": rand(6, 4), "i": np.array([[5, 0], [3, 3]], np.int64)}, ["y"],
         expected=lambda x, i: [x[i]]))
add(Case("GatherElements", [node("GatherElements", ["x", "i"], ["y"], axis=1)],
         {"x": rand(3, 4), "i": np.array([[0, 3], [1, 1], [2, 0]], np.int64)}, ["y"],
         expected=lambda x, i: [np.take_along_axis(x, i, 1)]))
add(Case("GatherND", [node("GatherND", ["x", "i"], ["y"])],
         {"x": rand(3, 4, 2), "i": np.array([[0, 1], [2, 3]], np.int64)}, ["y"],
         expected=lambda x, i: [x[i[:, 0], i[:, 1]]]))
add(Case("ScatterElements", [node("ScatterElements", ["x", "i", "u"], ["y"], axis=1)],
         {"x": rand(3, 4), "i": np.array([[0, 3], [1, 2], [2, 0]], np.int64), "u": rand(3, 2)}, ["y"], opset=16))
add(Case("ScatterND", [node("ScatterND", ["x", "i", "u"], ["y"])],
         {"x": rand(4, 3), "i": np.array([[2], [0]], np.int64), "u": rand(2, 3)}, ["y"], opset=16))
add(Case("Expand_bidirectional", [node("Expand", ["x", "s"], ["y"])], {"x": rand(3, 1)}, ["y"],
         inits=[init("s", np.array([2, 1, 4], np.int64))], expected=lambda x: [np.broadcast_to(x, (2, 3, 4))]))
add(Case("Tile", [node("Tile", ["x", "r"], ["y"])], {"x": rand(2, 3)}, ["y"],
         inits=[init("r", np.array([2, 3], np.int64))], expected=lambda x: [np.tile(x, (2, 3))]))
add(Case("Pad_constant", [node("Pad", ["x", "p", "v"], ["y"])], {"x": rand(1, 2, 3, 4)}, ["y"],
         inits=[init("p", np.array([0, 0, 1, 2, 0, 1, 0, 1], np.int64)), init("v", np.array(1.5, np.float32))],
         expected=lambda x: [np.pad(x, ((0, 0), (0, 1), (1, 0), (2, 1)), constant_values=1.5)]))
add(Case("Pad_reflect_edge", [node("Pad", ["x", "p"], ["r"], mode="reflect"), node("Pad", ["x", "p"], ["e"],
                                                                                     mode="edge")],
         {"x": rand(1, 2, 4, 5)}, ["r", "e"], inits=[init("p", np.array([0, 0, 2, 1, 0, 0, 1, 3], np.int64))],
         expected=lambda x: [np.pad(x, ((0, 0), (0, 0), (2, 1), (1, 3)), mode="reflect"),
                             np.pad(x, ((0, 0), (0, 0), (2, 1), (1, 3)), mode="edge")]))
add(Case("Pad_negative", [node("Pad", ["x", "p"], ["y"])], {"x": rand(3, 5)}, ["y"],
         inits=[init("p", np.array([-1, 2, 1, -2], np.int64))],
         expected=lambda x: [np.pad(x[1:, :3], ((0, 1), (2, 0)))]))
add(Case("Pad_opset2_attrs", [node("Pad", ["x"], ["y"], pads=[1, 0, 0, 2], value=-1.0)], {"x": rand(2, 3)}, ["y"],
         opset=10, expected=lambda x: [np.pad(x, ((1, 0), (0, 2)), constant_values=-1)]))
add(Case("Trilu", [node("Trilu", ["x", "k"], ["u"]), node("Trilu", ["x"], ["l"], upper=0)], {"x": rand(2, 4, 5)},
         ["u", "l"], opset=14, inits=[init("k", np.array(1, np.int64))],
         expected=lambda x: [np.triu(x, 1), np.tril(x)]))
add(Case("DepthToSpace_DCR_CRD", [node("DepthToSpace", ["x"], ["a"], blocksize=2),
                                  node("DepthToSpace", ["x"], ["b"], blocksize=2, mode="CRD")],
         {"x": rand(1, 8, 2, 3)}, ["a", "b"]))
add(Case("SpaceToDepth", [node("SpaceToDepth", ["x"], ["y"], blocksize=2)], {"x": rand(1, 2, 4, 6)}, ["y"]))
add(Case("Identity_Dropout_output", [node("Identity", ["x"], ["a"]), node("Dropout", ["x"], ["b"])],
         {"x": rand(2, 3)}, ["a", "b"], expected=lambda x: [x, x]))
add(Case("Constant_ConstantOfShape_Range",
         [node("Constant", [], ["c"], value=numpy_helper.from_array(np.array([2, 3], np.int64))),
          node("ConstantOfShape", ["c"], ["z"], value=numpy_helper.from_array(np.array([0.5], np.float32))),
          node("Range", ["s", "l", "d"], ["r"]), node("Cast", ["r"], ["rf"], to=TensorProto.FLOAT),
          node("Add", ["x", "z"], ["t"]), node("Add", ["t", "rf"], ["y"])],
         {"x": rand(2, 3)}, ["y"], inits=[init("s", np.array(1, np.int64)), init("l", np.array(7, np.int64)),
                                          init("d", np.array(2, np.int64))],
         expected=lambda x: [x + 0.5 + np.array([1, 3, 5], np.float32)]))

# Resize
add(Case("Resize_nearest_asymmetric_floor_x2", [node("Resize", ["x", "", "s"], ["y"], mode="nearest",
                                                      coordinate_transformation_mode="asymmetric",
                                                      nearest_mode="floor")],
         {"x": rand(1, 2, 3, 4)}, ["y"], inits=[init("s", np.array([1, 1, 2, 2], np.float32))],
         expected=lambda x: [x.repeat(2, 2).repeat(2, 3)]))
add(Case("Resize_opset11_roi", [node("Resize", ["x", "roi", "s"], ["y"], mode="nearest",
                                     coordinate_transformation_mode="asymmetric", nearest_mode="floor")],
         {"x": rand(1, 2, 3, 4)}, ["y"], opset=11, inits=[init("s", np.array([1, 1, 2, 2], np.float32)),
                                                         init("roi", np.array([], np.float32))]))
add(Case("Resize_linear_half_pixel_x2", [node("Resize", ["x", "", "s"], ["y"], mode="linear")],
         {"x": rand(1, 2, 3, 4)}, ["y"], inits=[init("s", np.array([1, 1, 2, 2], np.float32))]))
add(Case("Resize_linear_downscale_sizes", [node("Resize", ["x", "", "", "z"], ["y"], mode="linear")],
         {"x": rand(1, 2, 9, 8)}, ["y"], inits=[init("z", np.array([1, 2, 4, 5], np.int64))]))
add(Case("Resize_linear_align_corners", [node("Resize", ["x", "", "s"], ["y"], mode="linear",
                                              coordinate_transformation_mode="align_corners")],
         {"x": rand(1, 2, 3, 4)}, ["y"], inits=[init("s", np.array([1, 1, 2, 1.5], np.float32))]))
add(Case("Resize_nearest_round_prefer_ceil_sizes", [node("Resize", ["x", "", "", "z"], ["y"], mode="nearest",
                                                         nearest_mode="round_prefer_ceil")],
         {"x": rand(1, 2, 5, 4)}, ["y"], inits=[init("z", np.array([1, 2, 7, 9], np.int64))]))
add(Case("Resize_cubic", [node("Resize", ["x", "", "s"], ["y"], mode="cubic")],
         {"x": rand(1, 1, 4, 5)}, ["y"], inits=[init("s", np.array([1, 1, 2, 2], np.float32))]))
add(Case("Resize_cubic_exclude_outside", [node("Resize", ["x", "", "s"], ["y"], mode="cubic", exclude_outside=1,
                                               cubic_coeff_a=-0.5)],
         {"x": rand(1, 1, 4, 5)}, ["y"], inits=[init("s", np.array([1, 1, 1.5, 0.6], np.float32))]))
add(Case("Resize_opset10_nearest", [node("Resize", ["x", "s"], ["y"], mode="nearest")],
         {"x": rand(1, 2, 3, 4)}, ["y"], opset=10, inits=[init("s", np.array([1, 1, 2, 3], np.float32))]))
add(Case("Upsample_opset9", [node("Upsample", ["x", "s"], ["y"], mode="nearest")],
         {"x": rand(1, 2, 3, 4)}, ["y"], opset=9, inits=[init("s", np.array([1, 1, 2, 2], np.float32))]))
add(Case("Resize_rank3_linear_fallback", [node("Resize", ["x", "", "s"], ["y"], mode="linear")],
         {"x": rand(2, 3, 5)}, ["y"], inits=[init("s", np.array([1, 1, 1.6], np.float32))]))

# Quantization
add(Case("QuantizeDequantize_per_tensor",
         [node("QuantizeLinear", ["x", "s", "z"], ["q"]), node("DequantizeLinear", ["q", "s", "z"], ["y"])],
         {"x": rand(2, 3, 4) * 3}, [("q", np.uint8), "y"],
         inits=[init("s", np.array(0.05, np.float32)), init("z", np.array(128, np.uint8))]))
add(Case("DequantizeLinear_per_axis", [node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1)],
         {"q": rng.integers(-128, 127, (2, 3, 4)).astype(np.int8)}, ["y"],
         inits=[init("s", rand(3, lo=0.01, hi=0.1)), init("z", np.array([0, 3, -2], np.int8))]))


# Blockwise (opset 21) DequantizeLinear -> MatMul: the MatMulNBits pattern. onnx 1.12 has no
# INT4/UINT4 enum, so 4-bit initializers are written by number (22 INT4, 21 UINT4), two values
# per byte, low nibble first. Checked against NumPy's exact dequantization (ONNX Runtime would
# rewrite these into MatMulNBits with int8 activations unless told accuracy level 1).
ONNX_INT4, ONNX_UINT4 = 22, 21


def init4(name, values, data_type):
    """A 4-bit initializer from int values (int4: -8..7, uint4: 0..15)."""
    t = TensorProto()
    t.name = name
    t.data_type = data_type
    t.dims.extend(values.shape)
    u = (np.asarray(values).reshape(-1).astype(np.int64) & 0xF).astype(np.uint8)
    if u.size % 2:
        u = np.concatenate([u, np.zeros(1, np.uint8)])
    t.raw_data = (u[0::2] | (u[1::2] << 4)).tobytes()
    return t


def block_dequant(q, scale, zp, axis, block):
    rep = lambda a: np.repeat(a.astype(np.float64), block, axis=axis)  # noqa: E731
    return (q.astype(np.float64) - (rep(zp) if zp is not None else 0)) * rep(scale)


def blockwise_case(name, kind, k=64, n=24, block=32, axis=0, zero_point=True):
    kshape = (k, n) if axis == 0 else (n, k)
    sshape = (k // block, n) if axis == 0 else (n, k // block)
    lo, hi, dt = {"int4": (-8, 8, ONNX_INT4), "uint4": (0, 16, ONNX_UINT4), "int8": (-128, 128, None)}[kind]
    q = rng.integers(lo, hi, kshape)
    zp = rng.integers(lo, hi, sshape) if zero_point else None
    scale = rand(*sshape, lo=0.01, hi=0.1)
    if dt is None:
        inits = [init("w", q.astype(np.int8))] + ([init("z", zp.astype(np.int8))] if zero_point else [])
    else:
        inits = [init4("w", q, dt)] + ([init4("z", zp, dt)] if zero_point else [])
    inits.append(init("s", scale))
    nodes = [node("DequantizeLinear", ["w", "s"] + (["z"] if zero_point else []), ["wf"], axis=axis, block_size=block)]
    if axis == 0:
        nodes.append(node("MatMul", ["x", "wf"], ["y"]))
    else:  # [N, K] as MatMulNBits stores it: y = x @ w^T
        nodes.append(node("Gemm", ["x", "wf"], ["y"], transB=1))
    w = block_dequant(q, scale, zp, axis, block)

    def expected(x):
        return [(x.astype(np.float64) @ (w if axis == 0 else w.T)).astype(np.float32)]

    def check(g):  # the weights stay 4-bit/8-bit in the graph, with a blockwise scale
        c = g["consts"]
        return any(v["dataType"] == kind and v["shape"] == list(kshape) for v in c.values()) and \
            any(v["shape"] == list(sshape) and v["dataType"] == "float32" for v in c.values())
    return Case(name, nodes, {"x": rand(3, k)}, ["y"], inits=inits, opset=21, expected=expected, tol=1e-5,
                numpy_first=True, ort_config={"session.qdq_matmulnbits_accuracy_level": 1}, check=check)


add(blockwise_case("DequantizeLinear_blockwise_int4_matmul", "int4", zero_point=False),
    blockwise_case("DequantizeLinear_blockwise_int4_zp_matmul", "int4", block=16),
    blockwise_case("DequantizeLinear_blockwise_uint4_matmul", "uint4"),
    blockwise_case("DequantizeLinear_blockwise_uint4_axis1_gemm", "uint4", axis=1, k=96, n=10),
    blockwise_case("DequantizeLinear_blockwise_int8_matmul", "int8", block=16),
    blockwise_case("DequantizeLinear_blockwise_int4_odd_count", "int4", k=64, n=3, zero_point=False))


# ONNX Runtime contrib ops of its quantized LLM exports that decompose exactly: MatMulNBits (4-bit
# with and without zero points and bias, 8-bit), SimplifiedLayerNormalization,
# SkipSimplifiedLayerNormalization (its sum output too), RotaryEmbedding (3-D with num_heads; 4-D
# with a partial rotary dim). Checked against ONNX Runtime, else NumPy.
def _mnb(k, n, bits, block, zp):
    nb = k // block
    q = rng.integers(0, 1 << bits, (n, k)).astype(np.uint8)
    scale = rand(n, nb, lo=0.01, hi=0.1)
    z = rng.integers(0, 1 << bits, (n, nb)).astype(np.uint8) if zp else np.full((n, nb), 1 << (bits - 1), np.uint8)

    def pack(u):  # along the last axis, low nibble first
        if bits == 8:
            return u
        if u.shape[-1] % 2:
            u = np.concatenate([u, np.zeros(u.shape[:-1] + (1,), np.uint8)], -1)
        return (u[..., 0::2] | (u[..., 1::2] << 4)).astype(np.uint8)
    blob = pack(q.reshape(n, nb, block))
    w = (q.astype(np.float64) - np.repeat(z, block, 1)) * np.repeat(scale.astype(np.float64), block, 1)  # [N, K]
    return blob, scale.reshape(-1), pack(z).reshape(-1) if zp else None, w


def _rms_ref(x, g, eps):
    x = x.astype(np.float64)
    return x / np.sqrt(np.mean(x * x, -1, keepdims=True) + eps) * g


def _rope_ref(x, cos, sin):  # x [..., D], cos/sin broadcast to [..., D/2] (rotate half)
    h = cos.shape[-1]
    x1, x2, rest = x[..., :h], x[..., h:2 * h], x[..., 2 * h:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin, rest], -1)


_B1, _S1, _, _W1 = _mnb(64, 32, 4, 32, False)
_B2, _S2, _Z2, _W2 = _mnb(64, 48, 4, 16, True)
_B3, _S3, _Z3, _W3 = _mnb(64, 24, 8, 32, True)
_BIAS2, _G1, _G2, _BS = rand(48), rand(32), rand(32), rand(32)
_ANG = np.arange(16)[:, None] * (1.0 / 100 ** (np.arange(8) / 8))[None, :]
_COS, _SIN = np.cos(_ANG).astype(np.float32), np.sin(_ANG).astype(np.float32)


def _contrib_expected(x, pos, skip, q4):
    x64 = x.astype(np.float64)
    y1, y2, y3 = x64 @ _W1.T, x64 @ _W2.T + _BIAS2, x64 @ _W3.T
    c, s = _COS[pos][:, :, None, :], _SIN[pos][:, :, None, :]            # [B, S, 1, 8]
    r3 = _rope_ref(y2.reshape(2, 5, 3, 16), c, s).reshape(2, 5, 48)
    tot = y1 + skip + _BS
    c4, s4 = _COS[pos][:, None, :, :4], _SIN[pos][:, None, :, :4]        # [B, 1, S, 4]
    return [y1, y3, r3, _rms_ref(y1, _G1, 1e-5), _rms_ref(tot, _G2, 1e-6), tot, _rope_ref(q4, c4, s4)]


def ms_node(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=f"{op}_{outs[0]}", domain="com.microsoft", **attrs)


add(Case("Contrib_llm_ops",
         [ms_node("MatMulNBits", ["x", "b1", "s1"], ["y1"], K=64, N=32, bits=4, block_size=32, accuracy_level=1),
          ms_node("MatMulNBits", ["x", "b2", "s2", "z2", "", "bias2"], ["y2"], K=64, N=48, bits=4, block_size=16,
                  accuracy_level=1),
          ms_node("MatMulNBits", ["x", "b3", "s3", "z3"], ["y3"], K=64, N=24, bits=8, block_size=32,
                  accuracy_level=1),
          ms_node("RotaryEmbedding", ["y2", "pos", "cos", "sin"], ["r3"], num_heads=3),
          helper.make_node("SimplifiedLayerNormalization", ["y1", "g1"], ["n1"], name="sln", axis=-1,
                           epsilon=1e-5, stash_type=1),
          ms_node("SkipSimplifiedLayerNormalization", ["y1", "skip", "g2", "bs"], ["n2", "", "", "sum"],
                  epsilon=1e-6),
          ms_node("RotaryEmbedding", ["q4", "pos", "cos4", "sin4"], ["r4"], rotary_embedding_dim=8, num_heads=2)],
         {"x": rand(2, 5, 64), "pos": rng.integers(0, 16, (2, 5)).astype(np.int64), "skip": rand(2, 5, 32),
          "q4": rand(2, 2, 5, 16)},
         ["y1", "y3", "r3", "n1", "n2", "sum", "r4"],
         inits=[init("b1", _B1), init("s1", _S1), init("b2", _B2), init("s2", _S2), init("z2", _Z2),
                init("bias2", _BIAS2), init("b3", _B3), init("s3", _S3), init("z3", _Z3), init("g1", _G1),
                init("g2", _G2), init("bs", _BS), init("cos", _COS), init("sin", _SIN),
                init("cos4", np.ascontiguousarray(_COS[:, :4])), init("sin4", np.ascontiguousarray(_SIN[:, :4]))],
         opset=21, extra_opsets=[("com.microsoft", 1)], expected=_contrib_expected, tol=2e-5,
         check=lambda g: sum(n["op"] == "dequantizeLinear" for n in g["nodes"]) == 3 and
         {"uint4", "uint8"} <= {c["dataType"] for c in g["consts"].values()}))

# Recurrent
H = 3
add(Case("GRU_bidirectional", [node("GRU", ["x", "w", "r", "b"], ["y", "yh"], hidden_size=H, direction="bidirectional",
                                    linear_before_reset=1)],
         {"x": rand(4, 2, 5)}, ["y", "yh"], inits=[init("w", rand(2, 3 * H, 5)), init("r", rand(2, 3 * H, H)),
                                                   init("b", rand(2, 6 * H))]))
add(Case("LSTM_forward", [node("LSTM", ["x", "w", "r", "b", "", "h0", "c0"], ["y", "yh", "yc"], hidden_size=H)],
         {"x": rand(4, 2, 5), "h0": rand(1, 2, H), "c0": rand(1, 2, H)}, ["y", "yh", "yc"],
         inits=[init("w", rand(1, 4 * H, 5)), init("r", rand(1, 4 * H, H)), init("b", rand(1, 8 * H))]))

# Other data types
add(Case("Float16", [node("Add", ["a", "b"], ["s"]), node("Relu", ["s"], ["r"]), node("MatMul", ["r", "w"], ["m"]),
                     node("Softmax", ["m"], ["y"], axis=-1)],
         {"a": rand(2, 3, 4).astype(np.float16), "b": rand(4).astype(np.float16)}, [("y", np.float16)],
         inits=[init("w", rand(4, 5).astype(np.float16))]))
add(Case("Int64_runtime", [node("Add", ["a", "b"], ["s"]), node("Mul", ["s", "b"], ["m"]),
                           node("ReduceSum", ["m"], ["r"], keepdims=0), node("Gather", ["a", "i"], ["g"]),
                           node("Cast", ["a"], ["f"], to=TensorProto.FLOAT)],
         {"a": np.array([5, -3, 7, 1 << 40], np.int64), "b": np.array([2, 2, -1, 3], np.int64),
          "i": np.array([3, 0], np.int32)}, [("r", np.int64), ("g", np.int64), "f"], opset=13,
         expected=lambda a, b, i: [np.sum((a + b) * b), a[i], a.astype(np.float32)]))
add(Case("Int32_elementwise", [node("Sub", ["a", "b"], ["s"]), node("Abs", ["s"], ["y"]), node("Max", ["y", "b"], ["z"])],
         {"a": np.array([[1, -5, 9]], np.int32), "b": np.array([[4], [-2]], np.int32)}, [("z", np.int32)],
         expected=lambda a, b: [np.maximum(np.abs(a - b), b)]))

# Decomposed ops
add(Case("OneHot", [node("OneHot", ["i", "d", "v"], ["y"], axis=1)],
         {"i": np.array([[0, 2], [-1, 1]], np.int64)}, ["y"], opset=11,
         inits=[init("d", np.array(3, np.int64)), init("v", np.array([-1.0, 2.0], np.float32))]))
add(Case("GroupNormalization_opset21", [node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
         {"x": rand(2, 4, 3, 3)}, ["y"], opset=21, inits=[init("s", rand(4)), init("b", rand(4))]))
add(Case("LpNormalization", [node("LpNormalization", ["x"], ["a"], axis=1), node("LpNormalization", ["x"], ["b"], p=1)],
         {"x": rand(3, 4)}, ["a", "b"]))
add(Case("MeanVarianceNormalization", [node("MeanVarianceNormalization", ["x"], ["y"])], {"x": rand(2, 3, 4, 5)},
         ["y"], tol=1e-4))
add(Case("Shrink", [node("Shrink", ["x"], ["y"], bias=0.1, lambd=0.3)], {"x": rand(4, 5)}, ["y"]))

# Dynamic dimensions: batch stays a named WebNN dynamic dimension; webnn run picks 3.
add(Case("Dynamic_batch", [node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), node("Relu", ["c"], ["r"]),
                           node("GlobalAveragePool", ["r"], ["g"]), node("Flatten", ["g"], ["y"])],
         {"x": rand(3, 3, 6, 6)}, ["y"], inits=[init("w", W8)], input_shapes={"x": ["batch", 3, 6, 6]},
         convert={"max_sizes": {"batch": 8}}, run_dims={"batch": 3},
         check=lambda g: g["inputs"]["x"]["shape"][0] == {"name": "batch", "maxSize": 8}))
add(Case("Dynamic_fixed_with_dim", [node("Shape", ["x"], ["s"]), node("Reshape", ["x", "s2"], ["y"])],
         {"x": rand(2, 6)}, ["y"], inits=[init("s2", np.array([0, 2, 3], np.int64))],
         input_shapes={"x": ["n", 6]}, convert={"dims": {"n": 2}}, expected=lambda x: [x.reshape(2, 2, 3)]))

# -1 next to static sizes whose product is the input's static part: -1 is the dynamic dim itself.
add(Case("Dynamic_reshape_infers_dim", [node("Reshape", ["x", "s2"], ["y"])], {"x": rand(2, 6)}, ["y"],
         inits=[init("s2", np.array([-1, 2, 3], np.int64))], input_shapes={"x": ["n", 6]},
         convert={"max_sizes": {"n": 4}}, run_dims={"n": 2}, expected=lambda x: [x.reshape(2, 2, 3)],
         check=lambda g: g["nodes"][0]["options"]["newShape"][0] == {"name": "n", "maxSize": 4}))
# A KV-cache Concat of two named dims declared (--dim-sum) equal to a third input's named dim:
# the GQA-style Unsqueeze + Expand + Reshape of it is written by that name. (The tiny decoder
# test covers the other way, the graph output's declared dim_param.)
def _kv_expected(past, new, m):
    kv = np.concatenate([past, new], 1)
    return [kv, np.repeat(kv[:, None], 3, 1).reshape(6, kv.shape[1], 4) * m]


add(Case("Dynamic_concat_sum_named",
         [node("Concat", ["past", "new"], ["kv"], axis=1), node("Unsqueeze", ["kv", "ax"], ["k5"]),
          node("Expand", ["k5", "rep"], ["k6"]), node("Reshape", ["k6", "s4"], ["y"]),
          node("Mul", ["y", "m"], ["z"])],
         {"past": rand(2, 5, 4), "new": rand(2, 3, 4), "m": rand(1, 8, 1)}, ["kv", "z"],
         inits=[init("ax", np.array([1], np.int64)), init("rep", np.array([1, 3, 1, 1], np.int64)),
                init("s4", np.array([6, -1, 4], np.int64))],
         input_shapes={"past": [2, "past", 4], "new": [2, "seq", 4], "m": [1, "total", 1]},
         convert={"max_sizes": {"past": 8, "seq": 8, "total": 16}, "dim_sums": {"total": ["past", "seq"]}},
         run_dims={"past": 5, "seq": 3, "total": 8}, expected=_kv_expected,
         check=lambda g: any(n["op"] == "reshape" and {"name": "total", "maxSize": 16} in n["options"]["newShape"]
                             for n in g["nodes"])))
# PyTorch-style reshapes of a [1, seq, 8] tensor through Shape -> Gather -> Unsqueeze -> Concat, and
# ConstantOfShape of a dynamic shape: the named dim is written by name.
add(Case("Dynamic_shape_chain",
         [node("Shape", ["x"], ["s"]), node("Gather", ["s", "i1"], ["seq"], axis=0),
          node("Unsqueeze", ["seq", "ax0"], ["seq1"]), node("Concat", ["one", "seq1", "tail"], ["tgt"], axis=0),
          node("Reshape", ["x", "tgt"], ["r"]), node("Transpose", ["r"], ["y"], perm=[0, 2, 1, 3]),
          node("Shape", ["x"], ["s2"], end=2), node("Cast", ["s2"], ["s2i"], to=TensorProto.INT32),
          node("Cast", ["s2i"], ["s2l"], to=TensorProto.INT64),
          node("ConstantOfShape", ["s2l"], ["ones"], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [2.0])),
          node("Mul", ["ones", "m"], ["z"])],
         {"x": rand(1, 3, 8), "m": rand(1, 3)}, ["y", "z"],
         inits=[init("i1", np.array(1, np.int64)), init("ax0", np.array([0], np.int64)),
                init("one", np.array([1], np.int64)), init("tail", np.array([2, 4], np.int64))],
         input_shapes={"x": [1, "seq", 8], "m": [1, "seq"]}, convert={"max_sizes": {"seq": 6}},
         run_dims={"seq": 3}, opset=15,
         expected=lambda x, m: [x.reshape(1, 3, 2, 4).transpose(0, 2, 1, 3), 2.0 * m],
         check=lambda g: any(n["op"] == "reshape" and {"name": "seq", "maxSize": 6} in n["options"]["newShape"]
                             for n in g["nodes"])))


# ---- running ----------------------------------------------------------------------------------------

def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


class ConverterCases(unittest.TestCase):
    """One test per Case, generated below."""
    tmp = None
    ort_ok = {}

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="onnx2webnn_test_")
        jobs = []
        for case in CASES:
            d = os.path.join(cls.tmp, case.name)
            os.makedirs(d)
            onnx.save(case.model(), os.path.join(d, "model.onnx"))
            for n, a in case.inputs.items():
                np.save(os.path.join(d, f"in_{n}.npy"), a)
            jobs.append({"model": os.path.join(d, "model.onnx"), "out": os.path.join(d, "ort"),
                         "inputs": {n: os.path.join(d, f"in_{n}.npy") for n in case.inputs}})
            if case.ort_config:
                cfg = jobs[-1]["config"] = {}
                for key, value in case.ort_config.items():
                    o = cfg
                    for k in key.split(".")[:-1]:
                        o = o.setdefault(k, {})
                    o[key.split(".")[-1]] = str(value)
        if HAVE_ORT:
            with open(os.path.join(cls.tmp, "jobs.json"), "w") as f:
                json.dump(jobs, f)
            env = dict(os.environ, ORT_NODE_MODULES=ORT_MODULES)
            r = run(["node", os.path.join(ROOT, "scripts", "ort_run.js"), "jobs", os.path.join(cls.tmp, "jobs.json")],
                    env=env)
            if r.returncode != 0:
                print(f"note: ONNX Runtime did not run ({r.stdout.strip()[-300:]}); using NumPy results only")

    @classmethod
    def tearDownClass(cls):
        if cls.tmp and not os.environ.get("KEEP_TEST_FILES"):
            shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_case(self, case):
        d = os.path.join(self.tmp, case.name)
        model = onnx.load(os.path.join(d, "model.onnx"))
        result = convert_model(model, **case.convert)
        graph_path = os.path.join(d, "graph.json")
        result.write(graph_path)
        if case.check is not None:
            self.assertTrue(case.check(result.graph), f"graph check failed:\n{json.dumps(result.graph)[:2000]}")

        # Reference outputs: ONNX Runtime, else NumPy.
        ort_dir = os.path.join(d, "ort")
        if case.numpy_first and case.expected is not None:
            want = dict(zip(case.output_names(), case.expected(**case.inputs)))
            source = "NumPy"
        elif HAVE_ORT and os.path.isdir(ort_dir) and not os.path.exists(os.path.join(ort_dir, "ERROR")):
            want = {n: np.load(os.path.join(ort_dir, f"{n}.npy")) for n in case.output_names()}
            source = "ONNX Runtime"
        elif HAVE_ORT and os.path.exists(os.path.join(ort_dir, "ERROR")):
            with open(os.path.join(ort_dir, "ERROR")) as f:
                self.fail("ONNX Runtime rejected the test model: " + f.read())
        elif case.expected is not None:
            want = dict(zip(case.output_names(), case.expected(**case.inputs)))
            source = "NumPy"
        else:
            self.skipTest("needs ONNX Runtime (npm install --ignore-scripts onnxruntime-node in bench/peers)")

        out_dir = os.path.join(d, "webnn")
        cmd = [WEBNN, "run", "--device", DEVICE, graph_path, "--save", out_dir]
        for n in case.inputs:
            cmd += ["--input", f"{n}={os.path.join(d, f'in_{n}.npy')}"]
        for k, v in case.run_dims.items():
            cmd += ["--dim", f"{k}={v}"]
        r = run(cmd)
        self.assertEqual(r.returncode, 0, f"webnn run failed:\n{r.stdout[-3000:]}")
        for name, ref in want.items():
            got = np.load(os.path.join(out_dir, f"{name}.npy"))
            ref = np.asarray(ref)
            if ref.dtype == np.bool_:
                ref = ref.astype(np.uint8)
            self.assertEqual(tuple(got.shape), tuple(ref.shape), f"output '{name}': shape vs {source}")
            if ref.dtype.kind in "iub":
                np.testing.assert_array_equal(got.astype(np.int64), ref.astype(np.int64),
                                              err_msg=f"output '{name}' vs {source}")
                continue
            g64, r64 = got.astype(np.float64), ref.astype(np.float64)
            self.assertTrue(np.array_equal(np.isnan(g64), np.isnan(r64)), f"output '{name}': NaNs differ")
            ok = ~np.isnan(r64)
            scale = max(np.max(np.abs(r64[ok])) if ok.any() else 0.0, 1e-30)
            err = np.max(np.abs(g64[ok] - r64[ok])) / scale if ok.any() else 0.0
            tol = max(case.tol, 1e-3 if got.dtype == np.float16 else 0)
            self.assertLessEqual(err, tol, f"output '{name}': max |ours - {source}| / max |ref| = {err:.3g}\n"
                                 f"ours {g64.reshape(-1)[:8]}\nref  {r64.reshape(-1)[:8]}")


def _make_test(case):
    def test(self):
        self.run_case(case)
    return test


for _case in CASES:
    setattr(ConverterCases, f"test_{_case.name}", _make_test(_case))


class Errors(unittest.TestCase):
    """Unsupported ops and attributes: one error naming every such node; nothing written."""

    def bad_model(self):
        nodes = [
            node("Relu", ["x"], ["r"], name="fine_relu"),
            node("TopK", ["r", "k"], ["v", "i"], name="my_topk", axis=1),
            node("ArgMax", ["r"], ["am"], name="last_index_argmax", select_last_index=1),
            node("Resize", ["r", "roi", "sc"], ["rs"], name="crop_resize", mode="linear",
                 coordinate_transformation_mode="tf_crop_and_resize"),
            helper.make_node("FusedGemm", ["r", "r"], ["fg"], name="ms_op", domain="com.microsoft"),
            node("Add", ["v", "r"], ["after_topk"], name="downstream_add"),
        ]
        outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("after_topk", "rs", "fg")]
        outs.append(helper.make_tensor_value_info("am", TensorProto.INT64, None))
        g = helper.make_graph(nodes, "bad", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
                              outs, [init("k", np.array([2], np.int64)), init("roi", np.zeros(8, np.float32)),
                                     init("sc", np.array([1, 1, 2, 2], np.float32))])
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])

    def test_every_unsupported_node_is_listed(self):
        with self.assertRaises(ConversionError) as cm:
            convert_model(self.bad_model())
        problems = {(op, name) for op, name, _ in cm.exception.problems}
        self.assertEqual(problems, {("TopK", "my_topk"), ("ArgMax", "last_index_argmax"), ("Resize", "crop_resize"),
                                    ("FusedGemm", "ms_op")})
        text = str(cm.exception)
        for needle in ("operator TopK is not supported", "select_last_index=1", "tf_crop_and_resize",
                       "domain 'com.microsoft'", "4 node(s)"):
            self.assertIn(needle, text)

    def test_cli_exit_status_and_nothing_written(self):
        with tempfile.TemporaryDirectory() as d:
            onnx.save(self.bad_model(), os.path.join(d, "bad.onnx"))
            out = os.path.join(d, "bad.json")
            r = run([sys.executable, os.path.join(ROOT, "scripts", "onnx2webnn"), os.path.join(d, "bad.onnx"),
                     "-o", out])
            self.assertEqual(r.returncode, 2, r.stdout)
            self.assertIn("my_topk", r.stdout)
            self.assertIn("ms_op", r.stdout)
            self.assertIn("nothing written", r.stdout)
            self.assertEqual(sorted(os.listdir(d)), ["bad.onnx"])

    def test_dynamic_shape_needed(self):
        nodes = [node("Shape", ["x"], ["s"], name="shape"), node("Reshape", ["x", "s2"], ["y"], name="reshape")]
        g = helper.make_graph(nodes, "dyn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 6])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [init("s2", np.array([-1, 3], np.int64))])  # -1 = 2n: needs n's value
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        with self.assertRaises(ConversionError) as cm:
            convert_model(m)
        self.assertIn("--dim", str(cm.exception))
        convert_model(m, dims={"n": 4})  # fixed: converts

    def test_blockwise_partial_block_is_an_error(self):
        q = rng.integers(-8, 8, (40, 4))
        nodes = [node("DequantizeLinear", ["w", "s"], ["wf"], name="ragged_dq", axis=0, block_size=32),
                 node("MatMul", ["x", "wf"], ["y"], name="mm")]
        g = helper.make_graph(nodes, "ragged", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 40])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [init4("w", q, ONNX_INT4), init("s", rand(2, 4, lo=0.01, hi=0.1))])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
        with self.assertRaises(ConversionError) as cm:
            convert_model(m)
        self.assertEqual([(op, name) for op, name, _ in cm.exception.problems], [("DequantizeLinear", "ragged_dq")])
        self.assertIn("partial", str(cm.exception))

    def test_group_query_attention_is_rejected_with_its_reason(self):
        nodes = [helper.make_node("GroupQueryAttention", ["q", "k", "v", "", "", "sl", "tl"], ["o", "pk", "pv"],
                                  name="gqa", domain="com.microsoft", num_heads=2, kv_num_heads=1)]
        ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 3, d]) for n, d in (("q", 8), ("k", 4), ("v", 4))]
        g = helper.make_graph(nodes, "gqa", ins, [helper.make_tensor_value_info("o", TensorProto.FLOAT, None)],
                              [init("sl", np.array([2], np.int32)), init("tl", np.array(3, np.int32))])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)],
                              ir_version=10)
        with self.assertRaises(ConversionError) as cm:
            convert_model(m)
        self.assertEqual([(op, name) for op, name, _ in cm.exception.problems], [("GroupQueryAttention", "gqa")])
        self.assertIn("seqlens_k", str(cm.exception))

    def test_arithmetic_on_a_dynamic_shape_is_an_error(self):
        nodes = [node("Shape", ["x"], ["s"], name="shape"), node("Mul", ["s", "two"], ["s2"], name="double_shape"),
                 node("Reshape", ["x", "s2"], ["y"], name="reshape")]
        g = helper.make_graph(nodes, "dyn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 6])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [init("two", np.array([2, 1], np.int64))])
        with self.assertRaises(ConversionError) as cm:
            convert_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]))
        self.assertEqual([(op, name) for op, name, _ in cm.exception.problems], [("Mul", "double_shape")])
        self.assertIn("run-time shape value", str(cm.exception))

    def test_unsupported_attribute_is_not_ignored(self):
        nodes = [node("Conv", ["x", "w"], ["y"], name="conv", pads=[0, 0, 0, 0], foo=1)]
        g = helper.make_graph(nodes, "attr", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [init("w", rand(1, 1, 1, 1))])
        with self.assertRaises(ConversionError) as cm:
            convert_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]))
        self.assertIn("attribute 'foo' is not supported", str(cm.exception))


class WebnnCli(unittest.TestCase):
    """`webnn convert` and `webnn run MODEL.onnx` run the converter for the user."""

    def conv_model(self, d):
        w, b = rand(4, 3, 3, 3), rand(4)
        nodes = [node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]), node("Relu", ["c"], ["y"])]
        g = helper.make_graph(nodes, "cli", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [init("w", w), init("b", b)])
        path = os.path.join(d, "cli.onnx")
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
        x = rand(1, 3, 8, 8)
        np.save(os.path.join(d, "x.npy"), x)
        return path, np.maximum(conv_ref(x, w, b, pad=1), 0)

    def test_convert_then_run_and_run_onnx_directly(self):
        with tempfile.TemporaryDirectory() as d:
            model, want = self.conv_model(d)
            r = run([WEBNN, "convert", model, "-o", os.path.join(d, "g.json")])
            self.assertEqual(r.returncode, 0, r.stdout)
            self.assertTrue(all(os.path.exists(os.path.join(d, f)) for f in ("g.json", "g.weights", "g.manifest.json")))
            x = "x=" + os.path.join(d, "x.npy")
            r = run([WEBNN, "run", "--device", DEVICE, os.path.join(d, "g.json"), "--input", x, "--save",
                     os.path.join(d, "from_json")])
            self.assertEqual(r.returncode, 0, r.stdout)
            r = run([WEBNN, "run", "--device", DEVICE, model, "--input", x, "--save", os.path.join(d, "from_onnx")])
            self.assertEqual(r.returncode, 0, r.stdout)
            self.assertIn("webnn convert", r.stdout)
            a = np.load(os.path.join(d, "from_json", "y.npy"))
            b = np.load(os.path.join(d, "from_onnx", "y.npy"))
            np.testing.assert_array_equal(a, b)
            np.testing.assert_allclose(a, want, rtol=1e-5, atol=1e-5)

    def test_run_onnx_that_does_not_convert_says_how(self):
        with tempfile.TemporaryDirectory() as d:
            onnx.save(Errors().bad_model(), os.path.join(d, "bad.onnx"))
            r = run([WEBNN, "run", os.path.join(d, "bad.onnx")])
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("my_topk", r.stdout)  # the converter's own report
            self.assertIn("webnn convert " + os.path.join(d, "bad.onnx") + " -o GRAPH.json", r.stdout)

    def test_print_shows_every_value_exactly(self):
        with tempfile.TemporaryDirectory() as d:
            model, _ = self.conv_model(d)
            r = run([WEBNN, "run", "--device", DEVICE, model, "--input", "x=" + os.path.join(d, "x.npy"), "--print",
                     "--print-limit", "0", "--save", d])
            self.assertEqual(r.returncode, 0, r.stdout)
            saved = np.load(os.path.join(d, "y.npy"))
            printed = np.full(saved.shape, np.nan, np.float32)
            lines = [ln for ln in r.stdout.splitlines() if ln.startswith("  [")]
            for ln in lines:  # "  [0, 2, 5, 0:8] v0 v1 ..."
                index, values = ln.strip()[1:].split("]")
                *outer, span = [p.strip() for p in index.split(",")]
                lo, hi = (int(v) for v in span.split(":"))
                printed[tuple(int(o) for o in outer)][lo:hi] = [float(v) for v in values.split()]
            np.testing.assert_array_equal(printed, saved)
            r = run([WEBNN, "run", "--device", DEVICE, model, "--print", "--print-limit", "10"])
            self.assertEqual(sum(ln.startswith("  [") for ln in r.stdout.splitlines()), 2)  # 8 + 2 values
            self.assertIn(f"... {saved.size - 10} more values", r.stdout)

    def test_unknown_names_are_listed(self):
        with tempfile.TemporaryDirectory() as d:
            model, _ = self.conv_model(d)
            for flag, text in (("--input", "its inputs are 'x'"), ("--reference", "its outputs are 'y'"),
                               ("--dim", "dynamic dimensions are none")):
                r = run([WEBNN, "run", model, flag, "nope=1" if flag == "--dim" else "nope=f.npy"])
                self.assertEqual(r.returncode, 1, r.stdout)
                self.assertIn("'nope'", r.stdout)
                self.assertIn(text, r.stdout)


class ConverterProgress(unittest.TestCase):
    """The converter's progress: quiet for a second, then lines (not a terminal) every 5 s."""

    def test_lines_when_not_a_terminal(self):
        import io
        from onnx2webnn_lib import progress as progress_module
        now = [100.0]
        real = progress_module.time.monotonic
        progress_module.time.monotonic = lambda: now[0]
        try:
            out = io.StringIO()
            p = progress_module.Progress("convert m.onnx", out)
            p.update("nodes", 1, 10)
            self.assertEqual(out.getvalue(), "")  # within the first second
            now[0] += 1.5
            p.update("nodes", 4, 10)
            now[0] += 1.0
            p.update("nodes", 6, 10)  # within 5 s of the last line
            now[0] += 5.0
            p.update("weights", 50, 100, "bytes")
            p.finish()
        finally:
            progress_module.time.monotonic = real
        self.assertEqual(out.getvalue().splitlines(), [
            "convert m.onnx:  40% 4/10 (nodes) after 1.5 s",
            "convert m.onnx:  50% 50/100 bytes (weights) after 7.5 s",
            "convert m.onnx:  50% 50/100 bytes (weights) after 7.5 s, done"])


class TinyDecoder(unittest.TestCase):
    """scripts/gen_llm_decoder.py's form (a) (issue 12) at tiny sizes: converted with its KV cache
    dynamic, run on WEBNN_TEST_DEVICE and compared with ONNX Runtime at accuracy level 1 (float
    activations) for a decode step with a past and for a prefill converted with past 0."""
    DIMS = ["--layers", "2", "--hidden", "64", "--heads", "4", "--kv-heads", "2", "--head-dim", "16",
            "--ffn", "96", "--vocab", "300"]

    def setUp(self):
        if not HAVE_ORT:
            self.skipTest("needs ONNX Runtime (npm install --ignore-scripts onnxruntime-node in bench/peers)")
        self.tmp = tempfile.mkdtemp(prefix="onnx2webnn_llm_")

    def tearDown(self):
        if not os.environ.get("KEEP_TEST_FILES"):
            shutil.rmtree(self.tmp, ignore_errors=True)

    def gen(self, *args):
        r = run([sys.executable, os.path.join(ROOT, "scripts", "gen_llm_decoder.py")] + self.DIMS + list(args))
        self.assertEqual(r.returncode, 0, r.stdout)

    def check(self, quant, seq, past):
        d = self.tmp
        model = os.path.join(d, f"llm_{quant}.onnx")
        self.gen("--form", "a", "--quant", quant, "-o", model)
        ins = os.path.join(d, f"in_{seq}_{past}")
        self.gen("--inputs", ins, "--seq", str(seq), "--past", str(past))
        files = {os.path.basename(f)[:-4]: f for f in sorted(glob.glob(os.path.join(ins, "*.npy")))}
        ort_out = os.path.join(d, f"ort_{quant}_{seq}_{past}")
        cmd = ["node", os.path.join(ROOT, "scripts", "ort_run.js"), "run", model, "--out", ort_out,
               "--config", "session.qdq_matmulnbits_accuracy_level=1"]
        for n, f in files.items():
            cmd += ["--input", f"{n}={f}"]
        r = run(cmd, env=dict(os.environ, ORT_NODE_MODULES=ORT_MODULES))
        self.assertEqual(r.returncode, 0, r.stdout)

        dims = {} if past else {"past_sequence_length": 0}
        result = convert_model(onnx.load(model), dims=dims, max_sizes={"past_sequence_length": 32,
                                                                       "sequence_length": 16,
                                                                       "total_sequence_length": 48})
        g = result.graph
        kinds = {c["dataType"] for c in g["consts"].values()}
        self.assertIn(quant, kinds)  # the weights stay 4-bit
        self.assertFalse(any(c["dataType"] == "float32" and len(c["shape"]) == 2 and c["shape"][0] >= 64 and
                             c["shape"][1] >= 64 for c in g["consts"].values()), "a dequantized weight was written")
        if past:
            self.assertEqual(g["inputs"]["past_key_values.0.key"]["shape"][2],
                             {"name": "past_sequence_length", "maxSize": 32})
        graph = os.path.join(d, f"llm_{quant}_{past}.json")
        result.write(graph)
        out = os.path.join(d, f"webnn_{quant}_{seq}_{past}")
        cmd = [WEBNN, "run", "--device", DEVICE, graph, "--save", out, "--dim", f"sequence_length={seq}",
               "--dim", f"total_sequence_length={seq + past}"]
        if past:
            cmd += ["--dim", f"past_sequence_length={past}"]
        for n, f in files.items():
            if past or not n.startswith("past_"):
                cmd += ["--input", f"{n}={f}"]
        r = run(cmd)
        self.assertEqual(r.returncode, 0, f"webnn run failed:\n{r.stdout[-3000:]}")
        for name in ["logits", "present.0.key", "present.1.value"]:
            got = np.load(os.path.join(out, f"{name}.npy")).astype(np.float64)
            ref = np.load(os.path.join(ort_out, f"{name}.npy")).astype(np.float64)
            self.assertEqual(got.shape, ref.shape, name)
            err = np.max(np.abs(got - ref)) / np.max(np.abs(ref))
            self.assertLessEqual(err, 1e-4, f"{name}: max |ours - ORT| / max |ORT| = {err:.3g}")

    def test_decode_int4(self):
        self.check("int4", 1, 7)

    def test_chunk_with_past_uint4(self):
        self.check("uint4", 3, 5)  # several new tokens after a past: the causal mask matters

    def test_prefill_int4(self):
        self.check("int4", 6, 0)


if __name__ == "__main__":
    if WEBNN is None:
        print("SKIPPED: no webnn tool found (build first, or set WEBNN_CLI)")
        sys.exit(SKIP)
    if not HAVE_ORT:
        print(f"note: ONNX Runtime is not installed ({ORT_MODULES}/onnxruntime-node; npm install --ignore-scripts "
              "onnxruntime-node there): cases are checked against NumPy results, those without one are skipped")
    print(f"webnn tool: {WEBNN}, device: {DEVICE}")
    unittest.main(verbosity=int(os.environ.get("VERBOSE", "1")))
