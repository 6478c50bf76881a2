import CGLib
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Remote files downloaded into Dossier's cache from each real server through GVFS: whole,
/// reused while the file is unchanged, downloaded again when it changes; and the thumbnail of
/// a remote photo in the shared cache under its URI.
final class RemoteDownloadTests: XCTestCase {
    func testSFTPDownloadsAreWholeReusedAndRenewed() async throws { try await downloadReuseRenew(.sftp) }
    func testSMBDownloadsAreWholeReusedAndRenewed() async throws { try await downloadReuseRenew(.smb) }
    func testWebDAVDownloadsAreWholeReusedAndRenewed() async throws { try await downloadReuseRenew(.dav) }

    private func downloadReuseRenew(_ kind: RemoteServer.Kind) async throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(kind)
        defer { server.stop() }
        let pdf = RemoteTestFiles.pdf(padding: 3_000_000)
        _ = try server.folder.write("Reports/annual report.pdf", bytes: pdf)
        server.openToServer()
        try server.mount()
        let cacheFolder = try TemporaryFolder("dossier-remote-cache")
        let downloads = RemoteDownloads(cache: RemoteCache(root: cacheFolder.url))
        let url = try XCTUnwrap(URL(string: server.uri("Reports/annual report.pdf")))

        let seen = Locked<[DownloadProgress]>([])
        let copy = try await downloads.fetch(url) { progress in seen.withLock { $0.append(progress) } }
        XCTAssertEqual(copy.url.lastPathComponent, "annual report.pdf")
        XCTAssertEqual(Array(try Data(contentsOf: copy.url)), pdf, "the copy is the whole file")
        XCTAssertEqual(seen.withLock { $0.last }, DownloadProgress(bytesDone: Int64(pdf.count), bytesExpected: Int64(pdf.count)))
        XCTAssertEqual(copy.info.uri, url.absoluteString)

        // Unchanged on the server: the same copy, nothing downloaded.
        seen.withLock { $0 = [] }
        let again = try await downloads.fetch(url) { progress in seen.withLock { $0.append(progress) } }
        XCTAssertEqual(again.url, copy.url)
        XCTAssertEqual(seen.withLock { $0 }, [], "\(kind): the cached copy was downloaded again")

        // Changed on the server (another size, another time): downloaded again.
        let changed = RemoteTestFiles.pdf(padding: 1_000)
        try Data(changed).write(to: server.localURL("Reports/annual report.pdf"))
        let future = Date().addingTimeInterval(120)
        try FileManager.default.setAttributes([.modificationDate: future], ofItemAtPath: server.localURL("Reports/annual report.pdf").path)
        let renewed = try await downloads.fetch(url)
        XCTAssertNotEqual(renewed.info.versionKey, copy.info.versionKey)
        XCTAssertEqual(Array(try Data(contentsOf: renewed.url)), changed, "\(kind): the changed file was not downloaded again")
    }

    func testARemotePhotosThumbnailIsCachedUnderItsURI() throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        _ = try server.folder.write("photo.jpg", bytes: RemoteTestFiles.jpeg(padding: 200_000))
        server.openToServer()
        try server.mount()
        let folder = try TemporaryFolder("dossier-remote-thumbnails")
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: ProcessInfo.processInfo.activeProcessorCount, timeout: .seconds(10),
                                           thumbnailerFolders: nil, downloads: RemoteDownloads(cache: RemoteCache(root: folder.url.appendingPathComponent("remote"))))
        let uri = server.uri("photo.jpg")
        let thumbnail = try generator.thumbnail(of: try XCTUnwrap(URL(string: uri)), size: .normal)
        XCTAssertEqual(thumbnail.origin, .generated)
        XCTAssertEqual(thumbnail.url, cache.location(of: uri, size: .normal), "named by the MD5 of the remote URI")
        let modified = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: server.localURL("photo.jpg").path)[.modificationDate] as? Date)
        XCTAssertNotNil(cache.lookup(uri, modified: Int64(modified.timeIntervalSince1970), size: .normal),
                        "Thumb::URI is the remote URI and Thumb::MTime the server's time")
        // Asked again: from the cache.
        XCTAssertEqual(try generator.thumbnail(of: try XCTUnwrap(URL(string: uri)), size: .normal).origin, .cache)
    }

    func testTheCommandLineThumbnailsARemotePhoto() throws {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        let server = try RemoteServer.start(.dav)
        defer { server.stop() }
        _ = try server.folder.write("Beach.jpg", bytes: RemoteTestFiles.jpeg(padding: 10_000))
        server.openToServer()
        try server.mount()
        let binary = ProcessInfo.processInfo.environment["DOSSIER_BINARY"]
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dossier").path
        let uri = server.uri("Beach.jpg")
        // `dossier thumbnail URI`, in this session: the same GVFS mount, the same caches.
        let first = try OtherProgram.run(binary, ["thumbnail", "--size", "normal", uri])
        XCTAssertEqual(first.status, 0, first.output)
        XCTAssertTrue(first.output.contains("\(uri): generated by"), first.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ThumbnailCache().location(of: uri, size: .normal).path),
                      "the thumbnail is in the shared cache under the remote URI")
        let second = try OtherProgram.run(binary, ["thumbnail", "--size", "normal", uri])
        XCTAssertTrue(second.output.contains("\(uri): cached"), second.output)
    }
}
