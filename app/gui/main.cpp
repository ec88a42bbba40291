// layerfuse: the studio. `layerfuse [PROJECT | NETWORK | EXAMPLE]`.
#include "controllers/automation_report.h"
#include "controllers/edit_script.h"
#include "controllers/files_controller.h"
#include "controllers/recovery_controller.h"
#include "examples/bundled.h"
#include "graph/graph_canvas.h"
#include "main_window.h"
#include "studio/studio_style.h"
#include "util/allocator.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <clocale>
#include <cstdio>

namespace {

QString defaultExample() {
    if (lf::findBundled(lf::BundledKind::network, lf::kDefaultNetwork))
        return QString::fromLatin1(lf::kDefaultNetwork.data(),
                                   qsizetype(lf::kDefaultNetwork.size()));
    for (const lf::BundledFile& f : lf::bundledFiles())
        if (f.kind == lf::BundledKind::network) return QString::fromLatin1(f.name);
    return {};
}

} // namespace

int main(int argc, char** argv) {
    lf::keepFreedMemory();
    QElapsedTimer sinceStart;
    sinceStart.start();
    QApplication app(argc, argv);
    // Graphviz and some readers parse numbers with the C library: keep its numeric locale "C".
    std::setlocale(LC_NUMERIC, "C");
    QCoreApplication::setOrganizationName(QStringLiteral("LayerFuse"));
    QCoreApplication::setApplicationName(QStringLiteral("LayerFuse"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LAYERFUSE_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("LayerFuse"));
    QGuiApplication::setDesktopFileName(
        QStringLiteral("org.layerfuse.LayerFuse")); // packaging/*.desktop

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "LayerFuse — a design studio for layer-fusion scheduling of CNNs on accelerators."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral(
            "A project (.lfproj), a network (.net.yaml, .onnx), a lesson (.lesson.yaml) or the "
            "name of a bundled example (default: %1).")
            .arg(defaultExample()));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
                                         QStringLiteral("Colours: system, light or dark."),
                                         QStringLiteral("mode"));
    const QCommandLineOption resetLayout(
        QStringLiteral("reset-layout"),
        QStringLiteral("Ignore the saved window size and panel layout."));
    const QCommandLineOption noRecovery(
        QStringLiteral("no-recovery"),
        QStringLiteral("Do not offer to restore work left by a crashed session."));
    const QCommandLineOption quitAfterPaint(
        QStringLiteral("quit-after-first-paint"),
        QStringLiteral("Quit as soon as the graph has been painted; print the time since start "
                       "(startup benchmark)."));
    const QCommandLineOption uiReport(
        QStringLiteral("ui-report"),
        QStringLiteral("Keep FILE up to date with what the window shows as JSON: open dialogs, "
                       "texts that do not fit, where layers and dock tabs are (for scripts)."),
        QStringLiteral("file"));
    QCommandLineOption editsFromStdin(
        QStringLiteral("edits-from-stdin"),
        QStringLiteral("Apply fusion edits read from standard input, one a line (fuse, split, "
                       "ungroup, undo, redo), answering each on standard output."));
    editsFromStdin.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions(
        {themeOption, resetLayout, noRecovery, quitAfterPaint, uiReport, editsFromStdin});
    parser.process(app);

    const bool timing = parser.isSet(quitAfterPaint);
    lf::gui::applyStudioStyle(app, lf::gui::ThemeMode::system);
    lf::MainWindow::Options options;
    options.restoreSettings = !parser.isSet(resetLayout) && !timing;
    options.autosave = !timing;
    options.offerRecovery = !parser.isSet(noRecovery) && !timing;
    lf::MainWindow window(options);
    if (parser.isSet(themeOption))
        window.setTheme(lf::gui::themeModeFromName(parser.value(themeOption)));
    window.show();
    if (parser.isSet(uiReport))
        new lf::AutomationReport(window.studio(), &window, window.canvas(), parser.value(uiReport),
                                 &window);

    if (timing) {
        QObject::connect(window.canvas(), &lf::graph::GraphCanvas::firstPaint, &app, [&] {
            std::printf("first paint after %lld ms\n",
                        static_cast<long long>(sinceStart.elapsed()));
            std::fflush(stdout);
            QTimer::singleShot(0, &app, &QCoreApplication::quit);
        });
        QTimer::singleShot(30000, &app, [] { QCoreApplication::exit(2); });
    }

    const QStringList args = parser.positionalArguments();
    const QString first = args.isEmpty() ? defaultExample() : args.front();
    // A file that cannot be opened is reported; the default example keeps the studio useful.
    if (!first.isEmpty() && !window.files()->openPath(first) && !args.isEmpty())
        window.files()->openPath(defaultExample());
    if (!timing) QTimer::singleShot(0, &window, [&window] { window.recovery()->offerRecovery(); });
    lf::EditScript script(window.studio());
    if (parser.isSet(editsFromStdin)) script.followStandardInput();
    return app.exec();
}
