import CGLib
import Foundation
import GObjectSupport

/// Copies, moves and deletes items where at least one end is not a local file (an sftp, smb
/// or dav location through GVFS), with GIO's asynchronous calls on the calling worker thread.
///
/// A copy goes first to a hidden name beside its destination (".name.dossier-part-1a2b3c")
/// and takes its own name only once whole, so a cancelled or failed copy never leaves a
/// partial item under the name of the whole; what it had made is removed again. Progress:
/// one unit per item plus one per byte, added as each item is reached (a server is not
/// walked twice to measure first).
final class GIOTransfer {
    private let kind: FileOperationKind
    private let progress: Progress?
    private let calls: GIOCalls
    /// Whether the sizes still have to be added to the progress total.
    private let measures: Bool
    private var unitsBefore: Int64

    init(kind: FileOperationKind, progress: Progress?, measures: Bool = true) {
        self.kind = kind
        self.progress = progress
        self.measures = measures
        calls = GIOCalls(progress: progress)
        unitsBefore = progress?.completedUnitCount ?? 0
    }

    // MARK: Copy

    /// Copies `source` to `destination`, which must not exist.
    func copy(_ source: URL, to destination: URL) throws(FileOperationError) {
        let from = GIOItem(source)
        let to = GIOItem(destination)
        guard let info = try from.info(calls, kind) else { throw .notFound(kind, name: from.name) }
        if let existing = try to.info(calls, kind) {
            throw .alreadyExists(kind, name: from.name, existing: to.name, isFolder: existing.isFolder)
        }
        if info.isFolder, Self.isInside(destination, source) { throw .intoItself(kind, name: from.name) }
        let part = GIOItem(destination.deletingLastPathComponent()
            .appendingPathComponent(Self.partName(for: to.name), isDirectory: info.isFolder))
        do throws(FileOperationError) {
            try copyItem(from, info: info, to: part)
            try checkCancelled(from.name)
            do throws(GLibError) {
                try part.move(to: to, renameOnly: true, calls, kind)
            } catch {
                throw error.isIOError(G_IO_ERROR_EXISTS)
                    ? .alreadyExists(kind, name: from.name, existing: to.name, isFolder: info.isFolder)
                    : FileOperationError(error, kind, name: to.name)
            }
        } catch {
            // The copy's calls may be cancelled: remove the part with calls of its own.
            try? GIOTransfer(kind: .delete, progress: nil).remove(part)
            throw error
        }
    }

    /// Replaces the file `destination` with a copy of the file `source`, whole or not at all:
    /// the copy goes to a hidden name beside it, then takes its place in one move (the file
    /// there stays as it was when anything fails before that move).
    func replace(_ destination: URL, withCopyOf source: URL) throws(FileOperationError) {
        let from = GIOItem(source)
        let to = GIOItem(destination)
        guard let info = try from.info(calls, kind) else { throw .notFound(kind, name: from.name) }
        guard info.isCopyable, !info.isFolder else { throw .specialFile(kind, name: from.name) }
        if let existing = try to.info(calls, kind), existing.isFolder {
            throw .alreadyExists(kind, name: from.name, existing: to.name, isFolder: true)
        }
        let part = GIOItem(destination.deletingLastPathComponent().appendingPathComponent(Self.partName(for: to.name)))
        do throws(FileOperationError) {
            try copyItem(from, info: info, to: part)
            try checkCancelled(from.name)
            do throws(GLibError) {
                try part.move(to: to, renameOnly: true, overwrite: true, calls, kind)
            } catch {
                throw FileOperationError(error, kind, name: to.name)
            }
        } catch {
            try? GIOTransfer(kind: .delete, progress: nil).remove(part)
            throw error
        }
    }

