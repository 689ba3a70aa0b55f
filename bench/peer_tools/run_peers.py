#!/usr/bin/python3
"""Runs the peer comparison and writes its table (scripts/bench-peers.sh runs this).

Engines, per case of peer_cases.h:
  ours   webnn_peer_bench (Google Benchmark; cpu device; dispatch() wall time)
  ours_nhwc
         webnn_peer_bench, conv only: the layer on NHWC activations (the
         layout our compiled programs keep between convs), the counterpart of
         oneDNN's primitive time in its own layout
  ort    ONNX Runtime from npm's onnxruntime-node, through ort_worker.js
         (per-run time from ORT's profiler, "model_run" event)
  eigen  eigen_matmul_bench (Google Benchmark; matmul only)
  onednn onednn_peer_bench (Google Benchmark; oneDNN's conv / matmul primitive
         alone, src and packed weights already in the layouts it chose)
  onednn_nchw
         onednn_peer_bench, conv only: reorder NCHW src in, the primitive,
         reorder dst back to NCHW (what a caller holding NCHW tensors pays)
  ours_chain, onednn_chain
         conv only: the layer and its chain partner (peer_cases.h,
         ConvCase::ChainPartner: back to the input channels at stride 1, the
         same work) one after the other: ours as one graph, NCHW in and out, in
         the layout the compiled program keeps between them; oneDNN's two
         primitives, the second taking the first's dst in its chosen layout
plus the memory-bandwidth probe (membw_bench) and the FMA-throughput probe
(fma_peak_bench) once per round.

Interleaving: for every case and thread count the engines run back to back, and
the whole sequence is repeated --rounds times (engine order rotated each round),
so slow drifts of a shared machine hit every engine alike. Reported: medians over
rounds of each engine's time per run, and the median over rounds of the per-round
ratio (ours vs the peer measured next to it).

Stdlib only; the ONNX models are made beforehand by make_onnx_models.py.
"""
import argparse
import datetime
import json
import os
import re
import select
import statistics
import subprocess
import sys
import time

# "probe" next to the element-wise cases: the STREAM kernel that moves the same
# bytes per element (add for binary ops, scale for unary ones), at the same
# threads, measured right beside our op, so the % of bandwidth compares numbers
# taken under the same load.
ENGINES = {"matmul": ["ours", "ort", "eigen", "onednn"],
           "conv": ["ours", "ours_nhwc", "ort", "onednn", "onednn_nchw", "ours_chain", "onednn_chain"],
           "eltwise": ["ours", "ort", "probe"]}
ENGINE_TITLE = {"ours": "ours", "ours_nhwc": "ours, NHWC", "ort": "ORT", "eigen": "Eigen", "onednn": "oneDNN",
                "onednn_nchw": "oneDNN, NCHW in/out", "ours_chain": "ours, 2 layers",
                "onednn_chain": "oneDNN, 2 layers", "probe": "membw probe"}
DEFAULT_ENGINES = ["ours", "ours_nhwc", "ort", "eigen", "onednn", "onednn_nchw", "ours_chain", "onednn_chain", "probe"]
# The Google Benchmark binaries of the peers (all but ORT), and the prefix of their benchmark names.
GBENCH_PEERS = {"eigen": ("eigen_matmul_bench", "eigen"), "onednn": ("onednn_peer_bench", "onednn"),
                "onednn_nchw": ("onednn_peer_bench", "onednn_nchw"),
                "onednn_chain": ("onednn_peer_bench", "onednn_chain")}
PROBE_FLOATS = "16M"  # membw size the element-wise % is computed against (64 MiB per array > 32 MiB L3)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---- engines ------------------------------------------------------------------------

class GBenchEngine:
    """One Google Benchmark case per process: cheap to start, and a crash or a
    hang (a placeholder kernel on a 4096^3 product) stays contained."""

    def __init__(self, binary, min_time, timeout_s):
        self.binary, self.min_time, self.timeout_s = binary, min_time, timeout_s

    def run_filter(self, regex, timeout_s=None):
        cmd = [self.binary, f"--benchmark_filter={regex}", "--benchmark_format=json",
               f"--benchmark_min_time={self.min_time}"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s or self.timeout_s)
        except subprocess.TimeoutExpired:
            return None, f"timeout after {timeout_s or self.timeout_s:.0f} s"
        if p.returncode != 0:
            return None, f"exit {p.returncode}: {p.stderr.strip()[-300:]}"
        try:
            return json.loads(p.stdout)["benchmarks"], None
        except (ValueError, KeyError) as e:
            return None, f"bad output: {e}"

    def run(self, name):
        benches, err = self.run_filter(f"^{name}/")
        if err:
            return {"error": err, "timeout": err.startswith("timeout")}
        if len(benches) != 1:
            return {"error": f"{len(benches)} benchmarks matched {name}"}
        return parse_gbench(benches[0])


UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def parse_gbench(b):
    if b.get("error_occurred"):
        return {"error": b.get("error_message", "error")}
    unit = UNIT_S[b.get("time_unit", "ns")]
    r = {"s": b["real_time"] * unit, "cpu_s": b["cpu_time"] * unit, "iters": b["iterations"]}
    if "GB" in b:
        r["gbs"] = b["GB"]  # kIs1000 rate counter: GB/s
    if "GFLOP" in b:
        r["gflops"] = b["GFLOP"]
    if b.get("label"):
        r["label"] = b["label"]  # onednn_peer_bench: the layouts and kernel oneDNN chose
    if "src_reorder" in b:
        r["reorders"] = [k for k in ("src", "dst") if b.get(f"{k}_reorder")]
    return r


