// Capture-trace attribution (docs/report.md, "Capture traces"): the kernels an execution trace
// replays from GPU graphs have no host op, shapes or caller; a trace of the graphs' capture
// records the ops that enqueued them. Each graph launch of the execution trace is matched to
// a capture window (the span between a stream's begin- and end-capture calls) whose enqueue
// calls name the replayed kernels in the same sequence; the window's host events (ops,
// python frames, enqueue calls) are appended to the execution trace on a thread of their own,
// their times mapped into the graph launch's interval, and each replayed GPU op is linked to
// the enqueue call that captured it, so it gets an op, shapes and a perf model like an eager
// kernel.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

struct CaptureTrace {
  std::filesystem::path path;  // as given (named in messages and the run record)
  TraceModel model;
};

// A graph launch of the execution trace whose replay no capture window matches.
struct UnmatchedReplay {
  Uid graph_launch = kNoUid;
  double ts_us = 0.0;
  std::size_t gpu_ops = 0;
  std::string first_kernel;  // the first replayed GPU op by start time
};

struct CaptureFileOutcome {
  std::string path;
  std::size_t windows = 0;          // begin/end-capture pairs in the file
  std::size_t matched_replays = 0;  // graph launches of the execution trace attributed to it
};

// How the replays were matched to captured enqueue calls.
enum class CaptureAlignment : std::uint8_t {
  kInOrder,        // same GPU ops in the same order
  kSkippingExtra,  // in order, capture calls without a replayed op skipped
  kByName,         // same count per kernel name, paired in order within each name
};

struct CaptureAttribution {
  // (enqueue call in the merged model, replayed GPU op) for EventTree's TreeOptions::gpu_relinks.
  std::vector<std::pair<Uid, Uid>> links;
  std::size_t graph_launches = 0;  // graph launches with replayed GPU ops
  std::size_t matched_launches = 0;
  std::size_t attributed_gpu_ops = 0;
  std::size_t appended_events = 0;
  std::size_t aligned_by_name = 0;     // launches matched only by per-name counts
  bool python_frames_dropped = false;  // the appended frames hit the size budget
  std::vector<UnmatchedReplay> unmatched;
  std::vector<CaptureFileOutcome> files;  // a file with matched_replays 0 is ignored
};

// Matches, appends and links (see above); `exec` grows by the appended host events.
CaptureAttribution attribute_capture_traces(TraceModel& exec,
                                            const std::vector<CaptureTrace>& captures);

}  // namespace loupe::core::trace
