import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// A remote file's copy edited by an app that takes only paths goes back to the real server:
/// the app's save (by rename, as editors save) is noticed, the upload replaces the server's
/// file whole, and a server file changed meanwhile is a conflict the person settles (keep
/// both, or replace).
final class RemoteUploadTests: XCTestCase {
    func testAnAppsSavedCopyGoesBackToTheSFTPServer() async throws { try await savedCopyGoesBack(.sftp) }
    func testAnAppsSavedCopyGoesBackToTheWebDAVServer() async throws { try await savedCopyGoesBack(.dav) }
    func testAnAppsSavedCopyGoesBackToTheSMBServer() async throws { try await savedCopyGoesBack(.smb) }

    private func savedCopyGoesBack(_ kind: RemoteServer.Kind) async throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        _ = try server.folder.write("Letters/report.txt", bytes: Array("as it was on the server\n".utf8))
        server.openToServer()
        try server.mount()
        let (edits, downloads, cacheFolder) = try Self.edits()
        defer { withExtendedLifetime(cacheFolder) {} }
        let changed = Locked<[EditedCopy]>([])
        let observation = edits.observe { edit in changed.withLock { $0.append(edit) } }
        defer { withExtendedLifetime(observation) {} }

        let copy = try await downloads.fetch(try XCTUnwrap(URL(string: server.uri("Letters/report.txt"))))
        let edit = try edits.prepare(copy, for: "Text Editor")
        XCTAssertEqual(edit.url.lastPathComponent, "report.txt", "the app sees the file's own name")
        XCTAssertNotEqual(edit.url, copy.url, "the app edits a copy of its own, not the download cache's")
        XCTAssertFalse(edits.hasChanges(edit))

        let saved = Array("edited in the app\n".utf8)
        try Self.saveByRename(saved, over: edit.url)
        XCTAssertTrue(eventually { changed.withLock { $0.count } == 1 }, "\(kind): the app's save was not noticed")
        XCTAssertEqual(changed.withLock { $0.first?.url }, edit.url)
        XCTAssertEqual(changed.withLock { $0.first?.application }, "Text Editor")
        XCTAssertTrue(edits.hasChanges(edit))
        XCTAssertEqual(edits.changedCopies.map(\.url), [edit.url])

        // A full cache does not evict a copy holding changes not yet uploaded.
        RemoteCache(root: cacheFolder.url, limit: 0).trim()
        XCTAssertEqual(Array(try Data(contentsOf: edit.url)), saved, "\(kind): the edited copy was evicted")

