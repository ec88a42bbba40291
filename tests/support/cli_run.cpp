#include "cli_run.h"

#include "test_support.h"

#include <QProcess>

namespace lf::test {

std::string CliRun::describe() const {
    return "exit " + std::to_string(code) + (crashed ? " (crashed)" : "") +
           "\nstdout: " + out.substr(0, 2000) + "\nstderr: " + err.substr(0, 2000);
}

CliRun runCli(const QStringList& args, int timeout_ms) {
    CliRunOptions o;
    o.timeout_ms = timeout_ms;
    return runCli(args, o);
}

CliRun runCli(const QStringList& args, const CliRunOptions& options) {
    const int timeout_ms = options.timeout_ms;
    QProcess p;
    p.setProgram(cliPath());
    p.setArguments(args);
    if (!options.working_directory.isEmpty()) p.setWorkingDirectory(options.working_directory);
    if (!options.stdout_file.isEmpty()) p.setStandardOutputFile(options.stdout_file);
    p.start();
    CliRun r;
    if (!p.waitForStarted(10000)) {
        r.err = "could not start " + cliPath().toStdString();
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.code = p.exitCode();
    const QByteArray o = p.readAllStandardOutput(), e = p.readAllStandardError();
    r.out.assign(o.constData(), size_t(o.size()));
    r.err.assign(e.constData(), size_t(e.size()));
    return r;
}

} // namespace lf::test
