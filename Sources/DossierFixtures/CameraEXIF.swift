import Foundation

extension EXIF {
    /// What a camera records about a photo: the tags a browser or a thumbnailer reads.
    public struct Camera: Sendable {
        public var make: String
        public var model: String
        /// "YYYY:MM:DD HH:MM:SS", as EXIF writes it (DateTime and DateTimeOriginal).
        public var taken: String
        /// 1–8 (TIFF orientation): 1 upright, 3 upside down, 6 and 8 turned a quarter.
        public var orientation: Int
        public var pixelWidth: Int
        public var pixelHeight: Int
        /// A small JPEG kept in IFD1, as cameras embed one (nil: none, as some editors save).
        public var thumbnail: [UInt8]?

        public init(make: String, model: String, taken: String, orientation: Int, pixelWidth: Int, pixelHeight: Int,
                    thumbnail: [UInt8]? = nil) {
            self.make = make
            self.model = model
            self.taken = taken
            self.orientation = orientation
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.thumbnail = thumbnail
        }
    }

    /// `jpeg` with a camera's APP1 segment inserted after its start-of-image marker: IFD0 (Make,
    /// Model, Orientation, DateTime, a pointer to the Exif IFD), the Exif IFD (DateTimeOriginal,
    /// pixel dimensions) and, with a thumbnail, IFD1 pointing at it. Big-endian TIFF.
    public static func inserting(into jpeg: [UInt8], camera: Camera) -> [UInt8] {
        precondition(jpeg.count > 2 && jpeg[0] == 0xff && jpeg[1] == 0xd8, "not a JPEG")
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xffff) }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

        /// A tag: its type (2 ASCII, 3 SHORT, 4 LONG), count, and value (inline if ≤ 4 bytes).
        struct Tag {
            let tag: Int, type: Int, count: Int
            let bytes: [UInt8]
        }
        /// An IFD at `offset` with `tags` (sorted by tag), its out-of-line values after it.
        func directory(_ tags: [Tag], at offset: Int, next: Int) -> [UInt8] {
            let size = 2 + tags.count * 12 + 4
            var entries = be16(tags.count)
            var values: [UInt8] = []
            for tag in tags {
                entries += be16(tag.tag) + be16(tag.type) + be32(tag.count)
                if tag.bytes.count <= 4 {
                    entries += tag.bytes + [UInt8](repeating: 0, count: 4 - tag.bytes.count)
                } else {
                    entries += be32(offset + size + values.count)
                    values += tag.bytes
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            return entries + be32(next) + values
        }
        func length(_ tags: [Tag]) -> Int {
            2 + tags.count * 12 + 4 + tags.reduce(0) { $0 + ($1.bytes.count > 4 ? ($1.bytes.count + 1) / 2 * 2 : 0) }
        }

        let exifTags = [
            Tag(tag: 0x9003, type: 2, count: camera.taken.utf8.count + 1, bytes: ascii(camera.taken)),
            Tag(tag: 0xa002, type: 4, count: 1, bytes: be32(camera.pixelWidth)),
            Tag(tag: 0xa003, type: 4, count: 1, bytes: be32(camera.pixelHeight)),
        ]
        func ifd0Tags(exifOffset: Int) -> [Tag] {
            [
                Tag(tag: 0x010f, type: 2, count: camera.make.utf8.count + 1, bytes: ascii(camera.make)),
                Tag(tag: 0x0110, type: 2, count: camera.model.utf8.count + 1, bytes: ascii(camera.model)),
                Tag(tag: 0x0112, type: 3, count: 1, bytes: be16(camera.orientation)),
                Tag(tag: 0x0132, type: 2, count: camera.taken.utf8.count + 1, bytes: ascii(camera.taken)),
                Tag(tag: 0x8769, type: 4, count: 1, bytes: be32(exifOffset)),
            ]
        }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + length(ifd0Tags(exifOffset: 0))
        let ifd1Offset = exifOffset + length(exifTags)
        var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(ifd0Offset)
        tiff += directory(ifd0Tags(exifOffset: exifOffset), at: ifd0Offset, next: camera.thumbnail == nil ? 0 : ifd1Offset)
        tiff += directory(exifTags, at: exifOffset, next: 0)
        if let thumbnail = camera.thumbnail {
            let ifd1Tags = [
                Tag(tag: 0x0103, type: 3, count: 1, bytes: be16(6)),  // compression: JPEG
                Tag(tag: 0x0201, type: 4, count: 1, bytes: be32(0)),
                Tag(tag: 0x0202, type: 4, count: 1, bytes: be32(thumbnail.count)),
            ]
            let dataOffset = ifd1Offset + length(ifd1Tags)
            tiff += directory([ifd1Tags[0], Tag(tag: 0x0201, type: 4, count: 1, bytes: be32(dataOffset)), ifd1Tags[2]],
                              at: ifd1Offset, next: 0)
            tiff += thumbnail
        }
        let payload = Array("Exif\0\0".utf8) + tiff
        precondition(payload.count + 2 <= 0xffff, "an APP1 segment holds at most 64 KB")
        return [0xff, 0xd8, 0xff, 0xe1] + be16(payload.count + 2) + payload + jpeg[2...]
    }
}
