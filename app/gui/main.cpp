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
#include <memory>
#include <string_view>

namespace {

QString defaultExample() {
    if (lf::findBundled(lf::BundledKind::network, lf::kDefaultNetwork))
        return QString::fromLatin1(lf::kDefaultNetwork.data(),
                                   qsizetype(lf::kDefaultNetwork.size()));
    for (const lf::BundledFile& f : lf::bundledFiles())
        if (f.kind == lf::BundledKind::network) return QString::fromLatin1(f.name);
    return {};
}

// Whether the command line asks only for the help or the version text, which needs no display
// (QCommandLineParser::process prints it and exits).
bool onlyHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--") return false; // what follows is a file name
        // (Not --help-all: it lists the GUI's Qt options, which only a QApplication knows.)
        if (a == "-h" || a == "--help" || a == "-?" || a == "-v" || a == "--version") return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    lf::keepFreedMemory();
    QElapsedTimer sinceStart;
    sinceStart.start();
    // `layerfuse --help` or `--version` from a shell without a display (over ssh, in a
    // container): a QApplication would stop at the missing platform plugin before printing.
    std::unique_ptr<QCoreApplication> app;
    if (onlyHelpOrVersion(argc, argv))
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv);
    // Graphviz and some readers parse numbers with the C library: keep its numeric locale "C".
    std::setlocale(LC_NUMERIC, "C");
    QCoreApplication::setOrganizationName(QStringLiteral("LayerFuse"));
    QCoreApplication::setApplicationName(QStringLiteral("LayerFuse"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LAYERFUSE_VERSION));
    if (qobject_cast<QApplication*>(app.get())) {
        QGuiApplication::setApplicationDisplayName(QStringLiteral("LayerFuse"));
        QGuiApplication::setDesktopFileName(
            QStringLiteral("org.layerfuse.LayerFuse")); // packaging/*.desktop
    }

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
    parser.process(*app); // prints the help or the version and exits when asked for
    auto* gui = qobject_cast<QApplication*>(app.get());
    if (!gui) return 0;

    const bool timing = parser.isSet(quitAfterPaint);
    lf::gui::applyStudioStyle(*gui, lf::gui::ThemeMode::system);
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
        QObject::connect(window.canvas(), &lf::graph::GraphCanvas::firstPaint, app.get(), [&] {
            std::printf("first paint after %lld ms\n",
                        static_cast<long long>(sinceStart.elapsed()));
            std::fflush(stdout);
            QTimer::singleShot(0, app.get(), &QCoreApplication::quit);
        });
        QTimer::singleShot(30000, app.get(), [] { QCoreApplication::exit(2); });
    }

    const QStringList args = parser.positionalArguments();
    const QString first = args.isEmpty() ? defaultExample() : args.front();
    // A file that cannot be opened is reported; the default example keeps the studio useful.
    if (!first.isEmpty() && !window.files()->openPath(first) && !args.isEmpty())
        window.files()->openPath(defaultExample());
    if (!timing) QTimer::singleShot(0, &window, [&window] { window.recovery()->offerRecovery(); });
    lf::EditScript script(window.studio());
    if (parser.isSet(editsFromStdin)) script.followStandardInput();
    return app->exec();
}
