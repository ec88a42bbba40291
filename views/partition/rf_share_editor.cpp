#include "partition/rf_share_editor.h"

#include "edit_merge_ids.h"
#include "metrics/metric_format.h"
#include "partition/partition_geometry.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

namespace lf {

const char* sectionName(RfSection s) {
    switch (s) {
    case RfSection::weight:
        return "weight";
    case RfSection::input:
        return "input";
    case RfSection::psum:
        return "psum";
    }
    return "?";
}

namespace {
double shareOf(const RfShare& r, RfSection s) {
    return s == RfSection::weight ? r.weight : s == RfSection::input ? r.input : r.psum;
}
QString sectionTitle(RfSection s) {
    switch (s) {
    case RfSection::weight:
        return RfShareEditor::tr("Weight section");
    case RfSection::input:
        return RfShareEditor::tr("Input section");
    case RfSection::psum:
        return RfShareEditor::tr("Partial-sum section");
    }
    return {};
}
} // namespace

RfShareEditor::RfShareEditor(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    for (int s = 0; s < 3; ++s) {
        boxes_[size_t(s)] = new QGroupBox(sectionTitle(RfSection(s)), this);
        new QGridLayout(boxes_[size_t(s)]);
        v->addWidget(boxes_[size_t(s)]);
    }
    v->addStretch(1);
}

QSlider* RfShareEditor::slider(RfSection section, LayerId layer) const {
    for (const Row& r : rows_[size_t(section)])
        if (r.layer == layer) return r.slider;
    return nullptr;
}

std::vector<int> RfShareEditor::percent(RfSection section) const {
    std::vector<int> out;
    for (const Row& r : rows_[size_t(section)])
        out.push_back(r.slider->value());
    return out;
}

void RfShareEditor::rebuild(const std::vector<Entry>& entries) {
    for (int s = 0; s < 3; ++s) {
        auto* grid = static_cast<QGridLayout*>(boxes_[size_t(s)]->layout());
        for (Row& r : rows_[size_t(s)]) {
            delete r.name;
            delete r.slider;
            delete r.value;
        }
        rows_[size_t(s)].clear();
        for (size_t i = 0; i < entries.size(); ++i) {
            const Entry& e = entries[i];
            Row r{e.layer, new QLabel(e.name, boxes_[size_t(s)]),
                  new QSlider(Qt::Horizontal, boxes_[size_t(s)]), new QLabel(boxes_[size_t(s)])};
            r.name->setStyleSheet(
                QStringLiteral("border-left: 6px solid %1; padding-left: 4px").arg(e.color.name()));
            r.slider->setRange(0, 100);
            r.slider->setPageStep(10);
            r.slider->setObjectName(QStringLiteral("rf:%1:%2")
                                        .arg(QLatin1String(sectionName(RfSection(s))))
                                        .arg(e.layer));
            r.slider->setAccessibleName(
                tr("%1 share of %2").arg(sectionTitle(RfSection(s)), e.name));
            r.value->setMinimumWidth(
                r.value->fontMetrics().horizontalAdvance(QStringLiteral("100 % · 1023 B")));
            r.value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            grid->addWidget(r.name, int(i), 0);
            grid->addWidget(r.slider, int(i), 1);
            grid->addWidget(r.value, int(i), 2);
            const RfSection sec = RfSection(s);
            connect(r.slider, &QSlider::valueChanged, this,
                    [this, sec, i](int v) { onSliderMoved(sec, i, v); });
            connect(r.slider, &QSlider::sliderPressed, this,
                    [this, sec] { dragMergeIds_[size_t(sec)] = merge::freshId(); });
            connect(r.slider, &QSlider::sliderReleased, this,
                    [this, sec] { dragMergeIds_[size_t(sec)] = 0; });
            rows_[size_t(s)].push_back(r);
        }
        grid->setColumnStretch(1, 1);
    }
}

void RfShareEditor::setShares(const std::vector<Entry>& entries,
                              const std::array<int64_t, 3>& sectionBytes) {
    bytes_ = sectionBytes;
    bool same = rows_[0].size() == entries.size();
    for (size_t i = 0; same && i < entries.size(); ++i)
        same = rows_[0][i].layer == entries[i].layer && rows_[0][i].name->text() == entries[i].name;
    if (!same) rebuild(entries);
    for (int s = 0; s < 3; ++s) {
        const RfSection sec = RfSection(s);
        boxes_[size_t(s)]->setTitle(
            sectionBytes[size_t(s)] > 0
                ? tr("%1 — %2 per PE")
                      .arg(sectionTitle(sec), formatBytes(double(sectionBytes[size_t(s)])))
                : sectionTitle(sec));
        std::vector<double> f;
        for (const Entry& e : entries)
            f.push_back(shareOf(e.share, sec));
        // While a slider is held, keep the dragged values (the state may lag behind).
        bool held = false;
        for (const Row& r : rows_[size_t(s)])
            held = held || r.slider->isSliderDown();
        if (!held) showPercent(sec, fractionsToPercent(f));
        const bool single = entries.size() <= 1;
        for (const Row& r : rows_[size_t(s)])
            r.slider->setEnabled(!single);
    }
}

void RfShareEditor::showPercent(RfSection section, const std::vector<int>& percent) {
    updating_ = true;
    auto& rows = rows_[size_t(section)];
    int sum = 0;
    for (size_t i = 0; i < rows.size() && i < percent.size(); ++i) {
        const QSignalBlocker b(rows[i].slider);
        rows[i].slider->setValue(percent[i]);
        sum += percent[i];
        QString text = QStringLiteral("%1 %").arg(percent[i]);
        if (bytes_[size_t(section)] > 0)
            text += QStringLiteral(" · ") +
                    formatBytes(double(bytes_[size_t(section)]) * percent[i] / 100.0);
        rows[i].value->setText(text);
    }
    boxes_[size_t(section)]->setToolTip(sum == 100 ? QString() : tr("Shares sum to %1 %").arg(sum));
    updating_ = false;
}

void RfShareEditor::onSliderMoved(RfSection section, size_t index, int value) {
    if (updating_) return;
    const std::vector<int> now = rebalancePercent(percent(section), index, value);
    showPercent(section, now);
    std::vector<double> fractions;
    for (int p : now)
        fractions.push_back(p / 100.0);
    const int drag = dragMergeIds_[size_t(section)];
    emit sharesEdited(section, fractions,
                      drag != 0 ? drag : merge::stableId(merge::Field::rfShare, int(section)));
}

} // namespace lf
