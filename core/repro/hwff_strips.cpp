#include "repro/hwff_strips.h"

#include <functional>

namespace lf::repro::detail {

std::vector<std::vector<SubArray>> coveringStrips(int n, int pex, int pey, int min_rows) {
    std::vector<std::vector<SubArray>> out;
    std::vector<SubArray> cur;
    std::function<void(bool, int)> rec = [&](bool cols, int offset) {
        const int total = cols ? pex : pey;
        if (int(cur.size()) == n) {
            if (offset == total) out.push_back(cur);
            return;
        }
        for (int w = 1; w <= total - offset; ++w) {
            if (total % w != 0) continue;
            const SubArray a = cols ? SubArray{offset, 0, w, pey} : SubArray{0, offset, pex, w};
            if (a.rows < min_rows) continue;
            cur.push_back(a);
            rec(cols, offset + w);
            cur.pop_back();
        }
    };
    rec(true, 0);
    rec(false, 0);
    return out;
}

} // namespace lf::repro::detail
