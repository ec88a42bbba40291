#include "panels/dock_layout.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>

#include <algorithm>

namespace lf {

DockLayout::DockLayout(QMainWindow* window, QDockWidget* left, QDockWidget* right,
                       QDockWidget* rightBottom, QDockWidget* bottom)
    : QObject(window), window_(window), left_(left), right_(right), rightBottom_(rightBottom),
      bottom_(bottom), actions_(this) {
    setObjectName(QStringLiteral("dockLayout"));
    boundDockSizes();
    initialState_ = window_->saveState();
    connect(actions_.add(QStringLiteral("resetLayout"), tr("&Reset Layout"), {}, {},
                         tr("Every panel back in its first-start place and size")),
            &QAction::triggered, this, &DockLayout::resetLayout);
    QAction* presenter = actions_.add(QStringLiteral("presenterMode"), tr("&Presenter Mode"), {},
                                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
                                      tr("Larger text everywhere, for a projector"));
    presenter->setCheckable(true);
    connect(presenter, &QAction::toggled, this, &DockLayout::setPresenterMode);
    applyDefaultSizes();
}

void DockLayout::boundDockSizes() {
    // A panel that needs more room than its dock has scrolls instead of pushing the window
    // off the screen.
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
        QWidget* content = dock->widget();
        if (!content || qobject_cast<QScrollArea*>(content)) continue;
        const QSize need = content->minimumSizeHint();
        if (need.width() <= 300 && need.height() <= 240) continue;
        auto* scroll = new QScrollArea(dock);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(content); // takes ownership; the view keeps its connections
        dock->setWidget(scroll);
    }
    // The layout keeps the minimum it computed while the panels were unbounded: recompute it.
    window_->layout()->invalidate();
    window_->layout()->activate();
}

void DockLayout::applyDefaultSizes() {
    const QScreen* screen = window_->screen() ? window_->screen() : QApplication::primaryScreen();
    applyDefaultSizes(screen ? screen->availableGeometry() : QRect(0, 0, 1280, 800));
}

void DockLayout::applyDefaultSizes(const QRect& avail) {
    // The window: 1280 × 800 where the screen has room, else most of the screen; on a large
    // screen a larger share of it.
    int w = std::max(1280, avail.width() * 9 / 10), h = std::max(800, avail.height() * 9 / 10);
    if (avail.width() >= 1280) w = std::min(w, avail.width());
    if (avail.height() >= 800) h = std::min(h, avail.height());
    if (!window_->isMaximized()) window_->resize(w, h);
    // Side docks as wide as their forms need (the lessons' buttons, the partition kinds),
    // growing with the screen; the canvas and the bottom docks take the rest.
    const int side = std::clamp(w / 4, 320, 460);
    window_->resizeDocks({left_, right_}, {side, std::clamp(w * 3 / 10, 390, 560)}, Qt::Horizontal);
    window_->resizeDocks({right_, rightBottom_}, {h * 53 / 100, h * 37 / 100}, Qt::Vertical);
    window_->resizeDocks({bottom_}, {std::clamp(h * 3 / 10, 230, 380)}, Qt::Vertical);
}

void DockLayout::resetLayout() {
    window_->restoreState(initialState_);
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
        if (dock->isFloating()) dock->setFloating(false);
    applyDefaultSizes();
}

void DockLayout::setPresenterMode(bool on) {
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    if (!app) return;
    if (baseFontSize_ <= 0) baseFontSize_ = QApplication::font().pointSizeF();
    presenter_ = on;
    QFont f = QApplication::font();
    f.setPointSizeF(on ? baseFontSize_ * kPresenterScale : baseFontSize_);
    QApplication::setFont(f);
    if (QAction* a = actions_[QStringLiteral("presenterMode")]; a->isChecked() != on)
        a->setChecked(on);
}

void DockLayout::readSettings(const QSettings& settings) {
    if (settings.value(QStringLiteral("presenterMode"), false).toBool()) setPresenterMode(true);
}

void DockLayout::writeSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("presenterMode"), presenter_);
}

void DockLayout::windowShown() {
    // Dock sizes only settle once the window has its real size.
    if (!shown_ && !restored_) QTimer::singleShot(0, this, [this] { applyDefaultSizes(); });
    shown_ = true;
}

} // namespace lf
