// webnn mix SPEC.json: several graphs run concurrently in one process, the
// way an app would: each job on its own app thread, dispatching at a rate
// (rateHz: a real-time job, its latency and missed deadlines reported) or
// back to back (a bulk job, its rate reported). `--alone` first runs each job
// by itself for the baseline. Jobs on the same device share one context
// unless they name different ones ("context").
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "cli_args.h"
#include "commands.h"
#include "core/shape.h"
#include "io/js_value.h"
#include "io/npy.h"
#include "io/webnn_graph.h"
#include "scheduler/cpu_threads.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

struct JobSpec {
  std::string name;
  std::string graph;  // absolute, or relative to the spec file
  MLDeviceType device = MLDeviceType::kCpu;
  std::string device_name = "cpu";
  bool latency = false;  // "priority": "latency" | "throughput"
  double rate_hz = 0;    // 0: back to back
  double deadline_ms = 0;
  std::string context;   // jobs naming the same context share it
  std::map<std::string, std::string> inputs;  // name -> .npy
  std::map<std::string, uint32_t> dims;
};

struct MixSpec {
  double duration_s = 10;
  uint32_t threads = 0;
  std::vector<JobSpec> jobs;
};

[[noreturn]] void Bad(const std::string& field, const std::string& why) {
  throw std::invalid_argument("mix spec: " + field + " " + why);
}

double PositiveNumber(const json& j, const std::string& field) {
  if (!j.is_number() || !(j.get<double>() > 0)) Bad(field, "must be a positive number, got " + j.dump());
  return j.get<double>();
}

std::string String(const json& j, const std::string& field) {
  if (!j.is_string() || j.get<std::string>().empty()) Bad(field, "must be a non-empty string, got " + j.dump());
  return j.get<std::string>();
}

MixSpec ParseSpec(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("mix: cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  const json doc = io::ParseJsonDocument(ss.str(), path);
  if (!doc.is_object()) Bad("(top level)", "must be an object");
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  auto relative = [&](const std::string& p) {
    return std::filesystem::path(p).is_absolute() ? p : (dir / p).string();
  };
  MixSpec spec;
  for (const auto& [key, value] : doc.items()) {
    if (key == "durationSeconds") {
      spec.duration_s = PositiveNumber(value, key);
    } else if (key == "threads") {
      if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 || value.get<uint64_t>() > 1024)
        Bad(key, "must be an integer in [1, 1024], got " + value.dump());
      spec.threads = value.get<uint32_t>();
    } else if (key != "jobs") {
      Bad(key, "is not a field of a mix spec (durationSeconds, threads, jobs)");
    }
  }
  if (!doc.contains("jobs") || !doc["jobs"].is_array() || doc["jobs"].empty())
    Bad("jobs", "must be a non-empty array of jobs");
  std::map<std::string, int> names;
  for (size_t i = 0; i < doc["jobs"].size(); ++i) {
    const json& j = doc["jobs"][i];
    const std::string at = "jobs[" + std::to_string(i) + "]";
    if (!j.is_object()) Bad(at, "must be an object");
    JobSpec job;
    for (const auto& [key, value] : j.items()) {
      const std::string field = at + "." + key;
      if (key == "name") {
        job.name = String(value, field);
      } else if (key == "graph") {
        job.graph = relative(String(value, field));
      } else if (key == "device") {
        job.device_name = String(value, field);
        if (job.device_name == "cpu") job.device = MLDeviceType::kCpu;
        else if (job.device_name == "gpu") job.device = MLDeviceType::kGpu;
        else if (job.device_name == "reference") job.device = MLDeviceType::kReference;
        else if (job.device_name == "auto") job.device = MLDeviceType::kAuto;
        else Bad(field, "must be cpu, gpu, reference or auto, got " + value.dump());
      } else if (key == "priority") {
        const std::string p = String(value, field);
        if (p != "latency" && p != "throughput") Bad(field, "must be \"latency\" or \"throughput\", got " + value.dump());
        job.latency = p == "latency";
      } else if (key == "rateHz") {
        job.rate_hz = PositiveNumber(value, field);
      } else if (key == "deadlineMs") {
        job.deadline_ms = PositiveNumber(value, field);
      } else if (key == "context") {
        job.context = String(value, field);
      } else if (key == "inputs") {
        if (!value.is_object()) Bad(field, "must be an object of input name -> .npy file");
        for (const auto& [name, file] : value.items()) job.inputs[name] = relative(String(file, field + "." + name));
      } else if (key == "dims") {
        if (!value.is_object()) Bad(field, "must be an object of dimension name -> size");
        for (const auto& [name, size] : value.items()) {
          if (!size.is_number_unsigned() || size.get<uint64_t>() == 0 || size.get<uint64_t>() > UINT32_MAX)
            Bad(field + "." + name, "must be a positive integer, got " + size.dump());
          job.dims[name] = size.get<uint32_t>();
        }
      } else {
        Bad(field, "is not a field of a job (name, graph, device, priority, rateHz, deadlineMs, context, inputs, dims)");
      }
    }
    if (job.name.empty()) Bad(at + ".name", "is missing");
    if (job.graph.empty()) Bad(at + ".graph", "is missing");
    if (names[job.name]++) Bad(at + ".name", "'" + job.name + "' is used by another job");
    if (job.deadline_ms > 0 && job.rate_hz == 0) Bad(at + ".deadlineMs", "needs rateHz (a deadline is per frame)");
    if (job.context.empty()) job.context = job.device_name;
    spec.jobs.push_back(std::move(job));
  }
  return spec;
}

