// `layerfuse-cli sweep SPEC.yaml` — a grid of networks × hardware values × strategies through
// the Optimus DP (sweep/sweep.h), one CSV row per point, on every core; under layerfuse-mpi
// across the ranks too.
#include "commands.h"

#include "search/work_pool.h"
#include "sweep/sweep.h"
#include "sweep/sweep_yaml.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace lf::cli {

namespace {

bool writeRows(std::ostream& out, const std::vector<std::string>& rows) {
    out << sweepCsvHeader();
    for (const std::string& r : rows)
        out << r;
    out.flush();
    return bool(out);
}

// Through a temporary file renamed at the end: a failed run leaves no truncated CSV.
bool writeRowsFile(const std::string& path, const std::vector<std::string>& rows) {
    const std::string tmp = path + ".part";
    bool ok;
    {
        std::ofstream f(tmp, std::ios::binary);
        ok = f && writeRows(f, rows);
    }
    std::error_code ec;
    if (ok) std::filesystem::rename(tmp, path, ec);
    if (!ok || ec) std::filesystem::remove(tmp, ec);
    return ok && !ec;
}

} // namespace

Runner addSweepCommand(CLI::App& app) {
    struct Opts {
        std::string spec, out;
        int threads = 0;
    };
    auto o = std::make_shared<Opts>();
    auto* sub = app.add_subcommand(
        "sweep", "Optimus DP over a grid of networks × hardware values × strategies (CSV)");
    sub->add_option("SPEC", o->spec, "Sweep specification (.sweep.yaml)")->required();
    sub->add_option("-o,--output", o->out, "Write the CSV here (default: standard output)");
    sub->add_option("--threads", o->threads, "Worker threads (0: all cores)")
        ->check(CLI::NonNegativeNumber);
    return [o]() {
        const auto t0 = std::chrono::steady_clock::now();
        auto spec = loadSweepYamlFile(o->spec);
        if (!spec) {
            printError(spec.error().toString());
            return int(kBadInput);
        }
        auto in = loadSweepInputs(*spec);
        if (!in) {
            printError(in.error().toString());
            return int(kBadInput);
        }
        WorkPool pool(o->threads);
        const std::vector<std::string> rows = runSweep(*spec, *in, &pool, distribution());
        if (!writesResults()) return int(kOk);
        if (o->out.empty() ? !writeRows(std::cout, rows) : !writeRowsFile(o->out, rows)) {
            printError((o->out.empty() ? std::string("standard output") : o->out) +
                       ": cannot write");
            return int(kBadInput);
        }
        std::cerr << "sweep: " << rows.size() << " points in "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
                  << " s\n";
        return int(kOk);
    };
}

} // namespace lf::cli
