import CGLib
import CImaging
import DossierFixtures
import Foundation
import GObjectSupport

/// The photo-folder benchmark's folder: `count` distinct 12-megapixel JPEGs as a camera writes
/// them, made once and kept in `.build/bench-photos/` between runs (about 4 MB each).
///
/// Each photo has its own picture (a gradient and discs placed from its number, with a little
/// noise so it compresses like a photo) and its own EXIF: camera make and model (four cameras),
/// DateTimeOriginal (an hour apart), orientation (mostly upright, some turned a quarter either
/// way or upside down) and, in three photos of four, a 160×120 thumbnail in IFD1 (the fourth
/// as an editor saves it, without one). Every colour of every photo is in one family, magenta
/// to violet (red and blue well above green), which no type icon uses: the benchmark tells a
/// real thumbnail on screen from a placeholder icon by it.
enum PhotoFolder {
    static let width = 4000, height = 3000
    /// Bump when the photos change, so a kept folder is made again.
    static let version = 1

    /// The folder of `count` photos, made now unless an identical one is kept.
    static func prepare(count: Int) throws -> URL {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-photos")
        let folder = root.appendingPathComponent("\(count) photos")
        let stamp = root.appendingPathComponent("\(count) photos.done")
        let expected = "version \(version), \(count) photos of \(width)×\(height)\n"
        if (try? String(contentsOf: stamp, encoding: .utf8)) == expected {
            return folder
        }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let start = ContinuousClock.now
        FileHandle.standardError.write(Data("Photo folder: making \(count) photos in \(folder.path) (kept for later runs)…\n".utf8))
        let failures = Failures()
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: count, by: workers) {
                do {
                    try Data(makePhoto(index)).write(to: folder.appendingPathComponent(name(index)))
                } catch {
                    failures.add("\(name(index)): \(error)")
                }
            }
        }
        if let failure = failures.first { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: failure]) }
        try Data(expected.utf8).write(to: stamp)
        FileHandle.standardError.write(Data(String(format: "Photo folder: made in %.0f s\n", Measure.seconds(ContinuousClock.now - start)).utf8))
        return folder
    }

    static func name(_ index: Int) -> String { String(format: "IMG_%04d.JPG", index + 1) }

    /// Photo `index` as JPEG bytes, EXIF included.
    static func makePhoto(_ index: Int) throws -> [UInt8] {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { unref(pixbuf) }
        draw(index, into: pixbuf)
        let jpeg = try encode(pixbuf, quality: 88)
        let cameras = [("Canon", "Canon EOS 90D"), ("NIKON CORPORATION", "NIKON Z 6_2"), ("FUJIFILM", "X-T4"), ("SONY", "ILCE-7M3")]
        let camera = cameras[index % cameras.count]
        // Mostly upright; some turned a quarter either way, a few upside down.
        let orientation = index % 7 == 3 ? 6 : index % 11 == 5 ? 8 : index % 29 == 7 ? 3 : 1
        let minutes = index * 61
        let taken = String(format: "2026:%02d:%02d %02d:%02d:%02d", 1 + minutes / (60 * 24 * 28) % 12, 1 + minutes / (60 * 24) % 28,
                           minutes / 60 % 24, minutes % 60, index % 60)
        var thumbnail: [UInt8]?
        if index % 4 != 3, let small = gdk_pixbuf_scale_simple(pixbuf, 160, 120, GDK_INTERP_BILINEAR) {
            defer { unref(small) }
            thumbnail = try encode(small, quality: 80)
        }
        return EXIF.inserting(into: jpeg, camera: EXIF.Camera(make: camera.0, model: camera.1, taken: taken, orientation: orientation,
                                                              pixelWidth: width, pixelHeight: height, thumbnail: thumbnail))
    }

    /// A gradient and discs, each photo its own, all in the magenta-to-violet family.
    private static func draw(_ index: Int, into pixbuf: OpaquePointer) {
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        var seed = UInt32(truncatingIfNeeded: index &* 2_654_435_761 &+ 1)
        func next() -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return Int(seed >> 16)
        }
        let discs = (0..<(3 + index % 4)).map { _ in
            (x: next() % width, y: next() % height, radius: 250 + next() % 900, red: 200 + next() % 56, blue: 120 + next() % 100)
        }
        let phase = index % 17
        for y in 0..<height {
            let row = pixels + y * stride
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int(seed >> 29)  // 0–7
                var red = 150 + (x * 90 / width + phase * 5) % 100
                var blue = 130 + (y * 110 / height + phase * 7) % 120
                for disc in discs {
                    let dx = x - disc.x, dy = y - disc.y
                    if dx * dx + dy * dy < disc.radius * disc.radius {
                        red = disc.red
                        blue = disc.blue
                        break
                    }
                }
                let pixel = row + x * 3
                pixel[0] = UInt8(min(255, red + noise))
                pixel[1] = UInt8(10 + noise * 4)
                pixel[2] = UInt8(min(255, blue + noise))
            }
        }
    }

    private static func encode(_ pixbuf: OpaquePointer, quality: Int) throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup("\(quality)"), nil]
        defer { free(keys[0]); free(values[0]) }
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "jpeg", &keys, &values, nil) != 0, let buffer else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { g_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }
}

/// The first error of photos made on several threads.
private final class Failures: @unchecked Sendable {
    // @unchecked: `messages` is guarded by `lock`.
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var first: String? { lock.withLock { messages.first } }
}
