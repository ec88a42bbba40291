#include "studio/evaluator.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <exception>

namespace lf {

Evaluator::Evaluator(QObject* parent)
    : QObject(parent), engine_(std::make_shared<IncrementalEvaluator>()) {
    pool_.setMaxThreadCount(1); // one worker: the IncrementalEvaluator is not thread-safe
    connect(&watcher_, &QFutureWatcher<Result>::finished, this, &Evaluator::onFinished);
}

Evaluator::~Evaluator() {
    pending_.reset();
    pool_.waitForDone();
}

quint64 Evaluator::request(StudioState state) {
    state.metrics.reset();
    state.previous.reset();
    state.fitting_tiles.reset();
    pending_ = Job{std::move(state), ++generation_};
    if (!running_) startNext();
    return generation_;
}

void Evaluator::resetHistory() {
    lastMetrics_.reset();
}

void Evaluator::startNext() {
    if (!pending_) return;
    running_job_ = std::move(*pending_);
    pending_.reset();
    running_ = true;
    const Job job = running_job_;
    const EvaluateOptions options = options_;
    std::shared_ptr<IncrementalEvaluator> engine = engine_;
    watcher_.setFuture(QtConcurrent::run(&pool_, [job, options, engine]() {
        Result r;
        r.generation = job.generation;
        const auto start = std::chrono::steady_clock::now();
        try {
            r.metrics = std::make_shared<const Metrics>(engine->evaluate(
                job.state.network, job.state.hardware, job.state.schedule, options));
            r.recomputedGroups = engine->lastRecomputedGroups();
        } catch (const std::exception& e) {
            r.error = QString::fromUtf8(e.what());
            engine->clear();
        }
        r.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (r.metrics) {
            // Every "over capacity" comes with the nearest tile that fits (not part of the
            // evaluation time: the metrics are complete without it).
            auto fits = std::make_shared<std::vector<FittingTile>>();
            try {
                // The first kMaxFittingSearches groups over capacity: the metrics wait.
                int searched = 0;
                for (size_t g = 0; g < r.metrics->groups.size(); ++g) {
                    if (r.metrics->groups[g].fits) continue;
                    if (++searched > kMaxFittingSearches) break;
                    if (auto f = nearestFittingTile(job.state.network, job.state.hardware,
                                                    job.state.schedule, int(g), options))
                        fits->push_back(std::move(*f));
                }
            } catch (const std::exception&) {
                fits->clear(); // no offer; the metrics stand
            }
            r.fittingTiles = std::move(fits);
        }
        return r;
    }));
}

void Evaluator::onFinished() {
    running_ = false;
    const Result r = watcher_.result();
    if (r.generation == generation_) {
        if (!r.error.isEmpty()) {
            emit evaluationFailed(r.error);
        } else {
            StudioState s = std::move(running_job_.state);
            s.metrics = r.metrics;
            s.fitting_tiles = r.fittingTiles;
            s.previous = lastMetrics_;
            lastMetrics_ = r.metrics;
            latest_ = s;
            emit stateReady(latest_);
            emit evaluated(r.milliseconds, r.recomputedGroups);
        }
    }
    // Anything older than the newest request is dropped without being published.
    startNext();
}

void Evaluator::waitForIdle() {
    while (busy()) {
        watcher_.waitForFinished();
        QCoreApplication::sendPostedEvents(&watcher_);
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    }
}

} // namespace lf
