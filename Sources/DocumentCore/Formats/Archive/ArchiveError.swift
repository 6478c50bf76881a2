import CGLib
import Foundation
import GObjectSupport

/// Why an archive could not be listed, or one of its entries not extracted, as the previewer
/// says it. Codable: the decoder worker sends its own reasons back this way.
package enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible, Codable {
    /// libarchive could not be loaded (in the worker), with the loader's reason.
    case libraryMissing(String)
    /// The archive could not be read, with libarchive's reason or the worker's end.
    case unreadable(String)
    /// The entry's path is absolute or climbs out with `..`.
    case unsafePath
    case folder
    /// The entry is a symbolic or hard link, to this target.
    case link(String)
    case notRegularFile
    case encrypted
    /// The entry is larger than this many bytes, the most extracted for a preview.
    case tooLarge(Int64)
    /// The entry's data could not be read, with the reason.
    case cannotExtract(String)
    /// The entry at the listed position is no longer the listed one.
    case changed
    case cannotMakeFolder(String)
    case folderIsNotAFolder(String)
    case cannotWrite(String)
    case cancelled

    package var description: String {
        switch self {
        case .libraryMissing(let reason): tr("Archives cannot be read: libarchive could not be loaded (%s).", reason)
        case .unreadable(let reason): tr("The archive could not be read: %s", reason)
        case .unsafePath: tr("Its path leads outside the archive, so it is not extracted.")
        case .folder: tr("It is a folder.")
        case .link(let target): tr("It is a link to “%s”; links in archives are not followed.", target)
        case .notRegularFile: tr("It is not a regular file.")
        case .encrypted: tr("It is protected by a password.")
        case .tooLarge(let limit):
            tr("It is larger than %s, the most extracted for a preview.", takeString(g_format_size(guint64(max(limit, 0)))) ?? String(limit))
        case .cannotExtract(let reason): tr("The entry could not be extracted: %s", reason)
        case .changed: tr("The archive changed while it was shown.")
        case .cannotMakeFolder(let reason): tr("The folder for extracted entries could not be made: %s", reason)
        case .folderIsNotAFolder(let path): tr("The folder for extracted entries is not a folder: %s", path)
        case .cannotWrite(let reason): tr("The file could not be written: %s", reason)
        case .cancelled: tr("Cancelled")
        }
    }
}
