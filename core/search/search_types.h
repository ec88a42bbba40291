// Types shared by the searches of core/search (docs/models/optimus.md, docs/models/convfusion.md):
// objectives, tile sets, the two level spaces, cancellation and progress.
//
// Searches are pure functions of (network, hardware, options) like the models; long ones
// take a SearchControl so that a caller on another thread can cancel them and show progress.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

// What a search minimizes. EDP = energy × latency.
enum class Objective : uint8_t { dram, energy, latency, edp };
const char* toString(Objective o);
std::optional<Objective> objectiveFromString(std::string_view s);

// Candidate tile sizes per dimension (ConvFusion §V-B): the divisors of the dimension,
// the powers of two below it plus the dimension itself, or every size 1..D.
enum class TileSet : uint8_t { divisors, pow2, all };
const char* toString(TileSet t);
std::optional<TileSet> tileSetFromString(std::string_view s);

// Ascending candidate sizes for a dimension of extent `d` (always holds 1 and d).
std::vector<int64_t> tileCandidates(int64_t d, TileSet set);

// Which store/compute levels a search visits (docs/models/README.md).
//  - legal: every combination the schedule constraints allow (CL at or below SL, SL_Y at
//    or below SL_X and SL_W).
//  - sound (default): the legal combinations whose buffers the closed form sizes
//    correctly. ConvFusion §III-C lets a compute level below the store level fold a buffer
//    because "old data ... will no longer be reused within the current iteration" of the
//    store level (ConvFusion Fig. 2: a rotating buffer along the sliding kernel). The closed form
//    applies the fold whatever the folded loops are, so an unrestricted search would keep
//    a κ-sized window of every array with no extra traffic. Sound folding keeps the
//    paper's condition: every folded loop indexes the array (X: x, y, i; W: z, i), and a
//    loop along which windows overlap (x, y of X) is the innermost folded loop. Partial
//    sums stay on chip only inside one ii sweep (ConvFusion §IV-B3 folds completed outputs), so the
//    store levels of X and W — hence Y's — are at or above the ii loop and Y is not
//    folded. Fused producers have no Y array and their i loop is untiled, so only the
//    folding rules apply to them.
enum class LevelSpace : uint8_t { sound, legal };

// Cancellation and progress for long searches. `cancel` is polled often enough that a
// search stops within a few milliseconds after it becomes true; `progress` receives a
// fraction in [0, 1] and a short description of the current step, always on the thread
// that called the search.
struct SearchControl {
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double fraction, const std::string& what)> progress;
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(double fraction, const std::string& what) const {
        if (progress) progress(fraction, what);
    }
};

} // namespace lf
