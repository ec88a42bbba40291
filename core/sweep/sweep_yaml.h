// Sweep specification (`*.sweep.yaml`, format layerfuse/sweep@1; docs/file-formats.md
// "Sweep YAML"): a grid of networks × hardware × hardware values × group strategies for
// `layerfuse-cli sweep`.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/search_types.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

struct SweepSpec {
    struct Entry {
        std::string name; // a bundled name, or a file relative to the spec's directory
        SourcePos pos;
    };
    std::vector<Entry> networks, hardware;
    // Hardware values to try; an empty list keeps the hardware's own.
    std::vector<int64_t> buffer_bytes, pe_cols, pe_rows, batch;
    std::vector<Strategy> strategies{Strategy::optimus};
    Objective objective = Objective::dram;
    std::string file; // the spec's path ("" for text in memory)
};

Result<SweepSpec> readSweepYaml(std::string_view text, const std::string& file);
Result<SweepSpec> loadSweepYamlFile(const std::string& path);

// The networks and hardware the spec names, loaded; errors at the entry's LINE:COLUMN.
struct SweepInputs {
    std::vector<Network> networks;
    std::vector<Hardware> hardware;
};
Result<SweepInputs> loadSweepInputs(const SweepSpec& spec);

} // namespace lf
