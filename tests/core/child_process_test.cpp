// run_in_child ends what a plugin's child leaves behind, also in a process forked from a host that
// had already run children (a rank's Session is one): docs/plugin-abi.md, "Isolation".
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "child_process.hpp"

namespace iso = loupe::core::isolation;

namespace {

// Whether `pid` is a process that has not ended (a zombie has ended).
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

// Runs a child whose body starts a grandchild in a session of its own that would sleep for a
// minute, and returns whether the grandchild is still running once run_in_child has returned
// (killed at once if it is).
bool grandchild_survives(bool namespaces) {
  iso::ChildOptions options;
  options.timeout = std::chrono::seconds(10);
  options.namespaces = namespaces;
  pid_t grandchild = 0;
  const auto body = [](int wire_fd) {
    const pid_t g = ::fork();
    if (g == 0) {
      ::setsid();
      ::sleep(60);
      ::_exit(0);
    }
    // The grandchild's pid as the host sees it: with a PID namespace it has another number
    // outside, so the test only asks this of children without one.
    iso::write_record(wire_fd, iso::WireTag::Log, "0" + std::to_string(g));
    iso::write_record(wire_fd, iso::WireTag::End, "");
  };
  const auto report = iso::run_in_child(options, body, [&](const iso::WireRecord& record) {
    if (record.tag == iso::WireTag::Log) grandchild = std::stoi(record.payload.substr(1));
  });
  if (report.end != iso::ChildEnd::Finished || grandchild <= 0) return true;
  const bool alive = running(grandchild);
  if (alive) ::kill(grandchild, SIGKILL);
  return alive;
}

}  // namespace

TEST_CASE("no grandchild outlives its child, in the host or in a fork of it", "[isolation]") {
  // Without namespaces only the host's process-tree walk and its adopting the orphans stand
  // between the grandchild and the rest of the run.
  CHECK_FALSE(grandchild_survives(/*namespaces=*/false));
  // A fork of this process (as a rank's Session is) runs the same again: it must adopt the
  // orphans of its own children although the process it was forked from already asked to.
  const pid_t forked = ::fork();
  REQUIRE(forked >= 0);
  if (forked == 0) ::_exit(grandchild_survives(/*namespaces=*/false) ? 1 : 0);
  int status = 0;
  REQUIRE(::waitpid(forked, &status, 0) == forked);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
