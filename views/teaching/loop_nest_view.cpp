#include "teaching/loop_nest_view.h"

#include "qt_text.h"
#include "teaching/loop_nest_highlighter.h"
#include "teaching/teaching_style.h"
#include "teaching/teaching_subject.h"

#include <QCheckBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

namespace lf {

LoopNestView::LoopNestView(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto* head = new QHBoxLayout;
    title_ = new QLabel(this);
    title_->setTextFormat(Qt::PlainText);
    QFont tf = title_->font();
    tf.setBold(true);
    title_->setFont(tf);
    title_->setWordWrap(true); // long layer names must not widen the dock
    head->addWidget(title_, 1);
    wholeGroup_ = new QCheckBox(tr("Whole fusion group"), this);
    wholeGroup_->setToolTip(
        tr("Show the loop nest of the selected layer's fusion group (producers inlined) "
           "instead of the layer alone"));
    head->addWidget(wholeGroup_);
    v->addLayout(head);

    legend_ = new QLabel(this);
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true);
    v->addWidget(legend_);

    code_ = new QPlainTextEdit(this);
    code_->setObjectName(QStringLiteral("loopNestCode"));
    code_->setReadOnly(true);
    code_->setLineWrapMode(QPlainTextEdit::NoWrap);
    code_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    code_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    code_->viewport()->setMouseTracking(true);
    code_->viewport()->installEventFilter(this);
    v->addWidget(code_, 1);
    highlighter_ = new LoopNestHighlighter(code_->document());

    connect(wholeGroup_, &QCheckBox::toggled, this, [this] { refresh(); });
    applyPalette();
    refresh();
}

void LoopNestView::setState(const StudioState& state) {
    state_ = state;
    refresh();
}

void LoopNestView::setSelection(const StudioSelection& selection) {
    if (selection == selection_) return;
    selection_ = selection;
    refresh();
}

void LoopNestView::setShowWholeGroup(bool whole) {
    wholeGroup_->setChecked(whole);
}
bool LoopNestView::showsWholeGroup() const {
    return wholeGroup_->isChecked();
}

QString LoopNestView::title() const {
    return title_->text();
}
QString LoopNestView::codeText() const {
    return code_->toPlainText();
}

void LoopNestView::refresh() {
    const LayerId layer = teaching::selectedLayer(state_, selection_);
    const int group = teaching::selectedGroup(state_, selection_);
    const bool fusedLayer =
        layer != kNoLayer && group >= 0 && state_.schedule.groups[size_t(group)].layers.size() > 1;
    wholeGroup_->setEnabled(fusedLayer);

    LayerId showLayer = kNoLayer;
    int showGroup = -1;
    if (layer != kNoLayer && !(fusedLayer && wholeGroup_->isChecked()) && selection_.group < 0) {
        showLayer = layer;
    } else if (group >= 0) {
        const FusionGroup& g = state_.schedule.groups[size_t(group)];
        if (g.layers.size() == 1)
            showLayer = g.layers.front();
        else
            showGroup = group;
    }

    LoopNest nest;
    QString title;
    if (showLayer != kNoLayer && isCompute(state_.network.layer(showLayer).type)) {
        nest = layerLoopNest(state_.network, state_.hardware, state_.schedule, showLayer);
        title = tr("%1 — ConvFusion Code 2 (the layer alone)")
                    .arg(qs(state_.network.layer(showLayer).name));
    } else if (showGroup >= 0) {
        const FusionGroup& g = state_.schedule.groups[size_t(showGroup)];
        nest = groupLoopNest(state_.network, state_.hardware, state_.schedule, showGroup);
        const QString how =
            g.strategy == Strategy::recompute ? tr("ConvFusion Code 3, producers inlined")
            : g.strategy == Strategy::reuse   ? tr("HW-Flow-Fusion pipeline with reuse buffers")
                                              : tr("Optimus sub-groups");
        title = tr("Group %1 (%2) — %3")
                    .arg(qs(g.name), QString::fromLatin1(toString(g.strategy)), how);
    } else {
        showLayer = kNoLayer;
        title = tr("Select a layer or a fusion group to see its loop nest.");
    }

    QStringList lines;
    for (const CodeLine& l : nest.lines)
        lines << LoopNestHighlighter::lineText(l);
    const QString text = lines.join(QLatin1Char('\n'));
    const bool sameSubject = showLayer == layer_ && showGroup == group_;
    layer_ = showLayer;
    group_ = showGroup;
    title_->setText(title);
    nest_ = std::move(nest);
    // An edit that leaves this nest as it was keeps the reader's hover and place.
    if (text == code_->toPlainText() && sameSubject) return;
    // The same nest re-annotated by an edit keeps the reader's place.
    const int vscroll = code_->verticalScrollBar()->value();
    const int hscroll = code_->horizontalScrollBar()->value();
    highlighter_->setLines(nest_.lines, false);
    code_->setPlainText(text);
    if (sameSubject) {
        code_->verticalScrollBar()->setValue(vscroll);
        code_->horizontalScrollBar()->setValue(hscroll);
    }
    hoverLine(-1);
}

