#include "controllers/help_controller.h"

#include "graph/layouter.h"
#include "qt_text.h"
#include "studio/studio_style.h"

#include <QAction>
#include <QMessageBox>

namespace lf {

HelpController::HelpController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this) {
    setObjectName(QStringLiteral("helpController"));
    QAction* about = actions_.add(QStringLiteral("about"), tr("&About LayerFuse"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &HelpController::about);
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
