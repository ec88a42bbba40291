// File ▸ New from Example: pick a bundled network (with its description) and a hardware
// preset for a new, unsaved project.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QListWidget;

namespace lf {

class ExampleDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ExampleDialog(const QString& currentHardware, QWidget* parent = nullptr);
    QString network() const;  // bundled short name
    QString hardware() const; // bundled preset short name

  private:
    QListWidget* networks_;
    QComboBox* hardware_;
    QLabel* details_;
};

} // namespace lf
