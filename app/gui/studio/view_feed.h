// ViewFeed: hands a followed view the published states and selections — at once while the
// view is in sight, or the last of them when it comes into sight. A view out of sight (a dock
// tab behind another, a closed dock) in a shown window costs an edit nothing; while the
// window itself is not shown (tests, start-up) every view is fed at once.
#pragma once

#include "studio_state.h"

#include <QObject>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

namespace lf {

class ViewFeed : public QObject {
    Q_OBJECT
  public:
    // `evenOutOfSight`: for views whose updates others follow (the Compare view outlines
    // the differing groups on the canvas).
    ViewFeed(QWidget* view, std::function<void(const StudioState&)> setState,
             std::function<void(const StudioSelection&)> setSelection, bool evenOutOfSight = false);

    void state(const StudioState& state);
    void selection(const StudioSelection& selection);
    // Whether states or selections wait for the view to come into sight.
    bool pending() const { return pendingState_ || pendingSelection_; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    bool outOfSight() const;
    void catchUp();

    QPointer<QWidget> view_;
    std::function<void(const StudioState&)> setState_;
    std::function<void(const StudioSelection&)> setSelection_;
    std::optional<StudioState> pendingState_;
    std::optional<StudioSelection> pendingSelection_;
    bool evenOutOfSight_;
};

} // namespace lf
