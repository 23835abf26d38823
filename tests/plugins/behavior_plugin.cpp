// A plugin for framework tests. loupe_test_config.behavior (behavior_config.h) selects what
// analyze() does:
// 0 good system findings, 1 good compute findings, 2 throws, 3 segfaults, 4 hangs,
// 5 emits findings the renderer must reject, 6 aborts, 7 reports an error,
// 8 reads another category's metrics (declares reads = {"test_good"}) and echoes a number,
// 9 reads the raw-trace views, 10 tries to write into the output directory and /tmp,
// 11 leaves a detached grandchild that writes a file 2 s later, 12 allocates and touches 3 GiB,
// 13 emits metrics with an embedded NUL and trailing bytes, 14 emits findings with an empty
// title, 15 emits findings for another category, 16 prints control characters to stdout,
// 17 emits findings whose text quotes a heading (the ERROR path must still write its files),
// 18 tries to start /bin/true, to open a UDP and a unix socket and a socketpair and records what
// happened, 19 attacks the host and the system (resource limits, priority, affinity, signals
// and process group of its parent; SysV IPC, perf events, BPF, keys; mode, owner, times,
// extended attributes and inode flags of LOUPE_TEST_TARGET; inherited descriptors; its own
// capabilities) and records which attempts were refused, 20 starts a chain of 80 processes, each
// in its own session and named "loupe-leftover", then moves to a new session itself and hangs,
// 21 writes forged records (metrics with NaN) straight onto the host's pipe (descriptor 3) and
// exits, 22 reports 1,024 errors of 64 KiB (the first with terminal escapes) and returns,
// 23 emits compute findings whose card claims an impact of 9.1e12 % of the end-to-end time,
// 24 creates a directory at each path of LOUPE_TEST_SABOTAGE (':'-separated), where the host is
// about to write its files, and records how many it made, 25 closes its standard output, error
// and the host's pipe (descriptor 3) and hangs, 26 contributes a GEMM card (ABI 1.2): it reads
// the primary's category_data/<cat>_metrics.json, takes its first finding's members and claims
// their GPU ops with a saving of half their measured time.
// The environment variable LOUPE_TEST_WRITE_PATH names the file 10 and 11 write. The config's
// skill declares one manifest skill, its fallback flag makes the plugin its tier's fallback
// (routing tests).
#include <fcntl.h>
#include <linux/fs.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "behavior_config.h"
#include "loupe/plugin.hpp"

