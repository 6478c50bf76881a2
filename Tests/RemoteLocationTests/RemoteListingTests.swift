import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// `DirectoryQuery` on remote locations, against the real servers mounted through GVFS: a
/// large folder arrives in batches, complete and right; a change on the server shows; a
/// server that dies or stops answering ends the listing with a typed error, never a hang.
final class RemoteListingTests: XCTestCase {
    func testThousandFilesOverSFTPArriveInBatchesAndComplete() throws { try thousandFiles(.sftp) }
    func testThousandFilesOverSMBArriveInBatchesAndComplete() throws { try thousandFiles(.smb) }
    func testThousandFilesOverWebDAVArriveInBatchesAndComplete() throws { try thousandFiles(.dav) }

    func testNewFileOnSFTPServerShowsAfterRefresh() throws { try changeShows(.sftp, periodic: false) }
    func testNewFileOnSMBServerShowsByThePeriodicListing() throws { try changeShows(.smb, periodic: true) }
    func testNewFileOnWebDAVServerShowsByThePeriodicListing() throws { try changeShows(.dav, periodic: true) }

    func testSFTPServerKilledDuringListingIsATypedError() throws { try serverKilledDuringListing(.sftp) }
    func testSMBServerKilledDuringListingIsATypedError() throws { try serverKilledDuringListing(.smb) }
    func testWebDAVServerKilledDuringListingIsATypedError() throws { try serverKilledDuringListing(.dav) }

    func testServerThatStopsAnsweringEndsTheListingAsUnreachable() throws {
        let server = try mountedServer(.sftp)
        defer { server.stop() }
        server.suspend()
        let events = EventLog()
        let query = DirectoryQuery(folder: try rootURL(server), options: QueryOptions(remoteTimeout: .seconds(3)))
        query.start(handler: events.append)
        XCTAssertTrue(eventually { events.failure != nil }, "the listing of a silent server never ended")
        guard case .unreachable = events.failure else { return XCTFail("expected .unreachable, got \(String(describing: events.failure))") }
        query.stop()
    }

    func testUnmountedServerSaysItNeedsMounting() throws {
        let server = try startedServer(.sftp)
        defer { server.stop() }
        let location = try rootURL(server)
        XCTAssertThrowsError(try DirectoryQuery.gather(folder: location)) { error in
            XCTAssertEqual(error as? DirectoryQueryError, .notMounted(location: String(server.rootURI.dropLast())))
            XCTAssertTrue("\(error)".contains("not connected"), "\(error)")
        }
    }

    func testRemoteItemsCarryTheirURIAndGIOsDetails() throws {
        let server = try mountedServer(.sftp)
        defer { server.stop() }
        try server.folder.write("Q1 report #1.pdf", "%PDF-1.4")
        try FileManager.default.createDirectory(at: server.localURL("Drafts"), withIntermediateDirectories: false)
        let items = try DirectoryQuery.gather(folder: try rootURL(server))
        XCTAssertEqual(items.map(\.name), ["Drafts", "Q1 report #1.pdf"])
        let report = items[1]
        XCTAssertTrue(report.isRemote)
        XCTAssertEqual(report.url.absoluteString, server.uri("Q1 report #1.pdf"))
        XCTAssertEqual(report.url.lastPathComponent, "Q1 report #1.pdf")
        XCTAssertEqual(report.size, 8)
        XCTAssertEqual(report.type, DocumentType(fileName: "Q1 report #1.pdf"))
        XCTAssertEqual(report.displayName, "Q1 report #1.pdf")
        XCTAssertNotNil(report.iconDescription, "GIO gives remote items an icon")
        XCTAssertTrue(items[0].isDirectory)
        XCTAssertEqual(items[0].type, .folder)
    }

    // MARK: Scenarios

