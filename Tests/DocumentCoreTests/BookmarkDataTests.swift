import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The stored forms of a bookmark, damaged data, newer formats, and volumes.
final class BookmarkDataTests: XCTestCase {
    private func sample() throws -> (TemporaryFolder, Bookmark) {
        let folder = try TemporaryFolder()
        let file = try folder.write("sample.txt", "sample")
        return (folder, try Bookmark(url: file))
    }

    func testCompactFormRoundTrips() throws {
        let (_, bookmark) = try sample()
        let data = bookmark.dataRepresentation
        XCTAssertEqual(Array(data.prefix(16)), Array("DOSSIER-BOOKMARK".utf8), "the magic of application/x-dossier-bookmark")
        XCTAssertEqual(Array(data[16..<18]), [0, UInt8(Bookmark.formatVersion)])
        XCTAssertEqual(try Bookmark(dataRepresentation: data).path, bookmark.path)
        let decoded = try Bookmark(base64Encoded: bookmark.base64EncodedString())
        XCTAssertEqual(decoded.inode, bookmark.inode)
        XCTAssertEqual(decoded.birth, bookmark.birth)
        XCTAssertEqual(decoded.volume, bookmark.volume)
        XCTAssertEqual(decoded.folderInodes, bookmark.folderInodes)
        XCTAssertEqual(decoded, bookmark)
    }

