#include "controllers/edit_script.h"

#include "qt_text.h"

#include <QSocketNotifier>
#include <QUndoStack>

#include <cstdio>
#include <unistd.h>

namespace lf {

EditScript::EditScript(Studio* studio, QObject* parent) : QObject(parent), studio_(studio) {}

QString EditScript::apply(const QString& line) {
    const QStringList words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.isEmpty()) return tr("refused: an empty line");
    Document* doc = studio_->document();
    std::vector<LayerId> layers;
    for (qsizetype k = 1; k < words.size(); ++k) {
        const LayerId id = doc->network().find(words[k].toStdString());
        if (id == kNoLayer) return tr("refused: no layer named %1").arg(words[k]);
        layers.push_back(id);
    }
    const QString& verb = words.front();
    Document::EditResult result;
    if (verb == QLatin1String("undo") || verb == QLatin1String("redo")) {
        QUndoStack* undo = doc->undoStack();
        if (verb == QLatin1String("undo") ? !undo->canUndo() : !undo->canRedo())
            return tr("refused: nothing to %1").arg(verb);
        verb == QLatin1String("undo") ? undo->undo() : undo->redo();
        result.ok = true;
    } else if (verb == QLatin1String("fuse") && layers.size() >= 2) {
        result = doc->fuse(layers);
    } else if (verb == QLatin1String("split") && layers.size() == 1) {
        result = doc->splitAt(layers.front());
    } else if (verb == QLatin1String("ungroup") && layers.size() == 1) {
        result = doc->ungroup(doc->schedule().groupOf(layers.front()));
    } else {
        return tr("refused: not an edit: %1").arg(line);
    }
    if (!result.ok) return tr("refused: %1").arg(result.message);
    studio_->afterEdit(result);
    return QStringLiteral("ok %1").arg(doc->undoStack()->index());
}

void EditScript::followStandardInput() {
    notifier_ = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &EditScript::readStandardInput);
}

void EditScript::readStandardInput() {
    char buffer[4096];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n <= 0) {
        notifier_->setEnabled(false); // end of the script
        return;
    }
    pending_.append(buffer, qsizetype(n));
    qsizetype end;
    while ((end = pending_.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(pending_.left(end)).trimmed();
        pending_.remove(0, end + 1);
        const QByteArray answer = apply(line).toUtf8();
        std::printf("%s\n", answer.constData());
        std::fflush(stdout);
    }
}

} // namespace lf