    private func copyItem(_ source: GIOItem, info: GIOItem.Info, to destination: GIOItem) throws(FileOperationError) {
        try checkCancelled(source.name)
        if info.isFolder {
            if measures { progress?.totalUnitCount += 1 }
            try destination.makeDirectory(calls, kind)
            advance(by: 1)
            for (name, isFolder) in try source.childNames(calls, kind) {
                let child = try source.child(name, isFolder: isFolder, kind)
                guard let childInfo = try child.info(calls, kind) else { continue }
                try copyItem(child, info: childInfo, to: try destination.child(name, isFolder: isFolder, kind))
            }
        } else if info.isCopyable {
            if measures { progress?.totalUnitCount += info.size + 1 }
            let start = unitsBefore
            try source.copyFile(to: destination, calls, kind) { [progress, calls] bytes in
                progress?.completedUnitCount = start + min(bytes, info.size)
                _ = calls.isCancelled  // passes a cancelled Progress on to GIO's copy at once
            }
            advance(by: info.size + 1)
        } else {
            throw .specialFile(kind, name: source.name)
        }
    }

    // MARK: Move

    /// Moves `source` to `destination`, which must not exist: in place when the backend can
    /// (a rename on the same server), else a copy as above followed by removing the original.
    func move(_ source: URL, to destination: URL) throws(FileOperationError) {
        let from = GIOItem(source)
        let to = GIOItem(destination)
        guard let info = try from.info(calls, .move) else { throw .notFound(.move, name: from.name) }
        if info.isFolder, Self.isInside(destination, source) { throw .intoItself(.move, name: from.name) }
        if let existing = try to.info(calls, .move) {
            throw .alreadyExists(.move, name: from.name, existing: to.name, isFolder: existing.isFolder)
        }
        if measures { progress?.totalUnitCount += 1 }
        do throws(GLibError) {
            try from.move(to: to, renameOnly: true, calls, .move)
            advance(by: 1)
            return
        } catch {
            guard error.isIOError(G_IO_ERROR_NOT_SUPPORTED) || error.isIOError(G_IO_ERROR_WOULD_RECURSE) else {
                if error.isIOError(G_IO_ERROR_EXISTS) {
                    throw .alreadyExists(.move, name: from.name, existing: to.name, isFolder: info.isFolder)
                }
                throw FileOperationError(error, .move, name: from.name)
            }
        }
        try copy(source, to: destination)
        do throws(FileOperationError) {
            try remove(from)
        } catch {
            throw .originalNotRemoved(name: from.name, reason: error.description)
        }
        advance(by: 1)
    }

    // MARK: Delete

    /// Deletes `item` and, for a folder, everything in it (links are not followed).
    func delete(_ url: URL) throws(FileOperationError) {
        let item = GIOItem(url)
        guard try item.info(calls, kind) != nil else { throw .notFound(kind, name: item.name) }
        try remove(item)
    }

    private func remove(_ item: GIOItem) throws(FileOperationError) {
        try checkCancelled(item.name)
        if measures { progress?.totalUnitCount += 1 }
        if let info = try item.info(calls, kind), info.isFolder {
            for (name, isFolder) in try item.childNames(calls, kind) {
                try remove(try item.child(name, isFolder: isFolder, kind))
            }
        }
        try item.delete(calls, kind)
        advance(by: 1)
    }

    // MARK: Shared

    private func checkCancelled(_ name: String) throws(FileOperationError) {
        if calls.isCancelled { throw .cancelled(kind, name: name) }
    }

    private func advance(by units: Int64) {
        unitsBefore += units
        progress?.completedUnitCount = unitsBefore
    }

    /// The hidden name a copy has until it is whole: ".report.pdf.dossier-part-1a2b3c", cut to
    /// fit 255 bytes.
    static func partName(for name: String) -> String {
        let suffix = ".dossier-part-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        var base = "." + name
        while base.utf8.count + suffix.utf8.count > 255 { base.removeLast() }
        return base + suffix
    }

    /// Whether `url` is `folder` or inside it (same scheme, host and path prefix).
    static func isInside(_ url: URL, _ folder: URL) -> Bool {
        var prefix = folder.absoluteString
        if !prefix.hasSuffix("/") { prefix += "/" }
        var text = url.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        return text.hasPrefix(prefix)
    }
}
