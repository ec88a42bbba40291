// The studio's speed goals (issue 4): Graphviz layout of ResNet-50 <= 300 ms, one edit on
// ResNet-50 until the panels and canvas show it <= 50 ms, start to first painted canvas
// <= 1.5 s; and a 1,000-layer network laid out and painted at any zoom. Runs offscreen. The
// studio measurements run first: the in-process Graphviz ones leave dot's leaks in this heap.
#include "controllers/files_controller.h"
#include "edits/schedule_edits.h"
#include "examples/bundled.h"
#include "graph/graph_canvas.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/layouter.h"
#include "graph/process_layouter.h"
#include "io/network_yaml.h"
#include "main_window.h"
#include "models/evaluate.h"
#include "network/network.h"
#include "test_support.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <chrono>
#include <clocale>
#include <stdexcept>

// Under `valgrind --tool=callgrind --collect-atstart=no --separate-threads=yes`, only the
// edits are counted, per thread (the toggles are no-ops outside valgrind).
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LF_TOGGLE_COLLECT() CALLGRIND_TOGGLE_COLLECT
#else
#define LF_TOGGLE_COLLECT()
#endif

using namespace lf;

namespace {

StudioState stateOf(const Network& net) {
    StudioState s;
    s.network = net;
    auto hw = loadBundledHardware(kDefaultHardware);
    s.hardware = hw ? *hw : Hardware{};
    s.schedule = defaultSchedule(net, s.hardware);
    return s;
}

MainWindow::Options benchOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    o.autosave = false;
    o.offerRecovery = false;
    return o;
}

// Waits (event loop running) until the window published a state with metrics.
bool waitPublished(MainWindow& w, int timeoutMs = 10000) {
    QEventLoop loop;
    bool got = false;
    auto c = QObject::connect(w.studio(), &Studio::statePublished, &loop, [&] {
        got = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return got;
}

// Counts the layouts that reached the canvas; waits (event loop running) for the next ones.
class LayoutCounter {
  public:
    explicit LayoutCounter(MainWindow& w) {
        QObject::connect(w.canvas(), &graph::GraphCanvas::layoutApplied, &loop_, [this] {
            ++count_;
            loop_.quit();
        });
    }
    int count() const { return count_; }
    // Until more than `seen` layouts arrived.
    bool waitPast(int seen, int timeoutMs) {
        QTimer timeout;
        timeout.setSingleShot(true);
        QObject::connect(&timeout, &QTimer::timeout, &loop_, &QEventLoop::quit);
        timeout.start(timeoutMs);
        while (count_ <= seen && timeout.isActive())
            loop_.exec();
        return count_ > seen;
    }

  private:
    QEventLoop loop_;
    int count_ = 0;
};

// A watchdog on the GUI thread: a timer every 2 ms, the longest gap between two ticks minus
// the period is the longest stall of the event loop.
class StallWatch {
  public:
    StallWatch() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(kPeriodMs);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.nsecsElapsed();
            longestNs_ = std::max(longestNs_, now - lastNs_);
            lastNs_ = now;
        });
        clock_.start();
        timer_.start();
    }
    // The longest stall since the last call, in milliseconds.
    double takeLongestMs() {
        const double ms = std::max(0.0, double(longestNs_) / 1e6 - kPeriodMs);
        longestNs_ = 0;
        lastNs_ = clock_.nsecsElapsed();
        return ms;
    }

  private:
    static constexpr int kPeriodMs = 2;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 lastNs_ = 0;
    qint64 longestNs_ = 0;
};

