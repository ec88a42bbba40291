#include "graph/async_layouter.h"

#include <QMetaObject>

namespace lf::graph {

AsyncLayouter::AsyncLayouter(Factory make, Receiver receive, QObject* parent)
    : QObject(parent), make_(std::move(make)), receive_(std::move(receive)),
      thread_([this] { run(); }) {}

AsyncLayouter::~AsyncLayouter() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
        waiting_.reset();
    }
    wake_.notify_one();
    thread_.join();
}

uint64_t AsyncLayouter::request(LayoutRequest request) {
    uint64_t ticket;
    {
        const std::lock_guard lock(mutex_);
        ticket = ++nextTicket_;
        if (waiting_) --pendingTickets_; // dropped: it will never come back
        waiting_.emplace(ticket, std::move(request));
    }
    ++pendingTickets_;
    wake_.notify_one();
    return ticket;
}

void AsyncLayouter::run() {
    std::unique_ptr<Layouter> layouter;
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || waiting_.has_value(); });
        if (stopping_) break;
        auto [ticket, request] = std::move(*waiting_);
        waiting_.reset();
        lock.unlock();
        if (!layouter) layouter = make_();
        auto result = std::make_shared<LayoutResult>(layouter->layout(request));
        QMetaObject::invokeMethod(
            this,
            [this, ticket = ticket, result] {
                --pendingTickets_;
                receive_(ticket, std::move(*result));
            },
            Qt::QueuedConnection);
        lock.lock();
    }
    lock.unlock();
    layouter.reset(); // its helper process ends on the thread that started it
}

} // namespace lf::graph
