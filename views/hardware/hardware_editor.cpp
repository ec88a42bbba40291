#include "hardware/hardware_editor.h"

#include "edit_merge_ids.h"
#include "examples/bundled.h"
#include "hardware/number_spin_box.h"
#include "metrics/metric_format.h"
#include "qt_text.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lf {

namespace {

const char* const kDataflowPresets[] = {"ox|oc", "ic|oc", "ox|oy", "ky*oy|ic*oc"};
constexpr double kBig = 1e15;                          // the YAML reader's bound on reals
constexpr double kMaxBytes = double(int64_t(1) << 44); // and on memory sizes

QVariant widgetValue(const QWidget* w) {
    if (auto* s = qobject_cast<const QSpinBox*>(w)) return s->value();
    if (auto* d = qobject_cast<const QDoubleSpinBox*>(w)) return d->value();
    if (auto* e = qobject_cast<const QLineEdit*>(w)) return e->text();
    if (auto* c = qobject_cast<const QComboBox*>(w))
        return c->isEditable() ? QVariant(c->currentText()) : c->currentData();
    if (auto* g = qobject_cast<const QGroupBox*>(w)) return g->isChecked();
    return {};
}

// Sets a widget's value without emitting; leaves it alone when it already shows the value
// (so text being typed survives a state update).
void setWidgetValue(QWidget* w, const QVariant& v) {
    if (widgetValue(w) == v) return;
    const QSignalBlocker b(w);
    if (auto* s = qobject_cast<QSpinBox*>(w))
        s->setValue(v.toInt());
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
        d->setValue(v.toDouble());
    else if (auto* e = qobject_cast<QLineEdit*>(w)) {
        if (!e->hasFocus()) {
            e->setText(v.toString());
            e->setCursorPosition(0); // show the start of long text
        }
    } else if (auto* c = qobject_cast<QComboBox*>(w)) {
        if (c->isEditable())
            c->setEditText(v.toString());
        else
            c->setCurrentIndex(c->findData(v));
    } else if (auto* g = qobject_cast<QGroupBox*>(w))
        g->setChecked(v.toBool());
}

QString widgetText(const QWidget* w) {
    if (auto* s = qobject_cast<const QAbstractSpinBox*>(w)) return s->text();
    if (auto* e = qobject_cast<const QLineEdit*>(w)) return e->text();
    if (auto* c = qobject_cast<const QComboBox*>(w)) return c->currentText();
    if (auto* g = qobject_cast<const QGroupBox*>(w))
        return g->isChecked() ? HardwareEditor::tr("on") : HardwareEditor::tr("off");
    return {};
}

} // namespace

void canonicalizeBufferEnergy(Hardware& hw) {
    const BufferEnergy def;
    BufferEnergy& e = hw.buffer.energy;
    if (e.model == SramEnergyModel::constant) {
        e.a = def.a;
        e.b = def.b;
    } else {
        e.pj_per_access = def.pj_per_access;
    }
    if (e.model != SramEnergyModel::banked) {
        e.bank_bits = def.bank_bits;
        e.bank_factor = def.bank_factor;
    }
}

HardwareEditor::HardwareEditor(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildForm());
    outer->addWidget(scroll);
    showHardware(state_.hardware);
}

