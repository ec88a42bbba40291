// The bundled lessons (issue 7): each loads, its starting schedule does not meet the task,
// and its known solution does ("target met").
#include "examples/bundled.h"
#include "models/evaluate.h"
#include "teaching/lesson.h"
#include "teaching/lesson_writer.h"
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
    void bundledLessonsWriteAndReadBack();
    void savedLessonRoundTrips();
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

namespace {

void compareLessons(const Lesson& a, const Lesson& b) {
    QCOMPARE(b.name, a.name);
    QCOMPARE(b.title, a.title);
    QCOMPARE(b.task, a.task);
    QCOMPARE(b.hints, a.hints);
    QCOMPARE(b.network_ref, a.network_ref);
    QCOMPARE(b.hardware_ref, a.hardware_ref);
    QCOMPARE(b.network.canonicalHash(), a.network.canonicalHash());
    QVERIFY(b.hardware == a.hardware);
    QVERIFY(b.start.groups == a.start.groups);
    QVERIFY(b.start.layers == a.start.layers);
    QVERIFY(b.solution.groups == a.solution.groups);
    QVERIFY(b.solution.layers == a.solution.layers);
    QCOMPARE(b.targets.size(), a.targets.size());
    for (size_t k = 0; k < a.targets.size(); ++k) {
        QCOMPARE(b.targets[k].metric, a.targets[k].metric);
        QCOMPARE(b.targets[k].scope, a.targets[k].scope);
        QCOMPARE(int(b.targets[k].op), int(a.targets[k].op));
        QCOMPARE(b.targets[k].value, a.targets[k].value);
        QCOMPARE(b.targets[k].label, a.targets[k].label);
    }
}

} // namespace

// Every bundled lesson written out reads back equal (the writer speaks the readers' format).
void TestLessons::bundledLessonsWriteAndReadBack() {
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::lesson) continue;
        auto l = readLessonYaml(f.text, bundledFileLabel(f));
        QVERIFY(l.ok());
        const std::string text = writeLessonYaml(*l);
        auto back = readLessonYaml(text, "written");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        compareLessons(*l, *back);
        QCOMPARE(writeLessonYaml(*back), text);
    }
}

// File ▸ Save as Lesson: the open network, hardware and schedule (as the solution) with
// targets the solution meets; bundled ones by name, one's own inline. Loading it is a lesson
// whose solution meets every target and whose start (the default schedule) misses one.
void TestLessons::savedLessonRoundTrips() {
    const Network l3 = test::bundledNetwork("l3net");
    const Hardware cf = test::bundledHardware("convfusion-40nm");
    Hardware own = cf;
    own.name = "small-buffer";
    own.buffer.bytes = 2048;
    for (const Hardware* hw : std::initializer_list<const Hardware*>{&cf, &own}) {
        const Schedule solution = test::l3netOneGroup(l3, *hw);
        const Metrics m = evaluate(l3, *hw, solution);
        const Lesson lesson = lessonFromDocument("my-lesson", "Fuse L3Net", "Fuse the layers.", l3,
                                                 *hw, solution, targetsMetBy(m));
        QCOMPARE(lesson.network_ref, std::string("l3net"));
        QCOMPARE(lesson.hardware_ref, hw == &cf ? std::string("convfusion-40nm") : std::string());
        const std::string text = writeLessonYaml(lesson);
        QVERIFY(text.find("format: layerfuse/lesson@1") != std::string::npos);
        auto back = readLessonYaml(text, "my-lesson.lesson.yaml");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        compareLessons(lesson, *back);
        const LessonStatus sol =
            checkLesson(*back, back->network, back->solution,
                        evaluate(back->network, back->hardware, back->solution));
        QVERIFY(sol.met);
        const LessonStatus start =
            checkLesson(*back, back->network, back->start,
                        evaluate(back->network, back->hardware, back->start));
        QVERIFY(!start.met);
    }
    // A network of one's own goes inline.
    const Network chain = test::residualChain(2);
    const Schedule s = defaultSchedule(chain, cf);
    const Lesson own2 = lessonFromDocument("chain", "A chain", "Look.", chain, cf, s,
                                           targetsMetBy(evaluate(chain, cf, s)));
    QVERIFY(own2.network_ref.empty());
    auto back = readLessonYaml(writeLessonYaml(own2), "chain.lesson.yaml");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    compareLessons(own2, *back);
    // Targets round up to 3 significant digits: met by the solution, not copied from it.
    const std::vector<LessonTarget> t = targetsMetBy(evaluate(l3, cf, defaultSchedule(l3, cf)));
    QCOMPARE(t.front().metric, std::string("dram_accesses"));
    QCOMPARE(t.front().value, 8670.0); // 8,664 accesses (lesson 3) rounded up
}

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
