#include "graph/process_layouter.h"

#include "graph/layout_protocol.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QProcess>

namespace lf::graph {

ProcessLayouter::ProcessLayouter(Options options) : options_(std::move(options)) {}

ProcessLayouter::~ProcessLayouter() {
    retire();
    reap();
}

qint64 ProcessLayouter::helperProcessId() const {
    return process_ && process_->state() == QProcess::Running ? process_->processId() : 0;
}

// Ends the current helper: closing its stdin makes it exit on its own. It is reaped at the
// next layout (by then it has long exited), so no layout waits for it.
void ProcessLayouter::retire() {
    reap();
    if (!process_) return;
    process_->closeWriteChannel();
    retiring_ = std::move(process_);
    served_ = 0;
}

void ProcessLayouter::reap() {
    if (!retiring_) return;
    if (!retiring_->waitForFinished(2000)) {
        retiring_->kill();
        retiring_->waitForFinished(2000);
    }
    retiring_.reset();
}

// Starts a helper without waiting for it: it loads while the user looks at the last layout.
void ProcessLayouter::startSpare() {
    if (process_) return;
    process_ = std::make_unique<QProcess>();
    process_->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process_->start(options_.program, {});
}

bool ProcessLayouter::ensureStarted(QString& error) {
    if (process_ && process_->state() == QProcess::Starting) process_->waitForStarted(10000);
    if (process_ && process_->state() == QProcess::Running) return true;
    process_.reset();
    served_ = 0;
    startSpare();
    if (!process_->waitForStarted(10000)) {
        error = process_->errorString();
        process_.reset();
        return false;
    }
    return true;
}

LayoutResult ProcessLayouter::inProcess(const LayoutRequest& request) {
    if (!fallback_) fallback_ = makeGraphvizLayouter();
    return fallback_->layout(request);
}

LayoutResult ProcessLayouter::layout(const LayoutRequest& request) {
    if (!usingHelper()) return inProcess(request);
    const std::vector<uint8_t> out = protocol::frame(protocol::encode(request));
    // A helper that ended between two layouts is replaced once; one that ends on this
    // request twice (a crash inside Graphviz) makes this layout fail, and the studio lives on.
    reap();
    for (int attempt = 0;; ++attempt) {
        QString startError;
        if (!ensureStarted(startError)) {
            // No helper to talk to: Graphviz in this process.
            qWarning("layerfuse: %s could not be started (%s); laying out in-process",
                     qPrintable(options_.program), qPrintable(startError));
            helperFailed_ = true;
            return inProcess(request);
        }
        bool ended = false;
        std::string error;
        if (auto result = exchange(out, ended, error)) {
            if (++served_ >= options_.recycle_after) {
                retire();
                startSpare();
            }
            return std::move(*result);
        }
        process_->kill();
        process_->waitForFinished(2000);
        process_.reset();
        served_ = 0;
        if (ended && attempt == 0) continue;
        LayoutResult failed;
        failed.error = "the Graphviz layout process " + error;
        return failed;
    }
}

std::optional<LayoutResult> ProcessLayouter::exchange(const std::vector<uint8_t>& frame,
                                                      bool& ended, std::string& error) {
    const QDeadlineTimer deadline(options_.timeout_ms);
    auto gone = [&] {
        ended = process_->state() != QProcess::Running;
        error = ended ? "ended unexpectedly" : "timed out";
        return std::nullopt;
    };
    if (process_->write(reinterpret_cast<const char*>(frame.data()), qint64(frame.size())) !=
        qint64(frame.size()))
        return gone();
    auto readExactly = [&](qint64 n, QByteArray& into) {
        into.clear();
        while (into.size() < n) {
            if (process_->bytesAvailable() == 0 &&
                !process_->waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime()))))
                return false;
            into += process_->read(n - into.size());
        }
        return true;
    };
    QByteArray header, payload;
    if (!readExactly(4, header)) return gone();
    const uint32_t n = protocol::frameLength(reinterpret_cast<const uint8_t*>(header.constData()));
    if (n > protocol::kMaxFrameBytes) {
        error = "sent a malformed reply";
        return std::nullopt;
    }
    if (!readExactly(qint64(n), payload)) return gone();
    std::string decodeError;
    auto result =
        protocol::decodeResult(std::vector<uint8_t>(payload.begin(), payload.end()), decodeError);
    if (!result) error = "sent a malformed reply (" + decodeError + ")";
    return result;
}

QString findLayoutHelper() {
    const QString name = QStringLiteral("layerfuse-layout");
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("LAYERFUSE_LAYOUT_HELPER"); !env.isEmpty()) {
        if (env == QLatin1String("none")) return {};
        candidates << env;
    }
    if (QCoreApplication::instance()) {
        const QString dir = QCoreApplication::applicationDirPath();
        candidates << dir + '/' + name << dir + QStringLiteral("/../libexec/layerfuse/") + name;
    }
#ifdef LAYERFUSE_LAYOUT_HELPER_BUILD_PATH
    candidates << QStringLiteral(LAYERFUSE_LAYOUT_HELPER_BUILD_PATH);
#endif
    for (const QString& c : candidates) {
        const QFileInfo info(c);
        if (info.isFile() && info.isExecutable()) return info.canonicalFilePath();
    }
    return {};
}

std::unique_ptr<Layouter> makeDefaultLayouter() {
    ProcessLayouter::Options o;
    o.program = findLayoutHelper();
    return std::make_unique<ProcessLayouter>(std::move(o));
}

} // namespace lf::graph
