#!/usr/bin/env node
// ONNX Runtime side of the peer comparison: a long-lived worker, so that Node's
// start-up and ORT's library load are paid once per run, not once per case.
//
// Reads one JSON request per line on stdin:
//   {"model": "/abs/x.onnx", "inputs": {"A": [m, k]}, "threads": 1, "min_time": 0.3,
//    "min_iters": 5, "max_iters": 2000, "warmup": 1}
// and answers one JSON line on stdout:
//   {"ok": true, "iters": n, "run_s": [...], "kernel_s": [...], "wall_s": [...], "ops": ["Conv", ...]}
//
// Timing: ORT's own profiler (sessionOptions.enableProfiling). run_s is the
// "model_run" event of each timed run, i.e. InferenceSession::Run() inside the
// library: input checks, the kernels (including any layout nodes ORT inserted,
// such as ReorderInput/ReorderOutput around an NCHWc Conv) and the output
// allocation from its arena. It excludes the Node binding: marshalling of the
// inputs, the promise/setImmediate hop, and the copy of every output into a new
// JS ArrayBuffer (64 MB for a 16M-element op, which would wrongly favour us).
// kernel_s is the sum of the per-node kernel times of the same run, wall_s the
// time around `await session.run()` in JS; both are kept for the notes. cpu_s is
// the process's CPU time over the timed runs (all threads, spinning included).
//
// onnxruntime-node is looked up in $ORT_NODE_MODULES (default bench/peers/node_modules).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');

const modulesDir = process.env.ORT_NODE_MODULES || path.join(__dirname, '..', 'peers', 'node_modules');
const ort = require(path.join(path.resolve(modulesDir), 'onnxruntime-node'));
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-peer-prof-'));
let requestCount = 0;

// Inputs in [-1, 1) from a xorshift generator: Math.random on 32M floats costs
// seconds of set-up per request.
function randomInput(shape) {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  let s = 0x9e3779b9 ^ n;
  for (let i = 0; i < n; ++i) {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    data[i] = ((s >>> 0) / 4294967296) * 2 - 1;
  }
  return new ort.Tensor('float32', data, shape);
}

function readProfile(prefix) {
  const base = path.basename(prefix);
  const files = fs.readdirSync(profileDir).filter((f) => f.startsWith(base + '_') && f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`profile for ${base}: found ${files.length} files`);
  const file = path.join(profileDir, files[0]);
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.unlinkSync(file);
  return events;
}

async function bench(req) {
  const prefix = path.join(profileDir, `p${process.pid}_${requestCount++}`);
  const session = await ort.InferenceSession.create(req.model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: req.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: true,
    enableMemPattern: true,
    enableProfiling: true,
    profileFilePrefix: prefix,
    logSeverityLevel: 3,
  });
  const feeds = {};
  for (const [name, shape] of Object.entries(req.inputs)) feeds[name] = randomInput(shape);
  // Warm-up, then pre-allocated outputs (fetches) shaped like the warm-up's, so
  // the timed runs do not allocate and garbage-collect a JS output buffer each.
  // The fetches are filled once here so the first timed run does not pay
  // their page faults (ours and Eigen touch their outputs in a warm-up too).
  const warmup = Math.max(1, req.warmup ?? 1);
  let fetches, warmupWall = 0;
  for (let i = 0; i < warmup; ++i) {
    const t0 = process.hrtime.bigint();
    const out = await session.run(feeds, fetches);
    warmupWall = Number(process.hrtime.bigint() - t0) * 1e-9;
    if (!fetches) {
      fetches = {};
      for (const [name, t] of Object.entries(out))
        fetches[name] = new ort.Tensor(t.type, new t.data.constructor(t.data.length).fill(0), t.dims);
    }
  }
  // At least min_iters runs and min_time of wall time; one run is enough when a
  // run takes min_time by itself (a 4096^3 product), as Google Benchmark does
  // for ours and Eigen: repeats come from the rounds.
  const maxIters = req.max_iters ?? 2000, minTime = req.min_time ?? 0.3;
  const minIters = warmupWall >= minTime ? 1 : (req.min_iters ?? 5);
  const wall = [];
  let total = 0;
  const cpu0 = process.cpuUsage();
  while ((wall.length < minIters || total < minTime) && wall.length < maxIters) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds, fetches);
    const s = Number(process.hrtime.bigint() - t0) * 1e-9;
    wall.push(s);
    total += s;
  }
  const cpu = process.cpuUsage(cpu0);
  session.endProfiling();
  await session.release();

  const events = readProfile(prefix);
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').sort((a, b) => a.ts - b.ts);
  const nodes = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  if (runs.length !== warmup + wall.length) throw new Error(`profile has ${runs.length} runs, expected ${warmup + wall.length}`);
  const timed = runs.slice(warmup);
  const kernel = timed.map((r) => nodes.filter((e) => e.ts >= r.ts && e.ts <= r.ts + r.dur).reduce((a, e) => a + e.dur, 0) * 1e-6);
  const last = timed[timed.length - 1];
  const ops = nodes.filter((e) => e.ts >= last.ts && e.ts <= last.ts + last.dur).map((e) => (e.args && e.args.op_name) || e.name);
  return {ok: true, iters: wall.length, run_s: timed.map((r) => r.dur * 1e-6), kernel_s: kernel, wall_s: wall,
          cpu_s: (cpu.user + cpu.system) * 1e-6, ops};
}

async function main() {
  const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  process.stdout.write(JSON.stringify({ready: true, ort_version: ort.env.versions ? ort.env.versions.common : null}) + '\n');
  for await (const line of rl) {
    if (!line.trim()) continue;
    let answer;
    try {
      answer = await bench(JSON.parse(line));
    } catch (e) {
      answer = {ok: false, error: String(e && e.message ? e.message : e)};
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
  fs.rmSync(profileDir, {recursive: true, force: true});
}

main();
