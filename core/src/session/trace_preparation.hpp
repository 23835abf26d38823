// A session's raw-trace half: load the traces, attribute graph replays to their captures, build
// the event trees and compute the analysis directory and the trace views, all in memory.
#pragma once

#include "loupe/core/error.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/prepare/trace_views.hpp"
#include "loupe/core/session/session.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::session {

struct PreparedTrace {
  prepare::PreparedDirectory directory;  // the files, not written yet
  prepare::TraceViews views;             // what plugins get through the model
  Json capture_traces;                   // loupe_run.json `capture_traces`; null without them
};

// The traces are freed on return; only the prepared files and views stay.
Expected<PreparedTrace> prepare_trace(const TraceInputs& inputs, const SessionOptions& options);

}  // namespace loupe::core::session
