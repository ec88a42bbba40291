// The Layers dock: every layer of the network in a sortable, filterable table (type, output
// shape, group, MACs, DRAM traffic, energy). Selecting rows selects the layers on the canvas
// and back.
#pragma once

#include "studio_state.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <vector>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace lf {

class SizeHintCachingDelegate;

class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Name, Group, Macs, Dram, Energy, Output, Type, ColumnCount };
    explicit LayerTableModel(QObject* parent = nullptr);

    void setState(const StudioState& state);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int LayerIdRole = Qt::UserRole + 2;

  private:
    StudioState state_;
    std::vector<int> groupOf_; // group index per layer id (rows are read per paint)
};

class LayerList : public QWidget {
    Q_OBJECT
  public:
    explicit LayerList(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);
    LayerTableModel* model() const { return model_; }
    QTableView* view() const { return view_; }

  signals:
    void selectionRequested(const lf::StudioSelection& selection);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void onViewSelectionChanged();
    // The columns in sight are whole: the layer name (elided in the middle, whole in its
    // tooltip) takes what the leading figures leave (fitColumnsToView).
    void fitColumns();

    LayerTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    SizeHintCachingDelegate* delegate_;
    QLineEdit* filter_;
    bool syncing_ = false;
    bool sized_ = false;
};

} // namespace lf
