// ViewFeed: a view out of sight in a shown window receives nothing until it is shown, then
// the last state and the selection that followed it; in sight, or while the window is not
// shown, it receives each at once.
#include "studio/view_feed.h"
#include "studio_states.h"

#include <QTest>
#include <QVBoxLayout>

using namespace lf;

namespace {

struct Received {
    std::vector<std::string> events; // "state <network>" / "selection <n layers>"
};

ViewFeed* feedFor(QWidget* view, Received& r, bool evenOutOfSight = false) {
    return new ViewFeed(
        view, [&r](const StudioState& s) { r.events.push_back("state " + s.network.name()); },
        [&r](const StudioSelection& s) {
            r.events.push_back("selection " + std::to_string(s.layers.size()));
        },
        evenOutOfSight);
}

// A shown window with a view in it, out of sight.
struct ShownWindow {
    QWidget window;
    QWidget* view = new QWidget(&window);
    ShownWindow() {
        (new QVBoxLayout(&window))->addWidget(view);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window)) qFatal("the window was not shown");
        view->hide();
    }
};

} // namespace

class TestViewFeed : public QObject {
    Q_OBJECT
  private slots:
    void aViewOutOfSightCatchesUpWhenShown() {
        ShownWindow w;
        Received r;
        ViewFeed* feed = feedFor(w.view, r);
        const StudioState a = test::defaultState("l3net"), b = test::defaultState("resnet18");
        feed->state(a);
        feed->selection(StudioSelection{{1}, -1});
        feed->state(b);
        feed->selection(StudioSelection{{1, 2}, -1});
        QVERIFY(r.events.empty());
        QVERIFY(feed->pending());
        w.view->show();
        QCOMPARE(r.events, (std::vector<std::string>{"state " + b.network.name(), "selection 2"}));
        QVERIFY(!feed->pending());
        feed->state(a); // in sight: at once
        QCOMPARE(r.events.back(), "state " + a.network.name());
    }

    void aViewOthersFollowIsFedOutOfSight() {
        ShownWindow w;
        Received r;
        ViewFeed* feed = feedFor(w.view, r, true);
        const StudioState s = test::defaultState("l3net");
        feed->state(s);
        QCOMPARE(r.events, std::vector<std::string>{"state " + s.network.name()});
    }

    void aWindowNotShownFeedsEveryViewAtOnce() {
        QWidget window;
        auto* view = new QWidget(&window);
        view->hide();
        Received r;
        ViewFeed* feed = feedFor(view, r);
        feed->state(test::defaultState("l3net"));
        feed->selection(StudioSelection{});
        QCOMPARE(r.events.size(), size_t(2));
        QVERIFY(!feed->pending());
    }
};

QTEST_MAIN(TestViewFeed)
#include "tst_view_feed.moc"
