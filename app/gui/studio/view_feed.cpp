#include "studio/view_feed.h"

#include <QEvent>

#include <utility>

namespace lf {

ViewFeed::ViewFeed(QWidget* view, std::function<void(const StudioState&)> setState,
                   std::function<void(const StudioSelection&)> setSelection, bool evenOutOfSight)
    : QObject(view), view_(view), setState_(std::move(setState)),
      setSelection_(std::move(setSelection)), evenOutOfSight_(evenOutOfSight) {
    view->installEventFilter(this);
}

bool ViewFeed::outOfSight() const {
    return !evenOutOfSight_ && view_ && view_->window()->isVisible() && !view_->isVisible();
}

void ViewFeed::state(const StudioState& state) {
    if (!view_) return;
    if (outOfSight()) {
        pendingState_ = state;
        return;
    }
    catchUp(); // a selection held back belongs before this state
    setState_(state);
}

void ViewFeed::selection(const StudioSelection& selection) {
    if (!view_) return;
    if (outOfSight()) {
        pendingSelection_ = selection;
        return;
    }
    catchUp();
    setSelection_(selection);
}

void ViewFeed::catchUp() {
    // In the order the studio sends them: the state, then the selection that follows it.
    if (auto s = std::exchange(pendingState_, std::nullopt)) setState_(*s);
    if (auto s = std::exchange(pendingSelection_, std::nullopt)) setSelection_(*s);
}

bool ViewFeed::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_ && event->type() == QEvent::Show && pending()) catchUp();
    return QObject::eventFilter(watched, event);
}

} // namespace lf
