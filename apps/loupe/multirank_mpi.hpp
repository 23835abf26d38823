// The MPI side of `loupe analyze --trace-glob ... --mpi` (docs/multirank.md, "Clusters"):
// process 0 prepares OUT, every process analyzes its share of the ranks, process 0 gathers the
// compact per-rank tables and writes the report. Without OpenMPI at build time the functions
// exist but --mpi is refused (built_with_mpi() is false).
#pragma once

#include <string>
#include <vector>

namespace loupe::cli {

struct MpiJob {
  int rank = 0;  // this process
  int size = 1;  // processes in the job
};

bool built_with_mpi();

// MPI_Init on construction, MPI_Finalize on destruction.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  MpiJob job() const { return job_; }

 private:
  MpiJob job_;
};

// Process 0's `value` on every process (a job of one: `value`).
int mpi_broadcast(const MpiJob& job, int value);
// Every process's `mine`; process 0 gets them in process order, the others an empty list.
std::vector<std::string> mpi_gather(const MpiJob& job, const std::string& mine);

}  // namespace loupe::cli