class OrtEngine:
    """The long-lived Node worker (ort_worker.js): one JSON line per request."""

    def __init__(self, worker_js, node_modules, min_time, timeout_s, log_path):
        self.cmd = ["node", worker_js]
        self.env = dict(os.environ, ORT_NODE_MODULES=node_modules)
        self.min_time, self.timeout_s = min_time, timeout_s
        self.log = open(log_path, "a")
        self.proc, self.version = None, None
        self._start()

    def _start(self):
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True, bufsize=1, env=self.env)
        ready = json.loads(self.proc.stdout.readline())
        self.version = ready.get("ort_version")

    def run(self, model, inputs, threads):
        req = {"model": model, "inputs": inputs, "threads": threads, "min_time": self.min_time,
               "min_iters": 5, "warmup": 1}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout_s)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            self._start()
            return {"error": f"timeout after {self.timeout_s:.0f} s", "timeout": True}
        line = self.proc.stdout.readline()
        if not line:
            self._start()
            return {"error": "ORT worker died"}
        ans = json.loads(line)
        if not ans.get("ok"):
            return {"error": ans.get("error", "error")}
        n = ans["iters"]
        wall = sum(ans["wall_s"]) / n
        run = sum(ans["run_s"]) / n
        # CPU time of the run itself: the process's CPU share over the timed loop
        # applied to the profiler's run time (the loop's CPU time also pays for
        # the binding's output copies, which are not part of the op).
        return {"s": run, "kernel_s": sum(ans["kernel_s"]) / n, "wall_s": wall,
                "cpu_s": run * ans["cpu_s"] / n / wall, "iters": n, "ops": ans["ops"]}

    def close(self):
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


# ---- the run ---------------------------------------------------------------------------

def work_of(family, case, engine=""):
    """(amount, unit) a run does: FLOPs for matmul/conv (both layers' for a chain), bytes for element-wise."""
    if family == "eltwise":
        return case["bytes"], "GB/s"
    return case["chain_flops"] if engine.endswith("_chain") else case["flops"], "GFLOP/s"


def run_all(args, cases, models, ours, peers, ort, probe, fma):
    results = []  # one dict per measurement
    best_rate = {}  # (engine, family, threads) -> best work/s so far, to predict hopeless runs
    dead = {}  # (engine, family, case, threads) -> result that makes later rounds pointless
    families = [f for f in ("matmul", "conv", "eltwise") if f in args.families]
    case_filter = re.compile(args.filter) if args.filter else None
    # The probe runs beside the largest element-wise size only (the DRAM-bound
    # one the target is about); smaller sizes use that probe of the same round.
    max_elements = max(c["elements"] for c in cases["eltwise"])
    t_start = time.time()
    for rnd in range(args.rounds):
        log(f"== round {rnd + 1}/{args.rounds} ({time.time() - t_start:.0f} s, load {os.getloadavg()[0]:.2f})")
        if probe:
            benches, err = probe.run_filter("^membw/", timeout_s=300)
            for b in benches or []:
                r = parse_gbench(b)
                name = re.sub(r"(/process_time|/real_time)+$", "", b["name"])
                results.append(dict(r, round=rnd, family="membw", case=name, engine="probe"))
            if err:
                log(f"  membw probe: {err}")
        if fma:
            benches, err = fma.run_filter("^fma_peak/", timeout_s=120)
            for b in benches or []:
                name = re.sub(r"(/process_time|/real_time)+$", "", b["name"])
                results.append(dict(parse_gbench(b), round=rnd, family="fmapeak", case=name, engine="probe"))
            if err:
                log(f"  fma probe: {err}")
        for family in families:
            for case in cases[family]:
                case_id = f"{family}/{case['name']}"
                if case_filter and not case_filter.search(case_id):
                    continue
                for t in cases["threads"]:
                    engines = [e for e in ENGINES[family] if e in args.engines and
                               (e != "probe" or case["elements"] == max_elements)]
                    k = rnd % len(engines)
                    for engine in engines[k:] + engines[:k]:
                        work, _ = work_of(family, case, engine)
                        key = (engine, family, case["name"], t)
                        if key in dead:
                            r = dict(dead[key], carried=True)
                        else:
                            rate = best_rate.get((engine, family, t)) if engine != "probe" else None
                            if rate and work / rate > args.max_run_s:
                                r = {"error": f"skipped: ~{work / rate:.0f} s per run predicted from "
                                              f"{rate * 1e-9:.2f} {work_of(family, case)[1]} on smaller cases",
                                     "skipped": True}
                                dead[key] = r
                            else:
                                t0 = time.time()
                                r = measure(engine, family, case, t, models, ours, peers, ort, probe)
                                r["elapsed"] = time.time() - t0
                                if "error" in r:
                                    dead[key] = r
                                elif engine != "probe":
                                    best_rate[(engine, family, t)] = max(best_rate.get((engine, family, t), 0),
                                                                         work / r["s"])
                        r = dict(r, round=rnd, family=family, case=case["name"], threads=t, engine=engine)
                        results.append(r)
                        if not r.get("carried"):
                            rate = r.get("gbs") if engine == "probe" else work / r["s"] * 1e-9 if "s" in r else None
                            shown = f"{rate:8.2f} {work_of(family, case)[1]}" if rate else r["error"][:90]
                            log(f"  {case_id:34s} t={t} {engine:11s} {shown}")
    return results, time.time() - t_start


