// Running layerfuse-cli as a user does, for the tests of the command line.
#pragma once

#include <QStringList>

#include <string>

namespace lf::test {

struct CliRun {
    int code = -1;        // the exit code; -1 when it crashed, timed out or did not start
    bool crashed = false; // ended by a signal
    std::string out, err;
};

// Runs layerfuse-cli with `args` (stdin closed) and waits for it.
CliRun runCli(const QStringList& args, int timeoutMs = 120000);
// "exit N (crashed)\nstdout: ...\nstderr: ..." for failure messages.
std::string describe(const CliRun& run);

} // namespace lf::test

// The run ended normally with `expectedCode`; else the run is shown.
#define QVERIFY_RUN(run, expectedCode)                                                             \
    QVERIFY2(!(run).crashed && (run).code == (expectedCode), lf::test::describe(run).c_str())
