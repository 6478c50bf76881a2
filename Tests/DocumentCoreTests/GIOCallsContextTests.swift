import CGLib
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentCore

/// Who runs GLib's default context while a GIO call waits on the main thread. Once GTK is up,
/// GDK's sources are there (X events, other programs' clipboard requests) and must run on the
/// main thread: a clipboard request answered on the GIO thread once held that thread while the
/// main thread waited for it, and the test process hung. Each call here waits on a FIFO that no one writes
/// until the test says so, so it is under way for as long as the test needs.
final class GIOCallsContextTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-gio-context")
    }

    override func tearDown() {
        folder = nil
    }

    /// A FIFO whose reading opens only once a writer does (`openWriter`).
    private func fifo() throws -> URL {
        let url = folder.url.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(url.path, 0o600), 0)
        return url
    }

    private static func openWriter(_ url: URL) {
        let writer = open(url.path, O_WRONLY)
        if writer >= 0 { close(writer) }
    }

    /// Opens `url` for reading through GIO's asynchronous call, waiting as a worker would.
    private static func read(_ url: URL) throws(GLibError) {
        let file = UncheckedSendable(g_file_new_for_path(url.path)!)
        defer { g_object_unref(UnsafeMutableRawPointer(file.value)) }
        let stream = try GIOCalls(progress: nil).call({ callback, data in
            g_file_read_async(file.value, G_PRIORITY_DEFAULT, nil, callback, data)
        }, finish: { result, error in
            g_file_read_finish(file.value, result, error)
        })
        if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }
    }

    func testWhileTheMainThreadWaitsTheGIOThreadDoesNotRunTheDefaultContext() throws {
        let pipe = try fifo()
        let offMain = Locked(false)
        let box = Unmanaged.passRetained(offMain)
        // Above every other source, so that nothing ready elsewhere keeps it waiting.
        let source = g_idle_add_full(G_PRIORITY_HIGH, { data in
            if !Thread.isMainThread {
                Unmanaged<Locked<Bool>>.fromOpaque(data!).takeUnretainedValue().withLock { $0 = true }
            }
            return 1
        }, box.toOpaque(), nil)
        defer {
            g_source_remove(source)
            box.release()
        }
        let looked = GIOLoop.shared.looks.withLock { $0 }
        let looksSeen = Locked(false)
        Thread.detachNewThread {
            // The GIO thread looks after the default context regularly while a call waits.
            let seen = eventually { GIOLoop.shared.looks.withLock { $0 } >= looked + 3 }
            looksSeen.withLock { $0 = seen }
            Self.openWriter(pipe)
        }
        XCTAssertNoThrow(try Self.read(pipe))
        XCTAssertTrue(looksSeen.withLock { $0 })
        XCTAssertFalse(offMain.withLock { $0 }, "a source of the default context ran on the GIO thread")
    }

    func testAWaitOnTheMainThreadRunsTheDefaultContext() throws {
        let pipe = try fifo()
        let ranOnMain = DispatchSemaphore(value: 0)
        let box = Unmanaged.passRetained(ranOnMain)
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            if Thread.isMainThread { Unmanaged<DispatchSemaphore>.fromOpaque(data!).takeUnretainedValue().signal() }
            return 0
        }, box.toOpaque(), { data in Unmanaged<DispatchSemaphore>.fromOpaque(data!).release() })
        let seen = Locked(false)
        Thread.detachNewThread {
            // The writer comes only once the main thread, waiting in the call, ran the source.
            let result = ranOnMain.wait(timeout: .now() + 60)
            seen.withLock { $0 = result == .success }
            Self.openWriter(pipe)
        }
        XCTAssertNoThrow(try Self.read(pipe))
        XCTAssertTrue(seen.withLock { $0 }, "the main thread did not run the default context while it waited")
    }
}
