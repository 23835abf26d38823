#include "multirank_mpi.hpp"

#ifdef LOUPE_WITH_MPI
#include <mpi.h>
#endif

namespace loupe::cli {

#ifdef LOUPE_WITH_MPI

bool built_with_mpi() { return true; }

MpiSession::MpiSession() {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &job_.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &job_.size);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

int mpi_broadcast(const MpiJob& job, int value) {
  if (job.size > 1) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

std::vector<std::string> mpi_gather(const MpiJob& job, const std::string& mine) {
  if (job.size == 1) return {mine};
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(job.rank == 0 ? job.size : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = static_cast<int>(total);
    total += static_cast<std::size_t>(lengths[i]);
  }
  std::string all(total, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.push_back(
        all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  }
  return out;
}

#else

bool built_with_mpi() { return false; }
MpiSession::MpiSession() = default;
MpiSession::~MpiSession() = default;
int mpi_broadcast(const MpiJob&, int value) { return value; }
std::vector<std::string> mpi_gather(const MpiJob&, const std::string& mine) { return {mine}; }

#endif

}  // namespace loupe::cli
