// EditScript: fusion edits given as text, one a line, applied as the user would make them
// (through the Studio, each one an undo step): `fuse LAYER LAYER...`, `split LAYER`,
// `ungroup LAYER` (the group holding it), `undo`, `redo`. Each line is answered on standard
// output: `ok <undo index>` or `refused: <reason>`. `layerfuse --edits-from-stdin` reads a
// script from standard input, so that another program can drive a real studio (the
// crash-recovery test kills one in the middle of its edits).
#pragma once

#include "studio/studio.h"

#include <QByteArray>
#include <QObject>
#include <QString>

class QSocketNotifier;

namespace lf {

class EditScript : public QObject {
    Q_OBJECT
  public:
    explicit EditScript(Studio* studio, QObject* parent = nullptr);

    // Applies one line; returns the answer (without the newline).
    QString apply(const QString& line);
    // Reads lines from standard input as they come and answers each on standard output.
    void followStandardInput();

  private:
    void readStandardInput();

    Studio* studio_;
    QSocketNotifier* notifier_ = nullptr;
    QByteArray pending_;
};

} // namespace lf
