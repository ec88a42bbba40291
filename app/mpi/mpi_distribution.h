// Distribution (search/distribution.h) over the ranks of MPI_COMM_WORLD.
#pragma once

#include "search/distribution.h"

namespace lf::mpi {

class MpiDistribution : public Distribution {
  public:
    MpiDistribution(); // after MPI_Init_thread
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::vector<std::string>
    gather(size_t count, const std::vector<std::pair<size_t, std::string>>& mine) override;

  private:
    int rank_ = 0, size_ = 1;
};

} // namespace lf::mpi
