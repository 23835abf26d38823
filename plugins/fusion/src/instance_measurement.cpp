#include "instance_measurement.hpp"

#include <algorithm>

namespace loupe::fusion {

namespace {

constexpr const char* kGpuEventsView = "trace/gpu_events.csv";

std::optional<double> number_of(const CellView& cell) {
  if (cell.is_number()) return cell.number;
  return std::nullopt;
}

// What a first-instance kernel position requires of a timeline kernel.
struct PositionSignature {
  std::string op_name;
  bool same_op_as_previous = false;
};

// A stream of the timeline: kernel i of the run is at(i).
struct StreamRun {
  const KernelTimeline& timeline;
  const std::vector<std::size_t>& indices;
  const KernelLaunch& at(std::size_t i) const { return timeline.launch(indices[i]); }
  std::size_t size() const { return indices.size(); }
};

bool matches_at(const StreamRun& stream, std::size_t start,
                const std::vector<PositionSignature>& signature) {
  if (start + signature.size() > stream.size()) return false;
  for (std::size_t i = 0; i < signature.size(); ++i) {
    const KernelLaunch& k = stream.at(start + i);
    if (k.op_name != signature[i].op_name) return false;
    if (i > 0) {
      const bool same = k.op_uid >= 0 && k.op_uid == stream.at(start + i - 1).op_uid;
      if (same != signature[i].same_op_as_previous) return false;
    }
  }
  return true;
}

void add_instance(InstanceMeasurement& m, const StreamRun& stream, std::size_t start,
                  std::size_t length) {
  std::vector<InstanceGroup>& groups = m.groups;
  for (std::size_t i = 0; i < length; ++i) m.kernel_uids.push_back(stream.at(start + i).uid);
  std::vector<std::string> names;
  names.reserve(length);
  for (std::size_t i = 0; i < length; ++i) names.push_back(stream.at(start + i).name);
  auto it = std::find_if(groups.begin(), groups.end(),
                         [&](const InstanceGroup& g) { return g.kernel_names == names; });
  if (it == groups.end()) {
    groups.push_back({std::move(names), 0, std::vector<double>(length, 0.0)});
    it = std::prev(groups.end());
  }
  it->instances += 1;
  for (std::size_t i = 0; i < length; ++i) it->dur_us[i] += stream.at(start + i).dur_us;
}

}  // namespace

KernelTimeline::KernelTimeline(std::vector<KernelLaunch> launches)
    : launches_(std::move(launches)) {
  std::vector<std::string> stream_keys;
  for (std::size_t i = 0; i < launches_.size(); ++i) {
    const KernelLaunch& k = launches_[i];
    auto it = std::find(stream_keys.begin(), stream_keys.end(), k.stream);
    std::size_t s = 0;
    if (it == stream_keys.end()) {
      stream_keys.push_back(k.stream);
      streams_.emplace_back();
      s = streams_.size() - 1;
    } else {
      s = static_cast<std::size_t>(it - stream_keys.begin());
    }
    streams_[s].push_back(i);
  }
  for (std::size_t s = 0; s < streams_.size(); ++s) {
    auto& list = streams_[s];
    std::stable_sort(list.begin(), list.end(), [this](std::size_t a, std::size_t b) {
      return launches_[a].ts_ns < launches_[b].ts_ns;
    });
    for (std::size_t i = 0; i < list.size(); ++i) by_uid_[launches_[list[i]].uid] = {s, i};
  }
}

std::optional<KernelTimeline> KernelTimeline::from_model(const ModelView& model) {
  const TableView table = model.table(kGpuEventsView);
  if (!table) return std::nullopt;
  const std::size_t uid = table.column("uid");
  const std::size_t kind = table.column("kind");
  const std::size_t name = table.column("name");
  const std::size_t device = table.column("device");
  const std::size_t stream = table.column("stream");
  const std::size_t ts = table.column("ts_ns");
  const std::size_t dur = table.column("dur_ns");
  const std::size_t op_uid = table.column("op_uid");
  const std::size_t op_name = table.column("op_name");
  for (const std::size_t column : {uid, kind, name, ts, dur, op_uid, op_name}) {
    if (column == TableView::npos) return std::nullopt;
  }
  std::vector<KernelLaunch> launches;
  launches.reserve(table.rows());
  for (std::size_t r = 0; r < table.rows(); ++r) {
    if (table.cell(r, kind).text != "kernel") continue;
    const auto u = number_of(table.cell(r, uid));
    const auto t = number_of(table.cell(r, ts));
    const auto d = number_of(table.cell(r, dur));
    if (!u || !t || !d) continue;
    KernelLaunch k;
    k.uid = static_cast<std::int64_t>(*u);
    k.name = std::string(table.cell(r, name).text);
    k.stream =
        std::string(table.cell(r, device).text) + "/" + std::string(table.cell(r, stream).text);
    k.ts_ns = static_cast<std::int64_t>(*t);
    k.dur_us = *d / 1000.0;
    k.op_uid = static_cast<std::int64_t>(number_of(table.cell(r, op_uid)).value_or(-1));
    k.op_name = std::string(table.cell(r, op_name).text);
    launches.push_back(std::move(k));
  }
  return KernelTimeline(std::move(launches));
}

std::optional<KernelTimeline::Position> KernelTimeline::find(std::int64_t uid) const {
  const auto it = by_uid_.find(uid);
  if (it == by_uid_.end()) return std::nullopt;
  return it->second;
}

double InstanceGroup::total_us() const {
  double sum = 0.0;
  for (const double d : dur_us) sum += d;
  return sum;
}

InstanceMeasurement measure_instances(const Candidate& c, const KernelTimeline* timeline) {
  InstanceMeasurement m;
  if (timeline == nullptr) return m;
  m.status = MeasurementStatus::FirstInstanceMissing;
  if (c.kernels.empty()) return m;

  std::vector<KernelTimeline::Position> first;
  for (const auto& k : c.kernels) {
    if (!k.gpu_op_uid) return m;
    const auto pos = timeline->find(*k.gpu_op_uid);
    if (!pos) return m;
    first.push_back(*pos);
  }
  // The first instance must be one run of consecutive kernels on one stream.
  for (std::size_t i = 1; i < first.size(); ++i) {
    if (first[i].stream != first[0].stream || first[i].index != first[0].index + i) return m;
  }
  const StreamRun stream{*timeline, timeline->stream(first[0].stream)};
  std::vector<PositionSignature> signature;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const KernelLaunch& k = stream.at(first[0].index + i);
    const bool same =
        i > 0 && k.op_uid >= 0 && k.op_uid == stream.at(first[0].index + i - 1).op_uid;
    signature.push_back({k.op_name, same});
  }