void LoopNestView::hoverLine(int line) {
    const CodeLine* l =
        line >= 0 && size_t(line) < nest_.lines.size() ? &nest_.lines[size_t(line)] : nullptr;
    const bool isLoop = l && l->kind == CodeLine::Kind::loop && l->dim >= 0 && l->layer != kNoLayer;
    const LayerId layer = isLoop ? l->layer : kNoLayer;
    const int dim = isLoop ? l->dim : -1;
    if (layer == hoveredLayer_ && dim == hoveredDim_) return;
    hoveredLayer_ = layer;
    hoveredDim_ = dim;
    updateHoverHighlight();
    emit loopHovered(layer, dim);
}

void LoopNestView::updateHoverHighlight() {
    highlighted_.clear();
    QList<QTextEdit::ExtraSelection> extra;
    const QColor background = teaching::codeColors(teaching::isDark(code_)).hoverBackground;
    if (hoveredDim_ >= 0) {
        for (int k = 0; k < int(nest_.lines.size()); ++k) {
            const CodeLine& c = nest_.lines[size_t(k)];
            if (c.kind != CodeLine::Kind::loop || c.layer != hoveredLayer_ || c.dim != hoveredDim_)
                continue;
            highlighted_ << k;
            QTextEdit::ExtraSelection sel;
            sel.cursor = QTextCursor(code_->document()->findBlockByNumber(k));
            sel.format.setBackground(background);
            sel.format.setProperty(QTextFormat::FullWidthSelection, true);
            extra << sel;
        }
    }
    code_->setExtraSelections(extra);
}

bool LoopNestView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == code_->viewport()) {
        if (event->type() == QEvent::MouseMove) {
            const auto* me = static_cast<QMouseEvent*>(event);
            const QTextCursor c = code_->cursorForPosition(me->position().toPoint());
            const QTextBlock b = c.block();
            // Only when the pointer is on the line itself, not below the last one.
            const QRect r = code_->cursorRect(QTextCursor(b));
            const double y = me->position().y();
            hoverLine(b.isValid() && y >= r.top() && y <= r.bottom() + 1 ? b.blockNumber() : -1);
        } else if (event->type() == QEvent::Leave) {
            hoverLine(-1);
        } else if (event->type() == QEvent::MouseButtonDblClick) {
            // Double-click in a group's nest selects the layer the line belongs to.
            const auto* me = static_cast<QMouseEvent*>(event);
            const int k = code_->cursorForPosition(me->position().toPoint()).blockNumber();
            if (group_ >= 0 && k >= 0 && size_t(k) < nest_.lines.size() &&
                nest_.lines[size_t(k)].layer != kNoLayer) {
                StudioSelection sel;
                sel.layers = {nest_.lines[size_t(k)].layer};
                emit selectionRequested(sel);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LoopNestView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPalette();
}

void LoopNestView::applyPalette() {
    const bool dark = teaching::isDark(this);
    highlighter_->setDark(dark);
    auto swatch = [&](Arr a, const QString& what) {
        return QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span> %3")
            .arg(teaching::arrayColor(a, dark).name(), QString::fromLatin1(arrName(a)), what);
    };
    legend_->setText(swatch(Arr::X, tr("inputs")) + QStringLiteral(" &nbsp; ") +
                     swatch(Arr::W, tr("weights")) + QStringLiteral(" &nbsp; ") +
                     swatch(Arr::Y, tr("outputs")) + QStringLiteral(" &nbsp; — ") +
                     tr("alloc at the store level, load at the compute level; point at a loop to "
                        "see what it iterates"));
    updateHoverHighlight(); // the hover colour of the new palette
}

} // namespace lf
