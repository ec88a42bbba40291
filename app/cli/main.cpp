// layerfuse-cli: LayerFuse's engine without a display (docs/cli.md).
#include "commands.h"

#include <clocale>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C");
    CLI::App app{"layerfuse-cli — evaluate, optimize and convert layer-fusion schedules of CNNs",
                 "layerfuse-cli"};
    app.set_version_flag("--version", std::string("layerfuse-cli ") + LAYERFUSE_VERSION);
    // At most one here; "none" is reported below. CLI11 checks a required subcommand before
    // unexpected arguments, so `layerfuse-cli --bogus` would only say a subcommand is missing.
    app.require_subcommand(0, 1);
    app.fallthrough(false);

    std::vector<std::pair<CLI::App*, lf::cli::Runner>> runners;
    auto track = [&](lf::cli::Runner r) {
        runners.emplace_back(app.get_subcommands([](CLI::App*) { return true; }).back(),
                             std::move(r));
    };
    track(lf::cli::addExamplesCommand(app));
    track(lf::cli::addConvertCommand(app));
    track(lf::cli::addEvaluateCommand(app));
    track(lf::cli::addOptimizeCommand(app));
    track(lf::cli::addExploreCommand(app));
    track(lf::cli::addExportCommand(app));
    track(lf::cli::addReproduceCommand(app));

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
        return lf::cli::kUsage;
    }
    for (auto& [sub, run] : runners)
        if (sub->parsed()) {
            try {
                return run();
            } catch (const std::exception& e) {
                lf::cli::printError(std::string("internal error: ") + e.what());
                return lf::cli::kBadInput;
            }
        }
    std::cerr << "A subcommand is required\nRun with --help for more information.\n";
    return lf::cli::kUsage;
}
