import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The browser's file operations against real servers on 127.0.0.1, mounted through GVFS:
/// copies both ways (whole or nothing, cancelled too), rename and its undo, delete, new
/// folder, moves, the trash a server does not have, and a paste of what Files 43 put on the
/// clipboard. What happened is checked in the served folder itself.
final class RemoteFileOperationsTests: XCTestCase {
    private let operations = FileOperations()

    // MARK: Copies

    func testSFTPCopiesBothWays() throws { try copiesBothWays(.sftp) }
    func testSMBCopiesBothWays() throws { try copiesBothWays(.smb) }
    func testWebDAVCopiesBothWays() throws { try copiesBothWays(.dav) }

    private func copiesBothWays(_ kind: RemoteServer.Kind) throws {
        try withServer(kind, files: ["notes.txt": "hello from \(kind)", "Inbox/.keep": ""]) { server in
            let local = try TemporaryFolder("dossier-\(kind)-local")
            let upload = try local.write("report.txt", String(repeating: "figures\n", count: 5_000))
            let progress = Progress(totalUnitCount: 0)
            let sent = try operations.copy(upload, to: remoteURL(server, "Inbox/report.txt"), progress: progress)
            XCTAssertEqual(sent, .copied(source: upload, copy: remoteURL(server, "Inbox/report.txt")))
            XCTAssertEqual(try Data(contentsOf: server.localURL("Inbox/report.txt")), try Data(contentsOf: upload))
            XCTAssertEqual(names(server.localURL("Inbox")), [".keep", "report.txt"], "no part left on the server")
            XCTAssertEqual(progress.completedUnitCount, progress.totalUnitCount)
            XCTAssertEqual(progress.totalUnitCount, 40_001)

            let download = local.url.appendingPathComponent("notes.txt")
            _ = try operations.copy(remoteURL(server, "notes.txt"), to: download)
            XCTAssertEqual(try String(contentsOf: download, encoding: .utf8), "hello from \(kind)")
            // Pasting the same file again finds the name taken and picks the next free one.
            let again = operations.place([remoteURL(server, "notes.txt")], into: local.url, move: false)
            XCTAssertEqual(again.failures, [])
            XCTAssertEqual(names(local.url), ["notes (copy).txt", "notes.txt", "report.txt"])

            // And into the server's folder, where the free name is looked for through GIO.
            let pasted = operations.place([upload], into: remoteURL(server, "Inbox/", isFolder: true), move: false)
            XCTAssertEqual(pasted.failures, [])
            XCTAssertEqual(names(server.localURL("Inbox")), [".keep", "report (copy).txt", "report.txt"])
        }
    }

    func testSFTPCancelledLargeCopiesLeaveNothingUnderAnyName() throws {
        try withServer(.sftp, files: ["Inbox/.keep": ""]) { server in
            try sparseFile(server.localURL("big.bin"), size: 64 << 20)
            server.openToServer()
            let local = try TemporaryFolder("dossier-sftp-local")
            let big = local.url.appendingPathComponent("upload.bin")
            try sparseFile(big, size: 64 << 20)

            let up = CancellingProgress(totalUnitCount: 0)
            XCTAssertThrowsError(try operations.copy(big, to: remoteURL(server, "Inbox/upload.bin"), progress: up)) {
                XCTAssertEqual($0 as? FileOperationError, .cancelled(.copy, name: "upload.bin"))
            }
            XCTAssertEqual(names(server.localURL("Inbox")), [".keep"], "neither the whole name nor a part on the server")

            let down = CancellingProgress(totalUnitCount: 0)
            XCTAssertThrowsError(try operations.copy(remoteURL(server, "big.bin"), to: local.url.appendingPathComponent("big.bin"),
                                                     progress: down)) {
                XCTAssertEqual($0 as? FileOperationError, .cancelled(.copy, name: "big.bin"))
            }
            XCTAssertEqual(names(local.url), ["upload.bin"], "neither the whole name nor a part here")
        }
    }

    // MARK: Rename, delete, new folder, trash

    func testSFTPRenameUndoDeleteAndNewFolder() throws { try renameUndoDeleteAndNewFolder(.sftp) }
    func testSMBRenameUndoDeleteAndNewFolder() throws { try renameUndoDeleteAndNewFolder(.smb) }
    func testWebDAVRenameUndoDeleteAndNewFolder() throws { try renameUndoDeleteAndNewFolder(.dav) }

