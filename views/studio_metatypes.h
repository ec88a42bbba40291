// Meta-type registration of the value types that studio views carry in signals, so that
// intents can cross queued (thread or deferred) connections and be stored in QVariants.
#pragma once

#include "studio_state.h"

#include <QMetaType>

Q_DECLARE_METATYPE(lf::LayerSchedule)
Q_DECLARE_METATYPE(lf::FusionGroup)
Q_DECLARE_METATYPE(lf::Hardware)
Q_DECLARE_METATYPE(lf::StudioSelection)
Q_DECLARE_METATYPE(lf::StudioState)

namespace lf {

// Registers the types above (and the LayerId alias used in signal signatures) with the
// meta-object system; call once before making queued connections to studio views.
inline void registerStudioMetaTypes() {
    qRegisterMetaType<lf::LayerSchedule>("lf::LayerSchedule");
    qRegisterMetaType<lf::FusionGroup>("lf::FusionGroup");
    qRegisterMetaType<lf::Hardware>("lf::Hardware");
    qRegisterMetaType<lf::StudioSelection>("lf::StudioSelection");
    qRegisterMetaType<lf::StudioState>("lf::StudioState");
    qRegisterMetaType<lf::LayerId>("lf::LayerId");
}

} // namespace lf
