// UnchangedNote: under an inspector's editor, why the last edit left every figure as it was
// ("Every loop runs once: …"). The reason comes from core (teaching/unchanged_figures.h); the
// note compares the schedule of the last evaluated state with the new one and shows the
// reason only when no figure moved and the edit concerns what the inspector shows.
#pragma once

#include "studio_state.h"

#include <QLabel>

#include <functional>
#include <optional>

namespace lf {

class UnchangedNote : public QLabel {
    Q_OBJECT
  public:
    explicit UnchangedNote(QWidget* parent = nullptr);
    // `concerns(before, after)`: whether the edit between the two schedules is one this
    // inspector shows (its layer, its group).
    void update(const StudioState& state,
                const std::function<bool(const Schedule&, const Schedule&)>& concerns);

  private:
    std::optional<Schedule> last_; // the schedule of the last evaluated state
    std::string network_;
};

} // namespace lf
