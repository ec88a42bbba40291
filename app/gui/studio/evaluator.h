// Evaluator: runs core::evaluate off the GUI thread and publishes StudioState snapshots with
// their metrics. One serial worker with an IncrementalEvaluator (only changed groups are
// recomputed); a generation counter makes the latest request win — results of superseded
// requests are dropped, and requests made while one runs replace each other.
#pragma once

#include "models/evaluate.h"
#include "studio_state.h"

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include <memory>
#include <optional>

namespace lf {

class Evaluator : public QObject {
    Q_OBJECT
  public:
    explicit Evaluator(QObject* parent = nullptr);
    ~Evaluator() override;

    // Queues an evaluation of `state` (its metrics are ignored); returns its generation.
    quint64 request(StudioState state);
    // Forgets the metrics deltas refer to (a new document was opened).
    void resetHistory();
    void setOptions(const EvaluateOptions& options) { options_ = options; }

    quint64 generation() const { return generation_; }
    bool busy() const { return running_ || pending_.has_value(); }
    // The last published state (metrics may be null before the first result).
    const StudioState& latest() const { return latest_; }
    // Blocks until the queue is empty (tests, command-line exports).
    void waitForIdle();
    // Groups over capacity that get a nearest fitting tile with each evaluation.
    static constexpr int kMaxFittingSearches = 16;

    struct Result {
        quint64 generation = 0;
        std::shared_ptr<const Metrics> metrics;
        double milliseconds = 0;
        int recomputedGroups = 0;
        std::shared_ptr<const std::vector<FittingTile>> fittingTiles;
        QString error;
    };

  signals:
    void stateReady(const lf::StudioState& state);
    void evaluated(double milliseconds, int recomputedGroups);
    void evaluationFailed(const QString& message);

  private:
    struct Job {
        StudioState state;
        quint64 generation = 0;
    };
    void startNext();
    void onFinished();

    QThreadPool pool_;
    QFutureWatcher<Result> watcher_;
    std::shared_ptr<IncrementalEvaluator> engine_;
    EvaluateOptions options_;
    std::optional<Job> pending_;
    Job running_job_;
    bool running_ = false;
    quint64 generation_ = 0;
    std::shared_ptr<const Metrics> lastMetrics_;
    StudioState latest_;
};

} // namespace lf