    private func renameUndoDeleteAndNewFolder(_ kind: RemoteServer.Kind) throws {
        try withServer(kind, files: ["a.txt": "a", "taken.txt": "t", "Old/inner/deep.txt": "d", "Old/top.txt": "x"]) { server in
            let renamed = try operations.rename(remoteURL(server, "a.txt"), to: "b c.txt")
            guard case .renamed(let from, let to) = renamed else { return XCTFail("\(renamed)") }
            XCTAssertEqual(from, remoteURL(server, "a.txt"))
            XCTAssertEqual(to.lastPathComponent, "b c.txt")
            XCTAssertEqual(names(server.folder.url), ["Old", "b c.txt", "taken.txt"])
            XCTAssertThrowsError(try operations.rename(to, to: "taken.txt")) {
                XCTAssertEqual($0 as? FileOperationError,
                               .alreadyExists(.rename, name: "b c.txt", existing: "taken.txt", isFolder: false))
            }
            _ = try operations.undo(renamed)
            XCTAssertEqual(names(server.folder.url), ["Old", "a.txt", "taken.txt"], "undo renamed it back")
            XCTAssertEqual(try String(contentsOf: server.localURL("a.txt"), encoding: .utf8), "a")

            let progress = Progress(totalUnitCount: 0)
            let deleted = try operations.deletePermanently(remoteURL(server, "Old", isFolder: true), progress: progress)
            XCTAssertFalse(deleted.isUndoable)
            XCTAssertEqual(names(server.folder.url), ["a.txt", "taken.txt"])
            XCTAssertEqual(progress.completedUnitCount, 4, "a unit an item")

            let made = try operations.createFolder(in: remoteURL(server, "", isFolder: true))
            XCTAssertEqual(made.resultingURL?.lastPathComponent, "Untitled Folder")
            let second = try operations.createFolder(in: remoteURL(server, "", isFolder: true))
            XCTAssertEqual(second.resultingURL?.lastPathComponent, "Untitled Folder 2")
            _ = try operations.undo(second)
            XCTAssertEqual(names(server.folder.url), ["Untitled Folder", "a.txt", "taken.txt"], "undo deleted the new folder")
        }
    }

    func testSFTPHasNoTrashAndSaysSo() throws {
        try withServer(.sftp, files: ["a.txt": "a"]) { server in
            XCTAssertThrowsError(try operations.moveToTrash(remoteURL(server, "a.txt"))) { error in
                XCTAssertEqual(error as? FileOperationError, .trashNotSupported(name: "a.txt"))
                XCTAssertTrue("\(error)".contains("deleted permanently"), "\(error)")
            }
            XCTAssertEqual(names(server.folder.url), ["a.txt"], "nothing happened to it")
        }
    }

    // MARK: Moves

    func testSFTPMovesAcrossAndWithinAndUndoMovesBack() throws {
        try withServer(.sftp, files: ["Inbox/.keep": "", "Folder/in.txt": "in"]) { server in
            let local = try TemporaryFolder("dossier-sftp-local")
            let file = try local.write("move me.txt", "moving")
            let moved = try operations.move(file, to: remoteURL(server, "Inbox/move me.txt"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the original went")
            XCTAssertEqual(try String(contentsOf: server.localURL("Inbox/move me.txt"), encoding: .utf8), "moving")
            _ = try operations.undo(moved)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "moving", "undo brought it back")
            XCTAssertEqual(names(server.localURL("Inbox")), [".keep"])

            // On the server itself a move of a folder is a rename there.
            _ = try operations.move(remoteURL(server, "Folder", isFolder: true), to: remoteURL(server, "Inbox/Folder", isFolder: true))
            XCTAssertEqual(names(server.localURL("Inbox/Folder")), ["in.txt"])
            XCTAssertFalse(FileManager.default.fileExists(atPath: server.localURL("Folder").path))
        }
    }

    // MARK: The clipboard of Files

    func testWhatFilesCopiedOnTheServerIsPastedIntoALocalFolderAndBack() throws {
        try withServer(.sftp, files: ["Shared Docs/plan v2.odt": "plan", "Inbox/.keep": ""]) { server in
            // As nautilus_clipboard_to_string writes it: the verb, then a URI a line, no newline at the end.
            let written = "copy\n" + server.uri("Shared Docs/plan v2.odt")
            let content = try XCTUnwrap(ClipboardContent.gnomeCopiedFiles(written))
            let local = try TemporaryFolder("dossier-sftp-local")
            let pasted = operations.place(content.urls, into: local.url, move: content.cut)
            XCTAssertEqual(pasted.failures, [])
            XCTAssertEqual(try String(contentsOf: local.url.appendingPathComponent("plan v2.odt"), encoding: .utf8), "plan")

            // Cut locally, pasted in the server's folder: moved.
            let cut = "cut\n" + local.url.appendingPathComponent("plan v2.odt").absoluteString
            let back = try XCTUnwrap(ClipboardContent.gnomeCopiedFiles(cut))
            let moved = operations.place(back.urls, into: remoteURL(server, "Inbox/", isFolder: true), move: back.cut)
            XCTAssertEqual(moved.failures, [])
            XCTAssertEqual(names(server.localURL("Inbox")), [".keep", "plan v2.odt"])
            XCTAssertEqual(names(local.url), [])
        }
    }

    // MARK: Support

    /// Starts a `kind` server with `files` (relative path → text) in its folder, mounts it, runs `body`.
    private func withServer(_ kind: RemoteServer.Kind, files: [String: String], _ body: (RemoteServer) throws -> Void) throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        for (path, text) in files { _ = try server.folder.write(path, text) }
        server.openToServer()
        try server.mount()
        try body(server)
    }

    private func remoteURL(_ server: RemoteServer, _ path: String, isFolder: Bool = false) -> URL {
        var text = server.uri(path)
        if isFolder && !text.hasSuffix("/") { text += "/" }
        return URL(string: text)!
    }

    private func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    private func sparseFile(_ url: URL, size: UInt64) throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
    }
}

/// A Progress cancelled by its first report of bytes copied, from the thread doing the work.
private final class CancellingProgress: Progress, @unchecked Sendable {
    override var completedUnitCount: Int64 {
        didSet { if completedUnitCount > 0 && !isCancelled { cancel() } }
    }
}
