import CGLib
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Fake `.thumbnailer` entries, run the way real ones are: sandboxed, timed, untrusted.
final class ExternalThumbnailerTests: XCTestCase {
    /// A folder of thumbnailers holding one entry for tar archives (which have no built-in
    /// thumbnailer) that runs `script` with bash; `%o` is where it must write its PNG.
    private func generator(_ folder: TemporaryFolder, script: String, timeout: Duration = .seconds(10)) throws -> ThumbnailGenerator {
        // The script as one quoted argument of the Exec line (the Desktop Entry spec escapes
        // \ and " inside quotes with a backslash), then written with the key file's own
        // escaping, which doubles every backslash (GLib 2.76 and later refuse an unknown escape
        // such as \").
        let quoted = script.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let exec = "bash -c \"\(quoted)\" fake %i %o %s %u".replacingOccurrences(of: "\\", with: "\\\\")
        try folder.write("thumbnailers/fake.thumbnailer", """
            [Thumbnailer Entry]
            TryExec=bash
            Exec=\(exec)
            MimeType=application/x-tar;

            """)
        return ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("cache/thumbnails")),
                                  timeout: timeout, thumbnailerFolders: [folder.url.appendingPathComponent("thumbnailers")])
    }

    /// printf arguments that write the sample PNG.
    private var printPNG: String {
        "printf '" + SampleFiles.png.map { String(format: "\\x%02x", $0) }.joined() + "'"
    }

    func testAnExternalThumbnailerFillsTheCache() throws {
        let folder = try TemporaryFolder()
        let archive = try folder.write("backup.tar", bytes: SampleFiles.tar)
        let generator = try generator(folder, script: "\(printPNG) > \"$2\"")
        let thumbnail = try generator.thumbnail(of: archive, size: .normal)
        XCTAssertEqual(thumbnail.thumbnailer, "fake")
        XCTAssertEqual(thumbnail.origin, .generated)
        XCTAssertTrue(FileManager.default.fileExists(atPath: thumbnail.url.path))
    }

    func testAHangingThumbnailerIsKilledAtTheTimeout() throws {
        let folder = try TemporaryFolder()
        let archive = try folder.write("slow.tar", bytes: SampleFiles.tar)
        let marker = "dossier-hang-\(UUID().uuidString)"
        let generator = try generator(folder, script: "sleep 600 # \(marker)", timeout: .seconds(1))
        XCTAssertThrowsError(try generator.thumbnail(of: archive, size: .normal)) {
            XCTAssertEqual($0 as? ThumbnailError, .timedOut(name: "slow.tar", thumbnailer: "fake", seconds: 1))
        }
        // Nothing of it is left running.
        XCTAssertTrue(eventually(timeout: 60) { !Self.processRunning(containing: marker) })
        XCTAssertThrowsError(try generator.thumbnail(of: archive, size: .normal)) {
            XCTAssertEqual($0 as? ThumbnailError, .failedBefore(name: "slow.tar"), "recorded as a failure")
        }
    }

    func testACrashingThumbnailerFailsThatFileOnly() throws {
        let folder = try TemporaryFolder()
        let archive = try folder.write("crash.tar", bytes: SampleFiles.tar)
        let image = try folder.write("fine.png", bytes: SampleFiles.png)
        let generator = try generator(folder, script: "kill -SEGV $$")
        XCTAssertThrowsError(try generator.thumbnail(of: archive, size: .normal)) {
            XCTAssertEqual("\($0)", "The thumbnailer fake failed on 'crash.tar': it crashed (signal 11)")
        }
        XCTAssertNoThrow(try generator.thumbnail(of: image, size: .normal))
    }

    /// printf arguments that write `bytes`.
    private func print(_ bytes: [UInt8]) -> String {
        "printf '" + bytes.map { String(format: "\\x%02x", $0) }.joined() + "'"
    }

    func testAHostileImageFromAThumbnailerFailsThatFileOnly() throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        // A 64 × 64 header, then noise.
        let garbage = signature + [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0]
            + (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let cases: [(name: String, script: String, reason: String)] = [
            ("bomb.tar", "\(print(EXIF.bombPNG(width: 60_000, height: 60_000))) > \"$2\"", "its image is too large"),
            ("garbage.tar", "\(print(garbage)) > \"$2\"", "its image could not be read"),
            ("cut.tar", "\(print(Array(SampleFiles.png.prefix(SampleFiles.png.count - 20)))) > \"$2\"", "its image could not be read"),
            ("jpeg.tar", "\(print(SampleFiles.jpeg)) > \"$2\"", "it produced no image"),
            ("fifo.tar", "mkfifo \"$2\"", "it produced no image"),
            ("nothing.tar", "true", "it produced no image"),
        ]
        for (name, script, reason) in cases {
            let folder = try TemporaryFolder()
            let archive = try folder.write(name, bytes: SampleFiles.tar)
            let generator = try generator(folder, script: script)
            XCTAssertThrowsError(try generator.thumbnail(of: archive, size: .normal)) {
                XCTAssertEqual("\($0)", "The thumbnailer fake failed on '\(name)': \(reason)")
            }
        }
        // The workers still decode the next thumbnailer's image.
        let folder = try TemporaryFolder()
        let archive = try folder.write("next.tar", bytes: SampleFiles.tar)
        XCTAssertNoThrow(try generator(folder, script: "\(printPNG) > \"$2\"").thumbnail(of: archive, size: .normal))
    }

    func testAThumbnailerOutsideUsrSeesItsOwnFolderOnly() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap is not installed")
        let folder = try TemporaryFolder()
        let archive = try folder.write("backup.tar", bytes: SampleFiles.tar)
        let secret = try folder.write("secret.txt", "not for the thumbnailer")
        // A program in a build folder, named by its absolute path: it runs, sees its own folder,
        // and not the folder beside it.
        let program = try folder.write("build/bin/thumbnail-tar", """
            #!/bin/bash
            [ -e "\(secret.path)" ] && { echo "sees outside its folder" >&2; exit 3; }
            [ -x "$0" ] || { echo "does not see itself" >&2; exit 4; }
            \(printPNG) > "$2"

            """, mode: 0o755)
        try folder.write("thumbnailers/build.thumbnailer", """
            [Thumbnailer Entry]
            TryExec=\(program.path)
            Exec=\(program.path) %i %o %s
            MimeType=application/x-tar;

            """)
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("cache/thumbnails")),
                                           thumbnailerFolders: [folder.url.appendingPathComponent("thumbnailers")])
        let thumbnail = try generator.thumbnail(of: archive, size: .normal)
        XCTAssertEqual(thumbnail.thumbnailer, "build")
    }

    func testAThumbnailerInTheHomeFolderItselfIsNotGivenTheHomeFolder() {
        let home = URL(fileURLWithPath: NSHomeDirectory()).standardizedFileURL.path
        XCTAssertFalse(Sandbox.programFolders(outside: home + "/thumbnail-tar").contains(home))
        XCTAssertFalse(Sandbox.programFolders(outside: "/thumbnail-tar").contains("/"))
        XCTAssertTrue(Sandbox.programFolders(outside: home + "/.local/bin/thumbnail-tar").contains(home + "/.local/bin"))
        XCTAssertEqual(Sandbox.programFolders(outside: "/usr/bin/thumbnail-tar"), [])
    }

    func testTheSandboxDeniesTheNetworkAndWritesOutsideTheOutputFolder() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap is not installed")
        let folder = try TemporaryFolder()
        let archive = try folder.write("probe.tar", bytes: SampleFiles.tar)
        let listener = try LoopbackListener()
        let escape = folder.url.appendingPathComponent("escaped.txt").path
        let report = folder.url.appendingPathComponent("report.txt").path
        // The thumbnailer tries to phone home, to write beside its input and into the
        // caller's folders, and reports what worked into its own output (all it may write).
        let generator = try generator(folder, script: """
            r=\"\"; (echo hello > /dev/tcp/127.0.0.1/\(listener.port)) 2>/dev/null && r=\"$r network\"; \
            (echo x > \"$1.escape\") 2>/dev/null && r=\"$r input-folder\"; \
            (echo x > \(escape)) 2>/dev/null && r=\"$r outside\"; \
            (echo x > \(report)) 2>/dev/null && r=\"$r report\"; \
            \(printPNG) > \"$2\"; echo \"$r\" > \"$2.log\"
            """)
        XCTAssertNoThrow(try generator.thumbnail(of: archive, size: .normal), "the thumbnailer itself ran")
        XCTAssertFalse(listener.receivedConnection, "no network inside the sandbox")
        XCTAssertFalse(FileManager.default.fileExists(atPath: escape))
        XCTAssertFalse(FileManager.default.fileExists(atPath: report))
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.path + ".escape"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted(), ["cache", "probe.tar", "thumbnailers"])
    }

    func testAFileThatChangesWhileBeingThumbnailedIsNotCached() throws {
        let folder = try TemporaryFolder()
        let archive = try folder.write("moving.tar", bytes: SampleFiles.tar)
        // The thumbnailer runs until the file has changed under it, and the change is made once
        // it runs: in that order however slow the machine. (`%%` is a literal percent sign in an
        // Exec line; a lone `%Y` would be an unknown field code and dropped.)
        let marker = "dossier-moving-\(UUID().uuidString)"
        let later = Date(timeIntervalSinceNow: 3600)
        let script = ": \(marker); while [ $(stat -c %%Y \"$1\") -lt \(Int(later.timeIntervalSince1970)) ]; do sleep 0.05; done; "
            + "\(printPNG) > \"$2\""
        let generator = try generator(folder, script: script, timeout: .seconds(120))
        DispatchQueue.global().async {
            guard eventually(timeout: 60, { Self.processRunning(containing: marker) }) else { return }
            try? FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: archive.path)
        }
        XCTAssertThrowsError(try generator.thumbnail(of: archive, size: .normal)) {
            XCTAssertEqual($0 as? ThumbnailError, .changedWhileReading(name: "moving.tar"))
        }
        let uri = URL(fileURLWithPath: archive.path).absoluteString
        XCTAssertFalse(FileManager.default.fileExists(atPath: generator.cache.location(of: uri, size: .normal).path))
        XCTAssertEqual(try generator.thumbnail(of: archive, size: .normal).origin, .generated, "not recorded as a failure")
    }

    func testVideoAndDocumentThumbnailersFromDebianWork() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
        let folder = try TemporaryFolder()
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpegthumbnailer") {
            let video = try generator.thumbnail(of: samples.appendingPathComponent("clip.webm"), size: .normal)
            XCTAssertEqual(video.thumbnailer, "ffmpegthumbnailer")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/evince-thumbnailer") {
            // A format only evince reads here: a comic book archive of one PNG page.
            let comic = try folder.write("comic.cbz", bytes: SampleFiles.zip(entries: [("page1.png", SampleFiles.png)]))
            let document = try generator.thumbnail(of: comic, size: .normal)
            XCTAssertEqual(document.thumbnailer, "evince")
            // A gzipped PDF: evince tells it by its whole extension, which the sandbox keeps.
            let plain = folder.url.appendingPathComponent("paper.pdf")
            try FileManager.default.copyItem(at: samples.appendingPathComponent("document.pdf"), to: plain)
            OtherProgram.output(of: ["/usr/bin/gzip", plain.path])
            let compressed = folder.url.appendingPathComponent("paper.pdf.gz")
            let paper = try generator.thumbnail(of: compressed, size: .normal)
            XCTAssertEqual(paper.thumbnailer, "evince")
        }
    }

    static func processRunning(containing text: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard Int(entry) != nil, let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")) else { return false }
            return String(decoding: line, as: UTF8.self).contains(text)
        }
    }
}

/// A TCP socket listening on 127.0.0.1 that notes whether anyone connected.
private final class LoopbackListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 4) == 0
                && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.featureUnsupported) }
        port = UInt16(bigEndian: address.sin_port)
    }

    var receivedConnection: Bool {
        let client = accept(fd, nil, nil)
        if client >= 0 { close(client) }
        return client >= 0
    }

    deinit { close(fd) }
}