def probe_name(case, threads):
    return f"membw/{'add' if case['binary'] else 'scale'}/{PROBE_FLOATS}/t:{threads}"


def measure(engine, family, case, threads, models, ours, peers, ort, probe):
    if engine == "probe":
        if not probe:
            return {"error": "membw_bench not built"}
        return probe.run(probe_name(case, threads))
    if engine == "ours":
        return ours.run(f"peer/{family}/{case['name']}/t:{threads}")
    if engine == "ours_nhwc":
        return ours.run(f"peer_nhwc/{family}/{case['name']}/t:{threads}")
    if engine == "ours_chain":
        return ours.run(f"peer_chain/{family}/{case['name']}/t:{threads}")
    if engine in GBENCH_PEERS:
        binary, prefix = GBENCH_PEERS[engine]
        if not peers.get(binary):
            return {"error": f"{binary} not built"}
        return peers[binary].run(f"{prefix}/{family}/{case['name']}/t:{threads}")
    m = models.get(f"{family}/{case['name']}")
    if not m:
        return {"error": "no ONNX model"}
    return ort.run(m["model"], m["inputs"], threads)


# ---- the report ------------------------------------------------------------------------

def median(xs):
    return statistics.median(xs) if xs else None


def summarize(results, cases):
    """(family, case, threads, engine) -> {"s": median time, "error": ...}, and per-round ratios."""
    by = {}
    for r in results:
        if r["family"] in ("membw", "fmapeak"):
            continue
        by.setdefault((r["family"], r["case"], r["threads"], r["engine"]), []).append(r)
    table = {}
    for key, rs in by.items():
        ok = [r for r in rs if "s" in r]
        table[key] = {"s": median([r["s"] for r in ok]), "n": len(ok),
                      "error": None if ok else rs[0].get("error"), "runs": rs}
    return table


def ratio(table, family, case, t, peer, key="s", base="ours"):
    """Median over rounds of peer_time / base_time (our throughput relative to the peer's; base
    "ours_nhwc" for our NHWC conv). key="cpu_s": by CPU time, for 1-thread runs (see the notes)."""
    a = {r["round"]: r[key] for r in table.get((family, case, t, base), {}).get("runs", []) if r.get(key)}
    b = {r["round"]: r[key] for r in table.get((family, case, t, peer), {}).get("runs", []) if r.get(key)}
    rs = [b[k] / a[k] for k in a if k in b]
    return median(rs)


def probe_case(cases, case):
    """The element-wise case the probe ran beside: same op, largest size."""
    return max((c for c in cases["eltwise"] if c["op"] == case["op"]), key=lambda c: c["elements"])


def pct_of_probe(table, cases, case, t, engine):
    """Median over rounds of engine GB/s / probe GB/s of the same round."""
    a = {r["round"]: case["bytes"] / r["s"] * 1e-9 for r in table.get(("eltwise", case["name"], t, engine), {}).get("runs", [])
         if "s" in r}
    p = {r["round"]: r["gbs"] for r in table.get(("eltwise", probe_case(cases, case)["name"], t, "probe"), {}).get("runs", [])
         if r.get("gbs")}
    return median([a[k] / p[k] for k in a if k in p])


def probe_median(table, cases, case, t):
    return median([r["gbs"] for r in table.get(("eltwise", probe_case(cases, case)["name"], t, "probe"), {}).get("runs", [])
                   if r.get("gbs")])


def cpu_rate(table, key, work):
    e = table.get(key)
    xs = [r["cpu_s"] for r in (e or {}).get("runs", []) if r.get("cpu_s")]
    return fmt_rate(work / median(xs) * 1e-9) if xs else "—"


def cpu_ratio(table, key, peer, base="ours"):
    """ours/peer by CPU time: 1-thread rows only (with 2 threads CPU time counts spin-waiting)."""
    return fmt_ratio(ratio(table, *key, peer, "cpu_s", base)) if key[2] == 1 else "n/a"


def measured(table, family, case, t, engines=ENGINE_TITLE):
    return any((family, case, t, e) in table for e in engines)


def fmt_rate(x):
    if x is None:
        return "—"
    return f"{x:.0f}" if x >= 99.5 else f"{x:.1f}" if x >= 9.995 else f"{x:.2f}"


def fmt_ratio(x):
    return "—" if x is None else f"{x:.2f}x"


def cell(table, key, work, notes):
    e = table.get(key)
    if not e:
        return "—"
    if e["s"] is not None:
        return fmt_rate(work / e["s"] * 1e-9)
    err = e["error"] or "error"
    if "not supported" in err:
        tag = "n/s"
    elif err.startswith("skipped"):
        tag = "skip"
    elif err.startswith("timeout"):
        tag = "t/o"
    else:
        tag = "err"
    notes.setdefault(tag, set()).add(f"{key[3]} {key[0]}/{key[1]} t={key[2]}: {err}")
    return tag


