// A compact table of named figures: label, value (human units) and the change ▲▼ against
// the value before the last edit. Rows are addressed by a key; labels are created once so
// that updating values never moves focus or scroll position. What's This (Shift+F1) on a
// row shows its text and reports the row (whatsThisRequested).
#pragma once

#include "metrics/metric_format.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <optional>

class QGridLayout;
class QLabel;

namespace lf {

class MetricGrid : public QWidget {
    Q_OBJECT
  public:
    explicit MetricGrid(QWidget* parent = nullptr);

    void addHeading(const QString& key, const QString& text);
    void setHeading(const QString& key, const QString& text);
    void addRow(const QString& key, const QString& label, const QString& tooltip = {});

    // A numeric figure: its text is format(value); the delta compares it with `previous`.
    void setFigure(const QString& key, double value, std::optional<double> previous, Better better,
                   const std::function<QString(double)>& format);
    // A non-numeric figure (no delta); `alarm` shows it in the "worse" colour.
    void setText(const QString& key, const QString& text, bool alarm = false);
    void setRowVisible(const QString& key, bool visible);
    // The What's This text of a row (its label and value).
    void setWhatsThis(const QString& key, const QString& text);
    // Every value becomes `placeholder` and every delta disappears.
    void clearValues(const QString& placeholder = QStringLiteral("—"));

    // For tests and accessibility.
    QString valueText(const QString& key) const;
    QString deltaText(const QString& key) const;
    QColor deltaColor(const QString& key) const;
    bool hasRow(const QString& key) const { return rows_.contains(key); }
    QStringList keys() const; // in the order of the rows
    QString labelText(const QString& key) const;
    QString toolTip(const QString& key) const; // the label's
    QWidget* labelWidget(const QString& key) const;

  signals:
    // What's This was asked on the row `key`.
    void whatsThisRequested(const QString& key);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    struct Row {
        QLabel* label = nullptr;
        QLabel* value = nullptr;
        QLabel* delta = nullptr;
        QColor deltaColor;
    };
    QGridLayout* layout_;
    QHash<QString, Row> rows_;
    QHash<QString, QLabel*> headings_;
    QStringList order_;
    int nextRow_ = 0;
};

} // namespace lf
