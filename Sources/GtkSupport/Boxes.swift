import CGtk

/// A vertical or horizontal box holding `children`.
@MainActor
package func makeBox(_ orientation: GtkOrientation, spacing: Int32 = 0, _ children: [WidgetPointer]) -> WidgetPointer {
    let box = gtk_box_new(orientation, spacing)!
    for child in children { gtk_box_append(cast(box), child) }
    return box
}
