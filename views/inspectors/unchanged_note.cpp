#include "inspectors/unchanged_note.h"

#include "qt_text.h"
#include "teaching/unchanged_figures.h"

namespace lf {

UnchangedNote::UnchangedNote(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("unchangedNote"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    hide();
}

void UnchangedNote::update(const StudioState& state,
                           const std::function<bool(const Schedule&, const Schedule&)>& concerns) {
    if (!state.metrics) return; // wait for the figures
    const std::string network = state.network.canonicalHash();
    const bool sameNetwork = last_ && network == network_;
    const bool edited = sameNetwork && !(*last_ == state.schedule);
    std::string why;
    if (edited && state.previous && concerns(*last_, state.schedule) &&
        sameFigures(*state.previous, *state.metrics)) {
        why = whyUnchanged(state.network, *last_, state.schedule);
        if (why.empty()) why = "This edit changes none of the figures.";
    }
    const bool keep = sameNetwork && !edited; // the same schedule again: keep what is shown
    last_ = state.schedule;
    network_ = network;
    if (keep) return;
    setText(QStringLiteral("ℹ ") + qs(why));
    setVisible(!why.empty());
}

} // namespace lf
