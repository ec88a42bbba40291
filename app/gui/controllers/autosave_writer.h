// AutosaveWriter: runs autosave jobs (serialize a snapshot, write the recovery files) on a
// thread of its own, so that the GUI thread never waits for YAML or the disk. Jobs run in
// the order given; a job still waiting when a newer one arrives is dropped (the newer
// snapshot contains it). The destructor finishes the job waiting, if any, then stops.
#pragma once

#include <QObject>
#include <QString>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace lf {

class AutosaveWriter : public QObject {
    Q_OBJECT
  public:
    // Runs on the writer's thread; returns an error message, empty when done.
    using Job = std::function<QString()>;

    explicit AutosaveWriter(QObject* parent = nullptr);
    ~AutosaveWriter() override;

    // Queues `job`, replacing one that has not started yet.
    void submit(Job job);
    // Blocks until every queued job has run (tests, and before a clean exit).
    void waitUntilIdle();

  signals:
    // After each job, on the thread of the writer's owner.
    void finished(const QString& error);

  private:
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    Job pending_;
    bool busy_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace lf