    private func thousandFiles(_ kind: RemoteServer.Kind) throws {
        let server = try mountedServer(kind)
        defer { server.stop() }
        for index in 0..<1000 {
            try server.folder.write(String(format: "file-%04d.txt", index), String(repeating: "x", count: index))
        }
        let events = EventLog()
        let query = DirectoryQuery(folder: try rootURL(server), options: QueryOptions(observesChanges: false))
        query.start(handler: events.append)
        XCTAssertTrue(eventually { events.complete != nil || events.failure != nil }, "the listing never ended")
        XCTAssertNil(events.failure)
        let items = try XCTUnwrap(events.complete)
        XCTAssertEqual(items.count, 1000)
        XCTAssertEqual(items.map(\.name), (0..<1000).map { String(format: "file-%04d.txt", $0) })
        XCTAssertEqual(items.map(\.size), (0..<1000).map { Int64($0) })
        // The first items came in a batch of their own, before the listing was complete.
        let batches = events.batches
        XCTAssertGreaterThan(batches.count, 1, "a 1,000-file folder came in one piece")
        XCTAssertLessThan(batches.first?.count ?? 1000, 1000)
        XCTAssertEqual(batches.reduce(0) { $0 + $1.count }, 1000)
        query.stop()
    }

    private func changeShows(_ kind: RemoteServer.Kind, periodic: Bool) throws {
        let server = try mountedServer(kind)
        defer { server.stop() }
        try server.folder.write("first.txt", "1")
        let events = EventLog()
        let options = QueryOptions(refreshInterval: periodic ? .milliseconds(500) : .seconds(3600))
        let query = DirectoryQuery(folder: try rootURL(server), options: options)
        query.start(handler: events.append)
        XCTAssertTrue(eventually { events.complete != nil || events.failure != nil })
        XCTAssertEqual(events.complete?.map(\.name), ["first.txt"])

        try server.folder.write("second.txt", "22")
        try FileManager.default.removeItem(at: server.localURL("first.txt"))
        if !periodic { query.refresh() }
        XCTAssertTrue(eventually { events.current.map(\.name) == ["second.txt"] || events.failure != nil },
                      "the change on the server did not show: \(events.current.map(\.name))")
        XCTAssertNil(events.failure)
        XCTAssertEqual(events.current.first?.size, 2)
        query.stop()
    }

    private func serverKilledDuringListing(_ kind: RemoteServer.Kind) throws {
        let server = try mountedServer(kind)
        defer { server.stop() }
        for index in 0..<200 { try server.folder.write("file-\(index).txt", "x") }
        // Frozen, the server holds the listing in the middle; killed, it drops the connection.
        server.suspend()
        let events = EventLog()
        let query = DirectoryQuery(folder: try rootURL(server), options: QueryOptions(observesChanges: false))
        query.start(handler: events.append)
        server.kill()
        XCTAssertTrue(eventually { events.failure != nil || events.complete != nil }, "the listing hung after the server died")
        switch events.failure {
        case .connectionLost, .notMounted, .unreachable: break
        default: XCTFail("expected a lost connection, got \(String(describing: events.failure)) (complete: \(events.complete?.count ?? -1))")
        }
        XCTAssertFalse(events.failure?.description.isEmpty ?? true)
    }

    // MARK: Helpers

    private func startedServer(_ kind: RemoteServer.Kind) throws -> RemoteServer {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        return try RemoteServer.start(kind)
    }

    private func mountedServer(_ kind: RemoteServer.Kind) throws -> RemoteServer {
        let server = try startedServer(kind)
        try server.mount()
        return server
    }

    private func rootURL(_ server: RemoteServer) throws -> URL {
        try XCTUnwrap(URL(string: server.rootURI))
    }
}

/// A query's events as they came, and the list they add up to.
final class EventLog: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var events: [QueryEvent] = []
    private var items: [QueryItem] = []

    func append(_ event: QueryEvent) {
        lock.withLock {
            events.append(event)
            switch event {
            case .reload(let all, _): items = all
            case .changes(let changes): changes.apply(to: &items)
            default: break
            }
        }
    }

    var batches: [[QueryItem]] {
        lock.withLock { events.compactMap { if case .batch(let items) = $0 { items } else { nil } } }
    }

    /// The items of the first `.reload(_, .gathered)`.
    var complete: [QueryItem]? {
        lock.withLock { events.lazy.compactMap { if case .reload(let items, .gathered) = $0 { items } else { nil } }.first }
    }

    var failure: DirectoryQueryError? {
        lock.withLock { events.lazy.compactMap { if case .failed(let error) = $0 { error } else { nil } }.first }
    }

    /// The items after every reload and change set so far.
    var current: [QueryItem] { lock.withLock { items } }
}