QWidget* HardwareEditor::buildForm() {
    auto* body = new QWidget;
    auto* v = new QVBoxLayout(body);

    auto* top = new QFormLayout;
    presets_ = new QComboBox(body);
    presets_->setObjectName(QStringLiteral("hardwarePreset"));
    presets_->addItem(tr("custom"), QString());
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::hardware) continue;
        auto hw = loadBundledHardware(f.name);
        if (!hw) continue;
        presetList_.emplace_back(QString::fromLatin1(f.name), *hw);
        presets_->addItem(QString::fromLatin1(f.name), QString::fromLatin1(f.name));
        presets_->setItemData(presets_->count() - 1, qs(hw->description), Qt::ToolTipRole);
    }
    presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    presets_->setMinimumContentsLength(14);
    connect(presets_, &QComboBox::activated, this, [this](int i) { onPresetChosen(i); });
    top->addRow(tr("Preset"), presets_);
    v->addLayout(top);

    validation_ = new QLabel(body);
    validation_->setObjectName(QStringLiteral("validation"));
    validation_->setWordWrap(true);
    validation_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    validation_->hide();
    v->addWidget(validation_);
    summary_ = new QLabel(body);
    summary_->setWordWrap(true);
    summary_->setEnabled(false);
    v->addWidget(summary_);

    using Mode = NumberSpinBox::Mode;
    const int real = int(Mode::real), integer = int(Mode::integer), bytes = int(Mode::bytes);

    QFormLayout* f = addSection(v, body, tr("General"));
    auto* name = new QLineEdit(body);
    name->setMinimumWidth(80);
    addField(
        f, QStringLiteral("name"), tr("Name"), name,
        [](const Hardware& h) { return QVariant(qs(h.name)); },
        [](Hardware& h, const QVariant& x) { h.name = x.toString().trimmed().toStdString(); });
    auto* desc = new QLineEdit(body);
    desc->setMinimumWidth(80);
    addField(
        f, QStringLiteral("description"), tr("Description"), desc,
        [](const Hardware& h) { return QVariant(qs(h.description)); },
        [](Hardware& h, const QVariant& x) {
            h.description = x.toString().trimmed().toStdString();
        });
    addNumber(
        f, QStringLiteral("frequency_mhz"), tr("Frequency"), real, 1e-3, 1e6, tr(" MHz"),
        [](const Hardware& h) { return h.frequency_mhz; },
        [](Hardware& h, double x) { h.frequency_mhz = x; });
    addInt(
        f, QStringLiteral("batch"), tr("Batch"), 1, 1 << 16, {},
        [](const Hardware& h) { return h.batch; }, [](Hardware& h, int x) { h.batch = x; },
        tr("Images processed together (HW-Flow-Fusion Tb)"));

    f = addSection(v, body, tr("Precision"));
    addInt(
        f, QStringLiteral("act_bits"), tr("Activations"), 1, 64, tr(" bit"),
        [](const Hardware& h) { return h.precision.act_bits; },
        [](Hardware& h, int x) { h.precision.act_bits = x; });
    addInt(
        f, QStringLiteral("weight_bits"), tr("Weights"), 1, 64, tr(" bit"),
        [](const Hardware& h) { return h.precision.weight_bits; },
        [](Hardware& h, int x) { h.precision.weight_bits = x; });
    addInt(
        f, QStringLiteral("psum_bits"), tr("Partial sums"), 1, 64, tr(" bit"),
        [](const Hardware& h) { return h.precision.psum_bits; },
        [](Hardware& h, int x) { h.precision.psum_bits = x; });

    f = addSection(v, body, tr("DRAM"));
    addNumber(
        f, QStringLiteral("dram.bandwidth"), tr("Bandwidth"), real, 1e-6, kBig, tr(" B/cycle"),
        [](const Hardware& h) { return h.dram.bandwidth_bytes_per_cycle; },
        [](Hardware& h, double x) { h.dram.bandwidth_bytes_per_cycle = x; });
    addNumber(
        f, QStringLiteral("dram.burst"), tr("Burst"), bytes, 1, 1 << 20, tr(" B"),
        [](const Hardware& h) { return double(h.dram.burst_bytes); },
        [](Hardware& h, double x) { h.dram.burst_bytes = int64_t(x); },
        tr("Bytes per DRAM burst (TSO §IV)"));
    addNumber(
        f, QStringLiteral("dram.cas"), tr("CAS latency"), real, 0, 1e9, tr(" cycles"),
        [](const Hardware& h) { return h.dram.cas_cycles; },
        [](Hardware& h, double x) { h.dram.cas_cycles = x; }, tr("Cycles paid once per burst"));
    addNumber(
        f, QStringLiteral("dram.energy"), tr("Energy"), real, 0, kBig, tr(" pJ/word"),
        [](const Hardware& h) { return h.dram.energy_pj_per_word; },
        [](Hardware& h, double x) { h.dram.energy_pj_per_word = x; });

    f = bufferForm_ = addSection(v, body, tr("On-chip buffer"));
    addNumber(
        f, QStringLiteral("buffer.bytes"), tr("Capacity"), bytes, 1, kMaxBytes, tr(" B"),
        [](const Hardware& h) { return double(h.buffer.bytes); },
        [](Hardware& h, double x) { h.buffer.bytes = int64_t(x); });
    addInt(
        f, QStringLiteral("buffer.banks"), tr("Banks"), 1, 1 << 20, {},
        [](const Hardware& h) { return h.buffer.banks; },
        [](Hardware& h, int x) { h.buffer.banks = x; });
    auto* model = new QComboBox(body);
    model->addItem(tr("constant"), int(SramEnergyModel::constant));
    model->setItemData(0, tr("The same energy for every access"), Qt::ToolTipRole);
    model->addItem(tr("sqrt"), int(SramEnergyModel::sqrt));
    model->setItemData(1, tr("ConvFusion §VII-A: a·√bits + b for a single bank"), Qt::ToolTipRole);
    model->addItem(tr("banked"), int(SramEnergyModel::banked));
    model->setItemData(
        2, tr("ConvFusion §VII-B: banks of bank_bits, each access costs more by the bank factor"),
        Qt::ToolTipRole);
    addField(
        f, QStringLiteral("buffer.model"), tr("Energy model"), model,
        [](const Hardware& h) { return QVariant(int(h.buffer.energy.model)); },
        [](Hardware& h, const QVariant& x) { h.buffer.energy.model = SramEnergyModel(x.toInt()); });
    addNumber(
        f, QStringLiteral("buffer.pj"), tr("Access energy"), real, 0, kBig, tr(" pJ"),
        [](const Hardware& h) { return h.buffer.energy.pj_per_access; },
        [](Hardware& h, double x) { h.buffer.energy.pj_per_access = x; });
    addNumber(
        f, QStringLiteral("buffer.a"), tr("a"), real, 0, kBig, tr(" pJ/√bit"),
        [](const Hardware& h) { return h.buffer.energy.a; },
        [](Hardware& h, double x) { h.buffer.energy.a = x; });
    addNumber(
        f, QStringLiteral("buffer.b"), tr("b"), real, 0, kBig, tr(" pJ"),
        [](const Hardware& h) { return h.buffer.energy.b; },
        [](Hardware& h, double x) { h.buffer.energy.b = x; });
    addNumber(
        f, QStringLiteral("buffer.bank_bits"), tr("Bank size"), integer, 1, kBig, tr(" bit"),
        [](const Hardware& h) { return h.buffer.energy.bank_bits; },
        [](Hardware& h, double x) { h.buffer.energy.bank_bits = x; });
    addNumber(
        f, QStringLiteral("buffer.bank_factor"), tr("Bank factor"), real, 0, kBig, {},
        [](const Hardware& h) { return h.buffer.energy.bank_factor; },
        [](Hardware& h, double x) { h.buffer.energy.bank_factor = x; });

    f = addSection(v, body, tr("PE array"));
    addInt(
        f, QStringLiteral("pe.cols"), tr("Columns"), 1, 1 << 16, {},
        [](const Hardware& h) { return h.pe_array.cols; },
        [](Hardware& h, int x) { h.pe_array.cols = x; });
    addInt(
        f, QStringLiteral("pe.rows"), tr("Rows"), 1, 1 << 16, {},
        [](const Hardware& h) { return h.pe_array.rows; },
        [](Hardware& h, int x) { h.pe_array.rows = x; });
    addInt(
        f, QStringLiteral("pe.macs"), tr("MACs per PE"), 1, 1 << 16, tr(" /cycle"),
        [](const Hardware& h) { return h.pe_array.macs_per_pe_per_cycle; },
        [](Hardware& h, int x) { h.pe_array.macs_per_pe_per_cycle = x; });
    auto* df = new QComboBox(body);
    df->setEditable(true);
    df->setInsertPolicy(QComboBox::NoInsert);
    for (const char* p : kDataflowPresets)
        df->addItem(QString::fromLatin1(p));
    addField(
        f, QStringLiteral("pe.dataflow"), tr("Dataflow"), df,
        [](const Hardware& h) { return QVariant(qs(toString(h.pe_array.dataflow))); },
        [](Hardware& h, const QVariant& x) {
            if (auto d = parseDataflow(x.toString().trimmed().toStdString()))
                h.pe_array.dataflow = *d;
        },
        tr("Loop dims on PE columns | rows: ox, oy, oc, ic, kx, ky, b; a product with *"));

    f = addSection(v, body, tr("Register file (per PE)"));
    const int rfMax = 1 << 30;
    addNumber(
        f, QStringLiteral("rf.bytes"), tr("Size"), integer, 0, rfMax, tr(" B"),
        [](const Hardware& h) { return double(h.register_file.bytes_per_pe); },
        [](Hardware& h, double x) { h.register_file.bytes_per_pe = int64_t(x); },
        tr("0 = no register-file level"));
    addNumber(
        f, QStringLiteral("rf.weight"), tr("Weight section"), integer, 0, rfMax, tr(" B"),
        [](const Hardware& h) { return double(h.register_file.weight); },
        [](Hardware& h, double x) { h.register_file.weight = int64_t(x); });
    addNumber(
        f, QStringLiteral("rf.input"), tr("Input section"), integer, 0, rfMax, tr(" B"),
        [](const Hardware& h) { return double(h.register_file.input); },
        [](Hardware& h, double x) { h.register_file.input = int64_t(x); });
    addNumber(
        f, QStringLiteral("rf.psum"), tr("Psum section"), integer, 0, rfMax, tr(" B"),
        [](const Hardware& h) { return double(h.register_file.psum); },
        [](Hardware& h, double x) { h.register_file.psum = int64_t(x); });
    addNumber(
        f, QStringLiteral("rf.pj"), tr("Access energy"), real, 0, kBig, tr(" pJ"),
        [](const Hardware& h) { return h.register_file.pj_per_access; },
        [](Hardware& h, double x) { h.register_file.pj_per_access = x; });

    f = addSection(v, body, tr("Compute"));
    addNumber(
        f, QStringLiteral("mac_pj"), tr("MAC energy"), real, 0, kBig, tr(" pJ"),
        [](const Hardware& h) { return h.mac_pj; }, [](Hardware& h, double x) { h.mac_pj = x; });
    auto* overlap = new QComboBox(body);
    overlap->addItem(tr("serial"), int(OverlapMode::serial));
    overlap->setItemData(0, tr("latency = compute + memory (TSO Eq. 6)"), Qt::ToolTipRole);
    overlap->addItem(tr("overlapped"), int(OverlapMode::overlapped));
    overlap->setItemData(1, tr("latency = max(compute, memory): double buffering"),
                         Qt::ToolTipRole);
    addField(
        f, QStringLiteral("overlap"), tr("Overlap"), overlap,
        [](const Hardware& h) { return QVariant(int(h.overlap)); },
        [](Hardware& h, const QVariant& x) { h.overlap = OverlapMode(x.toInt()); },
        tr("Whether DRAM transfers overlap computation (double buffering, TSO Eq. 6)"));

    coresBox_ = new QGroupBox(tr("Multicore NPU (TSO)"), body);
    coresBox_->setCheckable(true);
    auto* cf = new QFormLayout(coresBox_);
    v->addWidget(coresBox_);
    // The switch comes first so that the per-core fields below find hw.cores when it is on.
    sectionTitle_ = coresBox_->title();
    fields_.push_back(Field{QStringLiteral("cores"),
                            sectionTitle_,
                            coresBox_,
                            [](const Hardware& h) { return QVariant(h.cores.has_value()); },
                            [](Hardware& h, const QVariant& x) {
                                if (x.toBool() && !h.cores) h.cores = CoresConfig{};
                                if (!x.toBool()) h.cores.reset();
                            },
                            {}});
    {
        const int index = int(fields_.size()) - 1;
        connect(coresBox_, &QGroupBox::toggled, this, [this, index] { onFieldChanged(index); });
    }
    const CoresConfig defCores;
    addInt(
        cf, QStringLiteral("cores.tle"), tr("TLE engines"), 1, 1 << 12, {},
        [defCores](const Hardware& h) { return (h.cores ? *h.cores : defCores).tle; },
        [](Hardware& h, int x) {
            if (h.cores) h.cores->tle = x;
        });
    addInt(
        cf, QStringLiteral("cores.tlt"), tr("TLT cores per TLE"), 1, 1 << 12, {},
        [defCores](const Hardware& h) { return (h.cores ? *h.cores : defCores).tlt; },
        [](Hardware& h, int x) {
            if (h.cores) h.cores->tlt = x;
        });
    for (int k = 0; k < 3; ++k)
        addNumber(
            cf, QStringLiteral("cores.mb%1").arg(k), tr("MB%1").arg(k), bytes, 1, kMaxBytes,
            tr(" B"),
            [defCores, k](const Hardware& h) {
                const auto& mb = (h.cores ? *h.cores : defCores).mb_bytes;
                return size_t(k) < mb.size() ? double(mb[size_t(k)]) : 1.0;
            },
            [k](Hardware& h, double x) {
                if (!h.cores) return;
                h.cores->mb_bytes.resize(3, 8192);
                h.cores->mb_bytes[size_t(k)] = int64_t(x);
            });
    v->addStretch(1);
    return body;
}

