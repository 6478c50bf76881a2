import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Runs a `DirectoryQuery` and keeps what a list view would: the items, rebuilt from the
/// reloads and change sets exactly as delivered, plus every event for inspection.
final class QueryRecorder: Sendable {
    struct Record {
        var items: [QueryItem] = []
        var batches: [[QueryItem]] = []
        var reloads: [QueryReloadReason] = []
        var changeSets: [QueryChangeSet] = []
        /// Per change set, the names it removed, inserted, updated and moved (by relative path).
        var removedNames: [String] = []
        var insertedNames: [String] = []
        var updatedNames: [String] = []
        var movedNames: [String] = []
        var warnings: [DirectoryQueryError] = []
        var failure: DirectoryQueryError?
    }

    let query: DirectoryQuery
    private let box = RecordBox()

    private final class RecordBox: Sendable {
        let record = Locked(Record())
    }

    init(_ folder: URL, options: QueryOptions = QueryOptions()) {
        query = DirectoryQuery(folder: folder, options: options)
        let box = self.box
        query.start { event in
            box.record.withLock { record in
                switch event {
                case .batch(let items): record.batches.append(items)
                case .reload(let items, let reason):
                    record.items = items
                    record.reloads.append(reason)
                case .changes(let changes):
                    let before = record.items
                    record.removedNames += changes.removed.map { before[$0].relativePath }
                    record.insertedNames += changes.inserted.map(\.item.relativePath)
                    record.updatedNames += changes.updated.map(\.item.relativePath)
                    changes.apply(to: &record.items)
                    record.movedNames += changes.moved.map { record.items[$0.to].relativePath }
                    record.changeSets.append(changes)
                case .warning(let error): record.warnings.append(error)
                case .failed(let error): record.failure = error
                }
            }
        }
    }

    var snapshot: Record { box.record.withLock { $0 } }

    /// Reads the record in place: a kept snapshot would make the next event copy every array.
    func read<Result>(_ body: (Record) -> Result) -> Result { box.record.withLock { body($0) } }

    var items: [QueryItem] { snapshot.items }
    var names: [String] { items.map(\.name) }

    /// Waits until `condition` holds; fails the test after `timeout` (a safety net, not a measure:
    /// generous, for a build under a sanitizer on a busy machine).
    @discardableResult
    func wait(
        timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line, until condition: (Record) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if read(condition) { return true }
            usleep(5_000)
        }
        XCTFail("condition not reached within \(Int(timeout)) s", file: file, line: line)
        return false
    }

    func waitUntilGathered(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) {
        wait(timeout: timeout, file: file, line: line) { $0.reloads.contains(.gathered) || $0.failure != nil }
    }

    /// Waits for the query's barrier: every change made before the call has then been
    /// delivered and recorded, and nothing made before it can come later.
    func synchronize(file: StaticString = #filePath, line: UInt = #line) {
        let done = DispatchSemaphore(value: 0)
        query.synchronize { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "the query answered", file: file, line: line)
    }

    /// The change sets that follow `count` earlier ones, once the query has delivered
    /// everything made before the call.
    func changeSets(after count: Int, file: StaticString = #filePath, line: UInt = #line) -> [QueryChangeSet] {
        synchronize(file: file, line: line)
        return Array(snapshot.changeSets.dropFirst(count))
    }
}

extension XCTestCase {
    func liveFixture(_ names: [String]) throws -> (TemporaryFolder, QueryRecorder) {
        let folder = try TemporaryFolder("dossier-query-live")
        for name in names { try folder.write(name, name) }
        let recorder = QueryRecorder(folder.url)
        recorder.waitUntilGathered()
        XCTAssertEqual(recorder.names, names)
        return (folder, recorder)
    }

    /// The list rebuilt from the delivered change sets equals a new listing of the folder.
    func assertMatchesAFreshGathering(
        _ recorder: QueryRecorder, _ folder: TemporaryFolder, options: QueryOptions = QueryOptions(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(recorder.items, try DirectoryQuery.gather(folder: folder.url, options: options), file: file, line: line)
    }
}

/// Runs a shell command line the way another program would change the folder.
@discardableResult
func shell(_ command: String, in folder: URL) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = folder
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// Creates `names` as empty files, fast.
func createFiles(_ names: [String], in folder: URL) {
    for name in names {
        let descriptor = open(folder.appendingPathComponent(name).path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        if descriptor >= 0 { close(descriptor) }
    }
}

/// Runs a program and returns its standard output.
func output(of program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
