import DocumentCore
import Foundation

extension FuzzTarget {
    /// Bookmark data as `dossier bookmark resolve` and recents.json hand it over: the compact
    /// form and its base64 text. What reads must write again and read back the same. The
    /// input is also read with its length and checksum made right, or nearly every mutation
    /// would stop at the checksum and the fields behind it would never be reached.
    static let bookmark = FuzzTarget("bookmark", "bookmark data (Bookmark(dataRepresentation:), base64)") { data in
        let text = String(decoding: data, as: UTF8.self)
        for decoded in [try? Bookmark(dataRepresentation: data), try? Bookmark(dataRepresentation: sealed(data)),
                        try? Bookmark(base64Encoded: text)] {
            guard let bookmark = decoded else { continue }
            let again = try? Bookmark(dataRepresentation: bookmark.dataRepresentation)
            expect(again == bookmark, "a bookmark read from data does not read back the same after writing it")
        }
    }

    /// `data` with the length after the header and the CRC-32 at the end (its last 4 bytes)
    /// set to match the fields between them.
    private static func sealed(_ data: Data) -> Data {
        let header = Bookmark.headerLength
        guard data.count >= header + 4 else { return data }
        var bytes = [UInt8](data.prefix(header - 4))
        let fields = data.dropFirst(header).dropLast(4)
        bytes += withUnsafeBytes(of: UInt32(fields.count).bigEndian, Array.init)
        bytes += fields
        bytes += withUnsafeBytes(of: CRC32.checksum(bytes).bigEndian, Array.init)
        return Data(bytes)
    }
}