QFormLayout* HardwareEditor::addSection(QVBoxLayout* v, QWidget* parent, const QString& title) {
    auto* box = new QGroupBox(title, parent);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    v->addWidget(box);
    sectionTitle_ = title;
    return form;
}

void HardwareEditor::addField(QFormLayout* form, const QString& key, const QString& label,
                              QWidget* widget, std::function<QVariant(const Hardware&)> get,
                              std::function<void(Hardware&, const QVariant&)> set,
                              const QString& tooltip) {
    widget->setObjectName(key);
    if (!tooltip.isEmpty()) widget->setToolTip(tooltip);
    form->addRow(label, widget);
    // Undo texts name the field with its section: "Set DRAM › Bandwidth to 16 B/cycle".
    fields_.push_back(Field{key,
                            sectionTitle_ + QStringLiteral(" › ") + label,
                            widget,
                            std::move(get),
                            std::move(set),
                            {}});
    const int index = int(fields_.size()) - 1;
    if (auto* s = qobject_cast<QSpinBox*>(widget))
        connect(s, &QSpinBox::valueChanged, this, [this, index] { onFieldChanged(index); });
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(widget))
        connect(d, &QDoubleSpinBox::valueChanged, this, [this, index] { onFieldChanged(index); });
    else if (auto* e = qobject_cast<QLineEdit*>(widget))
        connect(e, &QLineEdit::editingFinished, this, [this, index] { onFieldChanged(index); });
    else if (auto* c = qobject_cast<QComboBox*>(widget)) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
        connect(c, &QComboBox::activated, this, [this, index] { onFieldChanged(index); });
        if (c->isEditable())
            connect(c->lineEdit(), &QLineEdit::editingFinished, this,
                    [this, index] { onFieldChanged(index); });
    }
}

