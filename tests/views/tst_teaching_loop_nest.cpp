// LoopNestView: the loop nest of the docs/models/convfusion.md worked example (L2Net conv2, order
// z,y,x,i, T = 4, SL_X = CL_X = yi, SL_W = CL_W = tile, SL_Y = CL_Y = yi) shows its loops in order
// and its annotated volumes, follows every edit, colours the arrays, and names the loop the
// pointer rests on.
#include "models/evaluate.h"
#include "studio_states.h"
#include "teaching/loop_nest_highlighter.h"
#include "teaching/loop_nest_view.h"
#include "teaching/teaching_style.h"
#include "test_support.h"

#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>

using namespace lf;

namespace {

int lineOf(const QString& text, const QString& needle, int from = 0) {
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int k = from; k < lines.size(); ++k)
        if (lines[k].contains(needle)) return k;
    return -1;
}

} // namespace

class TestTeachingLoopNest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void workedExampleLoopsInOrder();
    void workedExampleVolumes();
    void followsEveryEdit();
    void arraysAreColoured();
    void hoveringALoopHighlightsAndSignals();
    void mouseOverALoop();
    void fusedGroupShowsCode3();
    void nothingSelected();
};

void TestTeachingLoopNest::workedExampleLoopsInOrder() {
    LoopNestView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    const QString text = view.codeText();
    QVERIFY(view.title().contains(QLatin1String("conv2")));
    // D = 4×16×16×4 (z, y, x, i), T = 4: outer zo, yo, xo, io, inner zi, yi, xi, ii, kernel n, m.
    int at = 0;
    for (const char* loop :
         {"for (int zo = 0; zo < 4; zo += 4)", "for (int yo = 0; yo < 16; yo += 4)",
          "for (int xo = 0; xo < 16; xo += 4)", "for (int io = 0; io < 4; io += 4)",
          "for (int zi = zo; zi < zo + 4; zi++)", "for (int yi = yo; yi < yo + 4; yi++)",
          "for (int xi = xo; xi < xo + 4; xi++)", "for (int ii = io; ii < io + 4; ii++)",
          "for (int n = 0; n < 3; n++)", "for (int m = 0; m < 3; m++)"}) {
        const int k = lineOf(text, QString::fromUtf8(loop), at);
        QVERIFY2(k >= at, loop);
        at = k + 1;
    }
    QVERIFY(lineOf(text,
                   QStringLiteral("Y[zi][yi][xi] += X[ii][yi*1+n][xi*1+m] * W[zi][ii][n][m];"),
                   at) >= at);
    // One text block per generated line.
    QCOMPARE(view.editor()->document()->blockCount(), int(view.loopNest().lines.size()));
}

void TestTeachingLoopNest::workedExampleVolumes() {
    LoopNestView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    const QString text = view.codeText();
    const int yi = lineOf(text, QStringLiteral("int yi = yo")),
              xi = lineOf(text, QStringLiteral("int xi = xo"));
    const int io = lineOf(text, QStringLiteral("int io = 0")),
              zi = lineOf(text, QStringLiteral("int zi = zo"));
    // X at yi: T_i · D_n · ((T_x−1)·S_x + D_m) = 4 · 3 · 6 = 72 elements, loaded
    // D_z · D_y · ⌈D_x/T_x⌉ · ⌈D_i/T_i⌉ = 4 · 16 · 4 · 1 = 256 times.
    const int allocX = lineOf(text, QStringLiteral("alloc X[72];"));
    const int loadX = lineOf(text, QStringLiteral("load X[4][3][6];"));
    QVERIFY(allocX > yi && allocX < xi);
    QVERIFY(loadX > yi && loadX < xi);
    QVERIFY(
        text.split(QLatin1Char('\n'))[loadX].contains(QLatin1String("Vol_X = 72, Trans_X = 256")));
    // W at the tile level: T_z · T_i · 3 · 3 = 144, once per (zo, yo, xo, io) = 1·4·4·1 = 16 times.
    const int loadW = lineOf(text, QStringLiteral("load W[144];"));
    QVERIFY(loadW > io && loadW < zi);
    QVERIFY(
        text.split(QLatin1Char('\n'))[loadW].contains(QLatin1String("Vol_W = 144, Trans_W = 16")));
    // Y: one output at yi (x and i run below it), 4·16·16 = 1024 outputs stored once each.
    QVERIFY(lineOf(text, QStringLiteral("alloc Y[1];")) > yi);
    QVERIFY(text.contains(QLatin1String("Acc_Y = 1024")));
}

void TestTeachingLoopNest::followsEveryEdit() {
    LoopNestView view;
    StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    QVERIFY(view.codeText().contains(QLatin1String("alloc X[72];")));
    // T_x = 2: the window is (2−1)·1 + 3 = 4 columns, Buf_X = 4 · 3 · 4 = 48; 8 x tiles.
    s.schedule.layers[size_t(s.network.find("conv2"))].tile[size_t(Dim::x)] = 2;
    view.setState(s);
    QVERIFY(view.codeText().contains(QLatin1String("alloc X[48];")));
    QVERIFY(view.codeText().contains(QLatin1String("for (int xo = 0; xo < 16; xo += 2)")));
    QVERIFY(!view.codeText().contains(QLatin1String("alloc X[72];")));
    // Another loop order moves the loops.
    s.schedule.layers[size_t(s.network.find("conv2"))].order = {Dim::y, Dim::x, Dim::z, Dim::i};
    view.setState(s);
    const QString text = view.codeText();
    QVERIFY(lineOf(text, QStringLiteral("int yo = 0")) <
            lineOf(text, QStringLiteral("int zo = 0")));
}

