import XCTest

@testable import DocumentCore

final class ThumbnailJobQueueTests: XCTestCase {
    func testHighestPriorityFirstThenTheOldest() {
        var queue = ThumbnailJobQueue<String>()
        queue.insert("old low", id: 1, priority: 1)
        queue.insert("high", id: 2, priority: 5)
        queue.insert("new low", id: 3, priority: 1)
        queue.insert("also high", id: 4, priority: 5)
        var order: [String] = []
        while let job = queue.popFirst() { order.append(job) }
        XCTAssertEqual(order, ["high", "also high", "old low", "new low"])
        XCTAssertTrue(queue.isEmpty)
    }

    func testRemovedJobsNeverComeOutAndRaisedOnesComeFirst() {
        var queue = ThumbnailJobQueue<Int>()
        for id in 1...1_000 { queue.insert(id, id: id, priority: id % 7) }
        for id in 1...1_000 where id % 10 != 0 { XCTAssertTrue(queue.remove(id)) }
        XCTAssertFalse(queue.remove(5), "already removed")
        queue.setPriority(100, of: 500)
        XCTAssertEqual(queue.count, 100)
        var out: [Int] = []
        while let job = queue.popFirst() { out.append(job) }
        XCTAssertEqual(out.first, 500, "the raised job first")
        XCTAssertEqual(Set(out), Set(stride(from: 10, through: 1_000, by: 10)), "only the jobs left, each once")
        let rest = Array(out.dropFirst())
        let expected = rest.sorted { (a: Int, b: Int) -> Bool in
            a % 7 != b % 7 ? a % 7 > b % 7 : a < b
        }
        XCTAssertEqual(rest, expected, "by priority, then age")
    }
}
