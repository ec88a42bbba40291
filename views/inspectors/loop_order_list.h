// The loop order of a layer's four tiled dimensions (outermost first) as a reorderable list:
// drag an entry, or move the current one with the Up / Down buttons.
#pragma once

#include "schedule/schedule.h"

#include <QWidget>

#include <array>

class QListWidget;
class QToolButton;

namespace lf {

class LoopOrderList : public QWidget {
    Q_OBJECT
  public:
    explicit LoopOrderList(QWidget* parent = nullptr);

    // Shows an order without emitting orderEdited.
    void setOrder(const std::array<Dim, 4>& order);
    std::array<Dim, 4> order() const { return order_; }

    // Moves the entry at `row` by `delta` rows (what the buttons do).
    void moveRow(int row, int delta);
    QListWidget* list() const { return list_; }

  signals:
    void orderEdited(std::array<lf::Dim, 4> order);

  private:
    void readBackFromList();
    void updateButtons();
    static QString label(Dim d);

    QListWidget* list_;
    QToolButton* up_;
    QToolButton* down_;
    std::array<Dim, 4> order_{Dim::z, Dim::y, Dim::x, Dim::i};
    bool updating_ = false;
    bool readPending_ = false;
};

} // namespace lf
