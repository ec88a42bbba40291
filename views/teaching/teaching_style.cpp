#include "teaching/teaching_style.h"

#include <QPalette>
#include <QWidget>

#include <cmath>
#include <cstdlib>

namespace lf::teaching {

QString exactCount(int64_t n) {
    const bool negative = n < 0;
    QString digits = QString::number(negative ? -n : n);
    for (qsizetype at = digits.size() - 3; at > 0; at -= 3)
        digits.insert(at, QLatin1Char(','));
    return negative ? QLatin1Char('-') + digits : digits;
}

QString twoDecimals(double v) {
    if (!std::isfinite(v)) return QStringLiteral("—");
    return QString::number(v, 'f', 2);
}

bool isDark(const QWidget* w) {
    const QPalette p = w ? w->palette() : QPalette();
    return p.color(QPalette::Base).lightnessF() < 0.5;
}

QColor arrayColor(Arr a, bool dark) {
    switch (a) {
    case Arr::X:
        return dark ? QColor(0x6c, 0xb4, 0xff) : QColor(0x1f, 0x5f, 0xbf);
    case Arr::Y:
        return dark ? QColor(0x7d, 0xd8, 0x8a) : QColor(0x1e, 0x7b, 0x34);
    case Arr::W:
        return dark ? QColor(0xff, 0xb3, 0x5c) : QColor(0xb0, 0x5a, 0x00);
    }
    return {};
}

CodeColors codeColors(bool dark) {
    if (dark)
        return {QColor(0xd0, 0x8c, 0xff), QColor(0x4f, 0xd6, 0xd6), QColor(0xf0, 0xd0, 0x6c),
                QColor(0x8a, 0x93, 0x9e), QColor(0x3a, 0x44, 0x5a)};
    return {QColor(0x7a, 0x1f, 0xa2), QColor(0x00, 0x7a, 0x7a), QColor(0xa3, 0x4a, 0x00),
            QColor(0x6a, 0x73, 0x7d), QColor(0xff, 0xf2, 0xb3)};
}

PyramidColors pyramidColors(bool dark) {
    PyramidColors c;
    if (dark) {
        c.map = QColor(0x2b, 0x30, 0x38);
        c.mapBorder = QColor(0x80, 0x88, 0x94);
        c.text = QColor(0xe6, 0xe6, 0xe6);
    } else {
        c.map = QColor(0xf1, 0xf3, 0xf6);
        c.mapBorder = QColor(0x8a, 0x92, 0x9c);
        c.text = QColor(0x20, 0x24, 0x2a);
    }
    c.computed = dark ? QColor(0x4a, 0x8f, 0xe0, 170) : QColor(0x4a, 0x8f, 0xe0, 140);
    c.loaded = dark ? QColor(0xa0, 0x7c, 0xf0, 170) : QColor(0x8a, 0x60, 0xe0, 140);
    c.recomputed = QColor(0xe8, 0x5d, 0x3a, 200);
    c.reused = QColor(0x3c, 0xb3, 0x5a, 200);
    c.evicted = dark ? QColor(0x9a, 0x9a, 0x9a, 90) : QColor(0x70, 0x70, 0x70, 70);
    c.highlight = dark ? QColor(0xff, 0xe0, 0x4d) : QColor(0xd4, 0x9a, 0x00);
    return c;
}

} // namespace lf::teaching
