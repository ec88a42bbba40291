#include "commands.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "util/format.h"

#include <iostream>

namespace lf::cli {

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
        auto named = resolveScheduleHardware(sf->hardware_name, sf->hardware_name_pos, path);
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

} // namespace lf::cli
