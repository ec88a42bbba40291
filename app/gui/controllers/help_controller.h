// HelpController: Help ▸ — About LayerFuse (version, Qt and the Graphviz backend).
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>

namespace lf {

class HelpController : public QObject {
    Q_OBJECT
  public:
    explicit HelpController(Studio* studio, QObject* parent = nullptr);

    const ActionSet& actions() const { return actions_; }
    void about();

  private:
    Studio* studio_;
    ActionSet actions_;
};

} // namespace lf
