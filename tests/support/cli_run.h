// Runs layerfuse-cli as a user does, for the CLI tests: arguments, working directory and
// where standard output goes; exit code, crash and both outputs come back.
#pragma once

#include <QString>
#include <QStringList>

#include <string>

namespace lf::test {

struct CliRun {
    int code = -1;
    bool crashed = false;
    std::string out, err;
    // "exit N" with both outputs (cut), for failure messages.
    std::string describe() const;
};

struct CliRunOptions {
    QString workingDirectory; // empty: the test's
    QString stdoutFile;       // non-empty: standard output goes to this file (e.g. /dev/full)
    int timeoutMs = 300000;
};

CliRun runCli(const QStringList& args, const CliRunOptions& opt = {});

} // namespace lf::test

#define QVERIFY_CLI(run, expectedCode)                                                             \
    QVERIFY2(!(run).crashed && (run).code == (expectedCode), (run).describe().c_str())