namespace {

using loupe::Json;
namespace fd = loupe::findings;

fd::Document system_findings(const std::string& category, const std::string& detail) {
  fd::Document doc;
  doc.style = fd::Style::System;
  doc.category = category;
  doc.title = "Test Findings";
  doc.sections.push_back({"Overview", {fd::paragraph("One synthetic finding: " + detail + ".")}});
  fd::Recommendation card;
  card.title = "Synthetic issue";
  card.insight = "The synthetic metric is 42.";
  card.action = "Nothing to do; this is a test.";
  doc.recommendations.push_back(card);
  fd::Detail d;
  d.rank = 1;
  d.title = "Synthetic issue";
  d.identification = "Synthetic (source: `test_metrics.json`).";
  d.data.push_back(fd::table({{"Metric", "Value", "Flagged"}, {{"answer", "42", "true"}}}));
  d.reasoning = "None.";
  d.resolution = "None.";
  doc.details.push_back(d);
  return doc;
}

fd::Document compute_findings(const std::string& category) {
  fd::Document doc;
  doc.style = fd::Style::Compute;
  doc.category = category;
  doc.title = "Test compute findings";
  fd::Recommendation card;
  card.title = "Slow op";
  card.library = "TestLib";
  card.insight = "op runs at 10% of peak.";
  card.action = "Tune it.";
  card.impact = fd::ImpactScores{Json(1.5), Json(2.25), Json(3)};
  card.impact->text = "impact_score: 2.25";
  doc.recommendations.push_back(card);
  fd::Detail d;
  d.rank = 1;
  d.title = "Slow op";
  d.identification = "Low efficiency.";
  d.data.push_back(fd::table({{"Operation", "Args", "Kernel Path", "Kernel Name", "Time (ms)",
                               "%E2E", "Count", "FLOPS/Byte", "Efficiency", "Bound"},
                              {{"aten::op", "(1,2) bf16", "aten::op", "kern", "1.0", "10.0", "1",
                                "2.0", "10.00% of 708 TFLOPS", "compute-bound"}}}));
  d.reasoning = "Low occupancy.";
  d.resolution = "Tune.";
  d.estimate = fd::DetailEstimate{
      Json(1.5), Json(3), {"Low end impact_score: 1.5", "High end impact_score: 3"}};
  doc.details.push_back(d);
  return doc;
}

Json compute_metrics(const std::string& category) {
  Json m = Json::object();
  m["category"] = category;
  m["status"] = "OK";
  Json op = Json::object();
  op["name"] = "aten::op";
  op["args"] = "(1,2) bf16";
  op["launcher_path"] = "aten::op";
  op["kernel_name_trunc"] = "kern";
  Json ops = Json::array();
  ops.push_back(op);
  m["operations"] = ops;
  Json finding = Json::object();
  finding["rank"] = 1;
  Json list = Json::array();
  list.push_back(finding);
  m["category_findings"] = list;
  return m;
}

// Behaviour 26: one card on the primary's first finding, claiming its members' GPU ops (op
// groups) with half their measured time as the saving.
void contribute_gemm(loupe::AnalysisContext& ctx, const std::string& category) {
  const auto primary = ctx.model().document("category_data/" + category + "_metrics.json");
  const auto first = primary["category_findings"].at(0);
  Json metrics = compute_metrics(category);
  auto doc = compute_findings(category);
  auto& card = doc.recommendations.front();
  card.title = "Vendor GEMM library would run these GEMMs faster";
  card.library = "VendorBLAS";
  double time_ms = 0.0;
  Json members = Json::array();
  for (std::size_t i = 0; i < first["members"].size(); ++i) {
    const auto m = first["members"][i];
    time_ms += m["time_ms"].as_double(0.0);
    if (m["ex_uid"].is_int()) card.claims.op_groups.push_back(m["ex_uid"].as_int(0));
    Json member = Json::object();
    member["operation"] = std::string(m["operation"].as_string(""));
    member["time_ms"] = m["time_ms"].as_double(0.0);
    members.push_back(std::move(member));
  }
  if (card.claims.op_groups.empty()) {
    ctx.report_error("the primary's metrics have no finding with members to contribute to");
    return;
  }
  card.saving_ms = fd::SavingMs{time_ms * 0.25, time_ms * 0.5, time_ms * 0.75};
  card.evidence = fd::Evidence::Modeled;
  Json& finding = metrics["category_findings"].as_array().front();
  finding["members"] = std::move(members);
  finding["estimate_method"] = "quantified";
  ctx.emit_metrics(metrics);
  ctx.emit_findings(doc);
}

// Every system-wide or host-directed attempt of behaviour 19; each entry is true when refused.
Json attack_host() {
  Json r = Json::object();
  const pid_t parent = ::getppid();
  const rlimit zero{0, 0};
  r["prlimit_parent_refused"] = ::prlimit(parent, RLIMIT_FSIZE, &zero, nullptr) != 0;
  r["setpriority_parent_refused"] = ::setpriority(PRIO_PROCESS, parent, 19) != 0;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  r["affinity_parent_refused"] = ::sched_setaffinity(parent, sizeof(one), &one) != 0;
  r["signal_parent_refused"] = ::kill(parent, 0) != 0;
  r["join_parent_group_refused"] = ::setpgid(0, ::getpgid(parent)) != 0;
  r["signal_everyone_refused"] = ::kill(-1, 0) != 0;
  r["unshare_refused"] = ::unshare(CLONE_NEWUSER) != 0;
  const int shm = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
  r["shmget_refused"] = shm < 0;
  if (shm >= 0) ::shmctl(shm, IPC_RMID, nullptr);
  const int msg = ::msgget(IPC_PRIVATE, IPC_CREAT | 0600);
  r["msgget_refused"] = msg < 0;
  if (msg >= 0) ::msgctl(msg, IPC_RMID, nullptr);
  const int sem = ::semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
  r["semget_refused"] = sem < 0;
  if (sem >= 0) ::semctl(sem, 0, IPC_RMID);
  char attr[128] = {};  // a software clock event on every process of CPU 0
  reinterpret_cast<std::uint32_t*>(attr)[0] = 1;  // PERF_TYPE_SOFTWARE
  reinterpret_cast<std::uint32_t*>(attr)[1] = static_cast<std::uint32_t>(sizeof(attr));
  const long perf = ::syscall(SYS_perf_event_open, attr, -1, 0, -1, 0);
  r["perf_event_open_refused"] = perf < 0;
  if (perf >= 0) ::close(static_cast<int>(perf));
  char bpf_attr[128] = {};
  const long bpf = ::syscall(SYS_bpf, 0, bpf_attr, sizeof(bpf_attr));
  r["bpf_refused"] = bpf < 0 && errno == EPERM;
  r["keyctl_refused"] = ::syscall(SYS_keyctl, 0, -3, 0) < 0 && errno == EPERM;
  r["socket_refused"] = ::socket(AF_UNIX, SOCK_STREAM, 0) < 0;
  int pair[2];
  r["socketpair_opened"] = ::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0;
  if (r["socketpair_opened"].as_bool()) {
    ::close(pair[0]);
    ::close(pair[1]);
  }
  if (const char* target = std::getenv("LOUPE_TEST_TARGET"); target != nullptr) {
    r["chmod_refused"] = ::chmod(target, 0777) != 0;
    r["chown_refused"] = ::chown(target, ::getuid(), ::getgid()) != 0;
    r["utimensat_refused"] = ::utimensat(AT_FDCWD, target, nullptr, 0) != 0;
    r["setxattr_refused"] = ::setxattr(target, "user.loupe", "x", 1, 0) != 0;
    r["truncate_refused"] = ::truncate(target, 0) != 0;
    const int fd = ::open(target, O_RDONLY);
    r["fchmod_refused"] = ::fchmod(fd, 0777) != 0;
    int flags = 0;
    ::ioctl(fd, FS_IOC_GETFLAGS, &flags);
    const int immutable = flags | FS_IMMUTABLE_FL;
    const bool set = ::ioctl(fd, FS_IOC_SETFLAGS, &immutable) == 0;
    r["set_immutable_refused"] = !set;
    if (set) ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
    ::close(fd);
  }
  int open_fds = 0;  // descriptors beyond stdio and the host's pipe (3)
  for (int fd = 4; fd < 1024; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0) ++open_fds;
  }
  r["open_fds_above_3"] = open_fds;
  std::ifstream status("/proc/self/status");
  std::string line;
  bool no_caps = true;
  while (std::getline(status, line)) {
    if (line.rfind("CapEff:", 0) == 0 || line.rfind("CapPrm:", 0) == 0 ||
        line.rfind("CapBnd:", 0) == 0) {
      no_caps = no_caps && line.find_first_not_of("0\t ", 7) == std::string::npos;
    }
  }
  r["capabilities_none"] = no_caps;
  r["no_new_privs"] = ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
  return r;
}

