// AutomationReport (`layerfuse --ui-report FILE`): for scripts that drive the real window (the
// walkthrough test under Xvfb), the studio writes what a user would see to FILE as JSON,
// rewritten whenever it changes: the window title, the open network's layer and group
// counts and each group's layers, whether the first paint happened, the dialogs open on top
// of the window, the texts that do not fit their widget (clippedTexts), the tooltip shown,
// the Lessons view's state and the Partition editor's rows, and where on the screen the
// visible layers, dock tabs, history steps, lessons and strips of PEs are, so that a script
// can click them like a user.
#pragma once

#include <QObject>
#include <QString>

class QJsonObject;
class QMainWindow;
class QTimer;

namespace lf {

namespace graph {
class GraphCanvas;
}
class Studio;

class AutomationReport : public QObject {
    Q_OBJECT
  public:
    AutomationReport(Studio* studio, QMainWindow* window, graph::GraphCanvas* canvas, QString path,
                     QObject* parent = nullptr);

    // The report now (also what is written).
    QJsonObject snapshot() const;
    // Writes the report if it changed since the last write; false on a write error.
    bool write();

  private:
    Studio* studio_;
    QMainWindow* window_;
    graph::GraphCanvas* canvas_;
    QString path_;
    QByteArray last_;
    QTimer* timer_;
    bool painted_ = false;
};

} // namespace lf
