// The File ▸ Open Recent list, kept in QSettings (most recent first, at most ten entries).
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace lf {

class RecentFiles : public QObject {
    Q_OBJECT
  public:
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);
    static constexpr int kMax = 10;

    QStringList files() const;
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

  signals:
    void openRequested(const QString& path);

  private:
    void store(const QStringList& files);
    void rebuildMenu();
    QMenu* menu_;
};

} // namespace lf