  // The first instance's group first, then the others in time order.
  add_instance(m, stream, first[0].index, signature.size());
  std::int64_t matched = 1;
  for (std::size_t i = 0; i < stream.size();) {
    if (i == first[0].index) {
      i += signature.size();
      continue;
    }
    const bool overlaps_first = i < first[0].index && i + signature.size() > first[0].index;
    if (!overlaps_first && matches_at(stream, i, signature)) {
      add_instance(m, stream, i, signature.size());
      ++matched;
      i += signature.size();
    } else {
      ++i;
    }
  }
  m.matched_instances = matched;
  if (matched > c.instances_or_one()) {
    m.status = MeasurementStatus::Ambiguous;
    m.groups.clear();
    m.kernel_uids.clear();
    return m;
  }
  m.status = MeasurementStatus::Measured;
  for (const auto& g : m.groups) m.total_us += g.total_us();
  return m;
}

const char* status_name(MeasurementStatus status) {
  switch (status) {
    case MeasurementStatus::Measured:
      return "measured";
    case MeasurementStatus::NoTimeline:
      return "no_trace_timeline";
    case MeasurementStatus::FirstInstanceMissing:
      return "first_instance_not_in_trace";
    case MeasurementStatus::Ambiguous:
      return "kernel_sequence_not_specific";
  }
  return "unknown";
}

}  // namespace loupe::fusion