// Behaviour 21: records as the host's child code writes them (child_wire.hpp), forged.
void forge_record(char tag, const std::string& payload) {
  char header[9];
  const std::uint64_t size = payload.size();
  header[0] = tag;
  std::memcpy(header + 1, &size, sizeof(size));
  (void)!::write(3, header, sizeof(header));
  (void)!::write(3, payload.data(), payload.size());
}

// A name list fixed when the plugin is loaded (the descriptor reads data() and size()).
struct NameList {
  const char* const* items;
  std::size_t count;
  const char* const* data() const { return items; }
  std::size_t size() const { return count; }
};

constexpr int kComputeFindings = 1;
constexpr int kReadsOtherMetrics = 8;
constexpr int kQuotesHeading = 17;
constexpr int kClaimsImpact = 23;
constexpr int kContributesGemm = 26;
const char* const kNoNames[] = {nullptr};
const char* const kReadCategories[] = {"test_good"};

class BehaviorPlugin {
 public:
  static inline const char* const name = loupe_test_config.name;
  static constexpr const char* version = "0.0.1";
  static constexpr const char* description = "framework test plugin";
  static inline const loupe::Tier tier = loupe_test_config.behavior == kComputeFindings ||
                                                 loupe_test_config.behavior == kQuotesHeading ||
                                                 loupe_test_config.behavior == kClaimsImpact ||
                                                 loupe_test_config.behavior == kContributesGemm ||
                                                 loupe_test_config.contributes != 0
                                             ? loupe::Tier::Compute
                                             : loupe::Tier::System;
  static inline const NameList categories = loupe_test_config.contributes != 0
                                                ? NameList{kNoNames, 0}
                                                : NameList{&loupe_test_config.category, 1};
  static inline const NameList contributes = loupe_test_config.contributes != 0
                                                 ? NameList{&loupe_test_config.category, 1}
                                                 : NameList{kNoNames, 0};
  static inline const NameList skills{&loupe_test_config.skill,
                                      loupe_test_config.skill != nullptr ? 1u : 0u};
  static inline const bool fallback = loupe_test_config.fallback != 0;
  static inline const NameList reads{kReadCategories,
                                     loupe_test_config.behavior == kReadsOtherMetrics ? 1u : 0u};