void HardwareEditor::addNumber(QFormLayout* form, const QString& key, const QString& label,
                               int mode, double min, double max, const QString& suffix,
                               std::function<double(const Hardware&)> get,
                               std::function<void(Hardware&, double)> set, const QString& tooltip) {
    auto* sb = new NumberSpinBox(NumberSpinBox::Mode(mode), form->parentWidget());
    sb->setRange(min, max);
    sb->setSuffix(suffix);
    if (NumberSpinBox::Mode(mode) == NumberSpinBox::Mode::bytes)
        connect(sb, &QDoubleSpinBox::valueChanged, sb,
                [sb](double v) { sb->setToolTip(formatBytes(v)); });
    addField(
        form, key, label, sb, [get](const Hardware& h) { return QVariant(get(h)); },
        [set](Hardware& h, const QVariant& x) { set(h, x.toDouble()); }, tooltip);
}

void HardwareEditor::addInt(QFormLayout* form, const QString& key, const QString& label, int min,
                            int max, const QString& suffix, std::function<int(const Hardware&)> get,
                            std::function<void(Hardware&, int)> set, const QString& tooltip) {
    auto* sb = new QSpinBox(form->parentWidget());
    sb->setRange(min, max);
    sb->setSuffix(suffix);
    sb->setKeyboardTracking(false);
    addField(
        form, key, label, sb, [get](const Hardware& h) { return QVariant(get(h)); },
        [set](Hardware& h, const QVariant& x) { set(h, x.toInt()); }, tooltip);
}

