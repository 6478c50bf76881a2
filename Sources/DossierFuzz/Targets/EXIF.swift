import DocumentCore
import Foundation

extension FuzzTarget {
    /// The EXIF reader the JPEG thumbnailer runs before decoding: orientation and the
    /// embedded thumbnail's bytes.
    static let exif = FuzzTarget("exif", "JPEG EXIF blocks (JPEGMetadata(data:))") { data in
        let metadata = JPEGMetadata(data: [UInt8](data))
        expect((1...8).contains(metadata.orientation), "orientation \(metadata.orientation) is not an EXIF orientation")
        expect((metadata.embeddedThumbnail?.count ?? 0) <= data.count, "the embedded thumbnail is larger than the file")
    }
}
