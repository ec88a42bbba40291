// The walk of every search over one layer's schedule space (search/layer_space.h): every
// structure and tile vector, costed by the batched closed form (search/closed_form_batch.h),
// with branch and bound on the buffer.
#pragma once

#include "search/closed_form_batch.h"
#include "search/layer_space.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace lf {

// Every (structure, tile vector) of one layer, tiles of dims a structure ignores held at D.
// `visit(structureIndex, z, y, x, i, cost)` gets the closed form of that schedule
// (search/closed_form_batch.h, equal to convFusionLayer) and returns the layer's own buffer
// bits; the loops break once that exceeds `budget` — branch and bound on the buffer
// (docs/models/convfusion.md): every buffer term grows with every tile, so a tile vector that does
// not fit does not fit with any larger tile either. Returns false when `cancel` became true.
class TileEnumerator {
  public:
    TileEnumerator(const FastLayer& fl, TileSet set)
        : fl_(&fl), cand_{fl.candidates(Dim::z, set), fl.candidates(Dim::y, set),
                          fl.candidates(Dim::x, set), fl.candidates(Dim::i, set)} {}

    template <class Visit>
    bool run(const std::vector<LevelStructure>& list, int64_t budget,
             const std::atomic<bool>* cancel, int64_t& evals, Visit&& visit) const {
        for (size_t si = 0; si < list.size(); ++si)
            if (!runStructure(list, si, budget, cancel, evals, visit)) return false;
        return true;
    }

    // The same for structure `si` of `list` alone.
    template <class Visit>
    bool runStructure(const std::vector<LevelStructure>& list, size_t si, int64_t budget,
                      const std::atomic<bool>* cancel, int64_t& evals, Visit&& visit) const {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        const LevelStructure& s = list[si];
        std::array<const TileValue*, 4> b{}, e{};
        for (Dim d : kAllDims) {
            const auto& c = cand_[size_t(d)];
            const bool rel = s.relevant & dimBit(d);
            b[size_t(d)] = rel ? c.data() : &c.back();
            e[size_t(d)] = c.data() + c.size();
        }
        thread_local ClosedFormBatch batch;
        batch.build(*fl_, s, b, e);
        const size_t nz = size_t(e[0] - b[0]), ny = size_t(e[1] - b[1]), nx = size_t(e[2] - b[2]),
                     ni = size_t(e[3] - b[3]);
        for (size_t z = 0; z < nz; ++z) {
            bool anyY = false;
            for (size_t y = 0; y < ny; ++y) {
                if (cancel && cancel->load(std::memory_order_relaxed)) return false;
                bool anyX = false;
                for (size_t x = 0; x < nx; ++x) {
                    const ClosedFormBatch::Row row = batch.row(z, y, x);
                    bool anyI = false;
                    for (size_t i = 0; i < ni; ++i) {
                        ++evals;
                        if (visit(si, b[0][z], b[1][y], b[2][x], b[3][i], batch.eval(row, i)) >
                            budget)
                            break;
                        anyI = true;
                    }
                    if (!anyI) break;
                    anyX = true;
                }
                if (!anyX) break;
                anyY = true;
            }
            if (!anyY) break;
        }
        return true;
    }

  private:
    const FastLayer* fl_;
    std::array<std::vector<TileValue>, 4> cand_;
};

} // namespace lf