void TestTeachingLoopNest::arraysAreColoured() {
    LoopNestView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    const bool dark = view.highlighter()->isDark();
    auto formatsOf = [&](const QString& needle) {
        const int k = lineOf(view.codeText(), needle);
        return view.editor()->document()->findBlockByNumber(k).layout()->formats();
    };
    auto hasColour = [](const QList<QTextLayout::FormatRange>& f, const QColor& c) {
        for (const auto& r : f)
            if (r.format.foreground().color() == c) return true;
        return false;
    };
    QVERIFY(
        hasColour(formatsOf(QStringLiteral("alloc X[72];")), teaching::arrayColor(Arr::X, dark)));
    QVERIFY(
        hasColour(formatsOf(QStringLiteral("load W[144];")), teaching::arrayColor(Arr::W, dark)));
    QVERIFY(hasColour(formatsOf(QStringLiteral("store Y;")), teaching::arrayColor(Arr::Y, dark)));
    QVERIFY(
        !hasColour(formatsOf(QStringLiteral("alloc X[72];")), teaching::arrayColor(Arr::W, dark)));
    // Loop lines colour their keywords.
    QVERIFY(
        hasColour(formatsOf(QStringLiteral("int yi = yo")), teaching::codeColors(dark).keyword));

    // A dark palette recolours.
    QPalette p = view.palette();
    p.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    p.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    view.setPalette(p);
    QVERIFY(view.highlighter()->isDark());
    QVERIFY(
        hasColour(formatsOf(QStringLiteral("alloc X[72];")), teaching::arrayColor(Arr::X, true)));
}

void TestTeachingLoopNest::hoveringALoopHighlightsAndSignals() {
    LoopNestView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    QSignalSpy spy(&view, &LoopNestView::loopHovered);
    const QString text = view.codeText();
    const int yi = lineOf(text, QStringLiteral("int yi = yo")),
              yo = lineOf(text, QStringLiteral("int yo = 0"));
    view.hoverLine(yi);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<LayerId>(), s.network.find("conv2"));
    QCOMPARE(spy.at(0).at(1).toInt(), int(Dim::y));
    QCOMPARE(view.highlightedLines(), (QList<int>{yo, yi}));
    QCOMPARE(view.editor()->extraSelections().size(), 2);
    // Resting on the same loop again says nothing new; a statement line clears.
    view.hoverLine(yi);
    QCOMPARE(spy.count(), 1);
    view.hoverLine(lineOf(text, QStringLiteral("alloc X[72];")));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(1).toInt(), -1);
    QVERIFY(view.highlightedLines().isEmpty());
    // The kernel loop m is dim 5.
    view.hoverLine(lineOf(text, QStringLiteral("int m = 0")));
    QCOMPARE(spy.last().at(1).toInt(), 5);
}

void TestTeachingLoopNest::mouseOverALoop() {
    LoopNestView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(&view, &LoopNestView::loopHovered);
    const int xi = lineOf(view.codeText(), QStringLiteral("int xi = xo"));
    QPlainTextEdit* e = view.editor();
    const QTextBlock block = e->document()->findBlockByNumber(xi);
    const QRect r = e->cursorRect(QTextCursor(block));
    QTest::mouseMove(e->viewport(), QPoint(r.left() + 40, r.center().y()));
    QTRY_VERIFY(spy.count() >= 1);
    QCOMPARE(spy.last().at(1).toInt(), int(Dim::x));
}

void TestTeachingLoopNest::fusedGroupShowsCode3() {
    LoopNestView view;
    StudioState s = test::workedExampleState();
    const LayerId c1 = s.network.find("conv1"), c2 = s.network.find("conv2");
    s.schedule.layers[size_t(c1)].tile = {4, 18, 18, 3};
    FusionGroup g;
    g.name = "seg";
    g.layers = {c1, c2};
    s.schedule.groups = {g};
    normalize(s.schedule, s.network);
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    view.setState(s);
    // The layer alone first; the whole group on request.
    view.setSelection(test::layerSelection(s, "conv2"));
    QVERIFY(!view.codeText().contains(QLatin1String("inline production of conv1")));
    view.setShowWholeGroup(true);
    QCOMPARE(view.shownGroup(), 0);
    QVERIFY(view.codeText().contains(QLatin1String("inline production of conv1")));
    // Selecting the group shows its nest too: conv1 is produced at conv2's X store level (yi),
    // one X window at a time — 4 channels × 3 rows × 6 columns — as often as conv2 loads
    // it (Trans_X = 256).
    view.setShowWholeGroup(false);
    StudioSelection sel;
    sel.layers = {c1, c2};
    sel.group = 0;
    view.setSelection(sel);
    QVERIFY(view.title().contains(QLatin1String("Code 3")));
    QVERIFY(view.codeText().contains(QLatin1String("X_conv1[zi1][yi1][xi1] +=")));
    QVERIFY(view.codeText().contains(QStringLiteral("X_conv1[4][3][6]")));
    QVERIFY(view.codeText().contains(QStringLiteral("runs 256× over its consumer's tile")));
    QVERIFY(view.codeText().contains(QLatin1String("for (int yo1 = 0; yo1 < 3; yo1 += 3)")));
    QVERIFY(view.codeText().contains(QLatin1String("for (int xo1 = 0; xo1 < 6; xo1 += 6)")));
}

void TestTeachingLoopNest::nothingSelected() {
    LoopNestView view;
    view.setState(test::workedExampleState());
    view.setSelection({});
    QVERIFY(view.codeText().isEmpty());
    QVERIFY(view.title().contains(QLatin1String("Select")));
}

QTEST_MAIN(TestTeachingLoopNest)
#include "tst_teaching_loop_nest.moc"
