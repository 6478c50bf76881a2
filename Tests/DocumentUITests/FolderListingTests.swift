import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// A folder listed off the main thread: its batches reach the main thread as whole lists in
/// the browser's order, each one superseding the last, and the finished listing costs the main
/// thread nothing when it is what the last list said.
final class FolderListingTests: XCTestCase {
    func testBatchesArriveAsGrowingSortedListsThenCompleteWithoutAList() throws {
        let folder = try TemporaryFolder("folder-listing")
        // More than the query's first step (1,000 entries), so the listing comes in batches.
        for index in 0..<5_000 { _ = try folder.write(String(format: "item %05d.txt", index), "") }
        MainActor.assumeIsolated { [url = folder.url] in
            let sort = BrowserSort()
            let listing = FolderListing(folder: url, options: sort.applied(to: QueryOptions()), sort: sort)
            var lists: [[BrowserItem]] = []
            var completed: [BrowserItem]??
            listing.start(onMainActor: { event in
                switch event {
                case .listed(let items): lists.append(items)
                case .complete(let items): completed = .some(items)
                default: XCTFail("unexpected \(event)")
                }
            })
            XCTAssertTrue(spin { completed != nil }, "the listing completes")
            listing.stop()
            XCTAssertGreaterThan(lists.count, 1, "batches, not one list at the end")
            for list in lists {
                XCTAssertTrue(zip(list, list.dropFirst()).allSatisfy { sort.areInIncreasingOrder($0, $1) }, "each list is in order")
            }
            XCTAssertEqual(lists.map(\.count), lists.map(\.count).sorted(), "each list has the ones before it")
            XCTAssertEqual(lists.last?.count, 5_000)
            XCTAssertEqual(lists.last?.first?.name, "item 00000.txt")
            XCTAssertEqual(completed, .some(nil), "the full listing is the last list: nothing more to show")
        }
    }

    func testTheFeedShowsOnlyTheNewestListAndStaysInOrder() throws {
        let folder = try TemporaryFolder("folder-listing-feed")
        for index in 0..<20_000 { _ = try folder.write(String(format: "item %05d.txt", index), "") }
        MainActor.assumeIsolated { [url = folder.url] in
            let model = BrowserListModel()
            let recorder = ChangeRecorder(model)
            let feed = LocationFeed(model: model)
            feed.show(.folder(url), sort: BrowserSort(), showsHidden: false)
            XCTAssertTrue(spin { feed.state == .loaded })
            XCTAssertEqual(model.count, 20_000)
            XCTAssertEqual(model[0].name, "item 00000.txt")
            XCTAssertEqual(model[19_999].name, "item 19999.txt")
            // Every change is a whole reset while listing; none at the end (the last list was complete).
            XCTAssertTrue(recorder.changes.allSatisfy { $0[0] == 0 }, "\(recorder.changes)")
            XCTAssertEqual(recorder.changes.last?[2], 20_000)
        }
    }
}
