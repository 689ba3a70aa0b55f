#!/usr/bin/python3
"""DAOP estimate accuracy (issue 11), in one command: scripts/bench-qos.sh.

Per thread count: `webnn calibrate` (timed), then on held-out graphs (not the
calibration grid) `webnn estimate --measure` gives our estimate, the public
DAOP polyfill's estimate (its method, calibrated in the same run) and the
measured median. Reports |ln(estimated / measured)| per graph, the medians,
whether the tier is right, calibration time, and the time to estimate a
1000-node graph.

Held-out graphs: PP-OCRv4 det at 320x320, 640x640, 960x960 and 480x800 (one
graph, dynamic H and W), rec, cls (scripts/models.sh converts them), the
MatMul and conv layers of the peer table (bench/peer_tools/peer_cases.h,
read from that file, so there is one list) as one-op graphs, and with --llm
the issue-12 int4 decoder (decode and prefill).
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIERS = [(16, "excellent"), (100, "good"), (1000, "fair"), (10000, "moderate"), (30000, "slow"), (60000, "very-slow")]


def tier(ms):
    for bound, name in TIERS:
        if ms < bound:
            return name
    return "poor"


def peer_cases():
    text = open(os.path.join(ROOT, "bench/peer_tools/peer_cases.h")).read()
    matmuls = [(m[0], int(m[1]), int(m[2]), int(m[3]))
               for m in re.findall(r'\{"(\w+)",\s*"[^"]*",\s*(\d+),\s*(\d+),\s*(\d+)\}', text)]
    convs = [(m[0],) + tuple(int(v) for v in m[1:])
             for m in re.findall(r'\{"(\w+)",\s*"[^"]*",\s*' + r',\s*'.join([r'(\d+)'] * 10) + r'\}', text)]
    return matmuls, convs


def write_graph(path, inputs, consts, nodes, output):
    graph = {"format": "webnn-graph-json", "version": 2, "inputs": inputs, "consts": consts, "nodes": nodes,
             "outputs": {"out": output}}
    with open(path, "w") as f:
        json.dump(graph, f)


def scalar_const(shape, value=0.01):
    return {"dataType": "float32", "shape": shape, "init": {"kind": "scalar", "value": value}}


def one_op_graphs(directory):
    matmuls, convs = peer_cases()
    cases = []
    for name, m, k, n in matmuls:
        path = os.path.join(directory, f"matmul_{name}.json")
        write_graph(path, {"a": {"dataType": "float32", "shape": [m, k]}}, {"b": scalar_const([k, n])},
                    [{"id": "y", "op": "matmul", "inputs": ["a", "b"]}], "y")
        cases.append((f"matmul {name} {m}x{k}x{n}", path, []))
    for name, n, c, h, w, oc, kh, kw, stride, pad, groups in convs:
        path = os.path.join(directory, f"conv_{name}.json")
        write_graph(path, {"x": {"dataType": "float32", "shape": [n, c, h, w]}},
                    {"w": scalar_const([oc, c // groups, kh, kw]), "b": scalar_const([oc])},
                    [{"id": "y", "op": "conv2d", "inputs": ["x", "w", "b"],
                      "options": {"padding": [pad] * 4, "strides": [stride] * 2, "groups": groups}}], "y")
        cases.append((f"conv {name}", path, []))
    return cases


def long_chain_graph(directory, nodes=1000):
    """softmax after softmax: no pass fuses them, so the program keeps 1000 steps."""
    path = os.path.join(directory, "chain1000.json")
    chain = [{"id": f"n{i}", "op": "softmax", "inputs": [f"n{i - 1}" if i else "x"], "options": {"axis": 0}}
             for i in range(nodes)]
    write_graph(path, {"x": {"dataType": "float32", "shape": [64]}}, {}, chain, f"n{nodes - 1}")
    return path


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--webnn", default=os.path.join(ROOT, "build/tools/webnn"))
    ap.add_argument("--models", default=os.path.join(ROOT, "bench/models"))
    ap.add_argument("--device", default="cpu", help="cpu, gpu or reference (webnn calibrate/estimate --device)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--iterations", type=int, default=10, help="measured dispatches per graph")
    ap.add_argument("--no-calibrate", action="store_true", help="use the stored profiles")
    ap.add_argument("--filter", default="", help="only cases whose name contains this")
    ap.add_argument("--llm", metavar="DIR", help="also the issue-12 decoder: DIR holds llm_a.json and llm_a_p0.json "
                    "as bench/llm/bench.sh writes them (decode: 1 token after 512; prefill: 128 tokens)")
    args = ap.parse_args()

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"host: {cpu}, {os.cpu_count()} hardware threads; device {args.device}; {time.strftime('%Y-%m-%d')}")
    dev = ["--device", args.device]
    with tempfile.TemporaryDirectory(prefix="webnn-qos-") as tmp:
        cases = []
        det = os.path.join(args.models, "det.json")
        for h, w in [(320, 320), (640, 640), (960, 960), (480, 800)]:
            cases.append((f"PP-OCRv4 det {h}x{w}", det, ["--dim", f"p2o.DynamicDimension.1={h}",
                                                          "--dim", f"p2o.DynamicDimension.2={w}"]))
        cases.append(("PP-OCRv4 rec 48x320", os.path.join(args.models, "rec.json"), []))
        cases.append(("PP-OCRv4 cls 48x192", os.path.join(args.models, "cls.json"), []))
        if args.llm:
            cases.append(("LLM decoder decode 1 after 512", os.path.join(args.llm, "llm_a.json"),
                          ["--dim", "sequence_length=1", "--dim", "past_sequence_length=512",
                           "--dim", "total_sequence_length=513"]))
            cases.append(("LLM decoder prefill 128", os.path.join(args.llm, "llm_a_p0.json"),
                          ["--dim", "sequence_length=128", "--dim", "total_sequence_length=128"]))
        missing = [c[1] for c in cases if not os.path.exists(c[1])]
        if missing:
            sys.exit(f"missing {missing[0]}: run scripts/models.sh first (it converts the PP-OCR models), and "
                     "bench/llm/bench.sh for --llm's decoder")
        cases += one_op_graphs(tmp)
        cases = [c for c in cases if args.filter in c[0]]
        chain = long_chain_graph(tmp)

        for threads in args.threads.split(","):
            print(f"\n## {threads} thread(s)\n")
            if not args.no_calibrate:
                t0 = time.time()
                out = run([args.webnn, "calibrate"] + dev + ["--threads", threads])
                print(f"calibration: {time.time() - t0:.1f} s wall ({out.strip().splitlines()[0]})")
            chain_result = json.loads(run([args.webnn, "estimate", "--json"] + dev + ["--threads", threads, chain]))
            print(f"estimate of a 1000-node graph ({chain_result['steps']} steps): "
                  f"{chain_result['estimateCallMs']:.3f} ms per call\n")
            print("| graph | measured | ours | ln(ours/meas) | polyfill | ln(poly/meas) | tier measured | tier ours |")
            print("|---|---:|---:|---:|---:|---:|---|---|")
            ours, poly, right = [], [], 0
            for name, path, extra in cases:
                r = json.loads(run([args.webnn, "estimate", "--json"] + dev + ["--threads", threads, "--measure",
                                    str(args.iterations)] + extra + [path]))
                m, e, p = r["measuredMs"], r["estimatedMs"], r["polyfillMs"]
                le, lp = math.log(e / m), math.log(p / m)
                ours.append(abs(le))
                poly.append(abs(lp))
                right += tier(e) == tier(m)
                print(f"| {name} | {m:.3f} ms | {e:.3f} ms | {le:+.3f} | {p:.3f} ms | {lp:+.3f} | {tier(m)} | "
                      f"{tier(e)}{'' if tier(e) == tier(m) else ' (wrong)'} |", flush=True)
            mo, mp = statistics.median(ours), statistics.median(poly)
            print(f"\nmedian |ln(est/meas)|: ours {mo:.3f}, polyfill {mp:.3f} ({mp / mo:.1f}x lower error); "
                  f"tier right for {right}/{len(cases)} ({100.0 * right / len(cases):.0f}%)")


if __name__ == "__main__":
    main()