void HardwareEditor::setState(const StudioState& state) {
    const bool changed = !(state.hardware == state_.hardware);
    state_ = state;
    if (changed || fields_.front().shown.isNull()) showHardware(state_.hardware);
}

void HardwareEditor::setSelection(const StudioSelection&) {}

QWidget* HardwareEditor::fieldWidget(const QString& key) const {
    for (const Field& f : fields_)
        if (f.key == key) return f.widget;
    return nullptr;
}

QStringList HardwareEditor::fieldKeys() const {
    QStringList keys;
    for (const Field& f : fields_)
        keys << f.key;
    return keys;
}

void HardwareEditor::showHardware(const Hardware& hw) {
    updating_ = true;
    for (Field& f : fields_) {
        setWidgetValue(f.widget, f.get(hw));
        f.shown = widgetValue(f.widget);
    }
    {
        const QSignalBlocker b(presets_);
        int match = 0;
        for (size_t i = 0; i < presetList_.size(); ++i)
            if (presetList_[i].second == hw) match = int(i) + 1;
        presets_->setCurrentIndex(match);
    }
    updateEnergyRows();
    updateSummary(hw);
    showProblems(problems());
    updating_ = false;
}

Hardware HardwareEditor::editedHardware() const {
    Hardware hw = state_.hardware;
    // Only fields the user changed are written, so values finer than a widget shows survive.
    for (const Field& f : fields_) {
        const QVariant v = widgetValue(f.widget);
        if (v != f.shown) f.set(hw, v);
    }
    canonicalizeBufferEnergy(hw);
    return hw;
}