        let outcome = try await edits.upload(edit)
        guard case .uploaded(let uploaded) = outcome else { return XCTFail("\(kind): \(outcome)") }
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("Letters/report.txt"))), saved,
                       "\(kind): the server does not have the new bytes")
        XCTAssertEqual(try Self.names(in: server.localURL("Letters")), ["report.txt"], "\(kind): a part file was left")
        XCTAssertFalse(edits.hasChanges(uploaded))
        XCTAssertEqual(edits.changedCopies, [])

        // Saved and uploaded again: the version just written is the new base, so no conflict.
        let again = Array("edited twice\n".utf8)
        try Self.saveByRename(again, over: edit.url)
        XCTAssertTrue(eventually { changed.withLock { $0.count } == 2 }, "\(kind): the second save was not noticed")
        guard case .uploaded = try await edits.upload(edit) else { return XCTFail("\(kind): the second upload was refused") }
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("Letters/report.txt"))), again)
    }

    func testAFileChangedOnTheServerMeanwhileIsAConflictSettledByKeepBothOrReplace() async throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        _ = try server.folder.write("report.txt", bytes: Array("version 1\n".utf8))
        _ = try server.folder.write("notes.md", bytes: Array("# Notes\n".utf8))
        server.openToServer()
        try server.mount()
        let (edits, downloads, cacheFolder) = try Self.edits()
        defer { withExtendedLifetime(cacheFolder) {} }

        let edit = try edits.prepare(try await downloads.fetch(try XCTUnwrap(URL(string: server.uri("report.txt")))), for: "Editor")
        let serverChange = Array("changed on the server by someone else\n".utf8)
        try Self.changeOnServer(server, "report.txt", to: serverChange)
        let mine = Array("my version\n".utf8)
        try Self.saveByRename(mine, over: edit.url)

        let outcome = try await edits.upload(edit)
        guard case .serverChanged(let current) = outcome else { return XCTFail("the conflict was not seen: \(outcome)") }
        XCTAssertEqual(current.size, Int64(serverChange.count))
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("report.txt"))), serverChange, "nothing is written before the person chose")

        guard case .uploaded(let kept) = try await edits.upload(edit, .keepBoth) else { return XCTFail("Keep Both failed") }
        XCTAssertEqual(try Self.names(in: server.folder.url), ["notes.md", "report (copy).txt", "report.txt"])
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("report.txt"))), serverChange, "the server's version stays")
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("report (copy).txt"))), mine, "and mine is beside it")
        XCTAssertEqual(kept.remote.lastPathComponent, "report (copy).txt", "later saves go to the copy")

        // Replace: the server's change is overwritten with the copy, whole.
        let notes = try edits.prepare(try await downloads.fetch(try XCTUnwrap(URL(string: server.uri("notes.md")))), for: "Editor")
        try Self.changeOnServer(server, "notes.md", to: Array("# Their notes\n".utf8))
        let myNotes = Array("# My notes\n".utf8)
        try Self.saveByRename(myNotes, over: notes.url)
        guard case .serverChanged = try await edits.upload(notes) else { return XCTFail("the second conflict was not seen") }
        guard case .uploaded = try await edits.upload(notes, .replace) else { return XCTFail("Replace failed") }
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("notes.md"))), myNotes)
        XCTAssertEqual(try Self.names(in: server.folder.url), ["notes.md", "report (copy).txt", "report.txt"], "no part file left")
    }

    func testAnUnreachableServerIsATypedErrorAndTheCopyKeepsItsChanges() async throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        _ = try server.folder.write("report.txt", bytes: Array("version 1\n".utf8))
        server.openToServer()
        try server.mount()
        let (edits, downloads, cacheFolder) = try Self.edits()
        defer { withExtendedLifetime(cacheFolder) {} }
        let edit = try edits.prepare(try await downloads.fetch(try XCTUnwrap(URL(string: server.uri("report.txt")))), for: "Editor")
        try Self.saveByRename(Array("mine\n".utf8), over: edit.url)
        XCTAssertTrue(eventually { edits.hasChanges(edit) })
        try server.unmount()
        do {
            let outcome = try await edits.upload(edit)
            XCTFail("uploaded to an unmounted server: \(outcome)")
        } catch {
            guard case .unreachable(let name, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "report.txt")
            XCTAssertFalse(error.description.isEmpty)
        }
        XCTAssertTrue(edits.hasChanges(edit), "a failed upload keeps the changes for another try")
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("report.txt"))), Array("version 1\n".utf8))
    }

    func testAnUploadToAServerThatStoppedAnsweringEndsWhenCancelled() async throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        _ = try server.folder.write("report.txt", bytes: Array("version 1\n".utf8))
        server.openToServer()
        try server.mount()
        let (edits, downloads, cacheFolder) = try Self.edits()
        defer { withExtendedLifetime(cacheFolder) {} }
        let edit = try edits.prepare(try await downloads.fetch(try XCTUnwrap(URL(string: server.uri("report.txt")))), for: "Editor")
        try Self.saveByRename(Array("mine\n".utf8), over: edit.url)

        // The server hangs with its connection open: the upload waits on it until cancelled.
        server.suspend()
        defer { server.resume() }
        let progress = Progress(totalUnitCount: 0)
        let ended = Locked<Result<UploadOutcome, RemoteUploadError>?>(nil)
        let upload = Task.detached {
            do throws(RemoteUploadError) {
                let outcome = try await edits.upload(edit, progress: progress)
                ended.withLock { $0 = .success(outcome) }
            } catch {
                ended.withLock { $0 = .failure(error) }
            }
        }
        // Given time to reach the server (the outcome is the same if it has not yet: cancelled).
        try await Task.sleep(for: .seconds(1))
        XCTAssertNil(ended.withLock { $0 }, "the upload ended while the server was stopped")
        progress.cancel()
        XCTAssertTrue(eventually { ended.withLock { $0 } != nil }, "the cancelled upload never ended")
        XCTAssertEqual(ended.withLock { $0 }, .failure(.cancelled(name: "report.txt")))
        _ = await upload.result
        XCTAssertTrue(eventually { edits.hasChanges(edit) }, "the changes are kept for another try")
        server.resume()
        XCTAssertEqual(Array(try Data(contentsOf: server.localURL("report.txt"))), Array("version 1\n".utf8))
    }

    // MARK: Helpers

    private static func edits() throws -> (RemoteEdits, RemoteDownloads, TemporaryFolder) {
        let folder = try TemporaryFolder("dossier-remote-edits")
        let cache = RemoteCache(root: folder.url)
        return (RemoteEdits(cache: cache), RemoteDownloads(cache: cache), folder)
    }

    /// Saves as editors do: a new file beside it, renamed over the old one.
    private static func saveByRename(_ bytes: [UInt8], over url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving")
        try Data(bytes).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Someone else changes the server's file (another size and a later time).
    private static func changeOnServer(_ server: RemoteServer, _ name: String, to bytes: [UInt8]) throws {
        try Data(bytes).write(to: server.localURL(name))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)],
                                              ofItemAtPath: server.localURL(name).path)
    }

    private static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