std::vector<std::byte> RandomBytes(MLOperandDataType t, uint64_t n, std::mt19937_64& rng) {
  std::vector<std::byte> d(ByteLengthFor(t, n));
  if (t == MLOperandDataType::kFloat32) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (uint64_t k = 0; k < n; ++k) {
      const float v = u(rng);
      std::memcpy(d.data() + k * 4, &v, 4);
    }
  } else {
    for (auto& b : d) b = static_cast<std::byte>(rng() & 3);
  }
  return d;
}

// One job, ready to dispatch: its graph, tensors and input data.
struct LoadedJob {
  const JobSpec* spec;
  MLContext context;
  MLGraph graph;
  MLNamedTensors inputs, outputs;
  std::map<std::string, std::vector<std::byte>> input_data;
  std::map<std::string, std::vector<std::byte>> results;
};

LoadedJob Load(const JobSpec& spec, MLContext context) {
  LoadedJob job{&spec, context, {}, {}, {}, {}, {}};
  io::LoadedGraph loaded = io::LoadGraphFile(context, spec.graph, {});
  job.graph = loaded.graph;
  std::mt19937_64 rng(1);
  std::map<std::string, std::vector<uint32_t>> shapes;
  for (const auto& [name, desc] : loaded.inputs) {
    std::vector<uint32_t> shape;
    for (const MLDimension& d : desc.shape) {
      auto it = d.isDynamic() ? spec.dims.find(d.name()) : spec.dims.end();
      shape.push_back(it != spec.dims.end() ? it->second : static_cast<uint32_t>(d.size()));
    }
    auto file = spec.inputs.find(name);
    if (file != spec.inputs.end()) {
      io::NpyArray npy = io::ReadNpy(file->second);
      shape = npy.shape;
      job.input_data[name] = std::move(npy.data);
    } else {
      job.input_data[name] = RandomBytes(desc.dataType, core::ElementCount(shape), rng);
    }
    job.inputs[name] = context.createTensor({desc.dataType, shape, false, true});
    shapes[name] = shape;
  }
  for (const auto& [name, file] : spec.inputs)
    if (!loaded.inputs.count(name))
      throw std::invalid_argument("mix spec: job '" + spec.name + "' inputs." + name + ": the graph has no such input");
  const auto out_shapes = loaded.graph.computeShapes(shapes);
  for (const auto& [name, desc] : loaded.outputs)
    job.outputs[name] = context.createTensor({desc.dataType, out_shapes.at(name), true, false});
  return job;
}

// What an app does per frame: write the inputs, dispatch, read the outputs.
void RunOnce(LoadedJob& job) {
  for (auto& [name, t] : job.inputs)
    job.context.writeTensor(t, MLBufferSource(std::span<const std::byte>(job.input_data[name])));
  MLDispatchOptions options;
  if (job.spec->latency) options.latencyHint = MLLatencyHint::kLow;
  if (job.spec->deadline_ms > 0) options.deadline = std::chrono::microseconds(static_cast<int64_t>(job.spec->deadline_ms * 1000));
  job.context.dispatch(job.graph, job.inputs, job.outputs, options);
  for (auto& [name, t] : job.outputs) job.results[name] = job.context.readTensor(t);
}

struct JobResult {
  std::vector<double> latencies_ms;  // rate jobs: from each frame's release
  uint64_t dispatches = 0;
  uint64_t missed = 0;   // frames done after their deadline
  uint64_t skipped = 0;  // frames released after the next one was due (counted as missed)
  double seconds = 0;
  std::string error;
};

void RunJob(LoadedJob& job, double duration_s, const std::atomic<bool>& start, JobResult& r) {
  while (!start.load()) std::this_thread::yield();
  const JobSpec& spec = *job.spec;
  const auto begin = Clock::now();
  const auto end = begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(duration_s));
  try {
    if (spec.rate_hz > 0) {
      const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / spec.rate_hz));
      auto release = begin;
      while (release < end) {
        std::this_thread::sleep_until(release);
        RunOnce(job);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - release).count();
        r.latencies_ms.push_back(ms);
        ++r.dispatches;
        if (spec.deadline_ms > 0 && ms > spec.deadline_ms) ++r.missed;
        release += period;
        // A frame released while the previous one still ran is dropped, as a
        // real-time app would drop it, and counted as a missed deadline.
        while (release + period < Clock::now() && release < end) {
          release += period;
          ++r.skipped;
        }
      }
    } else {
      while (Clock::now() < end) {
        RunOnce(job);
        ++r.dispatches;
      }
    }
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5));
  return v[k];
}

