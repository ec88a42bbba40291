#include "inspectors/divisor_spin_box.h"

#include <algorithm>
#include <cstdlib>

namespace lf {

std::vector<int> divisorsOf(int n) {
    std::vector<int> small, large;
    for (int d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            small.push_back(d);
            if (d != n / d) large.push_back(n / d);
        }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;
}

DivisorSpinBox::DivisorSpinBox(QWidget* parent) : QSpinBox(parent) {
    setMinimum(1);
    setKeyboardTracking(false);
    setAccelerated(true);
}

void DivisorSpinBox::setLimit(int limit) {
    limit = std::max(1, limit);
    if (limit != maximum() || divisors_.back() != limit) divisors_ = divisorsOf(limit);
    setRange(1, limit);
}

void DivisorSpinBox::setSnapToDivisors(bool snap) {
    snap_ = snap;
    setToolTip(snap ? tr("Snaps to divisors of %1").arg(maximum()) : QString());
}

int DivisorSpinBox::nearestDivisor(int v) const {
    int best = divisors_.front();
    for (int d : divisors_)
        if (std::abs(d - v) <= std::abs(best - v)) best = d;
    return best;
}

void DivisorSpinBox::stepBy(int steps) {
    if (!snap_) {
        QSpinBox::stepBy(steps);
        return;
    }
    auto it = std::lower_bound(divisors_.begin(), divisors_.end(), value());
    long idx = long(it - divisors_.begin());
    // From a non-divisor, one step up lands on the next divisor, one step down on the previous.
    const bool onDivisor = it != divisors_.end() && *it == value();
    if (steps > 0)
        idx += onDivisor ? steps : steps - 1;
    else
        idx += steps;
    idx = std::clamp(idx, 0L, long(divisors_.size()) - 1);
    setValue(divisors_[size_t(idx)]);
    selectAll();
}

QAbstractSpinBox::StepEnabled DivisorSpinBox::stepEnabled() const {
    if (!snap_) return QSpinBox::stepEnabled();
    StepEnabled e = StepNone;
    if (value() > divisors_.front()) e |= StepDownEnabled;
    if (value() < divisors_.back()) e |= StepUpEnabled;
    return e;
}

QValidator::State DivisorSpinBox::validate(QString& input, int& pos) const {
    const QValidator::State s = QSpinBox::validate(input, pos);
    if (!snap_ || s != QValidator::Acceptable) return s;
    const int v = valueFromText(input);
    return std::binary_search(divisors_.begin(), divisors_.end(), v) ? QValidator::Acceptable
                                                                     : QValidator::Intermediate;
}

void DivisorSpinBox::fixup(QString& input) const {
    QSpinBox::fixup(input);
    if (!snap_) return;
    bool ok = false;
    const int v = input.toInt(&ok);
    if (ok) input = QString::number(nearestDivisor(std::clamp(v, minimum(), maximum())));
}

} // namespace lf
