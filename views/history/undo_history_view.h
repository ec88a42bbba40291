// UndoHistoryView: the History dock — the edits of an undo stack, oldest first, under a first
// row for the document as opened; the current state is the selected row, and choosing a row
// undoes or redoes up to it (as QUndoView does). Unlike QUndoView, a long edit text (an
// Auto-fuse names the groups it made and what it saved) never runs off the dock's edge: rows
// are as wide as the view, elided in the middle, with the whole text in the tooltip.
#pragma once

#include <QAbstractListModel>
#include <QListView>
#include <QPointer>
#include <QUndoStack>

namespace lf {

class UndoHistoryModel : public QAbstractListModel {
    Q_OBJECT
  public:
    explicit UndoHistoryModel(QUndoStack* stack, QObject* parent = nullptr);

    // The text of the first row (the state before any edit).
    void setEmptyLabel(const QString& label);
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

  private:
    QPointer<QUndoStack> stack_;
    QString emptyLabel_;
};

class UndoHistoryView : public QListView {
    Q_OBJECT
  public:
    explicit UndoHistoryView(QUndoStack* stack, QWidget* parent = nullptr);

    void setEmptyLabel(const QString& label);

  private:
    void showStackIndex();

    QPointer<QUndoStack> stack_;
    UndoHistoryModel* model_;
    bool following_ = false; // the selection follows the stack (no setIndex back)
};

} // namespace lf
