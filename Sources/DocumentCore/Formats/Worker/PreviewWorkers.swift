import Foundation

/// The previewer's decoder workers, shared by images, archives, PDFs and fonts (one font at a
/// time, behind `FontSpecimenRequest`'s queue). Apart from the thumbnailers' pool, so
/// that a preview never waits behind a folder of thumbnails: two at most, each started at its
/// first request and kept, the second only when two requests overlap (an item still loading
/// when the next is asked for). The previewer service starts the first as it starts
/// (`prestart`), before GTK does.
package enum PreviewWorkers {
    /// A worker's limits for a preview: the previewer gives up on an item after 15 s, and so
    /// does its worker.
    package static let limits: DecoderWorker.Limits = {
        var limits = DecoderWorker.Limits()
        limits.timeout = .seconds(15)
        limits.cpuSecondsPerRequest = 15
        return limits
    }()

    private static let pool = Locked(DecoderWorkerPool(count: 2, limits: limits))

    /// The workers requests go to now.
    package static var current: DecoderWorkerPool { pool.withLock { $0 } }

    /// Starts a worker for the previewer now, so that its first item, whenever it comes, does
    /// not wait for one. The previewer service does so first thing, before GTK starts: the
    /// worker then loads its libraries on the core that GTK's start leaves idle. Blocks only
    /// while the process is made, and reads the environment on the calling thread only
    /// (`DecoderWorker.prestart`).
    package static func prestart() {
        current.prestart()
    }

    /// Replaces the previewer's workers (the tests give it workers that offer misbehaving
    /// formats, or tighter limits); returns the ones it had.
    @discardableResult
    package static func replaceWorkers(with workers: DecoderWorkerPool) -> DecoderWorkerPool {
        pool.withLock { current in
            defer { current = workers }
            return current
        }
    }
}
