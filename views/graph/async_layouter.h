// AsyncLayouter: a Layouter on a thread of its own, so that the GUI thread never waits for
// Graphviz (a 5,000-layer graph takes dot tens of seconds). The layouter is made, used and
// destroyed on that thread (the helper process belongs to it). A request still waiting when
// a newer one arrives is dropped: only the latest picture matters. Results come back on the
// thread that owns the AsyncLayouter, through its event loop.
#pragma once

#include "graph/layouter.h"

#include <QObject>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace lf::graph {

class AsyncLayouter : public QObject {
    Q_OBJECT
  public:
    using Factory = std::function<std::unique_ptr<Layouter>()>;
    // Called on the owner's thread with the request's ticket and its result.
    using Receiver = std::function<void(uint64_t ticket, LayoutResult result)>;

    AsyncLayouter(Factory make, Receiver receive, QObject* parent = nullptr);
    ~AsyncLayouter() override;

    // Queues `request` (replacing one not started yet) and returns its ticket; tickets grow.
    uint64_t request(LayoutRequest request);
    // Whether a request has not come back yet.
    bool busy() const { return pendingTickets_ > 0; }

  private:
    void run();

    Factory make_;
    Receiver receive_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<std::pair<uint64_t, LayoutRequest>> waiting_;
    bool stopping_ = false;
    uint64_t nextTicket_ = 0;
    int pendingTickets_ = 0; // owner thread only
    std::thread thread_;
};

} // namespace lf::graph
