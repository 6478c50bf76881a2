import Foundation

/// A listing as the decoder worker sends it back: a compact binary form in a sealed memfd (half
/// a million entries are far more than a packet), read by the caller as untrusted. Every count,
/// length and value is checked against the listing's own limits, and anything out of bounds
/// makes the whole answer unreadable rather than partly believed.
///
/// Little-endian: `DAL1`, flags (1 truncated, 2 damaged), the damage message when flagged, the
/// entry count (UInt32), then per entry in the archive's order: kind, flags (1 encrypted,
/// 2 size, 4 modified, 8 link), the size (Int64) and the modification time (a Double's bits,
/// since 2001 as `Date` keeps it) when flagged, the path and the link target when flagged. A
/// text is a UInt32 byte count and UTF-8. An entry's position is its header index; names,
/// depths and unsafe flags are not sent.
package enum ArchiveListingCoding {
    static let magic = Array("DAL1".utf8)
    /// The largest answer read: the text limit and every entry's fixed part, with room to spare.
    static let largest = 256 << 20

    private enum ListingFlag { static let truncated: UInt8 = 1, damaged: UInt8 = 2 }
    private enum EntryFlag { static let encrypted: UInt8 = 1, size: UInt8 = 2, modified: UInt8 = 4, link: UInt8 = 8 }

    /// The worker's side: `listing`'s entries in order.
    package static func encode(_ listing: ArchiveListing) -> [UInt8] {
        var bytes = magic
        bytes.append((listing.isTruncated ? ListingFlag.truncated : 0) | (listing.damage != nil ? ListingFlag.damaged : 0))
        if let damage = listing.damage { appendText(ArchiveListing.truncated(damage, toBytes: ArchiveListing.damageLimit), to: &bytes) }
        appendInteger(UInt32(clamping: listing.entries.count), to: &bytes)
        for entry in listing.entries {
            bytes.append(entry.kind.rawValue)
            var flags: UInt8 = entry.isEncrypted ? EntryFlag.encrypted : 0
            if entry.size != nil { flags |= EntryFlag.size }
            if entry.modified != nil { flags |= EntryFlag.modified }
            if entry.linkTarget != nil { flags |= EntryFlag.link }
            bytes.append(flags)
            if let size = entry.size { appendInteger(UInt64(bitPattern: size), to: &bytes) }
            if let modified = entry.modified { appendInteger(modified.timeIntervalSinceReferenceDate.bitPattern, to: &bytes) }
            appendText(entry.path, to: &bytes)
            if let target = entry.linkTarget { appendText(target, to: &bytes) }
        }
        return bytes
    }

    /// The caller's side: the listing in `bytes`, entries in the archive's order (names are
    /// their paths, no depth, no unsafe flag: `ArchiveListing.arranged` works them out); nil
    /// when anything in it is out of bounds.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> ArchiveListing? {
        guard bytes.count <= largest else { return nil }
        var reader = Reader(bytes: bytes)
        guard reader.bytes(magic.count).map(Array.init) == magic, let flags = reader.byte(),
              flags & ~(ListingFlag.truncated | ListingFlag.damaged) == 0 else { return nil }
        var damage: String?
        if flags & ListingFlag.damaged != 0 {
            guard let text = reader.text(limit: ArchiveListing.damageLimit) else { return nil }
            damage = text
        }
        guard let count = reader.integer(UInt32.self).map(Int.init), count <= ArchiveListing.entryLimit else { return nil }
        var entries: [ArchiveEntry] = []
        entries.reserveCapacity(min(count, bytes.count / 6))
        var textBytes = 0
        for index in 0..<count {
            guard let kindValue = reader.byte(), let kind = ArchiveEntry.Kind(rawValue: kindValue), let entryFlags = reader.byte(),
                  entryFlags & ~(EntryFlag.encrypted | EntryFlag.size | EntryFlag.modified | EntryFlag.link) == 0 else { return nil }
            var size: Int64?
            if entryFlags & EntryFlag.size != 0 {
                guard let value = reader.integer(UInt64.self) else { return nil }
                size = Int64(bitPattern: value)
            }
            var modified: Date?
            if entryFlags & EntryFlag.modified != 0 {
                guard let value = reader.integer(UInt64.self) else { return nil }
                let seconds = Double(bitPattern: value)
                guard seconds.isFinite else { return nil }
                modified = Date(timeIntervalSinceReferenceDate: seconds)
            }
            guard let path = reader.text(limit: ArchiveListing.pathLimit) else { return nil }
            var linkTarget: String?
            if entryFlags & EntryFlag.link != 0 {
                guard let target = reader.text(limit: ArchiveListing.pathLimit) else { return nil }
                linkTarget = target
            }
            textBytes += path.utf8.count + (linkTarget?.utf8.count ?? 0)
            guard textBytes <= ArchiveListing.textLimit else { return nil }
            entries.append(ArchiveEntry(path: path, name: path, depth: 0, kind: kind, size: size, modified: modified,
                                        isUnsafe: false, isEncrypted: entryFlags & EntryFlag.encrypted != 0,
                                        linkTarget: linkTarget, headerIndex: index))
        }
        guard reader.isAtEnd else { return nil }
        return ArchiveListing(entries: entries, isTruncated: flags & ListingFlag.truncated != 0, damage: damage)
    }

    private static func appendInteger<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        appendInteger(UInt32(clamping: text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// Reads forward through the answer; every read is checked against what is left.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer.SubSequence? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func byte() -> UInt8? { bytes(1)?.first }

        mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
            guard let slice = bytes(MemoryLayout<Integer>.size) else { return nil }
            var value: Integer = 0
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: slice)) }
            return Integer(littleEndian: value)
        }

        mutating func text(limit: Int) -> String? {
            guard let length = integer(UInt32.self).map(Int.init), length <= limit, let slice = bytes(length) else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: slice), as: UTF8.self)
        }
    }
}
