#!/usr/bin/env node
// Runs ONNX models with ONNX Runtime (npm onnxruntime-node) to produce reference
// outputs as .npy files and to time ONNX Runtime's CPU execution provider.
//
//   node scripts/ort_run.js run MODEL.onnx --input NAME=FILE.npy ... --out DIR [--threads N]
//       writes DIR/<output name>.npy for every model output
//   node scripts/ort_run.js jobs JOBS.json
//       JOBS.json: [{"model": M, "inputs": {NAME: FILE.npy}, "out": DIR}, ...]; one process for many runs
//       (a job may also give "threads" and "config": {"session": {"key": "value"}})
//   node scripts/ort_run.js bench MODEL.onnx --input NAME=FILE.npy ... --threads N [--iterations 20] [--warmup 5]
//       prints {"threads", "iterations", "median_ms", "min_ms", "max_ms"} as JSON
//   node scripts/ort_run.js mix --rt MODEL --rt-input NAME=FILE.npy --rate HZ --deadline MS
//                              --bulk MODEL --bulk-input NAME=FILE.npy --threads N [--seconds 10] [--alone]
//       `webnn mix`'s scenario with two ONNX Runtime sessions in one process (ORT has no
//       priorities): the rt model at HZ against its deadline while the bulk model runs back to
//       back; --alone first runs each by itself. Prints webnn mix's lines.
//
// run, bench and mix take --config KEY=VALUE (repeatable): a session config entry, e.g.
// --config session.qdq_matmulnbits_accuracy_level=1 keeps DequantizeLinear -> MatMul (rewritten
// to MatMulNBits) in float activations instead of ORT's default int8 ones (level 4).
//
// onnxruntime-node is looked up in $ORT_NODE_MODULES (default bench/peers/node_modules,
// installed by `npm install --ignore-scripts onnxruntime-node` there).
'use strict';
const fs = require('fs');
const path = require('path');

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES || path.join(__dirname, '..', 'bench', 'peers', 'node_modules');
  return require(path.join(path.resolve(dir), 'onnxruntime-node'));
}

// ---- .npy ---------------------------------------------------------------------------
const DESCR = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<f2': ['float16', Uint16Array],
  '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array], '<i2': ['int16', Int16Array],
  '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array],
  '<u4': ['uint32', Uint32Array], '<u8': ['uint64', BigUint64Array], '<u2': ['uint16', Uint16Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12);
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)[1] === 'True';
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  if (fortran) throw new Error(`${file}: Fortran order is not supported`);
  const entry = DESCR[descr];
  if (!entry) throw new Error(`${file}: dtype ${descr} is not supported`);
  const [type, Ctor] = entry;
  const offset = start + headerLen;
  const bytes = buf.subarray(offset);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  let data = new Ctor(copy.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
  if (type === 'bool') data = Uint8Array.from(data);
  return {type, data, shape};
}

const TYPE_TO_DESCR = {
  float32: '<f4', float64: '<f8', float16: '<f2', int64: '<i8', int32: '<i4', int16: '<i2', int8: '|i1',
  uint8: '|u1', bool: '|b1', uint32: '<u4', uint64: '<u8', uint16: '<u2',
};

function writeNpy(file, type, dims, data) {
  const descr = TYPE_TO_DESCR[type];
  if (!descr) throw new Error(`cannot write ${type} to .npy`);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  let body;
  if (type === 'bool') body = Buffer.from(Uint8Array.from(data, (v) => (v ? 1 : 0)));
  else if (type === 'float16' && data instanceof Uint16Array === false && data.buffer) body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  else body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), body]));
}

// ---- commands -------------------------------------------------------------------------
function parseArgs(argv) {
  const out = {inputs: {}, threads: 1, iterations: 20, warmup: 5, config: {}};
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--input') {
      const v = value();
      const eq = v.lastIndexOf('=');
      out.inputs[v.slice(0, eq)] = v.slice(eq + 1);
    } else if (a === '--config') addConfig(out.config, value());
    else if (a === '--out') out.out = value();
    else if (a === '--threads') out.threads = Number(value());
    else if (a === '--iterations') out.iterations = Number(value());
    else if (a === '--warmup') out.warmup = Number(value());
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else out.model = a;
  }
  return out;
}

// KEY=VALUE -> nested `extra` object ({session: {key: 'value'}}), which the Node binding
// flattens back into the session config entry 'session.key'.
function addConfig(config, text) {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new Error(`--config expects KEY=VALUE, got '${text}'`);
  const keys = text.slice(0, eq).split('.');
  let o = config;
  for (const k of keys.slice(0, -1)) o = (o[k] = o[k] || {});
  o[keys[keys.length - 1]] = text.slice(eq + 1);
}