// Edit → evaluated on the worker → every panel, chart and the canvas updated and repainted.
// Fuses two layers and undoes it, alternately.
// `untilLaidOut`: until the canvas also shows the edit's new layout (made off the GUI thread).
void editToUpdate(benchmark::State& state, const char* network, const char* a, const char* b,
                  bool untilLaidOut = false) {
    MainWindow w(benchOptions());
    w.resize(1280, 800);
    w.show();
    LayoutCounter layouts(w);
    w.files()->openBundled(QString::fromLatin1(network));
    if (!waitPublished(w)) state.SkipWithError("no first state");
    if (!layouts.waitPast(0, 30000)) state.SkipWithError("no first layout");
    const Network& net = w.document()->network();
    const std::vector<LayerId> layers{net.find(a), net.find(b)};
    bool fused = false;
    for (auto _ : state) {
        LF_TOGGLE_COLLECT();
        const auto start = std::chrono::steady_clock::now();
        const int seen = layouts.count();
        if (!fused)
            w.document()->fuse(layers);
        else
            w.document()->undoStack()->undo();
        fused = !fused;
        if (!waitPublished(w)) state.SkipWithError("no state");
        if (untilLaidOut && !layouts.waitPast(seen, 30000)) state.SkipWithError("no layout");
        QCoreApplication::processEvents(); // the repaint the update scheduled
        state.SetIterationTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        LF_TOGGLE_COLLECT();
    }
    state.counters["layers"] = double(net.size());
}

void BM_EditToUpdateResNet50(benchmark::State& state) {
    editToUpdate(state, "resnet50", "layer2.1.conv1", "layer2.1.conv2");
}
BENCHMARK(BM_EditToUpdateResNet50)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(40);

void BM_EditToUpdateResNet152(benchmark::State& state) {
    editToUpdate(state, "resnet152", "layer3.10.conv1", "layer3.10.conv2");
}
BENCHMARK(BM_EditToUpdateResNet152)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(40);

void BM_EditToLayoutResNet152(benchmark::State& state) {
    editToUpdate(state, "resnet152", "layer3.10.conv1", "layer3.10.conv2", true);
}
BENCHMARK(BM_EditToLayoutResNet152)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);

// The longest time the GUI thread did not run its event loop while a 5,000-layer network is
// edited (fuse, undo), each edit waited for until its new layout is on the canvas: a 2 ms
// watchdog timer records the largest gap between its ticks. The opening of the network is
// measured apart (open_stall_ms).
void BM_GuiStall5000Layers(benchmark::State& state) {
    MainWindow w(benchOptions());
    w.resize(1280, 800);
    w.show();
    const Network net = test::residualChain(1666);
    auto hw = loadBundledHardware(kDefaultHardware);
    StallWatch watch;
    LayoutCounter layouts(w);
    w.document()->reset(net, hw ? *hw : Hardware{}, defaultSchedule(net, hw ? *hw : Hardware{}));
    if (!layouts.waitPast(0, 300000)) state.SkipWithError("no first layout");
    const double openStall = watch.takeLongestMs();
    const std::vector<LayerId> layers{net.find("b800c1"), net.find("b800c2")};
    bool fused = false;
    double longest = 0;
    for (auto _ : state) {
        LF_TOGGLE_COLLECT();
        watch.takeLongestMs();
        const int seen = layouts.count();
        if (!fused)
            w.document()->fuse(layers);
        else
            w.document()->undoStack()->undo();
        fused = !fused;
        if (!layouts.waitPast(seen, 300000)) state.SkipWithError("no layout");
        QCoreApplication::processEvents();
        const double stall = watch.takeLongestMs();
        longest = std::max(longest, stall);
        state.SetIterationTime(stall / 1000.0);
        LF_TOGGLE_COLLECT();
    }
    state.counters["layers"] = double(net.size());
    state.counters["longest_stall_ms"] = longest;
    state.counters["open_stall_ms"] = openStall;
}
BENCHMARK(BM_GuiStall5000Layers)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(6);

// `layerfuse --quit-after-first-paint`: process start to the first painted canvas.
void BM_StartToFirstPaint(benchmark::State& state) {
    double inProcess = 0;
    for (auto _ : state) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        const auto start = std::chrono::steady_clock::now();
        p.start(QStringLiteral(LAYERFUSE_STUDIO_PATH),
                {QStringLiteral("--quit-after-first-paint")});
        if (!p.waitForFinished(30000) || p.exitCode() != 0) {
            state.SkipWithError("the studio did not paint");
            break;
        }
        state.SetIterationTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        const QByteArray out = p.readAllStandardOutput();
        const int at = out.indexOf("after ");
        if (at >= 0) inProcess += out.mid(at + 6).split(' ').front().toDouble();
    }
    state.counters["in_process_ms"] =
        benchmark::Counter(inProcess, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_StartToFirstPaint)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// The request the canvas makes for a network (measured node sizes, fused clusters).