def probe_rates(results):
    """membw name -> median GB/s over rounds."""
    by = {}
    for r in results:
        if r["family"] == "membw" and "s" in r:
            by.setdefault(r["case"], []).append(r["gbs"])
    return {k: median(v) for k, v in by.items()}


def fma_peaks(results):
    """threads -> the FMA probe's best width, median GFLOP/s over rounds (None without the probe)."""
    by = {}
    for r in results:
        if r["family"] == "fmapeak" and "gflops" in r:
            by.setdefault(r["case"], []).append(r["gflops"])
    peaks = {}
    for name, v in by.items():
        t = int(name.rsplit(":", 1)[1])
        peaks[t] = max(peaks.get(t, 0), median(v))
    return peaks


def of_peak(table, key, flops, peaks):
    e = table.get(key)
    if not e or e["s"] is None or not peaks.get(key[2]):
        return None
    return flops / e["s"] * 1e-9 / peaks[key[2]]


def fmt_pct(x):
    return "—" if x is None else f"{x * 100:.0f}%"


def header_version(path, macro, parts):
    """A library's version from the #defines of its header ("?" when absent): macro has {} for each part."""
    try:
        with open(path) as f:
            text = f.read()
        return ".".join(re.search(rf"#define {macro.format(p)} (\d+)", text).group(1) for p in parts)
    except (OSError, AttributeError):
        return "?"


def machine_info(ort_version):
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            txt = f.read()
        m = re.search(r"model name\s*:\s*(.*)", txt)
        info["cpu"] = m.group(1).strip() if m else "?"
        flags = re.search(r"flags\s*:\s*(.*)", txt).group(1).split()
        info["isa"] = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "SSE"
    except OSError:
        info["cpu"], info["isa"] = "?", "?"
    info["cores"] = os.cpu_count()
    try:
        with open("/sys/devices/system/cpu/cpu0/cache/index3/size") as f:
            info["l3"] = f.read().strip()
    except OSError:
        info["l3"] = "?"
    try:
        info["cxx"] = subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        info["cxx"] = "?"
    info["eigen"] = header_version("/usr/include/eigen3/Eigen/src/Core/util/Macros.h", "EIGEN_{}_VERSION",
                                   ("WORLD", "MAJOR", "MINOR"))
    info["onednn"] = header_version("/usr/include/oneapi/dnnl/dnnl_version.h", "DNNL_VERSION_{}",
                                    ("MAJOR", "MINOR", "PATCH"))
    info["ort"] = ort_version or "?"
    try:  # read-only: which tree the numbers belong to
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True).stdout.strip()
        info["tree"] = (head or "?") + (" + uncommitted changes" if dirty else "")
    except OSError:
        info["tree"] = "?"
    return info


