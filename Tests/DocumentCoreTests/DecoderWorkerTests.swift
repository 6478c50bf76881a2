import CGLib
import CImaging
import DecoderWire
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// A decoder worker contains what a hostile file can make a decoder do: a crash, an endless
/// loop, endless allocation, reaching the network, writing files, running a program. Each ends
/// that one request; the next request is served by a fresh worker. Every test runs under each
/// confinement this machine has: bubblewrap and the worker's own lock-down, and the lock-down
/// alone (as where bubblewrap cannot run).
final class DecoderWorkerTests: XCTestCase {
    private var confinements: [DecoderWorker.Confinement] {
        DecoderWorker.Confinement.best == .bubblewrap ? [.bubblewrap, .seccompOnly] : [.seccompOnly]
    }

    private func worker(_ confinement: DecoderWorker.Confinement, _ change: (inout DecoderWorker.Limits) -> Void = { _ in }) -> DecoderWorker {
        var limits = DecoderWorker.Limits()
        change(&limits)
        return DecoderWorker(confinement: confinement, limits: limits, testFormats: true)
    }

    /// A 40 × 30 PNG of one colour, written by GdkPixbuf.
    private func picture(in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("red.png")
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 40, 30))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0xff2010ff)
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, url.path, "png", nil, nil, nil), 0)
        return url
    }

    private func perform(_ worker: DecoderWorker, _ request: DecoderRequest, file: URL? = nil) throws(DecoderWorker.Failure) -> DecoderWorker.Output {
        let fd = open(file?.path ?? "/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        return try worker.perform(request, input: FileDescriptor(rawValue: fd))
    }

    /// The image request the previewer sends for a picture at its own size.
    private static let image = DecoderRequest.image(ImageOptions(edge: nil, width: nil, enlarge: false, still: false,
                                                                 pixelLimit: ImageDecoding.pixelLimit, jpegThroughLibjpeg: false))

    /// The next request after a contained misbehaviour works: the image decodes (where GdkPixbuf
    /// decodes in the worker), and the file is read.
    private func assertTheNextImageDecodes(_ worker: DecoderWorker, _ image: URL, file: StaticString = #filePath, line: UInt = #line) {
        let size = (try? FileManager.default.attributesOfItem(atPath: image.path)[.size] as? Int).map(String.init)
        XCTAssertEqual(try? perform(worker, .probe, file: image).values["size"], size, "the next request works", file: file, line: line)
        guard !DecoderWorker.pixbufDecodesThroughGlycin else { return }
        XCTAssertEqual(try? perform(worker, Self.image, file: image).values["width"], "40", "the next image decodes", file: file, line: line)
    }

    private func skipWhereGlycinDecodes() throws {
        try XCTSkipIf(DecoderWorker.pixbufDecodesThroughGlycin,
                      "GdkPixbuf hands images to glycin here, whose own sandbox cannot start inside a worker")
    }

    func testAnImageIsDecodedInTheWorkerIntoASealedMemfd() throws {
        try skipWhereGlycinDecodes()
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        for confinement in confinements {
            let output = try perform(worker(confinement), Self.image, file: image)
            XCTAssertEqual(output.values["width"], "40", "\(confinement)")
            XCTAssertEqual(output.values["height"], "30")
            XCTAssertEqual(output.values["channels"], "4")
            let stride = try XCTUnwrap(output.values["stride"].flatMap(Int.init))
            let blob = try XCTUnwrap(output.blob)
            XCTAssertGreaterThanOrEqual(blob.count, stride * 29 + 40 * 4)
            blob.withUnsafeBytes { bytes in
                XCTAssertEqual(Array(bytes[0..<4]), [0xff, 0x20, 0x10, 0xff])
                XCTAssertEqual(Array(bytes[stride * 29 + 39 * 4..<stride * 29 + 40 * 4]), [0xff, 0x20, 0x10, 0xff])
            }
        }
    }

    func testABadImageEndsOnTheDecodersMessage() throws {
        try skipWhereGlycinDecodes()
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        let garbage = try folder.write("garbage.png", bytes: [0x89, 0x50, 0x4e, 0x47] + Array(repeating: 0x41, count: 300))
        for confinement in confinements {
            let worker = worker(confinement)
            XCTAssertThrowsError(try perform(worker, Self.image, file: garbage)) { error in
                guard case .decoder(let message) = error as? DecoderWorker.Failure else { return XCTFail("\(error)") }
                XCTAssertFalse(message.isEmpty)
            }
            assertTheNextImageDecodes(worker, image)
        }
    }

    func testACrashIsContained() throws {
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        for confinement in confinements {
            let worker = worker(confinement)
            assertTheNextImageDecodes(worker, image)
            XCTAssertThrowsError(try perform(worker, .misbehave(Misbehaviour(name: "test.crash")))) { error in
                guard case .crashed(let how) = error as? DecoderWorker.Failure else { return XCTFail("\(confinement): \(error)") }
                XCTAssertTrue(how.contains("signal 11") || how.contains("stopped"), how)
            }
            assertTheNextImageDecodes(worker, image)
        }
    }

    func testAnEndlessLoopEndsAtTheCPULimit() throws {
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        for confinement in confinements {
            // The CPU limit, not the wall clock: a loaded machine only makes it take longer.
            let worker = worker(confinement) { $0.cpuSecondsPerRequest = 2; $0.timeout = .seconds(600) }
            XCTAssertThrowsError(try perform(worker, .misbehave(Misbehaviour(name: "test.loop")))) { error in
                guard case .crashed(let how) = error as? DecoderWorker.Failure else { return XCTFail("\(confinement): \(error)") }
                XCTAssertTrue(how.contains("signal \(SIGXCPU)") || how.contains("signal 9"), how)
            }
            assertTheNextImageDecodes(worker, image)
        }
    }

    func testAnEndlessLoopEndsAtTheTimeout() throws {
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        for confinement in confinements {
            let worker = worker(confinement) { $0.cpuSecondsPerRequest = 600; $0.cpuSecondsInAll = 6000; $0.timeout = .seconds(1) }
            XCTAssertThrowsError(try perform(worker, .misbehave(Misbehaviour(name: "test.loop")))) { error in
                XCTAssertEqual(error as? DecoderWorker.Failure, .timedOut, "\(confinement)")
            }
            let patient = self.worker(confinement)
            assertTheNextImageDecodes(patient, image)
        }
    }

    func testEndlessAllocationEndsAtTheAddressSpaceLimit() throws {
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        for confinement in confinements {
            let worker = worker(confinement) { $0.addressSpace = 1 << 30 }
            XCTAssertThrowsError(try perform(worker, .misbehave(Misbehaviour(name: "test.allocate")))) { error in
                guard case .crashed = error as? DecoderWorker.Failure else { return XCTFail("\(confinement): \(error)") }
            }
            assertTheNextImageDecodes(worker, image)
        }
    }

    func testADecoderCannotReachTheNetwork() throws {
        // A beacon on 127.0.0.1: nothing may connect to it.
        let beacon = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        XCTAssertGreaterThanOrEqual(beacon, 0)
        defer { close(beacon) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                XCTAssertEqual(bind(beacon, address, length), 0)
                XCTAssertEqual(listen(beacon, 8), 0)
                XCTAssertEqual(getsockname(beacon, address, &length), 0)
            }
        }
        let port = String(UInt16(bigEndian: address.sin_port))
        for confinement in confinements {
            let output = try perform(worker(confinement), .misbehave(Misbehaviour(name: "test.connect", options: ["port": port])))
            XCTAssertNil(output.values["connected"], "\(confinement)")
            XCTAssertEqual(output.values["denied"], "socket", "\(confinement)")
            XCTAssertEqual(accept(beacon, nil, nil), -1, "the beacon saw nothing")
        }
    }

    func testADecoderCannotWriteFiles() throws {
        let folder = try TemporaryFolder()
        let home = URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("dossier-decoder-planted-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        for confinement in confinements {
            for target in [folder.url.appendingPathComponent("planted"), home] {
                let output = try perform(worker(confinement), .misbehave(Misbehaviour(name: "test.write", options: ["path": target.path])))
                XCTAssertNotNil(output.values["denied"], "\(confinement): \(output.values)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "\(confinement) wrote \(target.path)")
            }
        }
    }

    func testADecoderCannotRunPrograms() throws {
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("ran")
        for confinement in confinements {
            let output = try perform(worker(confinement), .misbehave(Misbehaviour(name: "test.exec", options: ["path": marker.path])))
            XCTAssertEqual(output.values["denied"], "execve", "\(confinement)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path))
        }
    }

    // MARK: A worker left to choose its confinement

    /// bubblewrap as Debian's behaves where user namespaces are off: it says why and exits with 1
    /// before running anything.
    private func bubblewrapThatCannotRun(in folder: TemporaryFolder) throws -> String {
        let url = folder.url.appendingPathComponent("bwrap")
        try Data("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n".utf8).write(to: url)
        XCTAssertEqual(chmod(url.path, 0o755), 0)
        return url.path
    }

    /// A worker left to choose tries bubblewrap with its own start, not with a run of bubblewrap
    /// beforehand; one that bubblewrap could not start is started again with seccomp and limits
    /// only, serves the request, and the next worker does not try that bubblewrap again.
    func testAWorkerThatBubblewrapCannotStartIsStartedWithoutIt() throws {
        let folder = try TemporaryFolder()
        let bubblewrap = try bubblewrapThatCannotRun(in: folder)
        let image = try picture(in: folder)
        let worker = DecoderWorker(confinement: nil, limits: DecoderWorker.Limits(), executable: nil, testFormats: true,
                                   bubblewrap: bubblewrap)
        XCTAssertEqual(worker.confinement, .bubblewrap, "tried first")
        assertTheNextImageDecodes(worker, image)
        XCTAssertEqual(worker.confinement, .seccompOnly)
        let next = DecoderWorker(confinement: nil, limits: DecoderWorker.Limits(), executable: nil, testFormats: false,
                                 bubblewrap: bubblewrap)
        XCTAssertEqual(next.confinement, .seccompOnly, "not tried again")
    }

    /// A worker left to choose runs under bubblewrap where it runs, and a file that crashes its
    /// first request is not taken for a bubblewrap that cannot start: the request fails as a
    /// crash, and bubblewrap stays.
    func testAWorkerLeftToChooseKeepsBubblewrapWhereItRuns() throws {
        try XCTSkipUnless(DecoderWorker.Confinement.best == .bubblewrap, "bubblewrap cannot run here")
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        let worker = DecoderWorker(limits: DecoderWorker.Limits(), testFormats: true)
        XCTAssertThrowsError(try perform(worker, .misbehave(Misbehaviour(name: "test.crash")))) { error in
            guard case .crashed = error as? DecoderWorker.Failure else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(worker.confinement, .bubblewrap)
        assertTheNextImageDecodes(worker, image)
        XCTAssertEqual(worker.confinement, .bubblewrap)
    }

    /// The thumbnailers' workers run at nice 10, and so does their scheduling group where the
    /// kernel groups processes by session (a worker's session is its own, and between groups
    /// only the group's nice counts); a previewer's worker, which someone waits for, keeps 0.
    func testThumbnailWorkersRunAtALowPriority() throws {
        XCTAssertEqual(ThumbnailWorkers.pool.limits.niceness, 10)
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        // Where the kernel groups by session and lets a process set its own group's nice.
        let hasGroups = FileManager.default.isWritableFile(atPath: "/proc/self/autogroup")
        for confinement in confinements {
            let low = worker(confinement) { $0 = ThumbnailWorkers.limits }
            // At least 10: a test run that is itself niced further is not raised back.
            let nice = try XCTUnwrap(try perform(low, .probe, file: image).values["nice"].flatMap(Int.init))
            XCTAssertGreaterThanOrEqual(nice, 10, "\(confinement)")
            if hasGroups {
                // The kernel takes one group change a tenth of a second machine-wide; the worker
                // tries again at each request until it took.
                XCTAssertTrue(eventually { (try? self.perform(low, .probe, file: image).values["groupNice"]) == "10" },
                              "\(confinement): the group's nice")
                let previewer = worker(confinement)
                XCTAssertEqual(try perform(previewer, .probe, file: image).values["groupNice"], "0", "\(confinement)")
            }
        }
    }

    /// A pool's workers all start ahead when asked (a browser asks as it is made), and the
    /// requests that follow find them running.
    func testAPoolStartsEveryWorkerAhead() throws {
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        let pool = DecoderWorkerPool(count: 2, testFormats: true)
        XCTAssertEqual(pool.running, [false, false])
        pool.prestartAll()
        XCTAssertEqual(pool.running, [true, true])
        let fd = open(image.path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        XCTAssertNotNil(try pool.perform(.probe, input: FileDescriptor(rawValue: fd)).values["size"])
        XCTAssertEqual(pool.running, [true, true])
    }

    /// The worker's start blocks its caller only while the process is made: the worker's own
    /// start (libraries, lock-down) goes on after `prestart` returns, and its first request
    /// finds it running.
    func testPrestartReturnsWithTheWorkerStillStarting() throws {
        let folder = try TemporaryFolder()
        let image = try picture(in: folder)
        let worker = DecoderWorker(limits: DecoderWorker.Limits(), testFormats: true)
        worker.prestart()
        let started = try XCTUnwrap(worker.processID, "a process was made")
        assertTheNextImageDecodes(worker, image)
        XCTAssertEqual(worker.processID, started, "the request went to the worker started ahead")
    }
}
