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

ViewFeed* feedFor(QWidget* view, Received& r) {
    return new ViewFeed(
        view, [&r](const StudioState& s) { r.events.push_back("state " + s.network.name()); },
        [&r](const StudioSelection& s) {
            r.events.push_back("selection " + std::to_string(s.layers.size()));
        });
}

} // namespace

class TestViewFeed : public QObject {
    Q_OBJECT
  private slots:
    void aViewOutOfSightCatchesUpWhenShown() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* view = new QWidget(&window);
        layout->addWidget(view);
        Received r;
        ViewFeed* feed = feedFor(view, r);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->hide();
        const StudioState a = test::defaultState("l3net"), b = test::defaultState("resnet18");
        feed->state(a);
        feed->selection(StudioSelection{{1}, -1});
        feed->state(b);
        feed->selection(StudioSelection{{1, 2}, -1});
        QVERIFY(r.events.empty());
        QVERIFY(feed->pending());
        view->show();
        QCOMPARE(r.events, (std::vector<std::string>{"state " + b.network.name(), "selection 2"}));
        QVERIFY(!feed->pending());
        feed->state(a); // in sight: at once
        QCOMPARE(r.events.back(), "state " + a.network.name());
    }

    void aViewOthersFollowIsFedOutOfSight() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* view = new QWidget(&window);
        layout->addWidget(view);
        Received r;
        auto* feed = new ViewFeed(
            view, [&r](const StudioState&) { r.events.push_back("state"); },
            [&r](const StudioSelection&) { r.events.push_back("selection"); }, true);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->hide();
        feed->state(test::defaultState("l3net"));
        QCOMPARE(r.events, std::vector<std::string>{"state"});
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
