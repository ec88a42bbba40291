// The bundled lessons (issue 7): each loads, its starting schedule does not meet the task,
// and its known solution does ("target met").
#include "examples/bundled.h"
#include "models/evaluate.h"
#include "teaching/lesson.h"
#include "test_support.h"

#include <QtTest>

using namespace lf;

class TestLessons : public QObject {
    Q_OBJECT
  private slots:
    void atLeastFiveLessons();
    void startNotMetSolutionMet();
    void badLessonsAreRefused_data();
    void badLessonsAreRefused();
};

void TestLessons::atLeastFiveLessons() {
    int n = 0;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == BundledKind::lesson) ++n;
    QVERIFY2(n >= 5, qPrintable(QString::number(n)));
}

void TestLessons::startNotMetSolutionMet() {
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::lesson) continue;
        auto l = readLessonYaml(f.text, bundledFileLabel(f));
        QVERIFY2(l.ok(), l.ok() ? "" : l.error().toString().c_str());
        QCOMPARE(l->name, std::string(f.name));
        QVERIFY(!l->task.empty());
        QVERIFY(!l->hints.empty());
        const Metrics start = evaluate(l->network, l->hardware, l->start);
        const LessonStatus s0 = checkLesson(*l, l->network, l->start, start);
        QVERIFY2(!s0.met, f.name);
        for (const TargetStatus& t : s0.targets)
            QVERIFY2(t.found, t.target.label.c_str());
        const Metrics sol = evaluate(l->network, l->hardware, l->solution);
        const LessonStatus s1 = checkLesson(*l, l->network, l->solution, sol);
        for (const TargetStatus& t : s1.targets)
            QVERIFY2(t.met, (std::string(f.name) + ": " + t.target.label + " — actual " +
                             std::to_string(t.actual))
                                .c_str());
        QVERIFY(s1.met);
        QVERIFY(checkSchedule(l->network, l->hardware, l->solution).empty());
    }
}

void TestLessons::badLessonsAreRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const QString head = "format: layerfuse/lesson@1\nname: x\ntitle: t\ntask: do\n";
    QTest::newRow("unknown network")
        << head + "network: nope\nhardware: hwff-config-1\ntargets: [{metric: macs, value: 1}]\n"
        << "no bundled network named 'nope'";
    QTest::newRow("unknown metric")
        << head + "network: l2net\nhardware: hwff-config-1\ntargets: [{metric: speed, value: 1}]\n"
        << "unknown metric 'speed'";
    QTest::newRow("bad scope") << head + "network: l2net\nhardware: hwff-config-1\ntargets: "
                                         "[{metric: macs, scope: \"layer:zz\", value: 1}]\n"
                               << "no layer named 'zz'";
    QTest::newRow("bad op") << head + "network: l2net\nhardware: hwff-config-1\ntargets: [{metric: "
                                      "macs, op: \"~\", value: 1}]\n"
                            << "op must be one of";
    QTest::newRow("no targets") << head + "network: l2net\nhardware: hwff-config-1\ntargets: []\n"
                                << "at least one target";
    QTest::newRow("illegal start")
        << head + "network: l2net\nhardware: hwff-config-1\ntargets: [{metric: macs, value: 1}]\n"
                  "start: {layers: {conv2: {tiles: {x: 99}}}}\n"
        << "Tx = 99 must be between 1 and Dx = 16";
}

void TestLessons::badLessonsAreRefused() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto l = readLessonYaml(text.toStdString(), "bad.lesson.yaml");
    QVERIFY(!l.ok());
    QVERIFY2(QString::fromStdString(l.error().message).contains(message),
             l.error().toString().c_str());
    QVERIFY(l.error().line > 0);
}

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
