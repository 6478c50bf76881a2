import Foundation

/// Reads the `tEXt` chunks of a PNG without decoding its pixels: a cache lookup only needs
/// `Thumb::URI` and `Thumb::MTime`, and reading them this way costs a few hundred bytes.
package enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

    /// The text keys and values before the image data, and the image's size; nil when the
    /// file is not a PNG.
    package static func read(_ path: String, limit: Int = 64 * 1024) -> (text: [String: String], width: Int, height: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit), data.count > 33 else { return nil }
        let bytes = [UInt8](data)
        guard Array(bytes[0..<8]) == signature else { return nil }
        func be32(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        var text: [String: String] = [:]
        var width = 0
        var height = 0
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length <= bytes.count else { break }
            if type == "IHDR", length >= 8 {
                width = be32(start)
                height = be32(start + 4)
            } else if type == "tEXt", let zero = bytes[start..<start + length].firstIndex(of: 0) {
                // tEXt is Latin-1 by the PNG spec; thumbnail keys and URIs are ASCII.
                let key = String(decoding: bytes[start..<zero], as: UTF8.self)
                let value = String(decoding: bytes[(zero + 1)..<(start + length)], as: UTF8.self)
                text[key] = value
            } else if type == "IDAT" || type == "IEND" {
                break
            }
            offset = start + length + 4  // skip the CRC
        }
        return (text, width, height)
    }
}
