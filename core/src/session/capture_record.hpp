// What `--capture-trace` attributed, for the run record (loupe_run.json `capture_traces`) and the
// log.
#pragma once

#include "loupe/core/trace/capture_attribution.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::session {

Json capture_record(const trace::CaptureAttribution& attribution, const trace::TraceModel& exec);
void log_capture_attribution(const trace::CaptureAttribution& attribution);

}  // namespace loupe::core::session
