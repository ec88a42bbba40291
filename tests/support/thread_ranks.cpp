#include "thread_ranks.h"

namespace lf::test {

class ThreadRanks::Rank : public Distribution {
  public:
    Rank(ThreadRanks& group, int r) : group_(group), rank_(r) {}
    int rank() const override { return rank_; }
    int size() const override { return int(group_.ranks_.size()); }
    std::vector<std::string>
    gather(size_t count, const std::vector<std::pair<size_t, std::string>>& mine) override {
        std::unique_lock lock(group_.m_);
        if (group_.arrived_ == 0) group_.all_.assign(count, {});
        for (const auto& [k, bytes] : mine)
            group_.all_.at(k) = bytes;
        if (++group_.arrived_ == size())
            group_.cv_.notify_all();
        else
            group_.cv_.wait(lock, [&] { return group_.arrived_ == size(); });
        return rank_ == 0 ? group_.all_ : std::vector<std::string>{};
    }

  private:
    ThreadRanks& group_;
    int rank_;
};

ThreadRanks::ThreadRanks(int size) {
    for (int r = 0; r < size; ++r)
        ranks_.push_back(std::make_unique<Rank>(*this, r));
}

ThreadRanks::~ThreadRanks() = default;

Distribution& ThreadRanks::rank(int r) {
    return *ranks_[size_t(r)];
}

} // namespace lf::test
