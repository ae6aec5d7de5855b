#pragma once
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include "rt/Realtime.hpp"

namespace boop {

// Single-producer/single-consumer ring of trivially copyable items. Capacity is fixed at
// construction (allocation happens there and only there); tryPush/tryPop never allocate, lock
// or block, so the consumer may be the audio thread. Head and tail live on separate cache lines
// so the two threads do not false-share.
template <typename T>
class LockFreeQueue {
    static_assert(std::is_trivially_copyable<T>::value, "queue items are copied with plain stores");

  public:
    // Allocates. capacity is rounded up to a power of two (at least 2).
    explicit LockFreeQueue(std::size_t capacity) {
        std::size_t cap = 2;
        while (cap < capacity) cap <<= 1;
        mask_ = cap - 1;
        slots_.reset(new T[cap]);
    }

    std::size_t capacity() const noexcept { return mask_ + 1; }

    // Producer thread only. Returns false (and leaves the queue unchanged) when full.
    bool tryPush(const T& item) BOOP_RT {
        const std::size_t tail = tail_.load(std::memory_order_relaxed);
        if (tail - headCache_ > mask_) {
            headCache_ = head_.load(std::memory_order_acquire);
            if (tail - headCache_ > mask_) return false;
        }
        slots_[tail & mask_] = item;
        tail_.store(tail + 1, std::memory_order_release);
        return true;
    }

    // Consumer thread only. Returns false when empty.
    bool tryPop(T& out) BOOP_RT {
        const std::size_t head = head_.load(std::memory_order_relaxed);
        if (head == tailCache_) {
            tailCache_ = tail_.load(std::memory_order_acquire);
            if (head == tailCache_) return false;
        }
        out = slots_[head & mask_];
        head_.store(head + 1, std::memory_order_release);
        return true;
    }

    // Consumer thread only: the next item without removing it.
    const T* peek() BOOP_RT {
        const std::size_t head = head_.load(std::memory_order_relaxed);
        if (head == tailCache_) {
            tailCache_ = tail_.load(std::memory_order_acquire);
            if (head == tailCache_) return nullptr;
        }
        return &slots_[head & mask_];
    }

  private:
    std::unique_ptr<T[]> slots_;
    std::size_t mask_ = 0;
    alignas(64) std::atomic<std::size_t> head_{0};
    std::size_t tailCache_ = 0;  // consumer's view of tail
    alignas(64) std::atomic<std::size_t> tail_{0};
    std::size_t headCache_ = 0;  // producer's view of head
};

}  // namespace boop
