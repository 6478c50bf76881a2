/// The generator's waiting jobs: highest priority first, the oldest among equals, with
/// removal and re-prioritising by id in constant time (a browser cancels a request for every
/// cell that scrolls away, thousands a second, while the queue may hold thousands).
///
/// A binary heap of (priority, id) entries over a table of the jobs; an entry whose job was
/// removed, or whose priority has changed since, is stale and skipped when it comes up.
/// Not thread-safe: the generator guards it with its lock.
struct ThumbnailJobQueue<Job> {
    private struct Entry {
        let priority: Int
        let id: Int
        /// Comes out before `other`: a higher priority, or the same and older.
        func precedes(_ other: Entry) -> Bool {
            priority != other.priority ? priority > other.priority : id < other.id
        }
    }

    private var jobs: [Int: (priority: Int, job: Job)] = [:]
    private var heap: [Entry] = []

    var isEmpty: Bool { jobs.isEmpty }
    var count: Int { jobs.count }

    /// Adds `job` under `id` (ids increase with time).
    mutating func insert(_ job: Job, id: Int, priority: Int) {
        jobs[id] = (priority, job)
        push(Entry(priority: priority, id: id))
    }

    /// The priority of the job that should run next, if any (stale entries on top are dropped).
    mutating func firstPriority() -> Int? {
        while let top = heap.first {
            if let waiting = jobs[top.id], waiting.priority == top.priority { return top.priority }
            removeTop()
        }
        return nil
    }

    /// Removes and returns the job that should run next.
    mutating func popFirst() -> Job? {
        while let top = heap.first {
            removeTop()
            if let waiting = jobs[top.id], waiting.priority == top.priority {
                jobs[top.id] = nil
                return waiting.job
            }
        }
        return nil
    }

    /// Removes the job `id` if it still waits; true if it did.
    @discardableResult
    mutating func remove(_ id: Int) -> Bool {
        guard jobs.removeValue(forKey: id) != nil else { return false }
        compactIfMostlyStale()
        return true
    }

    /// Changes the priority of the job `id` if it still waits.
    mutating func setPriority(_ priority: Int, of id: Int) {
        guard let waiting = jobs[id], waiting.priority != priority else { return }
        jobs[id] = (priority, waiting.job)
        push(Entry(priority: priority, id: id))
        compactIfMostlyStale()
    }

    // MARK: The heap

    /// Rebuilds the heap from the jobs when stale entries outnumber live ones, so a queue that
    /// sees many cancellations stays small.
    private mutating func compactIfMostlyStale() {
        guard heap.count > 64, heap.count > 4 * jobs.count else { return }
        heap = jobs.map { Entry(priority: $0.value.priority, id: $0.key) }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
