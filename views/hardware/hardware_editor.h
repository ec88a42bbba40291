// HardwareEditor: every field of the hardware YAML (docs/file-formats.md) — frequency, batch,
// precisions, DRAM, buffer and its energy model, PE array and dataflow, register file and its
// split, MAC energy, overlap mode, optional multicore — plus a picker of the bundled presets
// and live validation (lf::validate). A valid change leaves as a hardwareEdited intent; an
// invalid one is shown with its reasons and not applied.
#pragma once

#include "studio_metatypes.h"

#include <QVariant>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QVBoxLayout;

namespace lf {

class HardwareEditor : public QWidget {
    Q_OBJECT
  public:
    explicit HardwareEditor(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    // The hardware does not depend on the selection; accepted for a uniform view interface.
    void setSelection(const lf::StudioSelection& selection);

    // The hardware the fields describe now, and what is wrong with it (empty when valid).
    Hardware editedHardware() const;
    QStringList problems() const;

    // Field widgets by key ("frequency_mhz", "dram.bandwidth", "rf.weight", "cores.tle", ...).
    QWidget* fieldWidget(const QString& key) const;
    QStringList fieldKeys() const;
    QComboBox* presetComboBox() const { return presets_; }
    QLabel* validationLabel() const { return validation_; }

  signals:
    void hardwareEdited(lf::Hardware hardware, QString text, int mergeId);

  private:
    struct Field {
        QString key;
        QString label; // "DRAM › Bandwidth"
        QWidget* widget = nullptr;
        std::function<QVariant(const Hardware&)> get;
        std::function<void(Hardware&, const QVariant&)> set;
        QVariant shown; // the widget's value after the last refresh
    };

    QWidget* buildForm();
    QFormLayout* addSection(QVBoxLayout* v, QWidget* parent, const QString& title);
    void addField(QFormLayout* form, const QString& key, const QString& label, QWidget* widget,
                  std::function<QVariant(const Hardware&)> get,
                  std::function<void(Hardware&, const QVariant&)> set, const QString& tooltip = {});
    void addNumber(QFormLayout* form, const QString& key, const QString& label, int mode,
                   double min, double max, const QString& suffix,
                   std::function<double(const Hardware&)> get,
                   std::function<void(Hardware&, double)> set, const QString& tooltip = {});
    void addInt(QFormLayout* form, const QString& key, const QString& label, int min, int max,
                const QString& suffix, std::function<int(const Hardware&)> get,
                std::function<void(Hardware&, int)> set, const QString& tooltip = {});
    void showHardware(const Hardware& hw);
    void updateEnergyRows();
    void updateSummary(const Hardware& hw);
    void showProblems(const QStringList& problems);
    void onFieldChanged(int index);
    void onPresetChosen(int index);

    StudioState state_;
    bool updating_ = false;
    std::vector<Field> fields_;
    std::vector<std::pair<QString, Hardware>> presetList_;
    QComboBox* presets_;
    QLabel* validation_;
    QLabel* summary_;
    QFormLayout* bufferForm_ = nullptr;
    QGroupBox* coresBox_ = nullptr;
    QString sectionTitle_; // of the fields being added
};

// Resets the energy-model parameters the chosen buffer model does not use to their defaults,
// so that the hardware equals what its YAML file reads back as.
void canonicalizeBufferEnergy(Hardware& hw);

} // namespace lf
