// Register-file shares of a temporally partitioned group (docs/models/hw-flow-fusion.md): one
// slider per layer in each RF section (weight, input, psum). Each section's shares sum to 100 %:
// moving one slider rebalances the others in proportion to their shares.
#pragma once

#include "schedule/schedule.h"

#include <QWidget>

#include <array>
#include <vector>

class QLabel;
class QSlider;
class QGroupBox;

namespace lf {

enum class RfSection { weight = 0, input = 1, psum = 2 };

class RfShareEditor : public QWidget {
    Q_OBJECT
  public:
    struct Entry {
        LayerId layer = kNoLayer;
        QString name;
        QColor color;
        RfShare share;
    };

    explicit RfShareEditor(QWidget* parent = nullptr);

    // Shows the layers' shares; `sectionBytes` = bytes per PE of each section (for labels).
    void setShares(const std::vector<Entry>& entries, const std::array<int64_t, 3>& sectionBytes);
    QSlider* slider(RfSection section, LayerId layer) const;
    // Percentages shown in a section, in layer order.
    std::vector<int> percent(RfSection section) const;

  signals:
    // The new fractions of one section for every layer of the group.
    void sharesEdited(lf::RfSection section, std::vector<double> fractions, int mergeId);

  private:
    struct Row {
        LayerId layer;
        QLabel* name;
        QSlider* slider;
        QLabel* value;
    };
    void rebuild(const std::vector<Entry>& entries);
    void showPercent(RfSection section, const std::vector<int>& percent);
    void onSliderMoved(RfSection section, size_t index, int value);

    std::array<QGroupBox*, 3> boxes_{};
    std::array<std::vector<Row>, 3> rows_;
    std::array<int64_t, 3> bytes_{};
    std::array<int, 3> dragMergeIds_{};
    bool updating_ = false;
};

const char* sectionName(RfSection s);

} // namespace lf
