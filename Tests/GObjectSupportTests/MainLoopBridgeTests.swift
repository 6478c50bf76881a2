import CGLib
import Dispatch
import Foundation
import GObjectSupport
import XCTest

/// Lets a test hand the C main loop pointer to other threads.
private struct LoopHandle: @unchecked Sendable {
    let loop: OpaquePointer
}

final class MainLoopBridgeTests: XCTestCase {
    /// Runs a GLib main loop on the main thread until `quit` or a 10 s guard fires.
    private func runLoop(_ start: (LoopHandle) -> Void) -> Bool {
        // Without the bridge neither test below finishes: the loop never runs the main queue.
        MainActor.assumeIsolated { MainLoopBridge.install() }
        let handle = LoopHandle(loop: g_main_loop_new(nil, 0))
        defer { g_main_loop_unref(handle.loop) }
        final class Flag: @unchecked Sendable { var timedOut = false }
        let flag = Flag()
        let guardSource = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, 10, { data in
            let pair = Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! (Flag, LoopHandle)
            pair.0.timedOut = true
            g_main_loop_quit(pair.1.loop)
            return 0
        }, Unmanaged.passRetained((flag, handle) as AnyObject).toOpaque(), { data in
            Unmanaged<AnyObject>.fromOpaque(data!).release()
        })
        start(handle)
        g_main_loop_run(handle.loop)
        if !flag.timedOut { g_source_remove(guardSource) }
        return !flag.timedOut
    }

    func testMainActorTaskFromABackgroundThreadRunsUnderTheGLibLoop() {
        final class Result: @unchecked Sendable { var ranOnMain = false }
        let result = Result()
        let finished = runLoop { handle in
            Thread.detachNewThread {
                Task { @MainActor in
                    result.ranOnMain = Thread.isMainThread
                    g_main_loop_quit(handle.loop)
                }
            }
        }
        XCTAssertTrue(finished, "the @MainActor task ran while g_main_loop_run owned the thread")
        XCTAssertTrue(result.ranOnMain)
    }

    func testDispatchMainQueueRunsUnderTheGLibLoop() {
        final class Result: @unchecked Sendable { var count = 0 }
        let result = Result()
        let finished = runLoop { handle in
            DispatchQueue.global().async {
                for index in 1...3 {
                    DispatchQueue.main.async {
                        result.count += 1
                        if index == 3 { g_main_loop_quit(handle.loop) }
                    }
                }
            }
        }
        XCTAssertTrue(finished)
        XCTAssertEqual(result.count, 3)
    }
}
