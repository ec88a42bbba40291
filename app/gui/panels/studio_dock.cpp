#include "panels/studio_dock.h"

#include <QDockWidget>
#include <QScrollArea>

namespace lf {

QDockWidget* makeDock(QWidget* window, QWidget* content, const QString& title,
                      const QString& objectName, bool scrollable) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    if (scrollable) {
        auto* scroll = new QScrollArea(dock);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(content);
        dock->setWidget(scroll);
    } else {
        dock->setWidget(content);
    }
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    return dock;
}

} // namespace lf
