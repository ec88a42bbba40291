// The studio's layouter: Graphviz runs in layerfuse-layout, a child process (app/layout),
// behind the same synchronous Layouter interface. In a process of its own:
//  - dot 2.42's leaks on graphs with clusters (~100 KB per layout; the studio lays out again
//    after every group edit) go back to the system when the process is replaced;
//  - layouts are reproducible: in one long-lived process dot's result for the same graph
//    changes with what it laid out before (its orderings depend on heap addresses), while a
//    fresh process always gives the same picture, so undo restores exactly the old view;
//  - a crash inside Graphviz becomes a layout error instead of losing unsaved work.
// By default each layout gets a fresh helper (protocol::kLayoutsPerHelper), started right
// after the previous layout (about 2 ms, off the edit's critical path). Without a helper,
// layouts run in-process.
#pragma once

#include "graph/layout_protocol.h"
#include "graph/layouter.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QProcess;

namespace lf::graph {

class ProcessLayouter final : public Layouter {
  public:
    struct Options {
        QString program; // the helper's path; empty: in-process from the start
        // Layouts served by one helper process before a fresh one.
        int recycle_after = protocol::kLayoutsPerHelper;
        int timeout_ms = 120000; // one layout, start to result (1,000 layers take ~0.3 s)
    };
    explicit ProcessLayouter(Options options);
    ~ProcessLayouter() override;

    LayoutResult layout(const LayoutRequest& request) override;

    // For tests and the About box.
    bool usingHelper() const { return !options_.program.isEmpty() && !helperFailed_; }
    qint64 helperProcessId() const;
    int layoutsServedByCurrentHelper() const { return served_; }

  private:
    bool ensureStarted(QString& error);
    void retire();
    void reap();
    void startSpare();
    LayoutResult inProcess(const LayoutRequest& request);
    // One request/reply with the running helper; nullopt with `ended` when it is gone.
    std::optional<LayoutResult> exchange(const std::vector<uint8_t>& frame, bool& ended,
                                         std::string& error);

    Options options_;
    std::unique_ptr<QProcess> process_;
    std::unique_ptr<QProcess> retiring_; // closed, exiting; reaped at the next layout
    std::unique_ptr<Layouter> fallback_;
    int served_ = 0;
    bool helperFailed_ = false; // could not be started: in-process from now on
};

// Where layerfuse-layout is: $LAYERFUSE_LAYOUT_HELPER, next to the running program, in
// ../libexec/layerfuse/ (the installed layout), or in the build tree. Empty when none runs.
QString findLayoutHelper();

// The layouter the canvas uses: the helper process when found, else Graphviz in-process.
std::unique_ptr<Layouter> makeDefaultLayouter();

} // namespace lf::graph