void Print(const JobSpec& spec, const JobResult& r, const char* tag) {
  std::printf("job %s%s: ", spec.name.c_str(), tag);
  if (!r.error.empty()) {
    std::printf("FAILED after %llu dispatches: %s\n", static_cast<unsigned long long>(r.dispatches), r.error.c_str());
    return;
  }
  if (spec.rate_hz > 0) {
    std::printf("%llu dispatches, p50 %.2f ms, p99 %.2f ms, max %.2f ms", static_cast<unsigned long long>(r.dispatches),
                Percentile(r.latencies_ms, 0.5), Percentile(r.latencies_ms, 0.99),
                r.latencies_ms.empty() ? 0.0 : *std::max_element(r.latencies_ms.begin(), r.latencies_ms.end()));
    if (spec.deadline_ms > 0)
      std::printf(", %llu missed deadlines", static_cast<unsigned long long>(r.missed + r.skipped));
    if (r.skipped) std::printf(" (%llu frames dropped)", static_cast<unsigned long long>(r.skipped));
    std::printf("\n");
  } else {
    std::printf("%llu dispatches, %.1f/s\n", static_cast<unsigned long long>(r.dispatches),
                r.seconds > 0 ? static_cast<double>(r.dispatches) / r.seconds : 0.0);
  }
}

std::vector<JobResult> RunTogether(std::vector<LoadedJob*> jobs, double duration_s) {
  std::vector<JobResult> results(jobs.size());
  std::atomic<bool> start{false};
  std::vector<std::thread> threads;
  for (size_t i = 0; i < jobs.size(); ++i)
    threads.emplace_back([&, i] { RunJob(*jobs[i], duration_s, start, results[i]); });
  start = true;
  for (auto& t : threads) t.join();
  return results;
}

void Usage() {
  std::printf(
      "usage: webnn mix [--alone] [--duration S] [--threads N] SPEC.json\n"
      "Runs several graphs concurrently in one process, as an app would, and prints one\n"
      "line per job: latency percentiles and missed deadlines of jobs with rateHz, the\n"
      "rate of jobs that run back to back.\n"
      "  --alone          first run each job by itself for durationSeconds (the baseline)\n"
      "  --duration S     override durationSeconds\n"
      "  --threads N      override threads (the process's cpu threads)\n"
      "SPEC.json:\n"
      "  {\"durationSeconds\": 10, \"threads\": 2,\n"
      "   \"jobs\": [{\"name\": \"audio\", \"graph\": \"a.json\", \"device\": \"cpu\", \"priority\": \"latency\",\n"
      "             \"rateHz\": 100, \"deadlineMs\": 5},\n"
      "            {\"name\": \"ocr\", \"graph\": \"det.json\", \"priority\": \"throughput\"}]}\n"
      "  job fields: name, graph (relative to the spec), device (cpu), priority (throughput),\n"
      "  rateHz (none: back to back), deadlineMs, inputs {name: file.npy}, dims {name: size},\n"
      "  context (jobs naming the same context share it; default: one context per device).\n");
}

}  // namespace

int Mix(const Args& args) {
  std::string path;
  bool alone = false;
  double duration = 0;
  uint32_t threads = 0;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    if (a == "--help" || a == "-h") {
      Usage();
      return 0;
    } else if (a == "--alone") {
      alone = true;
    } else if (a == "--duration") {
      duration = std::stod(walk.Value());
    } else if (a == "--threads") {
      threads = static_cast<uint32_t>(std::stoul(walk.Value()));
    } else if (!a.empty() && a[0] == '-') {
      throw std::invalid_argument("unknown option " + a + " (see --help)");
    } else {
      path = a;
    }
  }
  if (path.empty()) throw std::invalid_argument("no spec file given (see --help)");
  MixSpec spec = ParseSpec(path);
  if (duration > 0) spec.duration_s = duration;
  if (threads > 0) spec.threads = threads;
  // The process's cpu threads, shared by every context.
  if (spec.threads) scheduler::SetCpuThreadCount(spec.threads);

  std::map<std::string, MLContext> contexts;
  std::vector<LoadedJob> jobs;
  jobs.reserve(spec.jobs.size());
  for (const JobSpec& j : spec.jobs) {
    auto it = contexts.find(j.context);
    if (it == contexts.end())
      it = contexts.emplace(j.context, ML::createContext({.device = j.device, .numThreads = spec.threads})).first;
    jobs.push_back(Load(j, it->second));
    RunOnce(jobs.back());  // warm-up
  }
  std::printf("mix: %zu jobs, %.1f s, %u threads%s\n", jobs.size(), spec.duration_s, spec.threads,
              spec.threads ? "" : " (all cores)");
  if (alone) {
    for (auto& job : jobs) Print(*job.spec, RunTogether({&job}, spec.duration_s)[0], " (alone)");
  }
  std::vector<LoadedJob*> all;
  for (auto& job : jobs) all.push_back(&job);
  const std::vector<JobResult> together = RunTogether(all, spec.duration_s);
  int rc = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    Print(*jobs[i].spec, together[i], "");
    if (!together[i].error.empty()) rc = 1;
  }
  return rc;
}

}  // namespace webnn::cli
