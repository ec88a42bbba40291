// Several "processes" of a distributed run (search/distribution.h) as threads of this one:
// rank r of a ThreadRanks group is its r-th Distribution, and gather meets like MPI's. One
// gather per group: a run that gathers again needs a new group.
#pragma once

#include "search/distribution.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace lf::test {

class ThreadRanks {
  public:
    explicit ThreadRanks(int size);
    ~ThreadRanks();
    Distribution& rank(int r);

  private:
    class Rank;
    std::vector<std::unique_ptr<Rank>> ranks_;
    std::mutex m_;
    std::condition_variable cv_;
    int arrived_ = 0;
    std::vector<std::string> all_;
};

} // namespace lf::test
