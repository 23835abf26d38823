// loupe_trace_bench [--parse-threads N] FILE...: for each trace, in a fresh child process (so
// peak RSS is the load's own), loads it natively and builds the event tree; prints JSON MB/s
// (load only and load + tree, and per CPU second of the whole load: every thread, the read-ahead
// and parse workers included), events, peak RSS and RSS / JSON size. --parse-threads is
// LoadOptions::parse_threads (default 0: one per core; 1: sequential). For
// gzip files also times `zcat FILE` (to /dev/null) and our inflate alone, for comparison.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "loupe/core/trace/byte_source.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace tr = loupe::core::trace;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU seconds (user + system) used so far by the process (all its threads): the load's own
// cost, unaffected by other processes on a shared machine.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Measure {
  double load_s = 0, tree_s = 0;
  double load_cpu_s = 0;  // the loading thread's CPU time
  double json_bytes = 0;
  double events = 0;
  double peak_rss_bytes = 0;
  bool ok = false;
};

// Runs `body` in a child; it writes 5 doubles to the pipe. Returns them plus the child's maxrss.
template <typename Body>
Measure in_child(Body body) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    double out[5] = {0, 0, 0, 0, 0};
    body(out);
    if (write(fds[1], out, sizeof(out)) != static_cast<ssize_t>(sizeof(out))) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  double in[5] = {0, 0, 0, 0, 0};
  const ssize_t n = read(fds[0], in, sizeof(in));
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Measure m;
  m.ok = n == static_cast<ssize_t>(sizeof(in)) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  m.load_s = in[0];
  m.tree_s = in[1];
  m.json_bytes = in[2];
  m.events = in[3];
  m.load_cpu_s = in[4];
  m.peak_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;
  return m;
}

double time_command(const std::string& cmd) {
  const auto t = Clock::now();
  if (std::system(cmd.c_str()) != 0) return -1;
  return since(t);
}

}  // namespace

int main(int argc, char** argv) {
  tr::LoadOptions options;
  int first = 1;
  if (argc > 2 && std::string(argv[1]) == "--parse-threads") {
    options.parse_threads = static_cast<unsigned>(std::stoul(argv[2]));
    first = 3;
  }
  if (argc <= first) {
    std::cerr << "usage: loupe_trace_bench [--parse-threads N] FILE...\n";
    return 2;
  }
  std::printf("%-40s %9s %9s %10s %10s %10s %12s %9s %9s %8s\n", "file", "json MB", "events",
              "load MB/s", "+tree MB/s", "cpu MB/s", "peak RSS MB", "RSS/json", "zcat MB/s",
              "vs zcat");
  for (int i = first; i < argc; ++i) {
    const std::string path = argv[i];
    const Measure m = in_child([&](double* out) {
      const auto t0 = Clock::now();
      const double c0 = process_cpu_seconds();
      const tr::LoadResult r = tr::load_trace(path, options);
      out[0] = since(t0);
      out[4] = process_cpu_seconds() - c0;
      if (r.error) {
        std::cerr << path << ": " << r.error->describe() << "\n";
        _exit(1);
      }
      const auto t1 = Clock::now();
      const tr::EventTree tree = tr::EventTree::build(r.model);
      out[1] = since(t1);
      out[2] = static_cast<double>(r.json_bytes);
      out[3] = static_cast<double>(r.model.event_count()) +
               0.0 * static_cast<double>(tree.stats().gpu_ops);
    });
    if (!m.ok) {
      std::printf("%-40s failed\n", path.c_str());
      continue;
    }
    const double mb = m.json_bytes / 1e6;
    double zcat_mbs = 0;
    const bool gz = tr::open_byte_source(path)->is_gzip();
    if (gz) {
      const double zs = time_command("zcat '" + path + "' > /dev/null");
      zcat_mbs = zs > 0 ? mb / zs : 0;
    }
    const std::string name = path.size() > 40 ? "..." + path.substr(path.size() - 37) : path;
    std::printf("%-40s %9.1f %9.0f %10.0f %10.0f %10.0f %12.1f %9.3f", name.c_str(), mb, m.events,
                mb / m.load_s, mb / (m.load_s + m.tree_s), mb / m.load_cpu_s,
                m.peak_rss_bytes / 1e6, m.peak_rss_bytes / m.json_bytes);
    if (gz) {
      std::printf(" %9.0f %7.0f%%\n", zcat_mbs, 100.0 * (mb / m.load_s) / zcat_mbs);
    } else {
      std::printf(" %9s %8s\n", "-", "-");
    }
    std::fflush(stdout);
  }
  return 0;
}
