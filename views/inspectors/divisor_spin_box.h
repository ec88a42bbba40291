// A tile-size spin box over 1..D that can snap to the divisors of D (tiles that divide the
// dimension leave no partial tile): the arrows step from divisor to divisor and a typed
// value is rounded to the nearest divisor.
#pragma once

#include <QSpinBox>

#include <vector>

namespace lf {

class DivisorSpinBox : public QSpinBox {
    Q_OBJECT
  public:
    explicit DivisorSpinBox(QWidget* parent = nullptr);

    void setLimit(int limit); // range 1..limit
    int limit() const { return maximum(); }
    void setSnapToDivisors(bool snap);
    bool snapsToDivisors() const { return snap_; }
    const std::vector<int>& divisors() const { return divisors_; }

    // The divisor of the limit closest to v (ties go to the larger one).
    int nearestDivisor(int v) const;

    void stepBy(int steps) override;

  protected:
    QValidator::State validate(QString& input, int& pos) const override;
    void fixup(QString& input) const override;
    StepEnabled stepEnabled() const override;

  private:
    bool snap_ = false;
    std::vector<int> divisors_{1};
};

// Divisors of n in ascending order.
std::vector<int> divisorsOf(int n);

} // namespace lf
