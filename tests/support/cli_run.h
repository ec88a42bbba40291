// Runs layerfuse-cli as a user does and keeps what it printed (for tests/cli).
#pragma once

#include <QString>
#include <QStringList>

#include <string>

namespace lf::test {

struct CliRun {
    int code = -1;
    bool crashed = false;
    std::string out, err;
    // "exit N", crash state and the start of both streams, for failure messages.
    std::string describe() const;
    bool ok(int expected_code = 0) const { return !crashed && code == expected_code; }
};

struct CliRunOptions {
    QString working_directory; // empty: the test's
    QString stdout_file;       // non-empty: standard output goes to this file (/dev/full)
    int timeout_ms = 120000;
};

// Starts the CLI under test with `args` and waits for it (at most `timeout_ms`).
CliRun runCli(const QStringList& args, int timeout_ms = 120000);
CliRun runCli(const QStringList& args, const CliRunOptions& options);

} // namespace lf::test

// The run ended normally with `expectedCode`; else what it printed is shown.
#define QVERIFY_RUN(run, expectedCode) QVERIFY2((run).ok(expectedCode), (run).describe().c_str())
