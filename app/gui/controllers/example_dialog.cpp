#include "controllers/example_dialog.h"

#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace lf {

ExampleDialog::ExampleDialog(const QString& currentHardware, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New Project from Example"));
    networks_ = new QListWidget(this);
    networks_->setObjectName(QStringLiteral("exampleNetworks"));
    networks_->setAlternatingRowColors(true);
    hardware_ = new QComboBox(this);
    hardware_->setObjectName(QStringLiteral("exampleHardware"));
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setMinimumHeight(details_->fontMetrics().height() * 3);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    for (const BundledFile& f : bundledFiles()) {
        if (f.kind == BundledKind::network) {
            auto spec = parseNetworkSpec(f.text, bundledFileLabel(f));
            auto* item = new QListWidgetItem(QString::fromLatin1(f.name), networks_);
            item->setData(Qt::UserRole, QString::fromLatin1(f.name));
            if (spec) {
                item->setToolTip(QString::fromStdString(spec->description));
                item->setData(Qt::UserRole + 1, QString::fromStdString(spec->name) +
                                                    QStringLiteral(" — ") +
                                                    QString::fromStdString(spec->description));
            }
            if (std::string_view(f.name) == kDefaultNetwork) networks_->setCurrentItem(item);
        } else if (f.kind == BundledKind::hardware) {
            hardware_->addItem(QString::fromLatin1(f.name), QString::fromLatin1(f.name));
            if (auto hw = readHardwareYaml(f.text, bundledFileLabel(f)))
                hardware_->setItemData(hardware_->count() - 1,
                                       QString::fromStdString(hw->description), Qt::ToolTipRole);
        }
    }
    if (!networks_->currentItem() && networks_->count() > 0) networks_->setCurrentRow(0);
    const int hw = hardware_->findData(
        currentHardware.isEmpty()
            ? QString::fromLatin1(kDefaultHardware.data(), qsizetype(kDefaultHardware.size()))
            : currentHardware);
    if (hw >= 0) hardware_->setCurrentIndex(hw);

    auto updateDetails = [this] {
        if (QListWidgetItem* it = networks_->currentItem())
            details_->setText(it->data(Qt::UserRole + 1).toString());
    };
    connect(networks_, &QListWidget::currentItemChanged, this, updateDetails);
    updateDetails();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Open"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(networks_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);

    auto* form = new QFormLayout;
    form->addRow(tr("Hardware:"), hardware_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Network:"), this));
    layout->addWidget(networks_, 1);
    layout->addWidget(details_);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, 520);
}

QString ExampleDialog::network() const {
    return networks_->currentItem() ? networks_->currentItem()->data(Qt::UserRole).toString()
                                    : QString();
}

QString ExampleDialog::hardware() const {
    return hardware_->currentData().toString();
}

} // namespace lf