QStringList HardwareEditor::problems() const {
    QStringList out;
    const Hardware hw = editedHardware();
    if (hw.name.empty()) out << tr("the hardware needs a name");
    if (auto* df = qobject_cast<QComboBox*>(fieldWidget(QStringLiteral("pe.dataflow"))))
        if (!parseDataflow(df->currentText().trimmed().toStdString()))
            out << tr("dataflow \"%1\" is not COLS|ROWS with dims ox, oy, oc, ic, kx, ky, b")
                       .arg(df->currentText());
    for (const std::string& p : validate(hw))
        out << qs(p);
    return out;
}

void HardwareEditor::updateEnergyRows() {
    const auto model =
        SramEnergyModel(widgetValue(fieldWidget(QStringLiteral("buffer.model"))).toInt());
    auto show = [this](const char* key, bool on) {
        bufferForm_->setRowVisible(fieldWidget(QLatin1String(key)), on);
    };
    show("buffer.pj", model == SramEnergyModel::constant);
    show("buffer.a", model != SramEnergyModel::constant);
    show("buffer.b", model != SramEnergyModel::constant);
    show("buffer.bank_bits", model == SramEnergyModel::banked);
    show("buffer.bank_factor", model == SramEnergyModel::banked);
}

void HardwareEditor::updateSummary(const Hardware& hw) {
    const auto& rf = hw.register_file;
    QString s = tr("%1 PEs · peak %2 MAC/cycle · buffer %3")
                    .arg(hw.peCount())
                    .arg(hw.peCount() * hw.pe_array.macs_per_pe_per_cycle)
                    .arg(formatBytes(double(hw.buffer.bytes)));
    if (rf.bytes_per_pe > 0)
        s += tr(" · RF sections %1 of %2 B")
                 .arg(rf.weight + rf.input + rf.psum)
                 .arg(rf.bytes_per_pe);
    summary_->setText(s);
}

void HardwareEditor::showProblems(const QStringList& problems) {
    validation_->setText(problems.isEmpty() ? QString()
                                            : tr("Not applied:") + QStringLiteral("\n• ") +
                                                  problems.join(QStringLiteral("\n• ")));
    validation_->setVisible(!problems.isEmpty());
}

void HardwareEditor::onFieldChanged(int index) {
    if (updating_) return;
    const Field& f = fields_[size_t(index)];
    if (f.key == QLatin1String("buffer.model")) updateEnergyRows();
    const QStringList p = problems();
    showProblems(p);
    const Hardware hw = editedHardware();
    updateSummary(hw);
    if (!p.isEmpty() || hw == state_.hardware) return;
    const QString text = tr("Set %1 to %2").arg(f.label, widgetText(f.widget));
    state_.hardware = hw; // later edits build on this one
    showHardware(hw);
    emit hardwareEdited(hw, text, merge::stableId(merge::Field::hardware, index));
}

void HardwareEditor::onPresetChosen(int index) {
    if (updating_ || index <= 0 || size_t(index) > presetList_.size()) return;
    const auto& [name, hw] = presetList_[size_t(index) - 1];
    if (hw == state_.hardware) return;
    state_.hardware = hw;
    showHardware(hw);
    emit hardwareEdited(hw, tr("Use hardware preset %1").arg(name), 0);
}

} // namespace lf