  void analyze(loupe::AnalysisContext& ctx) {
    const std::string category(ctx.category());
    Json metrics = Json::object();
    metrics["category"] = category;
    metrics["status"] = "OK";
    metrics["answer"] = 42;
    metrics["compat"] = ctx.tracelens_compat();
    metrics["scope"] = ctx.scope() == loupe::Scope::Comparative ? "comparative" : "standalone";
    switch (loupe_test_config.behavior) {
      case 1:
        ctx.emit_metrics(compute_metrics(category));
        ctx.emit_findings(compute_findings(category));
        return;
      case kContributesGemm:
        contribute_gemm(ctx, category);
        return;
      case 2:
        throw std::runtime_error("deliberate failure in test plugin");
      case 3:
        std::raise(SIGSEGV);
        break;
      case 4:
        std::this_thread::sleep_for(std::chrono::hours(1));
        break;
      case 5: {
        auto doc = system_findings(category, "invalid");
        doc.details.clear();  // one card, no detail block: the renderer must refuse
        ctx.emit_metrics(metrics);
        ctx.emit_findings(doc);
        return;
      }
      case 6:
        std::abort();
      case 7:
        ctx.report_error("input file category_data/x.json is missing");
        return;
      case 8: {
        const auto other = ctx.model().document("category_data/test_good_metrics.json");
        metrics["read_answer"] = other["answer"].as_int(-1);
        break;
      }
      case 9: {  // the raw-trace views `loupe analyze --trace` adds to the model
        const auto gpu = ctx.model().table("trace/gpu_events.csv");
        const auto ops = ctx.model().table("trace/op_kernels.csv");
        metrics["gpu_events"] = static_cast<std::int64_t>(gpu.rows());
        metrics["op_kernels"] = static_cast<std::int64_t>(ops.rows());
        if (gpu.rows() > 0) {
          metrics["first_kind"] = std::string(gpu.cell(0, "kind").text);
          metrics["first_name"] = std::string(gpu.cell(0, "name").text);
          metrics["first_linked"] = std::string(gpu.cell(0, "linked").text);
          metrics["first_op"] = std::string(gpu.cell(0, "op_name").text);
          metrics["first_dur_ns"] = gpu.cell(0, "dur_ns").number;
        }
        if (ops.rows() > 0) metrics["first_op_kernel_us"] = ops.cell(0, "kernel_time_us").number;
        break;
      }
      case 10: {
        const char* path = std::getenv("LOUPE_TEST_WRITE_PATH");
        std::FILE* f = path != nullptr ? std::fopen(path, "w") : nullptr;
        metrics["write_succeeded"] = f != nullptr;
        if (f != nullptr) {
          std::fputs("tampered\n", f);
          std::fclose(f);
        }
        break;
      }
      case 11: {
        if (::fork() == 0) {
          ::setsid();
          if (::fork() == 0) {
            ::sleep(2);
            const char* path = std::getenv("LOUPE_TEST_WRITE_PATH");
            if (std::FILE* f = path != nullptr ? std::fopen(path, "w") : nullptr) {
              std::fputs("written late by a grandchild\n", f);
              std::fclose(f);
            }
          }
          ::_exit(0);
        }
        break;
      }
      case 12: {
        constexpr std::size_t kBytes = std::size_t{3} << 30;
        auto* block = static_cast<char*>(std::malloc(kBytes));
        if (block == nullptr) throw std::bad_alloc();
        for (std::size_t i = 0; i < kBytes; i += 4096) block[i] = 1;
        metrics["touched_gib"] = 3;
        break;
      }
      case 13: {
        const std::string text = std::string("{\"category\": \"") + category +
                                 "\", \"status\": \"OK\"}" + std::string(1, '\0') + "garbage";
        ctx.emit_metrics_text(text);
        ctx.emit_findings(system_findings(category, "answer 42"));
        return;
      }
      case 14: {
        auto doc = system_findings(category, "answer 42");
        doc.title = "";
        ctx.emit_metrics(metrics);
        ctx.emit_findings(doc);
        return;
      }
      case 15: {
        auto doc = system_findings(category, "answer 42");
        doc.category = "kernel_fusion";
        ctx.emit_metrics(metrics);
        ctx.emit_findings(doc);
        return;
      }
      case 16:
        std::printf("raw \x1b[31mred\x1b[0m output\n");
        std::fflush(stdout);
        break;
      case 18: {
        errno = 0;
        const pid_t child = ::fork();
        if (child == 0) {
          ::execl("/bin/true", "true", static_cast<char*>(nullptr));
          ::_exit(errno == EPERM ? 126 : 127);  // 126: refused by the filter
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        metrics["exec_refused"] = WIFEXITED(status) && WEXITSTATUS(status) == 126;
        const int udp = ::socket(AF_INET, SOCK_DGRAM, 0);
        metrics["udp_refused"] = udp < 0 && errno == EPERM;
        if (udp >= 0) ::close(udp);
        const int local = ::socket(AF_UNIX, SOCK_STREAM, 0);
        metrics["unix_socket_opened"] = local >= 0;
        if (local >= 0) ::close(local);
        int pair[2];
        metrics["socketpair_opened"] = ::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0;
        break;
      }
      case 19:
        metrics["attacks"] = attack_host();
        break;
      case 20: {
        pid_t link = ::fork();
        if (link == 0) {
          for (int depth = 0; depth < 80; ++depth) {
            ::setsid();
            ::prctl(PR_SET_NAME, "loupe-leftover", 0, 0, 0);
            if (::fork() != 0) break;
          }
          ::setpgid(0, ::getpgid(::getppid()));
          for (;;) ::pause();
        }
        ::setsid();
        for (;;) ::pause();
      }
      case 21: {
        const std::string nan_metrics =
            "{\"category\": \"" + category + "\", \"status\": \"OK\", \"x\": NaN, \"y\": Infinity}";
        forge_record('S', "0");
        forge_record('M', nan_metrics);
        forge_record('F',
                     loupe::dump_python_json(fd::to_json(system_findings(category, "forged")), -1));
        forge_record('Z', "");
        ::_exit(0);
      }
      case 22: {
        std::string big(64 * 1024, 'e');
        ctx.report_error("\x1b]0;owned\x07\x1b[2J first error");
        for (int i = 1; i < 1024; ++i) ctx.report_error(big);
        return;
      }
      case 24: {
        int made = 0;
        if (const char* list = std::getenv("LOUPE_TEST_SABOTAGE"); list != nullptr) {
          std::string paths(list);
          std::size_t at = 0;
          while (at <= paths.size()) {
            const std::size_t end = std::min(paths.find(':', at), paths.size());
            const std::string dir = paths.substr(at, end - at);
            if (!dir.empty() && ::mkdir(dir.c_str(), 0755) == 0) {
              ++made;
              // A file inside, so the host cannot rename over it.
              if (std::FILE* f = std::fopen((dir + "/keep").c_str(), "w")) std::fclose(f);
            }
            at = end + 1;
          }
        }
        metrics["directories_made"] = made;
        break;
      }
      case 25:
        ::close(1);
        ::close(2);
        ::close(3);
        for (;;) ::pause();
      case 23: {
        auto doc = compute_findings(category);
        doc.recommendations[0].impact->mid = Json(9.1e12);
        ctx.emit_metrics(compute_metrics(category));
        ctx.emit_findings(doc);
        return;
      }
      case 17: {
        auto doc = compute_findings(category);
        doc.recommendations[0].insight = "see ## Recommendations";
        ctx.emit_metrics(compute_metrics(category));
        ctx.emit_findings(doc);
        return;
      }
      default:
        break;
    }
    ctx.emit_metrics(metrics);
    ctx.emit_findings(system_findings(category, "answer 42"));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(BehaviorPlugin)