def render(results, cases, info, elapsed, load, command, rounds, min_time):
    table = summarize(results, cases)
    probes = probe_rates(results)
    peaks = fma_peaks(results)
    notes = {}
    threads = cases["threads"]
    out = []
    w = out.append
    w(f"Last run: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}, tree {info.get('tree', '?')}; "
      f"{info['cpu']} ({info['isa']}), "
      f"{info['cores']} cores, L3 {info['l3']}; {info['cxx']}; ONNX Runtime {info['ort']} (npm onnxruntime-node, "
      f"CPU EP); Eigen {info['eigen']} (-O3 -march=native, OpenMP); oneDNN {info.get('onednn', '?')} (Debian libdnnl, "
      f"run-time ISA dispatch, GNU OpenMP). {rounds} interleaved rounds, "
      f"{min_time:g} s per measurement, {elapsed / 60:.1f} min in all; load average {load[0]:.2f} before, "
      f"{load[1]:.2f} after (a shared machine: read the ratios, not the absolute numbers).")
    w("")
    w("Reproduce: `" + command + "`")
    w("")

    # Targets first: the numbers the issue asks for.
    w("**Targets** (medians of per-round ratios):")
    w("")
    sq = [c for c in cases["matmul"] if c["m"] == c["k"] == c["n"] and 1024 <= c["m"] <= 4096]
    for t in threads:
        rs = [(c["name"], ratio(table, "matmul", c["name"], t, "ort")) for c in sq]
        line = (f"- f32 matmul 1024–4096 >= 1.0x ORT at {t} thread{'s' if t > 1 else ''}: "
                + ", ".join(f"{n} {fmt_ratio(r)}" for n, r in rs) + f" — {target_word(rs, 1.0)}")
        if t == 1:
            rc = [(c["name"], ratio(table, "matmul", c["name"], t, "ort", "cpu_s")) for c in sq]
            line += "; by CPU time: " + ", ".join(f"{n} {fmt_ratio(r)}" for n, r in rc) + f" — {target_word(rc, 1.0)}"
        w(line)
    for t in threads:
        rs = [(c["name"], ratio(table, "conv", c["name"], t, "ort")) for c in cases["conv"]]
        line = (f"- conv2d layers >= 1.0x ORT at {t} thread{'s' if t > 1 else ''}: "
                f"{tally(rs, 1.0)}")
        if t == 1:
            rc = [(c["name"], ratio(table, "conv", c["name"], t, "ort", "cpu_s")) for c in cases["conv"]]
            line += f"; by CPU time: {tally(rc, 1.0)}"
        w(line)
    for t in threads:
        rs = [(c["name"], of_peak(table, ("matmul", c["name"], t, "ours"), c["flops"], peaks)) for c in sq]
        w(f"- f32 matmul 1024–4096 >= 95% of the FMA peak at {t} thread{'s' if t > 1 else ''}: "
          + ", ".join(f"{n} {fmt_pct(r)}" for n, r in rs) + f" — {target_word(rs, 0.95)}")
    # Issue 14: every conv layer >= 1.0x oneDNN's primitive (ours in NHWC, the layout our programs keep),
    # square matmul >= 1.0x oneDNN.
    for t in threads:
        rs = [(c["name"], ratio(table, "conv", c["name"], t, "onednn", base="ours_nhwc")) for c in cases["conv"]]
        w(f"- conv2d layers, ours NHWC >= 1.0x oneDNN primitive at {t} thread{'s' if t > 1 else ''}: "
          f"{tally(rs, 1.0)}")
    # The same inside a chain of two layers, each engine in the layout it keeps between them.
    for t in threads:
        rs = [(c["name"], ratio(table, "conv", c["name"], t, "onednn_chain", base="ours_chain")) for c in cases["conv"]]
        if all(r is None for _, r in rs):
            continue
        w(f"- conv2d two-layer chains, ours (the compiled program's layout) >= 1.0x oneDNN's two primitives at {t} "
          f"thread{'s' if t > 1 else ''}: {tally(rs, 1.0)}")
    for t in threads:
        rs = [(c["name"], ratio(table, "matmul", c["name"], t, "onednn")) for c in sq]
        w(f"- f32 matmul 1024–4096 >= 1.0x oneDNN at {t} thread{'s' if t > 1 else ''}: "
          + ", ".join(f"{n} {fmt_ratio(r)}" for n, r in rs) + f" — {target_word(rs, 1.0)}")
    big = [c for c in cases["eltwise"] if c["elements"] >= 1 << 24]
    for t in threads:
        rs = [(c["name"], pct_of_probe(table, cases, c, t, "ours")) for c in big]
        w(f"- element-wise 16M >= 80% of measured bandwidth at {t} thread{'s' if t > 1 else ''}: "
          + ", ".join(f"{n} {('—' if r is None else f'{r * 100:.0f}%')}" for n, r in rs) + f" — {target_word(rs, 0.8)}")
    w("")

    w("**Memory bandwidth probe** (`membw_bench`: STREAM kernels, our code, GB/s, median of rounds; run at the "
      "start of each round):")
    w("")
    sizes = sorted({k.split("/")[2] for k in probes}, key=lambda s: int(s[:-1]))
    w("| kernel | bytes/element | " + " | ".join(f"{s} floats, {t}T" for s in sizes for t in threads) + " |")
    w("|---|---|" + "---|" * (len(sizes) * len(threads)))
    for kname, bpe in (("copy", 8), ("scale", 8), ("add", 12), ("triad", 12)):
        w(f"| {kname} | {bpe} | " + " | ".join(fmt_rate(probes.get(f"membw/{kname}/{s}/t:{t}")) for s in sizes
                                               for t in threads) + " |")
    w("")

    w("**FMA peak probe** (`fma_peak_bench`: 16 independent FMA chains per thread, our code, median of rounds; "
      "run at the start of each round): " + ", ".join(
          f"{t}T {fmt_rate(peaks.get(t))} GFLOP/s" for t in threads) + " (the faster of 256- and 512-bit vectors).")
    w("")
    w("**matmul** f32, C[M,N] = A[M,K] x B[K,N], B constant; GFLOP/s (2·M·K·N per run); \"of peak\": ours as a "
      "share of the FMA probe at the same threads:")
    w("")
    peers = ("ort", "eigen", "onednn")
    w("| case | M x K x N | threads | ours | of peak | ORT | Eigen | oneDNN | ours/ORT | ours/Eigen | ours/oneDNN | "
      "ours/ORT, CPU time | ours/Eigen, CPU time | ours/oneDNN, CPU time |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in cases["matmul"]:
        for t in threads:
            k = ("matmul", c["name"], t)
            if not measured(table, *k):
                continue
            w(f"| {c['name']} | {c['m']} x {c['k']} x {c['n']} | {t} | " +
              cell(table, k + ("ours",), c["flops"], notes) + " | " + fmt_pct(of_peak(table, k + ("ours",), c["flops"], peaks))
              + " | " + " | ".join(cell(table, k + (e,), c["flops"], notes) for e in peers) + " | " +
              " | ".join(fmt_ratio(ratio(table, *k, e)) for e in peers) + " | " +
              " | ".join(cpu_ratio(table, k, e) for e in peers) + " |")
    w("")

    w("**conv2d** f32, with bias; GFLOP/s (2·N·OC·OH·OW·(C/groups)·KH·KW per run). \"ours\", ORT and "
      "\"oneDNN, NCHW in/out\" take and give NCHW tensors; \"ours, NHWC\" and \"oneDNN\" run on activations "
      "already in the layout each keeps between layers (NHWC for us, oneDNN's choice for it):")
    w("")
    peers = ("ort", "onednn", "onednn_nchw")
    w("| layer | input | filter, stride, groups | threads | ours | ours, NHWC | ORT | oneDNN | oneDNN, NCHW in/out | "
      "ours/ORT | ours NHWC/oneDNN | ours/oneDNN NCHW | ours/ORT, CPU time | ours NHWC/oneDNN, CPU time |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in cases["conv"]:
        for t in threads:
            k = ("conv", c["name"], t)
            if not measured(table, *k):
                continue
            w(f"| {c['name']} | {c['n']}x{c['c']}x{c['h']}x{c['w']} | {c['oc']}x{c['c'] // c['groups']}x{c['kh']}x{c['kw']},"
              f" s{c['stride']}, g{c['groups']} | {t} | " +
              " | ".join(cell(table, k + (e,), c["flops"], notes) for e in ("ours", "ours_nhwc") + peers) + " | " +
              f"{fmt_ratio(ratio(table, *k, 'ort'))} | {fmt_ratio(ratio(table, *k, 'onednn', base='ours_nhwc'))} | "
              f"{fmt_ratio(ratio(table, *k, 'onednn_nchw'))} | {cpu_ratio(table, k, 'ort')} | "
              f"{cpu_ratio(table, k, 'onednn', base='ours_nhwc')} |")
    w("")

    w("**Two conv layers in a row** f32, GFLOP/s over both: the layer, then its partner (back to the layer's input "
      "channels at stride 1, the same work; `ConvCase::ChainPartner` in peer_cases.h), so that a layout carries "
      "from one to the other. \"ours\": one graph, NCHW in and out, in the layout the compiled program keeps "
      "between the layers; \"oneDNN\": its two primitives, the second taking the first's dst in the layout it "
      "chose, no reorders:")
    w("")
    w("| layer | second layer | threads | ours | oneDNN | ours/oneDNN | ours/oneDNN, CPU time |")
    w("|---|---|---|---|---|---|---|")
    for c in cases["conv"]:
        for t in threads:
            k = ("conv", c["name"], t)
            if not measured(table, *k, engines=("ours_chain", "onednn_chain")):
                continue
            p = c["chain_partner"]
            second = f"{p['oc']}x{p['c'] // p['groups']}x{c['kh']}x{c['kw']}, s1, g{p['groups']}"
            w(f"| {c['name']} | {second} | {t} | " +
              " | ".join(cell(table, k + (e,), c["chain_flops"], notes) for e in ("ours_chain", "onednn_chain")) +
              f" | {fmt_ratio(ratio(table, *k, 'onednn_chain', base='ours_chain'))} | "
              f"{cpu_ratio(table, k, 'onednn_chain', base='ours_chain')} |")
    w("")

    w("**1 thread by CPU time** (GFLOP per CPU-second, median of rounds: what each engine does with the core "
      "while it has it; wall-time numbers above are lower on a busy machine):")
    w("")
    w("| case | ours | ours, NHWC | ORT | Eigen | oneDNN | oneDNN, NCHW in/out |")
    w("|---|---|---|---|---|---|---|")
    for family in ("matmul", "conv"):
        for c in cases[family]:
            k = (family, c["name"], 1)
            if not measured(table, *k):
                continue
            w(f"| {family}/{c['name']} | " + " | ".join(cpu_rate(table, k + (e,), c["flops"]) if e in ENGINES[family]
                                                      else "n/a" for e in ("ours", "ours_nhwc", "ort", "eigen", "onednn", "onednn_nchw"))
              + " |")
    w("")

    w(f"**element-wise** f32; GB/s (STREAM counting: inputs read + output written once); % of the probe's "
      f"`add` (binary ops) or `scale` (unary ops) at {PROBE_FLOATS} floats and the same threads, measured right "
      f"beside each case (median of per-round %):")
    w("")
    w("| op | elements | threads | ours GB/s | ORT GB/s | probe GB/s | ours % of probe | ORT % of probe | ours/ORT |")
    w("|---|---|---|---|---|---|---|---|---|")
    for c in cases["eltwise"]:
        for t in threads:
            k = ("eltwise", c["name"], t)
            if not measured(table, *k):
                continue
            p = probe_median(table, cases, c, t)
            pct = [pct_of_probe(table, cases, c, t, e) for e in ("ours", "ort")]
            pct = ["—" if x is None else f"{x * 100:.0f}%" for x in pct]
            w(f"| {c['op']} | {c['elements'] >> 20}M | {t} | " +
              " | ".join(cell(table, k + (e,), c["bytes"], notes) for e in ("ours", "ort")) +
              f" | {fmt_rate(p)} | {pct[0]} | {pct[1]} | {fmt_ratio(ratio(table, *k, 'ort'))} |")
    w("")

    # Contention: share of a core the 1-thread runs got (CPU time / wall time).
    share = {}
    for r in results:
        if r.get("threads") == 1 and "s" in r and r.get("cpu_s") and not r.get("carried"):
            share.setdefault(r["engine"], []).append(min(1.0, r["cpu_s"] / r["s"]))
    w("Notes:")
    w("")
    w("- Interleaved: per case and thread count the engines run back to back (order rotated each round), the "
      f"whole list {rounds} times; the table shows medians over rounds, ratios are medians of per-round ratios "
      "(throughput of ours ÷ throughput of the peer measured next to it; > 1 means we are faster).")
    w("- ours: `webnn_peer_bench` (Google Benchmark), the same single-op graph built through the public API "
      "(weights as `builder.constant`), wall time of `context.dispatch()` + `context.finish()` on the cpu device with `numThreads` 1 or 2.")
    w("- ORT: time per run from ORT's own profiler (`enableProfiling`; the `model_run` event = "
      "`InferenceSession::Run` inside the library, including any layout nodes ORT inserts, e.g. NCHWc "
      "ReorderInput/ReorderOutput around Conv). It excludes the Node binding's input marshalling and its copy of "
      "each output into a new JS buffer (for a 16M-element op that copy alone would cost more than the op). "
      "Weights are initializers (pre-packed at session creation); `intraOpNumThreads` 1 or 2, "
      "`interOpNumThreads` 1, sequential, graph optimization `all`, default spinning."
      + (f" Binding overhead seen this run (JS wall − model_run, median): {binding_overhead(results)}." if results else ""))
    w("- Eigen: `eigen_matmul_bench`, row-major `MatrixXf` `C.noalias() = A * B`, built `-O3 -march=native` "
      f"({info['isa']} kernels) with OpenMP (`Eigen::setNbThreads` 1 or 2); products with M = 1 go through "
      "Eigen's GEMV, which it does not parallelize.")
    w(f"- oneDNN {info.get('onednn', '?')}: `onednn_peer_bench` (Google Benchmark, -O2; Debian's libdnnl picks its "
      "kernels at run time, threads by `omp_set_num_threads` 1 or 2 on its GNU OpenMP runtime), one CPU engine and "
      "stream, `stream.wait()` in the timed loop. conv: `convolution_forward` (forward_inference, direct), bias, "
      "src/weights/dst as `format_tag::any` so oneDNN picks its layouts; weights and bias reordered into them once, "
      "outside the timing. \"oneDNN\" times the primitive alone on src already in its layout (a graph that stays "
      "in oneDNN's layout); \"oneDNN, NCHW in/out\" adds the reorder of the NCHW src into that layout and of dst "
      "back to NCHW, what a caller holding NCHW tensors (ours, ORT here) pays; a reorder is skipped where the "
      "layout is plain NCHW already. matmul: `dnnl::matmul`, A and C plain row-major, B as `format_tag::any` "
      "(packed once, outside the timing)." + onednn_layouts(results))
    w("- n/s = our cpu device has no kernel for the op yet (build throws NotSupportedError); skip = predicted to "
      "take too long per run from our throughput on the smaller cases of the family; t/o = timed out.")
    w("- CPU-time ratios (1-thread rows): the same runs timed by the CPU time the engine's process got instead "
      "of wall time (Google Benchmark's process CPU time for ours, Eigen and oneDNN; for ORT the process's CPU share "
      "over the timed loop applied to its profiler time), so time the core spent on other users' work is not "
      "charged to either engine. Read them next to the wall-time ratios when the machine is busy. Ours include "
      "the dispatching thread's spin while it waits in finish() for a dispatch expected to take at most 1 ms "
      "(docs/ARCHITECTURE.md, Timeline): on such layers our 1-thread CPU time counts up to a second core.")
    if share:
        w("- Share of a core the 1-thread runs got (CPU time ÷ wall time, median; below ~0.9 means other "
          "processes took the core): " + ", ".join(f"{ENGINE_TITLE[e]} {median(v):.2f}" for e, v in sorted(share.items())) + ".")
    w("- Element-wise cases of 1M and 4M elements (12–48 MB touched) sit partly in the 32 MB L3, so their % of "
      "DRAM bandwidth can pass 100%; the 80% target is read at 16M elements.")
    errs = sorted(notes.get("err", set()) | notes.get("t/o", set()))
    if errs:
        w("- Errors: " + "; ".join(errs[:10]) + ("; …" if len(errs) > 10 else ""))
    return "\n".join(out) + "\n"


def onednn_layouts(results):
    """What oneDNN chose per conv case (the benchmark's label), for the notes."""
    by = {}
    for r in results:
        if r.get("engine") == "onednn" and r.get("family") == "conv" and r.get("label") and not r.get("carried"):
            by.setdefault(r["case"], {}).setdefault(r["label"], set()).add(r["threads"])
    if not by:
        return ""
    parts = []
    for case, labels in by.items():
        for label, ts in labels.items():
            tt = "" if len(labels) == 1 else f" (t={','.join(str(t) for t in sorted(ts))})"
            parts.append(f"{case}{tt}: {label}")
    skipped = sorted({f"{r['case']} {'+'.join(sorted({'src', 'dst'} - set(r['reorders'])))}" for r in results
                      if r.get("engine") == "onednn_nchw" and "reorders" in r and len(r["reorders"]) < 2})
    return (" Layouts and kernel oneDNN chose (verbose notation: abcd = nchw, acdb = nhwc, aBcd16b = nChw16c; "
            "grouped weights have 5 dims, g o i h w = a b c d e): " + "; ".join(parts) + "." +
            (" Reorders skipped (layout already NCHW): " + ", ".join(skipped) + "." if skipped else ""))


def tally(rs, goal):
    """"n of m (min r) — met/not met" for (name, ratio) pairs against a ratio goal."""
    done = sum(1 for _, r in rs if r is not None and r >= goal)
    return (f"{done} of {len(rs)} (min {fmt_ratio(min((r for _, r in rs if r is not None), default=None))}) — "
            f"{target_word(rs, goal)}")


def target_word(rs, goal):
    vals = [r for _, r in rs]
    if not vals or any(v is None for v in vals):
        return "not measurable yet" if all(v is None for v in vals) else "not met (some cases missing)"
    return "met" if all(v >= goal for v in vals) else "not met"


def binding_overhead(results):
    d = [r["wall_s"] - r["s"] for r in results if r.get("engine") == "ort" and "wall_s" in r and not r.get("carried")]
    if not d:
        return "—"
    d.sort()
    return f"{median(d) * 1e3:.2f} ms (range {d[0] * 1e3:.2f}–{d[-1] * 1e3:.1f} ms)"


BEGIN, END = "<!-- peers:begin -->", "<!-- peers:end -->"


def write_readme(path, section):
    text = ""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
    block = f"{BEGIN}\n{section}{END}"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        if not text:
            text = "# Benchmarks\n"
        text = text.rstrip("\n") + "\n\n## Peer comparison: ours vs ONNX Runtime, Eigen and oneDNN\n\n" + block + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--models", required=True, help="models.json from make_onnx_models.py")
    ap.add_argument("--node-modules", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.25, help="seconds per measurement (per engine, case, round)")
    ap.add_argument("--max-run-s", type=float, default=8.0,
                    help="skip an engine on a case when one run is predicted to take longer than this")
    ap.add_argument("--timeout", type=float, default=120.0, help="per measurement")
    ap.add_argument("--families", default="matmul,conv,eltwise")
    ap.add_argument("--engines", default=",".join(DEFAULT_ENGINES))
    ap.add_argument("--filter", default="", help="regex on <family>/<case>")
    ap.add_argument("--readme", default="", help="write the table between the peers markers of this file")
    ap.add_argument("--readme-partial", action="store_true", help="write --readme even for a partial run")
    ap.add_argument("--results-dir", required=True)
    ap.add_argument("--command", default="scripts/bench-peers.sh")
    args = ap.parse_args()
    args.families = args.families.split(",")
    args.engines = args.engines.split(",")

    bdir = args.build_dir
    peer_bin = os.path.join(bdir, "bench/peer_tools/webnn_peer_bench")
    probe_bin = os.path.join(bdir, "bench/probes/membw_bench")
    fma_bin = os.path.join(bdir, "bench/probes/fma_peak_bench")
    cases = json.loads(subprocess.run([peer_bin, "--peer_cases_json"], capture_output=True, text=True,
                                      check=True).stdout)
    with open(args.models) as f:
        models = {m["case"]: m for m in json.load(f)}
    os.makedirs(args.results_dir, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")

    ours = GBenchEngine(peer_bin, args.min_time, args.timeout)
    peers = {}  # binary name -> GBenchEngine, for the binaries that were built
    for binary, _ in GBENCH_PEERS.values():
        path = os.path.join(bdir, "bench/peer_tools", binary)
        if os.path.exists(path):
            peers[binary] = GBenchEngine(path, args.min_time, args.timeout)
    probe = GBenchEngine(probe_bin, min(args.min_time, 0.3), 300) if os.path.exists(probe_bin) else None
    fma = GBenchEngine(fma_bin, min(args.min_time, 0.3), 120) if os.path.exists(fma_bin) else None
    ort = OrtEngine(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort_worker.js"), args.node_modules,
                    args.min_time, args.timeout, os.path.join(args.results_dir, "ort_worker.log"))
    load0 = os.getloadavg()[0]
    try:
        results, elapsed = run_all(args, cases, models, ours, peers, ort, probe, fma)
    finally:
        ort.close()
    load1 = os.getloadavg()[0]
    info = machine_info(ort.version)
    raw_path = os.path.join(args.results_dir, f"peers-{stamp}.json")
    with open(raw_path, "w") as f:
        json.dump({"info": info, "cases": cases, "results": results, "elapsed_s": elapsed,
                   "load": [load0, load1], "args": vars(args)}, f, indent=1)
    section = render(results, cases, info, elapsed, (load0, load1), args.command, args.rounds, args.min_time)
    md_path = os.path.join(args.results_dir, f"peers-{stamp}.md")
    with open(md_path, "w") as f:
        f.write(section)
    partial = args.filter or set(args.families) != set(ENGINES) or not set(DEFAULT_ENGINES) <= set(
        args.engines) or args.rounds < 3
    if args.readme and partial and not args.readme_partial:
        log(f"partial run (filter/families/engines/rounds < 3): {args.readme} left alone "
            "(--readme-partial writes it anyway)")
        args.readme = ""
    if args.readme:
        write_readme(args.readme, section)
        log(f"wrote {args.readme} (peers section), raw results {raw_path}")
    else:
        log(f"wrote {md_path}, raw results {raw_path}")
    print(section)


if __name__ == "__main__":
    main()
