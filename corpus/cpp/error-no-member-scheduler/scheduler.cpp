// A small cooperative task scheduler, freestanding (no standard headers): tasks with
// priorities and deadlines, a fixed-capacity vector, a binary heap keyed by a
// comparator, named queues, and a report written into a character buffer.
namespace sched {

using Tick = unsigned long long;
using Size = decltype(sizeof(0));

template <typename T> struct remove_ref { using type = T; };
template <typename T> struct remove_ref<T &> { using type = T; };
template <typename T> typename remove_ref<T>::type &&move(T &&t) noexcept {
    return static_cast<typename remove_ref<T>::type &&>(t);
}
template <typename T> void swap(T &a, T &b) {
    T tmp = move(a);
    a = move(b);
    b = move(tmp);
}

enum class State : unsigned char { Ready, Running, Blocked, Done };

constexpr const char *state_name(State s) {
    switch (s) {
    case State::Ready: return "ready";
    case State::Running: return "running";
    case State::Blocked: return "blocked";
    case State::Done: return "done";
    }
    return "?";
}

inline bool same(const char *a, const char *b) {
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}

template <typename T, Size N>
class Vec {
public:
    bool push(const T &value) {
        if (len_ == N) return false;
        items_[len_++] = value;
        return true;
    }
    T pop() { return items_[--len_]; }
    T &operator[](Size i) { return items_[i]; }
    const T &operator[](Size i) const { return items_[i]; }
    T *begin() { return items_; }
    T *end() { return items_ + len_; }
    const T *begin() const { return items_; }
    const T *end() const { return items_ + len_; }
    Size size() const noexcept { return len_; }
    bool empty() const noexcept { return len_ == 0; }

private:
    T items_[N] = {};
    Size len_ = 0;
};

struct Task {
    const char *name = "";
    int priority = 0;
    Tick deadline = 0;
    Tick spent = 0;
    int steps_left = 1;
    State state = State::Ready;

    bool overdue(Tick now) const { return deadline != 0 && now > deadline; }
    bool step() { return --steps_left > 0; }
};

template <typename T, Size N, typename Less>
class Heap {
public:
    void push(T value) {
        items_.push(value);
        sift_up(items_.size() - 1);
    }

    T pop() {
        T top = items_[0];
        items_[0] = items_[items_.size() - 1];
        items_.pop();
        if (!items_.empty()) sift_down(0);
        return top;
    }

    bool empty() const noexcept { return items_.empty(); }
    Size size() const noexcept { return items_.size(); }

private:
    void sift_up(Size i) {
        while (i > 0) {
            Size parent = (i - 1) / 2;
            if (!less_(items_[parent], items_[i])) break;
            swap(items_[parent], items_[i]);
            i = parent;
        }
    }

    void sift_down(Size i) {
        for (;;) {
            Size l = 2 * i + 1, r = l + 1, best = i;
            if (l < items_.size() && less_(items_[best], items_[l])) best = l;
            if (r < items_.size() && less_(items_[best], items_[r])) best = r;
            if (best == i) return;
            swap(items_[i], items_[best]);
            i = best;
        }
    }

    Vec<T, N> items_;
    Less less_;
};

struct ByUrgency {
    bool operator()(const Task *a, const Task *b) const {
        if (a->priority != b->priority) return a->priority < b->priority;
        return a->deadline > b->deadline;
    }
};

class Queue {
public:
    Queue() = default;
    explicit Queue(const char *name) : name_(name) {}

    void add(Task *task) { heap_.push(task); }
    Task *next() { return heap_.empty() ? nullptr : heap_.pop(); }
    const char *name() const { return name_; }
    Size pending() const { return heap_.size(); }

private:
    const char *name_ = "";
    Heap<Task *, 32, ByUrgency> heap_;
};

class Writer {
public:
    Writer(char *buf, Size cap) : buf_(buf), cap_(cap) {}
    Writer &operator<<(const char *s) {
        while (*s && len_ + 1 < cap_) buf_[len_++] = *s++;
        buf_[len_] = '\0';
        return *this;
    }
    Writer &operator<<(Tick n) {
        char digits[24];
        int k = 0;
        do digits[k++] = static_cast<char>('0' + n % 10); while ((n /= 10) != 0);
        while (k > 0 && len_ + 1 < cap_) buf_[len_++] = digits[--k];
        buf_[len_] = '\0';
        return *this;
    }

private:
    char *buf_;
    Size cap_;
    Size len_ = 0;
};

class Scheduler {
public:
    Queue &queue(const char *name) {
        for (auto &q : queues_)
            if (same(q.name(), name)) return q;
        queues_.push(Queue(name));
        return queues_[queues_.size() - 1];
    }

    Size run(Tick budget) {
        Size finished = 0;
        for (auto &q : queues_) {
            while (now_ < budget) {
                Task *task = q.next();
                if (!task) break;
                task->state = State::Running;
                ++now_;
                ++task->spent;
                bool more = task->step();
                if (task->overdue(now_)) late_.push(task->name);
                if (more) {
                    task->state = State::Ready;
                    q.add(task);
                } else {
                    task->state = State::Done;
                    ++finished;
                }
            }
        }
        return finished;
    }

    void report(Writer &out) const {
        out << "tick " << now_ << ", " << Tick(queues_.size()) << " queues\n";
        for (const auto &q : queues_) out << "  " << q.name() << ": " << Tick(q.pending()) << " pending\n";
        for (const char *name : late_) out << "  late: " << name << "\n";
        out.flush();
    }

    template <typename Pred>
    Size count_late(Pred pred) const {
        Size n = 0;
        for (const char *name : late_)
            if (pred(name)) ++n;
        return n;
    }

    Size backlog() const {
        Size total = 0;
        for (const auto &q : queues_) total += q.pending();
        return total;
    }

private:
    Tick now_ = 0;
    Vec<Queue, 8> queues_;
    Vec<const char *, 64> late_;
};

}  // namespace sched

int main() {
    static sched::Task tasks[] = {
        {"flush", 2, 5, 0, 3, sched::State::Ready},
        {"fsync", 3, 4, 0, 1, sched::State::Ready},
        {"hash", 1, 0, 0, 4, sched::State::Ready},
    };
    sched::Scheduler s;
    s.queue("io").add(&tasks[0]);
    s.queue("io").add(&tasks[1]);
    s.queue("cpu").add(&tasks[2]);
    sched::Size done = s.run(16);
    auto late = s.count_late([](const char *n) { return n[0] == 'f'; });
    char buf[256];
    sched::Writer out(buf, sizeof buf);
    s.report(out);
    return static_cast<int>(done + late + s.backlog()) == 0 ? 1 : 0;
}
