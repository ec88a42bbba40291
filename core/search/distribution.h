// Independent pieces of a search spread over processes: the segment searches of an
// exploration, the points of a sweep. Core knows no message passing; layerfuse-mpi
// (app/mpi) implements this over MPI ranks, and a single process needs none (nullptr).
//
// Every process runs the same command on the same inputs, so each can compute the same
// assignment of pieces to processes from the same cost estimates; only the pieces made travel.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lf {

class Distribution {
  public:
    virtual ~Distribution() = default;
    virtual int rank() const = 0; // 0 is the root: it merges and writes
    virtual int size() const = 0;
    // Collective: every process passes the pieces it made (index, bytes). The root returns
    // every piece by index (`count` of them), the others an empty vector.
    virtual std::vector<std::string>
    gather(size_t count, const std::vector<std::pair<size_t, std::string>>& mine) = 0;
};

// The pieces process `rank` of `size` makes: longest processing time first — pieces by
// decreasing cost (ties by index), each to the process with the least cost so far (ties: the
// lowest rank). The same on every process; ascending.
std::vector<size_t> assignedPieces(const std::vector<double>& cost, int rank, int size);

} // namespace lf
