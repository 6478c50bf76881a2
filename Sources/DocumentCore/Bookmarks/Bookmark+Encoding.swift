import Foundation

// The compact form:
//
//     "DOSSIER-BOOKMARK"  magic, 16 bytes: what shared-mime-info's application/x-dossier-bookmark
//                         matches (data/mime), so a saved bookmark file is typed as one
//     UInt16  format version, big-endian  ← magic and version never move, whatever the version
//     UInt32  length of the fields, big-endian
//     fields  tag (1 byte), length (LEB128), value; unknown tags are skipped
//     UInt32  CRC-32 (IEEE) of everything before it, big-endian
//
// Integers inside values are LEB128 (signed ones zigzag-encoded), strings UTF-8.

extension Bookmark {
    package static let magic: [UInt8] = Array("DOSSIER-BOOKMARK".utf8)
    /// Where the fields start: after the magic, the version and the length.
    package static let headerLength = magic.count + 2 + 4

    private enum Tag: UInt8 {
        case path = 1, device, inode, kind, size, modified, birth
        case volumeUUID, volumeLabel, mountPoint, fileSystemType, volumeDevice, folderInodes, created
    }

    /// The bookmark as compact, versioned, checksummed bytes.
    public var dataRepresentation: Data {
        var fields = ByteWriter()
        fields.field(Tag.path.rawValue) { $0.string(path) }
        fields.field(Tag.device.rawValue) { $0.unsigned(device) }
        fields.field(Tag.inode.rawValue) { $0.unsigned(inode) }
        fields.field(Tag.kind.rawValue) { $0.unsigned(UInt64(kind.rawValue)) }
        fields.field(Tag.size.rawValue) { $0.signed(size) }
        fields.field(Tag.modified.rawValue) { $0.timestamp(modified) }
        if let birth { fields.field(Tag.birth.rawValue) { $0.timestamp(birth) } }
        if let uuid = volume.uuid { fields.field(Tag.volumeUUID.rawValue) { $0.string(uuid) } }
        if let label = volume.label { fields.field(Tag.volumeLabel.rawValue) { $0.string(label) } }
        fields.field(Tag.mountPoint.rawValue) { $0.string(volume.mountPoint) }
        fields.field(Tag.fileSystemType.rawValue) { $0.string(volume.fileSystemType) }
        fields.field(Tag.volumeDevice.rawValue) { $0.unsigned(volume.device) }
        fields.field(Tag.folderInodes.rawValue) { writer in
            writer.unsigned(UInt64(folderInodes.count))
            folderInodes.forEach { writer.unsigned($0) }
        }
        fields.field(Tag.created.rawValue) { $0.signed(Self.wholeSeconds(created)) }

        var bytes = Self.magic
        bytes += [UInt8(Self.formatVersion >> 8), UInt8(Self.formatVersion & 0xff)]
        bytes += bigEndian(UInt32(fields.bytes.count))
        bytes += fields.bytes
        bytes += bigEndian(CRC32.checksum(bytes))
        return Data(bytes)
    }

    /// Seconds since 1970 as the created field holds them: a date read from other data may
    /// lie beyond what an Int64 of seconds holds, and is written as the nearest that does.
    private static func wholeSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded()
        if let exact = Int64(exactly: seconds) { return exact }
        return seconds < 0 ? .min : .max
    }

    /// The compact form in base64, for a command line or a text file.
    public func base64EncodedString() -> String {
        dataRepresentation.base64EncodedString()
    }

    /// Reads the compact form.
    /// - Throws: `BookmarkError.newerVersion` for data from a newer format, `.corrupt` for
    ///   anything that is not an intact bookmark.
    public init(dataRepresentation data: Data) throws(BookmarkError) {
        let bytes = [UInt8](data)
        let magicLength = Self.magic.count
        let header = Self.headerLength
        guard bytes.count >= magicLength + 2, Array(bytes[0..<magicLength]) == Self.magic else {
            throw .corrupt(reason: tr("it is not Dossier bookmark data"))
        }
        let version = Int(bytes[magicLength]) << 8 | Int(bytes[magicLength + 1])
        guard version <= Self.formatVersion else {
            throw .newerVersion(found: version, supported: Self.formatVersion)
        }
        guard version >= 1, bytes.count >= header + 4 else { throw .corrupt(reason: tr("it is cut short")) }
        let length = bytes[(magicLength + 2)..<header].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count == header + length + 4 else { throw .corrupt(reason: tr("it is cut short")) }
        let stored = bytes[(header + length)...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard CRC32.checksum(bytes[0..<(header + length)]) == stored else {
            throw .corrupt(reason: tr("its checksum does not match"))
        }
        var fields: [UInt8: ArraySlice<UInt8>] = [:]
        var reader = ByteReader(bytes[header..<(header + length)])
        while !reader.isAtEnd {
            guard let tag = reader.byte(), let size = reader.unsigned(), let value = reader.take(size) else {
                throw .corrupt(reason: tr("a field is cut short"))
            }
            fields[tag] = value
        }
        func read<T>(_ tag: Tag, _ body: (inout ByteReader) -> T?) -> T? {
            guard let value = fields[tag.rawValue] else { return nil }
            var field = ByteReader(value)
            return body(&field)
        }
        guard let path = read(.path, { $0.string() }), let device = read(.device, { $0.unsigned() }),
              let inode = read(.inode, { $0.unsigned() }),
              let kind = read(.kind, { $0.unsigned().flatMap { Kind(rawValue: UInt8(truncatingIfNeeded: $0)) } }),
              let size = read(.size, { $0.signed() }), let modified = read(.modified, { $0.timestamp() }),
              let mountPoint = read(.mountPoint, { $0.string() }),
              let fileSystemType = read(.fileSystemType, { $0.string() }),
              let volumeDevice = read(.volumeDevice, { $0.unsigned() }),
              let folderInodes = read(.folderInodes, { field -> [UInt64]? in
                  guard let count = field.unsigned(), count <= 4096 else { return nil }
                  var inodes: [UInt64] = []
                  for _ in 0..<count {
                      guard let inode = field.unsigned() else { return nil }
                      inodes.append(inode)
                  }
                  return inodes
              }),
              let created = read(.created, { $0.signed() })
        else { throw .corrupt(reason: tr("a required field is missing")) }
        let volume = Volume(
            uuid: read(.volumeUUID, { $0.string() }), label: read(.volumeLabel, { $0.string() }),
            mountPoint: mountPoint, fileSystemType: fileSystemType, device: volumeDevice)
        self.init(path: path, device: device, inode: inode, kind: kind, size: size, modified: modified,
                  birth: read(.birth, { $0.timestamp() }), volume: volume, folderInodes: folderInodes,
                  created: Date(timeIntervalSince1970: TimeInterval(created)))
    }

    /// Reads the base64 form (standard or URL-safe alphabet, padding optional).
    public init(base64Encoded text: String) throws(BookmarkError) {
        var normalized = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        normalized += String(repeating: "=", count: (4 - normalized.count % 4) % 4)
        guard let data = Data(base64Encoded: normalized) else {
            throw .corrupt(reason: tr("it is not valid base64"))
        }
        try self.init(dataRepresentation: data)
    }

    /// Saves the compact form to a file, atomically (`SafeSave`). Name it `*.dossierbookmark`:
    /// with Dossier's MIME package installed, either the name or the content types it as
    /// `application/x-dossier-bookmark`.
    public func write(to url: URL) throws(SaveError) {
        try SafeSave.write(dataRepresentation, to: url)
    }

    /// Reads a bookmark file written by `write(to:)`.
    /// - Throws: `BookmarkError.unreadableFile`, or what `init(dataRepresentation:)` throws.
    public init(contentsOf url: URL) throws(BookmarkError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableFile(name: url.lastPathComponent, reason: error.localizedDescription)
        }
        try self.init(dataRepresentation: data)
    }
}

