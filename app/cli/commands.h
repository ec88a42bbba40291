// layerfuse-cli subcommands. Each returns the process exit code:
// 0 success, 1 bad input (message on stderr as FILE:LINE:COLUMN: message), 2 usage error.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>

namespace lf {
class Distribution;
}

namespace lf::cli {

enum ExitCode { kOk = 0, kBadInput = 1, kUsage = 2 };

// Registers a subcommand on `app`; the returned callback runs it after parsing.
using Runner = std::function<int()>;
Runner addExamplesCommand(CLI::App& app);
Runner addConvertCommand(CLI::App& app);
Runner addEvaluateCommand(CLI::App& app);
Runner addOptimizeCommand(CLI::App& app);
Runner addExploreCommand(CLI::App& app);
Runner addExportCommand(CLI::App& app);
Runner addReproduceCommand(CLI::App& app);
Runner addSweepCommand(CLI::App& app);

// Parses the arguments and runs the subcommand; returns the exit code.
int runCli(int argc, char** argv, const std::string& program);

// The processes a run is spread over (layerfuse-mpi); nullptr: this process alone. Only the
// root (rank 0) writes results.
void setDistribution(Distribution* d);
Distribution* distribution();
bool writesResults();

// Progress of a long search on stderr ("label: 42% what"), or nothing when stderr is not
// a terminal.
std::function<void(double, const std::string&)> stderrProgress(const std::string& label);

// Prints "error: ..." style messages consistently.
void printError(const std::string& msg);

// The schedule file `path` applied to `net` (evaluate, export). Without --hardware
// (`hardware_given` false) the hardware the schedule holds or names replaces `hw`; a name is a
// bundled preset or a file relative to the schedule (resolveScheduleHardware). With `by_name`
// a schedule made for another network applies to the layers whose names match (the others are
// reported on stderr). Prints the error and returns nothing on bad input.
std::optional<Schedule> readScheduleArg(const std::string& path, const Network& net, Hardware& hw,
                                        bool hardware_given, bool by_name);
// resolveHardware() that prints what the import of a ZigZag accelerator assumed, as
// "note: ..." lines on stderr.
Result<Hardware> resolveHardwareArg(const std::string& arg);

} // namespace lf::cli