graph::LayoutRequest requestFor(const StudioState& s) {
    graph::GraphScene scene;
    scene.setState(s);
    return scene.lastRequest();
}

void BM_LayoutResNet50(benchmark::State& state) {
    const graph::LayoutRequest req = requestFor(stateOf(test::bundledNetwork("resnet50")));
    auto layouter = graph::makeGraphvizLayouter();
    for (auto _ : state) {
        auto res = layouter->layout(req);
        if (!res.ok) state.SkipWithError(res.error.c_str());
        benchmark::DoNotOptimize(res);
    }
    state.counters["nodes"] = double(req.nodes.size());
}
BENCHMARK(BM_LayoutResNet50)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// Every bottleneck block of ResNet-50 fused: 16 clusters.
void BM_LayoutResNet50Fused(benchmark::State& state) {
    StudioState s = stateOf(test::bundledNetwork("resnet50"));
    const int blocks[] = {3, 4, 6, 3};
    for (int stage = 1; stage <= 4; ++stage)
        for (int b = 0; b < blocks[stage - 1]; ++b) {
            const std::string p = "layer" + std::to_string(stage) + "." + std::to_string(b) + ".";
            std::vector<LayerId> layers;
            for (const char* n : {"conv1", "conv2", "conv3", "downsample", "add"})
                if (const LayerId id = s.network.find(p + n); id != kNoLayer) layers.push_back(id);
            ScheduleEdit e = fuseLayers(s.network, s.hardware, s.schedule, layers);
            if (!e.ok) {
                state.SkipWithError(e.reason.c_str());
                return;
            }
            s.schedule = e.schedule;
        }
    const graph::LayoutRequest req = requestFor(s);
    // 0: Graphviz in this process; 1: the studio's way, a fresh layerfuse-layout process per
    // layout (started right after the previous one; back to back, as here, the next layout
    // also waits for that start).
    auto layouter =
        state.range(0) == 0 ? graph::makeGraphvizLayouter() : graph::makeDefaultLayouter();
    for (auto _ : state) {
        auto res = layouter->layout(req);
        if (!res.ok) state.SkipWithError(res.error.c_str());
        benchmark::DoNotOptimize(res);
    }
    state.counters["clusters"] = double(req.clusters.size());
    state.SetLabel(state.range(0) == 0 ? "in-process" : "helper process");
}
BENCHMARK(BM_LayoutResNet50Fused)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Layout1000Layers(benchmark::State& state) {
    const Network net = test::residualChain(334);
    StudioState s;
    s.network = net;
    normalize(s.schedule, net);
    const graph::LayoutRequest req = requestFor(s);
    auto layouter = graph::makeGraphvizLayouter();
    for (auto _ : state) {
        auto res = layouter->layout(req);
        if (!res.ok) state.SkipWithError(res.error.c_str());
        benchmark::DoNotOptimize(res);
    }
    state.counters["nodes"] = double(req.nodes.size());
}
BENCHMARK(BM_Layout1000Layers)->Unit(benchmark::kMillisecond)->Iterations(3);

// One frame of the 1,000-layer canvas at a zoom (level of detail keeps far zooms cheap).
void BM_Paint1000Layers(benchmark::State& state) {
    const double zoom = double(state.range(0)) / 100.0;
    const Network net = test::residualChain(334);
    StudioState s;
    s.network = net;
    normalize(s.schedule, net);
    graph::GraphCanvas canvas;
    canvas.resize(1000, 700);
    canvas.setState(s);
    canvas.show();
    canvas.setZoom(zoom);
    canvas.setViewCenter(canvas.scene()->graphRect().center());
    QImage frame(canvas.view()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter p(&frame);
        canvas.view()->render(&p);
    }
    state.counters["zoom_percent"] = double(state.range(0));
}
BENCHMARK(BM_Paint1000Layers)
    ->Arg(5)
    ->Arg(25)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::setlocale(LC_NUMERIC, "C");
    QStandardPaths::setTestModeEnabled(true);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
