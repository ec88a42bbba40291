#include "controllers/help_controller.h"

#include "graph/layouter.h"
#include "qt_text.h"
#include "studio/studio_style.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QWhatsThis>

#include <algorithm>

namespace lf {

HelpController::HelpController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this) {
    setObjectName(QStringLiteral("helpController"));
    connect(actions_.add(QStringLiteral("manual"), tr("LayerFuse &Manual"), {},
                         QKeySequence::HelpContents, tr("The user manual of the studio")),
            &QAction::triggered, this, [this] { showManual(); });
    connect(actions_.add(QStringLiteral("shortcuts"), tr("&Keyboard Shortcuts")),
            &QAction::triggered, this, &HelpController::showShortcuts);
    QAction* whatsThis =
        actions_.adopt(QWhatsThis::createAction(this), QStringLiteral("whatsThis"));
    whatsThis->setText(tr("&What's This?"));
    QAction* about = actions_.add(QStringLiteral("about"), tr("&About LayerFuse"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &HelpController::about);
}

QString HelpController::shortcutsHtml() const {
    // The window's actions, each once, by menu text (mnemonic ampersands and dots removed).
    QList<QPair<QString, QString>> rows;
    QWidget* window = studio_->window();
    if (window) {
        for (const QAction* a : window->findChildren<QAction*>()) {
            if (a->shortcuts().isEmpty() || a->text().isEmpty()) continue;
            QString text = a->text();
            text.remove(QLatin1Char('&'));
            text.remove(QStringLiteral("…"));
            QStringList keys;
            for (const QKeySequence& k : a->shortcuts())
                keys << k.toString(QKeySequence::NativeText);
            const QPair<QString, QString> row{text, keys.join(QStringLiteral(", "))};
            if (!rows.contains(row)) rows << row;
        }
    }
    std::sort(rows.begin(), rows.end());
    QString html =
        QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><tr><th>Action</th>"
                       "<th>Keys</th></tr>");
    for (const auto& [text, keys] : rows)
        html += QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td></tr>")
                    .arg(text.toHtmlEscaped(), keys.toHtmlEscaped());
    html += QStringLiteral("</table><p>On the canvas: Ctrl+wheel or pinch zooms, the wheel and "
                           "Space+drag pan, Shift-click adds to the selection, a drag on the "
                           "background selects with a rubber band.</p>");
    return html;
}

QString HelpController::manualHtml() const {
    QFile file(QStringLiteral(":/layerfuse/help/manual.html"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    QString html = QString::fromUtf8(file.readAll());
    html.replace(QStringLiteral("<!--shortcuts-->"), shortcutsHtml());
    return html;
}

QDialog* HelpController::helpWindow(const QString& objectName, const QString& title,
                                    const QString& html) {
    QWidget* window = studio_->window();
    auto* dialog = window ? window->findChild<QDialog*>(objectName) : nullptr;
    if (!dialog) {
        dialog = new QDialog(window);
        dialog->setObjectName(objectName);
        dialog->setWindowTitle(title);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        auto* browser = new QTextBrowser(dialog);
        browser->setObjectName(QStringLiteral("helpBrowser"));
        browser->setOpenExternalLinks(true);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        auto* v = new QVBoxLayout(dialog);
        v->addWidget(browser, 1);
        v->addWidget(buttons);
        dialog->resize(760, 640);
    }
    dialog->findChild<QTextBrowser*>(QStringLiteral("helpBrowser"))->setHtml(html);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

QDialog* HelpController::showManual(const QString& anchor) {
    QDialog* d = helpWindow(QStringLiteral("manualWindow"), tr("LayerFuse Manual"), manualHtml());
    if (!anchor.isEmpty())
        d->findChild<QTextBrowser*>(QStringLiteral("helpBrowser"))->scrollToAnchor(anchor);
    return d;
}

QDialog* HelpController::showShortcuts() {
    return helpWindow(QStringLiteral("shortcutsWindow"), tr("Keyboard Shortcuts"),
                      QStringLiteral("<h2>%1</h2>").arg(tr("Keyboard Shortcuts")) +
                          shortcutsHtml());
}

void HelpController::about() {
    QMessageBox box(studio_->window());
    box.setWindowTitle(tr("About LayerFuse"));
    box.setIconPixmap(gui::appIcon().pixmap(64, 64));
    box.setTextFormat(Qt::RichText);
    box.setText(
        tr("<h3>LayerFuse %1</h3><p>A design studio for layer-fusion scheduling of CNNs on "
           "accelerators: edit fusion groups on the network's graph and see buffer footprint, DRAM "
           "traffic, latency and energy recomputed at once.</p>"
           "<p>Qt %2 · %3</p>")
            .arg(QStringLiteral(LAYERFUSE_VERSION), QString::fromLatin1(qVersion()),
                 qs(graph::graphvizBackendInfo())));
    box.exec();
}

} // namespace lf
