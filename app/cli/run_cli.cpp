// The command line of layerfuse-cli and layerfuse-mpi (docs/cli.md).
#include "commands.h"

#include <clocale>
#include <iostream>
#include <vector>

namespace lf::cli {

int runCli(int argc, char** argv, const std::string& program) {
    std::setlocale(LC_ALL, "C");
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
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsage;
    }
    for (auto& [sub, run] : runners)
        if (sub->parsed()) {
            try {
                return run();
            } catch (const std::exception& e) {
                printError(std::string("internal error: ") + e.what());
                return kBadInput;
            }
        }
    std::cerr << "A subcommand is required\nRun with --help for more information.\n";
    return kUsage;
}

} // namespace lf::cli
