import Foundation
import XCTest

@testable import DocumentCore

/// Change sets reproduce the query's list exactly, whatever mix of changes made them.
final class QueryChangeSetTests: XCTestCase {
    private let folder = QueryFolder(path: "/tmp/model", relativePath: "")

    private func item(_ name: String, size: Int64 = 0, directory: Bool = false) -> QueryItem {
        QueryItem(
            name: name, parent: folder, isDirectory: directory, isSymlink: false, isHidden: false, size: size,
            modified: Date(timeIntervalSince1970: Double(size)), type: directory ? .folder : .data)
    }

    func testRandomChangesApplyToTheSameList() {
        var generator = SplitMix64(seed: 7)
        let orders = [
            QueryOptions(), QueryOptions(ascending: false), QueryOptions(sortKey: .size),
            QueryOptions(sortKey: .dateModified, ascending: false, foldersFirst: false),
        ]
        for options in orders {
            var model = QueryModel(order: QueryOrder(options))
            var shown: [QueryItem] = []
            var existing: [PathKey: QueryItem] = [:]
            for round in 0..<300 {
                var updates: [PathKey: QueryItem?] = [:]
                var renames: [PathKey: PathKey] = [:]
                let count = round % 10 == 0 ? 60 : Int(generator.next() % 6) + 1
                for _ in 0..<count {
                    let name = PathKey("f\(generator.next() % 80)")
                    switch generator.next() % 4 {
                    case 0: updates.updateValue(nil, forKey: name)
                    case 1 where existing[name] != nil && updates[name] == nil:
                        let destination = PathKey("f\(generator.next() % 80)")
                        guard existing[destination] == nil, updates[destination] == nil, destination != name else { continue }
                        updates.updateValue(nil, forKey: name)
                        updates.updateValue(item(destination.string, size: Int64(generator.next() % 50)), forKey: destination)
                        renames[destination] = name
                    default:
                        updates.updateValue(item(name.string, size: Int64(generator.next() % 50), directory: generator.next() % 5 == 0), forKey: name)
                    }
                }
                for (name, value) in updates { existing[name] = value }
                let changes = model.apply(updates: updates, renames: renames)
                changes.apply(to: &shown)
                XCTAssertEqual(shown, model.items, "round \(round)")
                XCTAssertEqual(model.items, existing.values.sorted(by: QueryOrder(options).areInIncreasingOrder), "round \(round)")
                XCTAssertEqual(changes.removed, changes.removed.sorted())
            }
        }
    }

    func testRenameKeepsItsItemAndMoves() {
        var model = QueryModel(order: QueryOrder(QueryOptions()), items: [item("a"), item("m"), item("z")])
        let changes = model.apply(updates: ["a": nil, "n": item("n")], renames: ["n": "a"])
        XCTAssertEqual(changes.removed, [])
        XCTAssertEqual(changes.inserted, [])
        XCTAssertEqual(changes.moved, [.init(from: 0, to: 1)])
        XCTAssertEqual(changes.updated, [IndexedItem(index: 1, item: item("n"))])
    }

    func testUnchangedItemsMakeNoChangeSet() {
        var model = QueryModel(order: QueryOrder(QueryOptions()), items: [item("a"), item("b")])
        XCTAssertTrue(model.apply(updates: ["a": item("a"), "gone": nil]).isEmpty)
        XCTAssertEqual(model.apply(updates: ["a": item("a")], forced: ["a"]).updated, [IndexedItem(index: 0, item: item("a"))])
    }
}

extension QueryChangeSetTests {
    func testNamesThatAreEqualAsSwiftStringsAreStillTwoFiles() {
        var model = QueryModel(order: QueryOrder(QueryOptions()))
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        XCTAssertEqual(composed, decomposed)  // Swift's String equality: canonical equivalence
        let changes = model.apply(updates: [PathKey(composed): item(composed), PathKey(decomposed): item(decomposed)])
        XCTAssertEqual(changes.inserted.count, 2)
        XCTAssertEqual(model.items.count, 2)
        XCTAssertEqual(model.apply(updates: [PathKey(decomposed): nil]).removed.count, 1)
        XCTAssertEqual(model.items.map { Array($0.name.utf8) }, [Array(composed.utf8)])
    }
}
