// layerfuse-cli: LayerFuse's engine without a display (docs/cli.md).
#include "cli_output.h"
#include "commands.h"

#include <clocale>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C");
    lf::cli::installStdout();
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
        const int code = app.exit(e);
        return lf::cli::flushStdout() ? code : int(lf::cli::kBadInput);
    } catch (const CLI::CallForAllHelp& e) {
        const int code = app.exit(e);
        return lf::cli::flushStdout() ? code : int(lf::cli::kBadInput);
    } catch (const CLI::CallForVersion& e) {
        const int code = app.exit(e);
        return lf::cli::flushStdout() ? code : int(lf::cli::kBadInput);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return lf::cli::kUsage;
    }
    for (auto& [sub, run] : runners)
        if (sub->parsed()) {
            int code = lf::cli::kBadInput;
            try {
                code = run();
            } catch (const std::exception& e) {
                lf::cli::printError(std::string("internal error: ") + e.what());
            }
            // Whatever the command printed must have arrived (full disk, closed pipe).
            if (!lf::cli::flushStdout() && code == lf::cli::kOk) code = lf::cli::kBadInput;
            return code;
        }
    std::cerr << "A subcommand is required\nRun with --help for more information.\n";
    return lf::cli::kUsage;
}