async function session(ort, model, threads, config) {
  const options = {
    intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  if (config && Object.keys(config).length) options.extra = config;
  return ort.InferenceSession.create(model, options);
}

function feeds(ort, inputs) {
  const f = {};
  for (const [name, file] of Object.entries(inputs)) {
    const a = readNpy(file);
    f[name] = new ort.Tensor(a.type, a.data, a.shape);
  }
  return f;
}

async function runOne(ort, model, inputs, outDir, threads, config) {
  const s = await session(ort, model, threads || 1, config);
  const results = await s.run(feeds(ort, inputs));
  fs.mkdirSync(outDir, {recursive: true});
  for (const [name, t] of Object.entries(results)) {
    writeNpy(path.join(outDir, `${name}.npy`), t.type, t.dims, t.data);
  }
  if (s.release) await s.release();
  return Object.keys(results);
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}

// One scenario: the rt session dispatched every 1000/rate ms (a dispatch due
// while the last one runs waits for it; latency counts from when it was due),
// the bulk session back to back; either may be left out.
async function mixRound(rt, bulk, a, seconds) {
  const end = Date.now() + seconds * 1000;
  const lat = [];
  let bulkRuns = 0;
  const bulkLoop = (async () => {
    if (!bulk) return;
    while (Date.now() < end) {
      await bulk.s.run(bulk.f);
      ++bulkRuns;
    }
  })();
  const rtLoop = (async () => {
    if (!rt) return;
    const period = 1000 / a.rate;
    let due = performance.now();
    while (Date.now() < end) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await rt.s.run(rt.f);
      lat.push(performance.now() - due);
      due += period;
      if (performance.now() > due + period) due = performance.now();  // fell behind: skip the missed slots
    }
  })();
  await Promise.all([bulkLoop, rtLoop]);
  const lines = [];
  if (rt) {
    lat.sort((x, y) => x - y);
    const missed = lat.filter((x) => x > a.deadline).length;
    lines.push(`job rt: ${lat.length} dispatches, p50 ${percentile(lat, 0.5).toFixed(2)} ms, p99 ` +
               `${percentile(lat, 0.99).toFixed(2)} ms, max ${lat[lat.length - 1].toFixed(2)} ms, ${missed} missed deadlines`);
  }
  if (bulk) lines.push(`job bulk: ${bulkRuns} dispatches, ${(bulkRuns / seconds).toFixed(1)}/s`);
  return lines;
}

async function mix(ort, argv) {
  const a = {rtInputs: {}, bulkInputs: {}, rate: 100, deadline: 5, threads: 2, seconds: 10, alone: false, config: {}};
  for (let i = 0; i < argv.length; ++i) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    const input = (into) => {
      const v = value();
      const eq = v.lastIndexOf('=');
      into[v.slice(0, eq)] = v.slice(eq + 1);
    };
    if (flag === '--rt') a.rt = value();
    else if (flag === '--rt-input') input(a.rtInputs);
    else if (flag === '--bulk') a.bulk = value();
    else if (flag === '--bulk-input') input(a.bulkInputs);
    else if (flag === '--rate') a.rate = Number(value());
    else if (flag === '--deadline') a.deadline = Number(value());
    else if (flag === '--threads') a.threads = Number(value());
    else if (flag === '--seconds') a.seconds = Number(value());
    else if (flag === '--alone') a.alone = true;
    else if (flag === '--config') addConfig(a.config, value());
    else throw new Error(`mix: unknown option ${flag}`);
  }
  if (!a.rt || !a.bulk) throw new Error('mix: needs --rt MODEL and --bulk MODEL');
  const rt = {s: await session(ort, a.rt, a.threads, a.config), f: feeds(ort, a.rtInputs)};
  const bulk = {s: await session(ort, a.bulk, a.threads, a.config), f: feeds(ort, a.bulkInputs)};
  for (let i = 0; i < 3; ++i) await rt.s.run(rt.f), await bulk.s.run(bulk.f);  // warm-up
  if (a.alone) {
    process.stdout.write('alone:\n');
    for (const line of [...await mixRound(rt, null, a, a.seconds), ...await mixRound(null, bulk, a, a.seconds)])
      process.stdout.write(`  ${line}\n`);
    process.stdout.write('together:\n');
  }
  for (const line of await mixRound(rt, bulk, a, a.seconds)) process.stdout.write(`  ${line}\n`);
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  if (!cmd || cmd === '--help' || cmd === '-h') {
    process.stdout.write(fs.readFileSync(__filename, 'utf8').split('\n').slice(1).filter((l, i, all) => i < all.findIndex((x) => !x.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
    return 0;
  }
  let ort;
  try {
    ort = loadOrt();
  } catch (e) {
    process.stderr.write(`ort_run: onnxruntime-node is not installed (${e.message.split('\n')[0]})\n`);
    return 3;
  }
  if (cmd === 'run') {
    const a = parseArgs(rest);
    const names = await runOne(ort, a.model, a.inputs, a.out, a.threads, a.config);
    process.stdout.write(`wrote ${names.map((n) => path.join(a.out, n + '.npy')).join(', ')}\n`);
  } else if (cmd === 'jobs') {
    const jobs = JSON.parse(fs.readFileSync(rest[0], 'utf8'));
    let failed = 0;
    for (const j of jobs) {
      try {
        await runOne(ort, j.model, j.inputs, j.out, j.threads, j.config);
      } catch (e) {
        failed++;
        fs.mkdirSync(j.out, {recursive: true});
        fs.writeFileSync(path.join(j.out, 'ERROR'), String(e.message || e));
      }
    }
    process.stdout.write(`${jobs.length - failed}/${jobs.length} jobs ran\n`);
  } else if (cmd === 'bench') {
    const a = parseArgs(rest);
    const s = await session(ort, a.model, a.threads, a.config);
    const f = feeds(ort, a.inputs);
    for (let i = 0; i < a.warmup; ++i) await s.run(f);
    const times = [];
    for (let i = 0; i < a.iterations; ++i) {
      const t0 = process.hrtime.bigint();
      await s.run(f);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((x, y) => x - y);
    process.stdout.write(JSON.stringify({
      threads: a.threads, iterations: a.iterations, median_ms: times[Math.floor(times.length / 2)],
      min_ms: times[0], max_ms: times[times.length - 1],
    }) + '\n');
  } else if (cmd === 'mix') {
    await mix(ort, rest);
  } else {
    throw new Error(`unknown command ${cmd} (run, jobs, bench, mix)`);
  }
  return 0;
}

main().then((rc) => process.exit(rc), (e) => {
  process.stderr.write(`ort_run: ${e.stack || e}\n`);
  process.exit(1);
});
