#!/usr/bin/python3
"""Writes the single-op ONNX models of the peer comparison.

    webnn_peer_bench --peer_cases_json | /usr/bin/python3 make_onnx_models.py OUT_DIR

One model per case of bench/peer_tools/peer_cases.h (read as JSON on stdin):
MatMul with B an initializer, Conv with W and bias initializers, and
Add/Mul/Relu/Sigmoid/Exp on float32 vectors. Weights are initializers for the
same reason ours are builder.constant: both engines may pack them once.

Prints one JSON line per model ({"case": ..., "model": ..., "inputs": {...}})
to OUT_DIR/models.json, which scripts/bench-peers.sh feeds to the ONNX Runtime
worker. A model is rewritten only when its case changed (OUT_DIR/manifest.json).

Needs Debian's python3-onnx and python3-numpy: run with /usr/bin/python3, not a
pyenv python3 that lacks them.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13  # every op here is unchanged since 13; ORT 1.30 runs it natively
IR_VERSION = 8


def _model(name, nodes, inputs, outputs, initializers):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="webnn bench-peers")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model


def _f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))


def matmul_model(c, rng):
    m, k, n = c["m"], c["k"], c["n"]
    b = numpy_helper.from_array(rng.uniform(-1, 1, (k, n)).astype(np.float32), "B")
    node = helper.make_node("MatMul", ["A", "B"], ["Y"])
    model = _model("matmul_" + c["name"], [node], [_f32("A", [m, k])], [_f32("Y", [m, n])], [b])
    return model, {"A": [m, k]}


def conv_model(c, rng):
    oh = (c["h"] + 2 * c["pad"] - c["kh"]) // c["stride"] + 1
    ow = (c["w"] + 2 * c["pad"] - c["kw"]) // c["stride"] + 1
    w = numpy_helper.from_array(
        rng.uniform(-1, 1, (c["oc"], c["c"] // c["groups"], c["kh"], c["kw"])).astype(np.float32), "W")
    bias = numpy_helper.from_array(rng.uniform(-1, 1, (c["oc"],)).astype(np.float32), "Bias")
    node = helper.make_node("Conv", ["X", "W", "Bias"], ["Y"], kernel_shape=[c["kh"], c["kw"]],
                            pads=[c["pad"]] * 4, strides=[c["stride"]] * 2, dilations=[1, 1], group=c["groups"])
    x_shape = [c["n"], c["c"], c["h"], c["w"]]
    model = _model("conv_" + c["name"], [node], [_f32("X", x_shape)], [_f32("Y", [c["n"], c["oc"], oh, ow])],
                   [w, bias])
    return model, {"X": x_shape}


ONNX_ELTWISE = {"add": "Add", "mul": "Mul", "relu": "Relu", "sigmoid": "Sigmoid", "exp": "Exp"}


def eltwise_model(c, rng):
    n = c["elements"]
    names = ["A", "B"] if c["binary"] else ["A"]
    node = helper.make_node(ONNX_ELTWISE[c["op"]], names, ["Y"])
    model = _model("eltwise_" + c["name"], [node], [_f32(x, [n]) for x in names], [_f32("Y", [n])], [])
    return model, {x: [n] for x in names}


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    cases = json.load(sys.stdin)
    manifest_path = os.path.join(out_dir, "manifest.json")
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    builders = {"matmul": matmul_model, "conv": conv_model, "eltwise": eltwise_model}
    rng = np.random.default_rng(1)
    entries, written = [], 0
    for family, build in builders.items():
        for c in cases[family]:
            case_id = family + "/" + c["name"]
            path = os.path.join(out_dir, family + "__" + c["name"] + ".onnx")
            if manifest.get(case_id, {}).get("case") == c and os.path.exists(path):
                inputs = manifest[case_id]["inputs"]
            else:
                model, inputs = build(c, rng)
                onnx.save(model, path)
                manifest[case_id] = {"case": c, "inputs": inputs}
                written += 1
            entries.append({"case": case_id, "model": os.path.abspath(path), "inputs": inputs})
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1)
    with open(os.path.join(out_dir, "models.json"), "w") as f:
        json.dump(entries, f, indent=1)
    print(f"onnx models: {written} written, {len(entries) - written} up to date in {out_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
