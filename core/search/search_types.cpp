#include "search/search_types.h"

#include <algorithm>

namespace lf {

const char* toString(Objective o) {
    switch (o) {
    case Objective::dram:
        return "dram";
    case Objective::energy:
        return "energy";
    case Objective::latency:
        return "latency";
    case Objective::edp:
        return "edp";
    }
    return "?";
}

std::optional<Objective> objectiveFromString(std::string_view s) {
    for (Objective o : {Objective::dram, Objective::energy, Objective::latency, Objective::edp})
        if (s == toString(o)) return o;
    return std::nullopt;
}

const char* toString(TileSet t) {
    switch (t) {
    case TileSet::divisors:
        return "divisors";
    case TileSet::pow2:
        return "pow2";
    case TileSet::all:
        return "all";
    }
    return "?";
}

std::optional<TileSet> tileSetFromString(std::string_view s) {
    for (TileSet t : {TileSet::divisors, TileSet::pow2, TileSet::all})
        if (s == toString(t)) return t;
    return std::nullopt;
}

std::vector<int64_t> tileCandidates(int64_t d, TileSet set) {
    d = std::max<int64_t>(1, d);
    std::vector<int64_t> out;
    switch (set) {
    case TileSet::divisors: {
        std::vector<int64_t> high;
        for (int64_t k = 1; k * k <= d; ++k)
            if (d % k == 0) {
                out.push_back(k);
                if (k != d / k) high.push_back(d / k);
            }
        out.insert(out.end(), high.rbegin(), high.rend());
        break;
    }
    case TileSet::pow2:
        for (int64_t k = 1; k < d; k *= 2)
            out.push_back(k);
        out.push_back(d);
        break;
    case TileSet::all:
        out.reserve(size_t(d));
        for (int64_t k = 1; k <= d; ++k)
            out.push_back(k);
        break;
    }
    return out;
}

} // namespace lf
