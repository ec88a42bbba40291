// A spin box for hardware figures: shows the shortest text of its value ("26.7", not
// "26.700000"), reads and writes numbers in the C locale whatever the user's locale (files
// and papers use a decimal point), and in byte mode steps by doubling and halving.
#pragma once

#include <QDoubleSpinBox>

namespace lf {

class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
  public:
    enum class Mode { real, integer, bytes };
    explicit NumberSpinBox(Mode mode, QWidget* parent = nullptr);

    Mode mode() const { return mode_; }
    void stepBy(int steps) override;
    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;

  protected:
    QValidator::State validate(QString& input, int& pos) const override;

  private:
    QString stripAffixes(const QString& text) const;
    Mode mode_;
};

} // namespace lf
