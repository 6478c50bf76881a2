import CGLib
import CGtk

/// The Swift side of a drawing area's draw function, kept alive by GTK until the area goes.
private final class DrawBox {
    let draw: (OpaquePointer?, Int32, Int32) -> Void
    init(_ draw: @escaping (OpaquePointer?, Int32, Int32) -> Void) { self.draw = draw }
}

/// Sets how `area` (a GtkDrawingArea) draws: `draw` gets the cairo context and the area's width
/// and height, at each frame the area is drawn in. GTK keeps the closure until the area goes
/// or another draw function replaces it, and calls it on the main thread.
@MainActor
public func setDrawFunction(
    of area: UnsafeMutablePointer<GtkDrawingArea>, _ draw: @escaping @MainActor (OpaquePointer?, Int32, Int32) -> Void
) {
    let draw = unsafeBitCast(draw, to: ((OpaquePointer?, Int32, Int32) -> Void).self)
    let box = Unmanaged.passRetained(DrawBox(draw)).toOpaque()
    gtk_drawing_area_set_draw_func(area, { _, context, width, height, data in
        Unmanaged<DrawBox>.fromOpaque(data!).takeUnretainedValue().draw(context, width, height)
    }, box, { data in Unmanaged<DrawBox>.fromOpaque(data!).release() })
}
