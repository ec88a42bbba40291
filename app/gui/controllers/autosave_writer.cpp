#include "controllers/autosave_writer.h"

namespace lf {

AutosaveWriter::AutosaveWriter(QObject* parent) : QObject(parent), thread_([this] { run(); }) {}

AutosaveWriter::~AutosaveWriter() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void AutosaveWriter::submit(Job job) {
    {
        const std::lock_guard lock(mutex_);
        pending_ = std::move(job);
    }
    wake_.notify_one();
}

void AutosaveWriter::waitUntilIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return !pending_ && !busy_; });
}

void AutosaveWriter::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || bool(pending_); });
        if (!pending_) return; // stopping, nothing left to write
        Job job = std::move(pending_);
        pending_ = nullptr;
        busy_ = true;
        lock.unlock();
        const QString error = job();
        emit finished(error); // queued to the owner's thread
        lock.lock();
        busy_ = false;
        idle_.notify_all();
    }
}

} // namespace lf