    func testBookmarkFileRoundTrips() throws {
        let (folder, bookmark) = try sample()
        let file = folder.url.appendingPathComponent("sample.dossierbookmark")
        try bookmark.write(to: file)
        XCTAssertTrue(try Data(contentsOf: file).starts(with: Array("DOSSIER-BOOKMARK".utf8)))
        XCTAssertEqual(try Bookmark(contentsOf: file), bookmark)
        XCTAssertThrowsError(try Bookmark(contentsOf: folder.url.appendingPathComponent("none.dossierbookmark"))) { error in
            guard case .unreadableFile(let name, _) = error as? BookmarkError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "none.dossierbookmark")
        }
    }

    func testJSONFormRoundTripsAndCarriesItsVersion() throws {
        let (_, bookmark) = try sample()
        let json = try JSONEncoder().encode(bookmark)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, Bookmark.formatVersion)
        XCTAssertEqual(try JSONDecoder().decode(Bookmark.self, from: json), bookmark)
    }

    func testBirthTimeIsRecordedWhereTheFileSystemKeepsOne() throws {
        let (folder, bookmark) = try sample()
        var status = stat()
        XCTAssertEqual(stat(folder.url.path, &status), 0)
        // ext4, btrfs, xfs and tmpfs keep birth times; statx reports them.
        if let birth = bookmark.birth {
            XCTAssertGreaterThan(birth.seconds, 1_600_000_000)
        } else {
            throw XCTSkip("the temporary folder's file system (\(bookmark.volume.fileSystemType)) keeps no birth time")
        }
    }

    func testDamagedDataIsReportedAsCorrupt() throws {
        let (_, bookmark) = try sample()
        var bytes = [UInt8](bookmark.dataRepresentation)
        bytes[bytes.count / 2] ^= 0x40
        XCTAssertThrowsError(try Bookmark(dataRepresentation: Data(bytes))) { error in
            XCTAssertEqual(error as? BookmarkError, .corrupt(reason: "its checksum does not match"))
            XCTAssertEqual("\(error)", "The bookmark data is damaged and cannot be read (its checksum does not match)")
        }
        let truncated = bookmark.dataRepresentation.prefix(30)
        XCTAssertThrowsError(try Bookmark(dataRepresentation: Data(truncated))) { error in
            XCTAssertEqual(error as? BookmarkError, .corrupt(reason: "it is cut short"))
        }
        XCTAssertThrowsError(try Bookmark(base64Encoded: "bm90IGEgYm9va21hcms=")) { error in
            XCTAssertEqual(error as? BookmarkError, .corrupt(reason: "it is not Dossier bookmark data"))
        }
        XCTAssertThrowsError(try Bookmark(base64Encoded: "%%%")) { error in
            XCTAssertEqual(error as? BookmarkError, .corrupt(reason: "it is not valid base64"))
        }
    }

    /// A creation date read from data as Int64.max seconds (a Double of 2⁶³) is written again
    /// as the nearest that fits, not a runtime failure (the tags' fallback file rewrites every
    /// bookmark it holds); the bookmark fuzz target's round trip checks it too.
    func testCreationDateBeyondWholeSecondsIsWrittenAsTheNearest() throws {
        var (_, bookmark) = try sample()
        for seconds in [1e19, -1e19, Double(Int64.max)] {
            bookmark.created = Date(timeIntervalSince1970: seconds)
            let again = try Bookmark(dataRepresentation: bookmark.dataRepresentation)
            XCTAssertEqual(again.created.timeIntervalSince1970, seconds < 0 ? Double(Int64.min) : Double(Int64.max))
            XCTAssertEqual(try Bookmark(dataRepresentation: again.dataRepresentation), again)
        }
    }

    func testDataFromANewerVersionIsRefusedAsSuch() throws {
        let (_, bookmark) = try sample()
        var bytes = [UInt8](bookmark.dataRepresentation)
        bytes[17] = UInt8(Bookmark.formatVersion + 1)
        XCTAssertThrowsError(try Bookmark(dataRepresentation: Data(bytes))) { error in
            XCTAssertEqual(error as? BookmarkError, .newerVersion(found: Bookmark.formatVersion + 1, supported: Bookmark.formatVersion))
            XCTAssertTrue("\(error)".contains("update Dossier"), "\(error)")
        }
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(bookmark)) as? [String: Any])
        object["version"] = 7
        let json = try JSONSerialization.data(withJSONObject: object)
        XCTAssertThrowsError(try JSONDecoder().decode(Bookmark.self, from: json)) { error in
            XCTAssertEqual(error as? BookmarkError, .newerVersion(found: 7, supported: Bookmark.formatVersion))
        }
    }

    /// `bookmark`'s compact form with `extra` bytes after its fields, the length and the
    /// checksum made right.
    private func data(_ bookmark: Bookmark, withFields extra: [UInt8]) -> Data {
        var bytes = [UInt8](bookmark.dataRepresentation.dropLast(4))
        bytes += extra
        let header = Bookmark.headerLength
        let length = UInt32(bytes.count - header)
        bytes.replaceSubrange((header - 4)..<header, with: [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)])
        let crc = CRC32.checksum(bytes)
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)]
        return Data(bytes)
    }

    func testUnknownFieldsOfTheSameVersionAreSkipped() throws {
        // A later build of format 1 may add fields; this one reads past them.
        let (_, bookmark) = try sample()
        XCTAssertEqual(try Bookmark(dataRepresentation: data(bookmark, withFields: [200, 3, 1, 2, 3])).path, bookmark.path)
    }

    /// A field whose length does not fit in an Int makes the data damaged, never a runtime
    /// failure.
    func testFieldLongerThanAnyDataIsCorrupt() throws {
        let (_, bookmark) = try sample()
        let hugeLength: [UInt8] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]  // 2⁶⁴ − 1 in LEB128
        XCTAssertThrowsError(try Bookmark(dataRepresentation: data(bookmark, withFields: [200] + hugeLength + [1, 2]))) { error in
            XCTAssertEqual(error as? BookmarkError, .corrupt(reason: "a field is cut short"))
        }
    }

    func testUnmountedVolumeIsNamedByItsLabelElseItsUUID() throws {
        let (folder, bookmark) = try sample()
        try FileManager.default.removeItem(atPath: bookmark.path)
        var forged = bookmark
        forged.path = "/media/ann/STICK/sample.txt"
        forged.volume = Volume(uuid: "0000-DEAD", label: nil, mountPoint: "/media/ann/STICK", fileSystemType: "vfat", device: 0)
        XCTAssertThrowsError(try forged.resolve()) { error in
            XCTAssertEqual(error as? BookmarkError, .volumeNotMounted(name: "sample.txt", volume: "0000-DEAD"))
            XCTAssertEqual("\(error)", "'sample.txt' is on the volume '0000-DEAD', which is not mounted: connect or mount it, then try again")
        }
        forged.volume.label = "STICK"
        XCTAssertThrowsError(try forged.resolve()) { error in
            XCTAssertEqual(error as? BookmarkError, .volumeNotMounted(name: "sample.txt", volume: "STICK"))
        }
        _ = folder
    }

    func testVolumeTableReadsUUIDsAndLabelsFromUdevLinks() throws {
        // A forged /dev/disk: by-uuid and by-label links to the device the root is mounted from.
        let table = VolumeTable()
        let folder = try TemporaryFolder()
        let file = try folder.write("x.txt", "x")
        let identity = try XCTUnwrap(FileIdentity(path: file.path))
        let mount = try XCTUnwrap(table.mount(containing: file.resolvingSymlinksInPath().path, identity: identity))
        guard mount.source.hasPrefix("/dev/") else { throw XCTSkip("the temporary folder is not on a block device (\(mount.source))") }
        let disks = try TemporaryFolder("dossier-disks")
        try FileManager.default.createDirectory(at: disks.url.appendingPathComponent("by-uuid"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: disks.url.appendingPathComponent("by-label"), withIntermediateDirectories: true)
        XCTAssertEqual(symlink(mount.source, disks.url.appendingPathComponent("by-uuid/1234-ABCD").path), 0)
        XCTAssertEqual(symlink(mount.source, disks.url.appendingPathComponent("by-label/My\\x20Disk").path), 0)
        let forged = VolumeTable(diskFolder: disks.url.path)
        let volume = forged.volume(of: mount)
        XCTAssertEqual(volume.uuid, "1234-ABCD")
        XCTAssertEqual(volume.label, "My Disk")
        XCTAssertEqual(forged.currentMount(of: volume)?.mountPoint, mount.mountPoint)
        var unplugged = volume
        unplugged.uuid = "9999-0000"
        XCTAssertNil(forged.currentMount(of: unplugged))
        XCTAssertEqual(forged.label(ofUUID: "1234-ABCD"), "My Disk")
    }

    func testMountInfoEscapesAreDecoded() {
        XCTAssertEqual(VolumeTable.unescapeOctal("/media/ann/My\\040Stick"), "/media/ann/My Stick")
        XCTAssertEqual(VolumeTable.unescapeUdev("USB\\x20DISK"), "USB DISK")
    }

    func testUserDirsFileIsParsed() {
        let parsed = UserDirectories.parseUserDirs(
            "# comment\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\nXDG_DOWNLOAD_DIR=\"/data/dl\"\nbroken\n", home: "/home/ann")
        XCTAssertEqual(parsed, ["DOCUMENTS": "/home/ann/Dokumente", "DOWNLOAD": "/data/dl"])
    }
}
