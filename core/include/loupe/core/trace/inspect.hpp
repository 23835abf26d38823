// `loupe inspect`: a quick summary of one trace (size, events by category, devices, GPU
// time, top kernels, diagnostics), as text or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace loupe::core::trace {

struct KernelTotal {
  std::string name;
  std::uint64_t count = 0;
  double total_us = 0;
};

struct DeviceSummary {
  std::string pid;  // GPU pid (= device index)
  std::uint64_t ops = 0;
  std::vector<std::string> streams;
};

struct InspectSummary {
  std::string path;
  std::uint64_t file_bytes = 0;
  std::uint64_t json_bytes = 0;
  bool gzip = false;
  double load_seconds = 0;
  double tree_seconds = 0;
  std::uint64_t events = 0;
  std::uint64_t model_bytes = 0;
  std::vector<std::pair<std::string, std::uint64_t>> by_category;  // descending count
  std::vector<std::string> device_names;                           // deviceProperties[].name
  std::vector<DeviceSummary> devices;                              // GPU pids seen in GPU ops
  std::string linking_key;
  bool gpu_only = false;
  TreeStats tree;
  std::optional<GpuTimeline> timeline;
  TimeMode time_mode = TimeMode::kExact;
  std::vector<KernelTotal> top_kernels;  // by total linked GPU time
  std::vector<std::pair<std::string, std::uint64_t>> warnings;
  std::vector<std::string> warning_samples;
};

InspectSummary summarize(const LoadResult& loaded, const EventTree& tree, TimeMode mode,
                         std::size_t top_n = 10);
std::string render_text(const InspectSummary& s);
std::string render_json(const InspectSummary& s);

}  // namespace loupe::core::trace
