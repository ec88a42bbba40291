// The command line of layerfuse-cli and layerfuse-mpi (docs/cli.md).
#include "cli_output.h"
#include "commands.h"

#include <clocale>
#include <iostream>
#include <vector>

namespace lf::cli {

int runCli(int argc, char** argv, const std::string& program) {
    std::setlocale(LC_ALL, "C");
    installStdout();
    CLI::App app{program + " — evaluate, optimize and convert layer-fusion schedules of CNNs",
                 program};
    app.set_version_flag("--version", program + " " + LAYERFUSE_VERSION);
    // At most one here; "none" is reported below. CLI11 checks a required subcommand before
    // unexpected arguments, so `layerfuse-cli --bogus` would only say a subcommand is missing.
    app.require_subcommand(0, 1);
    app.fallthrough(false);

    std::vector<std::pair<CLI::App*, Runner>> runners;
    auto track = [&](Runner r) {
        runners.emplace_back(app.get_subcommands([](CLI::App*) { return true; }).back(),
                             std::move(r));
    };
    track(addExamplesCommand(app));
    track(addConvertCommand(app));
    track(addEvaluateCommand(app));
    track(addOptimizeCommand(app));
    track(addExploreCommand(app));
    track(addExportCommand(app));
    track(addReproduceCommand(app));
    track(addSweepCommand(app));

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        const int code = app.exit(e);
        return flushStdout() ? code : int(kBadInput);
    } catch (const CLI::CallForAllHelp& e) {
        const int code = app.exit(e);
        return flushStdout() ? code : int(kBadInput);
    } catch (const CLI::CallForVersion& e) {
        const int code = app.exit(e);
        return flushStdout() ? code : int(kBadInput);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsage;
    }
    for (auto& [sub, run] : runners)
        if (sub->parsed()) {
            int code = kBadInput;
            try {
                code = run();
            } catch (const std::exception& e) {
                printError(std::string("internal error: ") + e.what());
            }
            // Whatever the command printed must have arrived (full disk, closed pipe).
            if (!flushStdout() && code == kOk) code = kBadInput;
            return code;
        }
    std::cerr << "A subcommand is required\nRun with --help for more information.\n";
    return kUsage;
}

} // namespace lf::cli
