#include "hardware/number_spin_box.h"

#include <cmath>

namespace lf {

NumberSpinBox::NumberSpinBox(Mode mode, QWidget* parent) : QDoubleSpinBox(parent), mode_(mode) {
    setDecimals(mode == Mode::real ? 10 : 0);
    setKeyboardTracking(false);
    setAccelerated(true);
    setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
}

void NumberSpinBox::stepBy(int steps) {
    if (mode_ != Mode::bytes) {
        QDoubleSpinBox::stepBy(steps);
        return;
    }
    double v = value();
    for (int k = 0; k < std::abs(steps); ++k)
        v = steps > 0 ? v * 2 : std::floor(v / 2);
    setValue(std::clamp(v, minimum(), maximum()));
    selectAll();
}

QString NumberSpinBox::textFromValue(double value) const {
    if (mode_ != Mode::real) return QString::number(value, 'f', 0);
    return QString::number(value, 'g', 12);
}

QString NumberSpinBox::stripAffixes(const QString& text) const {
    QString t = text;
    if (!prefix().isEmpty() && t.startsWith(prefix())) t.remove(0, prefix().size());
    if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
    return t.trimmed();
}

double NumberSpinBox::valueFromText(const QString& text) const {
    return stripAffixes(text).toDouble(); // QString::toDouble is locale-independent
}

QValidator::State NumberSpinBox::validate(QString& input, int&) const {
    const QString t = stripAffixes(input);
    if (t.isEmpty() || t == QLatin1String("-") || t == QLatin1String("+"))
        return QValidator::Intermediate;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok) {
        // A number still being typed ("1e", "2.") is intermediate; anything else is invalid.
        static const QString partial = QStringLiteral("0123456789.eE+-");
        for (QChar c : t)
            if (!partial.contains(c)) return QValidator::Invalid;
        return QValidator::Intermediate;
    }
    if (mode_ != Mode::real && v != std::floor(v)) return QValidator::Intermediate;
    if (v < minimum() || v > maximum()) return QValidator::Intermediate;
    return QValidator::Acceptable;
}

} // namespace lf