// MARK: Codable

extension Bookmark {
    private enum CodingKeys: String, CodingKey {
        case version, path, device, inode, kind, size, modified, birth, volume, folderInodes, created
    }

    /// Decodes the JSON form; refuses a newer format with `BookmarkError.newerVersion`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version <= Self.formatVersion else {
            throw BookmarkError.newerVersion(found: version, supported: Self.formatVersion)
        }
        self.init(
            path: try container.decode(String.self, forKey: .path), device: try container.decode(UInt64.self, forKey: .device),
            inode: try container.decode(UInt64.self, forKey: .inode), kind: try container.decode(Kind.self, forKey: .kind),
            size: try container.decode(Int64.self, forKey: .size),
            modified: try container.decode(FileTimestamp.self, forKey: .modified),
            birth: try container.decodeIfPresent(FileTimestamp.self, forKey: .birth),
            volume: try container.decode(Volume.self, forKey: .volume),
            folderInodes: try container.decode([UInt64].self, forKey: .folderInodes),
            created: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .created)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(path, forKey: .path)
        try container.encode(device, forKey: .device)
        try container.encode(inode, forKey: .inode)
        try container.encode(kind, forKey: .kind)
        try container.encode(size, forKey: .size)
        try container.encode(modified, forKey: .modified)
        try container.encodeIfPresent(birth, forKey: .birth)
        try container.encode(volume, forKey: .volume)
        try container.encode(folderInodes, forKey: .folderInodes)
        try container.encode(created.timeIntervalSince1970, forKey: .created)
    }
}

// MARK: Bytes

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
}

private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func unsigned(_ value: UInt64) {
        var value = value
        repeat {
            var byte = UInt8(value & 0x7f)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
    }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) { bytes += Array(value.utf8) }

    mutating func timestamp(_ value: FileTimestamp) {
        signed(value.seconds)
        unsigned(UInt64(value.nanoseconds))
    }

    mutating func field(_ tag: UInt8, _ body: (inout ByteWriter) -> Void) {
        var value = ByteWriter()
        body(&value)
        bytes.append(tag)
        unsigned(UInt64(value.bytes.count))
        bytes += value.bytes
    }
}

private struct ByteReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func byte() -> UInt8? { bytes.popFirst() }

    /// The next `count` bytes; nil when fewer are left (`count` is a length read from the
    /// data: up to 2⁶⁴ − 1).
    mutating func take(_ count: UInt64) -> ArraySlice<UInt8>? {
        guard count <= UInt64(bytes.count) else { return nil }
        defer { bytes = bytes.dropFirst(Int(count)) }
        return bytes.prefix(Int(count))
    }

    mutating func unsigned() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = bytes.popFirst() {
            guard shift < 64 else { return nil }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    mutating func signed() -> Int64? {
        guard let raw = unsigned() else { return nil }
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// The whole rest as UTF-8 (a string field holds nothing else); nil when not valid UTF-8.
    mutating func string() -> String? {
        defer { bytes = [] }
        return String(validating: bytes, as: UTF8.self)
    }

    mutating func timestamp() -> FileTimestamp? {
        guard let seconds = signed(), let nanoseconds = unsigned(), nanoseconds < 1_000_000_000 else { return nil }
        return FileTimestamp(seconds: seconds, nanoseconds: UInt32(nanoseconds))
    }
}

/// CRC-32 (IEEE 802.3, the one zlib and PNG use), table-driven.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    package static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
