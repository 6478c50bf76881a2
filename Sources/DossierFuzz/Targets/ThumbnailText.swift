import DocumentCore
import Foundation

extension FuzzTarget {
    /// A thumbnail in the shared cache (other programs write there too) as Dossier reads its
    /// text chunks to tell whether it is current.
    static let thumbnailText = FuzzTarget("thumbnail-text", "thumbnail PNG text chunks (PNGText.read)") { data in
        let path = ScratchFolder.write(data, to: "thumbnails/input.png").path
        _ = PNGText.read(path)
    }
}
