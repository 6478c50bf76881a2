import Foundation

/// What a JPEG's EXIF block says before any pixel is decoded: its orientation, and the small
/// thumbnail cameras embed (IFD1), which makes a quick first picture.
package struct JPEGMetadata {
    package var orientation = 1
    package var embeddedThumbnail: Data?

    /// Reads the segments before the image data (at most the first 256 KiB).
    init(path: String) {
        let handle = FileHandle(forReadingAtPath: path)
        defer { try? handle?.close() }
        let data = (try? handle?.read(upToCount: 256 * 1024)) ?? nil
        self.init(data: [UInt8](data ?? Data()))
    }

    package init(data bytes: [UInt8]) {
        guard bytes.count > 4, bytes[0] == 0xff, bytes[1] == 0xd8 else { return }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xff {
            let marker = bytes[offset + 1]
            if marker == 0xda || marker == 0xd9 { break }  // start of scan, end of image
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let start = offset + 4
            guard length >= 2, start + length - 2 <= bytes.count else { break }
            if marker == 0xe1, length > 8, Array(bytes[start..<start + 6]) == Array("Exif\0\0".utf8) {
                readTIFF(Array(bytes[(start + 6)..<(start + length - 2)]))
                break
            }
            offset = start + length - 2
        }
    }

    private mutating func readTIFF(_ tiff: [UInt8]) {
        guard tiff.count >= 8 else { return }
        let little = tiff[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        /// The entries of the directory at `at` as tag → value, and the next directory's offset.
        func directory(_ at: Int) -> (entries: [Int: (type: Int, value: Int)], next: Int)? {
            guard let count = u16(at), count < 1000 else { return nil }
            var entries: [Int: (Int, Int)] = [:]
            for index in 0..<count {
                let entry = at + 2 + index * 12
                guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
                let value = type == 3 ? (u16(entry + 8) ?? 0) : (u32(entry + 8) ?? 0)  // SHORT or LONG
                entries[tag] = (type, value)
            }
            return (entries, u32(at + 2 + count * 12) ?? 0)
        }
        guard let first = u32(4), let ifd0 = directory(first) else { return }
        if let orientation = ifd0.entries[0x0112]?.value, (1...8).contains(orientation) {
            self.orientation = orientation
        }
        guard ifd0.next > 0, let ifd1 = directory(ifd0.next),
              let offset = ifd1.entries[0x0201]?.value, let length = ifd1.entries[0x0202]?.value,
              length > 0, offset + length <= tiff.count
        else { return }
        embeddedThumbnail = Data(tiff[offset..<(offset + length)])
    }
}
