#include "metrics/metric_grid.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPalette>

namespace lf {

namespace {

// A style sheet re-polishes its widget even when it is the one already set.
void setStyleSheetIfChanged(QWidget* w, const QString& sheet) {
    if (w->styleSheet() != sheet) w->setStyleSheet(sheet);
}

// A delta's colour changes with the direction of each edit (and its undo): set through the
// palette, which costs a repaint, where a style sheet re-polishes the label. An invalid
// colour gives the label its inherited text colour back.
void setTextColor(QWidget* w, const QColor& c) {
    const bool own = w->testAttribute(Qt::WA_SetPalette);
    if (!c.isValid()) {
        if (own) w->setPalette(QPalette());
        return;
    }
    if (own && w->palette().color(QPalette::WindowText) == c) return;
    QPalette p;
    p.setColor(QPalette::WindowText, c);
    w->setPalette(p);
}

} // namespace

MetricGrid::MetricGrid(QWidget* parent) : QWidget(parent), layout_(new QGridLayout(this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setHorizontalSpacing(12);
    layout_->setVerticalSpacing(2);
    layout_->setColumnStretch(1, 1);
}

void MetricGrid::addHeading(const QString& key, const QString& text) {
    auto* h = new QLabel(text, this);
    QFont f = h->font();
    f.setBold(true);
    h->setFont(f);
    h->setObjectName(QStringLiteral("heading:") + key);
    if (nextRow_ > 0) layout_->setRowMinimumHeight(nextRow_++, 6);
    layout_->addWidget(h, nextRow_++, 0, 1, 3);
    headings_.insert(key, h);
}

void MetricGrid::setHeading(const QString& key, const QString& text) {
    if (QLabel* h = headings_.value(key)) h->setText(text);
}

void MetricGrid::addRow(const QString& key, const QString& label, const QString& tooltip) {
    Row r;
    r.label = new QLabel(label, this);
    r.value = new QLabel(QStringLiteral("—"), this);
    r.delta = new QLabel(this);
    r.value->setObjectName(QStringLiteral("value:") + key);
    r.delta->setObjectName(QStringLiteral("delta:") + key);
    r.value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    r.delta->setMinimumWidth(r.delta->fontMetrics().horizontalAdvance(QStringLiteral("▲ 100 %")));
    if (!tooltip.isEmpty()) r.label->setToolTip(tooltip);
    for (QLabel* l : {r.label, r.value}) {
        l->setProperty("metricKey", key);
        l->installEventFilter(this);
    }
    order_ << key;
    layout_->addWidget(r.label, nextRow_, 0);
    layout_->addWidget(r.value, nextRow_, 1);
    layout_->addWidget(r.delta, nextRow_, 2);
    ++nextRow_;
    rows_.insert(key, r);
}

void MetricGrid::setFigure(const QString& key, double value, std::optional<double> previous,
                           Better better, const std::function<QString(double)>& format) {
    auto it = rows_.find(key);
    if (it == rows_.end()) return;
    Row& r = *it;
    r.value->setText(format(value));
    setStyleSheetIfChanged(r.value, {});
    const MetricDelta d = metricDelta(value, previous, better);
    r.delta->setText(d.text);
    r.deltaColor = d.color();
    setTextColor(r.delta, d.color());
    r.value->setToolTip(previous ? tr("Before the last edit: %1").arg(format(*previous))
                                 : QString());
}

void MetricGrid::setText(const QString& key, const QString& text, bool alarm) {
    auto it = rows_.find(key);
    if (it == rows_.end()) return;
    it->value->setText(text);
    setStyleSheetIfChanged(
        it->value, alarm
                       ? QStringLiteral("color: %1; font-weight: bold").arg(worsenedColor().name())
                       : QString());
    it->value->setToolTip({});
    it->delta->clear();
    setTextColor(it->delta, {});
    it->deltaColor = {};
}

void MetricGrid::setRowVisible(const QString& key, bool visible) {
    auto it = rows_.find(key);
    if (it == rows_.end()) return;
    it->label->setVisible(visible);
    it->value->setVisible(visible);
    it->delta->setVisible(visible);
}

void MetricGrid::clearValues(const QString& placeholder) {
    for (Row& r : rows_) {
        r.value->setText(placeholder);
        setStyleSheetIfChanged(r.value, {});
        r.value->setToolTip({});
        r.delta->clear();
        setTextColor(r.delta, {});
        r.deltaColor = {};
    }
}

QString MetricGrid::valueText(const QString& key) const {
    auto it = rows_.find(key);
    return it == rows_.end() ? QString() : it->value->text();
}

QString MetricGrid::deltaText(const QString& key) const {
    auto it = rows_.find(key);
    return it == rows_.end() ? QString() : it->delta->text();
}

QColor MetricGrid::deltaColor(const QString& key) const {
    auto it = rows_.find(key);
    return it == rows_.end() ? QColor() : it->deltaColor;
}

void MetricGrid::setWhatsThis(const QString& key, const QString& text) {
    auto it = rows_.find(key);
    if (it == rows_.end()) return;
    it->label->setWhatsThis(text);
    it->value->setWhatsThis(text);
}

bool MetricGrid::eventFilter(QObject* watched, QEvent* event) {
    const auto it = rows_.constFind(watched->property("metricKey").toString());
    if (it == rows_.constEnd()) return QWidget::eventFilter(watched, event);
    // Reported before the label shows its text (QWidget::event), so that the figure's
    // explanation opens beside the popup.
    if (event->type() == QEvent::WhatsThis) emit whatsThisRequested(it.key());
    // Figures can be selected and copied, but a selectable label lays its text out as a
    // document on every paint (some 60 figures per edit): only the one under the pointer, or
    // holding a selection, is selectable.
    if (watched == it->value) {
        QLabel* v = it->value;
        if (event->type() == QEvent::Enter)
            v->setTextInteractionFlags(v->textInteractionFlags() | Qt::TextSelectableByMouse);
        else if (event->type() == QEvent::Leave && !v->hasSelectedText())
            v->setTextInteractionFlags(v->textInteractionFlags() & ~Qt::TextSelectableByMouse);
    }
    return QWidget::eventFilter(watched, event);
}

QStringList MetricGrid::keys() const {
    return order_;
}

QString MetricGrid::labelText(const QString& key) const {
    auto it = rows_.find(key);
    return it == rows_.end() ? QString() : it->label->text().trimmed();
}

QString MetricGrid::toolTip(const QString& key) const {
    auto it = rows_.find(key);
    return it == rows_.end() ? QString() : it->label->toolTip();
}

QWidget* MetricGrid::labelWidget(const QString& key) const {
    auto it = rows_.find(key);
    return it == rows_.end() ? nullptr : it->label;
}

} // namespace lf
