import Foundation

/// Writes an EXIF block (APP1) into a JPEG, as cameras do: an orientation in IFD0 and,
/// optionally, a small JPEG thumbnail in IFD1.
public enum EXIF {
    /// `jpeg` with an APP1 segment inserted right after its start-of-image marker.
    public static func inserting(into jpeg: [UInt8], orientation: Int, thumbnail: [UInt8]? = nil) -> [UInt8] {
        precondition(jpeg.count > 2 && jpeg[0] == 0xff && jpeg[1] == 0xd8, "not a JPEG")
        // Big-endian TIFF: header, IFD0 (orientation, pointer to IFD1), IFD1, thumbnail bytes.
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xffff) }
        func entry(_ tag: Int, type: Int, value: [UInt8]) -> [UInt8] {
            be16(tag) + be16(type) + be32(1) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8)
        let ifd0Size = 2 + 12 + 4
        let ifd1Offset = thumbnail == nil ? 0 : 8 + ifd0Size
        tiff += be16(1) + entry(0x0112, type: 3, value: be16(orientation)) + be32(ifd1Offset)
        if let thumbnail {
            let ifd1Size = 2 + 2 * 12 + 4
            let dataOffset = ifd1Offset + ifd1Size
            tiff += be16(2) + entry(0x0201, type: 4, value: be32(dataOffset)) + entry(0x0202, type: 4, value: be32(thumbnail.count)) + be32(0)
            tiff += thumbnail
        }
        let payload = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xff, 0xe1] + be16(payload.count + 2) + payload
        return [0xff, 0xd8] + segment + jpeg[2...]
    }

    /// A PNG whose header claims `width` × `height` RGBA pixels, with a tiny (damaged) image
    /// stream: the shape of a decompression bomb, refused from the header alone.
    public static func bombPNG(width: Int, height: Int) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xff) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(body)))
        }
        let header = be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + chunk("IEND", [])
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
