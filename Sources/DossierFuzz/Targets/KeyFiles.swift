import DocumentCore
import Foundation

extension FuzzTarget {
    /// A `.previewer` file as the previewer registry reads it, and its Exec line expanded as
    /// a run would (nothing is run).
    static let previewer = FuzzTarget("previewer", ".previewer key files (ExternalPreviewer(path:), Exec)") { data in
        let path = ScratchFolder.write(data, to: "previewers/input.previewer").path
        guard let previewer = ExternalPreviewer(path: path) else { return }
        _ = Sandbox.expand(previewer.exec, input: "/input/file name.txt", uri: "file:///input/file%20name.txt",
                           output: "/output/preview.png", size: 0)
    }

    /// A `.thumbnailer` file as the thumbnail generator reads it, and its Exec line expanded
    /// as a run would (nothing is run).
    static let thumbnailer = FuzzTarget("thumbnailer", ".thumbnailer key files (ExternalThumbnailer(path:), Exec)") { data in
        let path = ScratchFolder.write(data, to: "thumbnailers/input.thumbnailer").path
        guard let thumbnailer = ExternalThumbnailer(path: path) else { return }
        _ = Sandbox.expand(thumbnailer.exec, input: "/input/file name.png", uri: "file:///input/file%20name.png",
                           output: "/output/thumbnail.png", size: 256)
    }
}
