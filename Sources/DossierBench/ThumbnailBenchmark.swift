import CGLib
import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport

/// 500 generated 12-megapixel JPEGs to `large` thumbnails in an empty cache: Dossier in one
/// process, against `gdk-pixbuf-thumbnailer` run once per file as GNOME runs it, on one core
/// and on all cores, in the same run.
enum ThumbnailBenchmark {
    static let count = 500
    static let thumbnailer = "/usr/bin/gdk-pixbuf-thumbnailer"

    static func run() throws {
        guard FileManager.default.isExecutableFile(atPath: thumbnailer) else {
            print("Thumbnails: skipped, \(thumbnailer) is not installed (Debian's libgdk-pixbuf2.0-bin)")
            return
        }
        let folder = try TemporaryFolder("dossier-bench-thumbnails")
        let photos = try makePhotos(in: folder.url.appendingPathComponent("photos"))
        let cores = ProcessInfo.processInfo.activeProcessorCount

        let dossierOne = try dossier(photos, workers: 1, cache: folder.url.appendingPathComponent("cache-1"))
        let peerOne = peer(photos, parallel: 1, output: folder.url.appendingPathComponent("peer-1"))
        let dossierAll = try dossier(photos, workers: cores, cache: folder.url.appendingPathComponent("cache-n"))
        let peerAll = peer(photos, parallel: cores, output: folder.url.appendingPathComponent("peer-n"))
        let peerMemory = childPeakMegabytes()

        print("Thumbnails: \(count) JPEGs of 4000×3000 (12 MP) to large (256 px), empty cache")
        print(String(format: "  one core   Dossier %6.1f ms/file (median)  gdk-pixbuf-thumbnailer %6.1f ms/file   %.1f× faster",
                     dossierOne.median * 1000, peerOne.median * 1000, peerOne.median / dossierOne.median))
        print(String(format: "             Dossier %6.2f s in all         gdk-pixbuf-thumbnailer %6.2f s in all    %.1f×",
                     dossierOne.total, peerOne.total, peerOne.total / dossierOne.total))
        print(String(format: "  %d cores    Dossier %6.2f s in all         gdk-pixbuf-thumbnailer %6.2f s in all    %.1f×",
                     cores, dossierAll.total, peerAll.total, peerAll.total / dossierAll.total))
        print(String(format: "  peak memory: Dossier's whole process %.0f MB; one gdk-pixbuf-thumbnailer process %.0f MB",
                     selfPeakMegabytes(), peerMemory))
    }

    /// One photo-like JPEG (gradients and noise, so it compresses like a photo), copied.
    private static func makePhotos(in folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = try makePhoto(at: folder.appendingPathComponent("photo-000.jpg"))
        var photos = [first]
        for index in 1..<count {
            let copy = folder.appendingPathComponent(String(format: "photo-%03d.jpg", index))
            try FileManager.default.copyItem(at: first, to: copy)
            photos.append(copy)
        }
        return photos
    }

    /// A 12-megapixel photo-like JPEG at `url`.
    static func makePhoto(at first: URL) throws -> URL {
        let width = 4000, height = 3000
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { unref(pixbuf) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int(seed >> 27)
                let offset = y * stride + x * 3
                pixels[offset] = UInt8(truncatingIfNeeded: x * 255 / width + noise)
                pixels[offset + 1] = UInt8(truncatingIfNeeded: y * 255 / height + noise)
                pixels[offset + 2] = UInt8(truncatingIfNeeded: (x + y) * 128 / (width + height) + noise)
            }
        }
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup("90"), nil]
        defer { free(keys[0]); free(values[0]) }
        guard gdk_pixbuf_savev(pixbuf, first.path, "jpeg", &keys, &values, nil) != 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        return first
    }

    private struct Timing {
        let total: Double
        let median: Double
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func dossier(_ photos: [URL], workers: Int, cache: URL) throws -> Timing {
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: cache), workers: workers)
        let times = Times(count: photos.count)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: photos.count, by: workers) {
                let began = clock.now
                _ = try? generator.thumbnail(of: photos[index], size: .large)
                times.set(index, seconds(clock.now - began))
            }
        }
        return Timing(total: seconds(clock.now - start), median: times.median)
    }

    private static func peer(_ photos: [URL], parallel: Int, output: URL) -> Timing {
        try? FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let times = Times(count: photos.count)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: parallel) { worker in
            for index in stride(from: worker, to: photos.count, by: parallel) {
                let began = clock.now
                _ = try? Measure.run(thumbnailer, ["-s", "256", photos[index].absoluteString,
                                                   output.appendingPathComponent("\(index).png").path])
                times.set(index, seconds(clock.now - began))
            }
        }
        return Timing(total: seconds(clock.now - start), median: times.median)
    }

    private static func selfPeakMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    private static func childPeakMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

/// Per-file durations filled in from several threads.
private final class Times: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double]
    init(count: Int) { values = Array(repeating: 0, count: count) }
    func set(_ index: Int, _ value: Double) { lock.withLock { values[index] = value } }
    var median: Double { lock.withLock { values.sorted()[values.count / 2] } }
}
