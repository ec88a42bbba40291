#include "commands.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "search/distribution.h"
#include "util/format.h"

#include <iostream>

namespace lf::cli {

namespace {
Distribution* gDistribution = nullptr;
}

void setDistribution(Distribution* d) {
    gDistribution = d;
}

Distribution* distribution() {
    return gDistribution;
}

bool writesResults() {
    return !gDistribution || gDistribution->rank() == 0;
}

void printError(const std::string& msg) {
    std::cerr << msg << '\n';
}

std::optional<Schedule> readScheduleArg(const std::string& path, const Network& net, Hardware& hw,
                                        bool hardware_given, bool by_name) {
    ScheduleReadOptions ro;
    ro.check_hash = !by_name;
    auto sf = loadScheduleYamlFile(path, net, hw, ro);
    if (!sf) {
        printError(sf.error().toString());
        return std::nullopt;
    }
    if (!hardware_given && sf->hardware) {
        hw = *sf->hardware;
    } else if (!hardware_given && !sf->hardware_name.empty() && sf->hardware_name != hw.name) {
        std::vector<std::string> notes;
        auto named =
            resolveScheduleHardware(sf->hardware_name, sf->hardware_name_pos, path, &notes);
        for (const std::string& n : notes)
            std::cerr << "note: " << path << ": " << n << '\n';
        if (!named) {
            printError(named.error().toString());
            return std::nullopt;
        }
        hw = *named;
        sf = loadScheduleYamlFile(path, net, hw, ro); // tiles were checked against the other
        if (!sf) {
            printError(sf.error().toString());
            return std::nullopt;
        }
    }
    for (const std::string& s : sf->skipped)
        std::cerr << path << ": no layer " << quoteValue(s) << " in " << net.name()
                  << "; skipped\n";
    return std::move(sf->schedule);
}

Result<Hardware> resolveHardwareArg(const std::string& arg) {
    std::vector<std::string> notes;
    auto hw = resolveHardware(arg, &notes);
    for (const std::string& n : notes)
        std::cerr << "note: " << arg << ": " << n << '\n';
    return hw;
}

} // namespace lf::cli
