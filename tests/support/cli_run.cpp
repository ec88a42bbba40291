#include "cli_run.h"

#include "test_support.h"

#include <QProcess>

namespace lf::test {

CliRun runCli(const QStringList& args, int timeoutMs) {
    QProcess p;
    p.setProgram(cliPath());
    p.setArguments(args);
    p.start();
    CliRun r;
    if (!p.waitForStarted(10000)) {
        r.err = "could not start " + cliPath().toStdString();
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.code = r.crashed ? -1 : p.exitCode();
    const QByteArray o = p.readAllStandardOutput(), e = p.readAllStandardError();
    r.out.assign(o.constData(), size_t(o.size()));
    r.err.assign(e.constData(), size_t(e.size()));
    return r;
}

std::string describe(const CliRun& r) {
    return "exit " + std::to_string(r.code) + (r.crashed ? " (crashed)" : "") +
           "\nstdout: " + r.out.substr(0, 2000) + "\nstderr: " + r.err.substr(0, 2000);
}

} // namespace lf::test
