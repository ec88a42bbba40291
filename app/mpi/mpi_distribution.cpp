#include "mpi_distribution.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace lf::mpi {

namespace {

constexpr int kSizeTag = 1, kDataTag = 2;
// MPI counts are ints: large messages go in pieces of this many bytes.
constexpr size_t kChunk = size_t(1) << 30;

void check(int code, const char* what) {
    if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Pieces framed as (index, length, bytes)...
std::string frame(const std::vector<std::pair<size_t, std::string>>& pieces) {
    std::string out;
    for (const auto& [index, bytes] : pieces) {
        const uint64_t head[2] = {uint64_t(index), uint64_t(bytes.size())};
        out.append(reinterpret_cast<const char*>(head), sizeof head);
        out += bytes;
    }
    return out;
}

void unframe(const std::string& in, std::vector<std::string>& into) {
    size_t pos = 0;
    while (pos < in.size()) {
        uint64_t head[2];
        if (in.size() - pos < sizeof head) throw std::runtime_error("MPI: truncated message");
        std::memcpy(head, in.data() + pos, sizeof head);
        pos += sizeof head;
        if (head[0] >= into.size() || head[1] > in.size() - pos)
            throw std::runtime_error("MPI: malformed message");
        into[head[0]].assign(in, pos, head[1]);
        pos += head[1];
    }
}

} // namespace

MpiDistribution::MpiDistribution() {
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

std::vector<std::string>
MpiDistribution::gather(size_t count, const std::vector<std::pair<size_t, std::string>>& mine) {
    if (rank_ != 0) {
        const std::string msg = frame(mine);
        const uint64_t n = msg.size();
        check(MPI_Send(&n, 1, MPI_UINT64_T, 0, kSizeTag, MPI_COMM_WORLD), "MPI_Send");
        for (size_t at = 0; at < msg.size(); at += kChunk)
            check(MPI_Send(msg.data() + at, int(std::min(kChunk, msg.size() - at)), MPI_BYTE, 0,
                           kDataTag, MPI_COMM_WORLD),
                  "MPI_Send");
        return {};
    }
    std::vector<std::string> all(count);
    for (const auto& [index, bytes] : mine)
        if (index < count) all[index] = bytes;
    for (int from = 1; from < size_; ++from) { // in rank order: the same result every run
        uint64_t n = 0;
        check(MPI_Recv(&n, 1, MPI_UINT64_T, from, kSizeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
        std::string msg(n, '\0');
        for (size_t at = 0; at < msg.size(); at += kChunk)
            check(MPI_Recv(msg.data() + at, int(std::min(kChunk, msg.size() - at)), MPI_BYTE, from,
                           kDataTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                  "MPI_Recv");
        unframe(msg, all);
    }
    return all;
}

} // namespace lf::mpi
