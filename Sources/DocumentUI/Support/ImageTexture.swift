import CGtk
import DocumentCore
import Foundation

/// A texture over decoded pixels where the decoder worker left them (its sealed memfd, mapped
/// read-only), not a copy: the texture's bytes hold a reference to the blob, released when GTK
/// lets go of them. Safe on any thread.
func makeTexture(of pixels: ImagePixels) -> OpaquePointer? {
    guard let base = pixels.blob.baseAddress else { return nil }
    let owner = Unmanaged.passRetained(pixels.blob).toOpaque()
    return dossier_texture_new_for_memory(base + pixels.offset, gsize(pixels.byteCount), pixels.width, pixels.height,
                                          gsize(pixels.stride), pixels.hasAlpha ? 1 : 0, { owner in
        if let owner { Unmanaged<SealedBlob>.fromOpaque(owner).release() }
    }, owner)
}
