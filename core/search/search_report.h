// What an automatic search did and what its bounds left out, as JSON (`optimize --report`)
// and as one line for a status bar or a terminal. docs/model-notes.md ("Optimus DP bounds",
// "Bounded DSE") explains the bounds.
#pragma once

#include "network/network.h"
#include "search/dse_optimize.h"
#include "search/optimus_fuser.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lf {

nlohmann::ordered_json optimusReportJson(const Network& net, const OptimusFuserOptions& opt,
                                         const OptimusFuserResult& r);
nlohmann::ordered_json dseReportJson(const DseOptimizeOptions& opt, const DseOptimizeResult& r);

// "" when the search was complete, else what it did not explore, e.g. "not explored: groups
// limited in size at 1 fan-out layer(s) (e.g. at most 9 layers at 'stem'), at least 11 larger
// groups not formed".
std::string optimusNotExplored(const Network& net, const OptimusFuserResult& r);
std::string dseNotExplored(const DseOptimizeOptions& opt, const DseOptimizeResult& r);

// Peak resident memory of this process so far, bytes (0 when unknown).
int64_t peakResidentBytes();

} // namespace lf
