/* A GdkPaintable drawn from a cairo image surface it keeps: see CDisplay.h. */
#include "CDisplay.h"
#include <math.h>

#define DOSSIER_TYPE_SURFACE_PAINTABLE (dossier_surface_paintable_get_type())
G_DECLARE_FINAL_TYPE(DossierSurfacePaintable, dossier_surface_paintable, DOSSIER, SURFACE_PAINTABLE, GObject)

struct _DossierSurfacePaintable {
    GObject parent_instance;
    cairo_surface_t *surface;
    /* The intrinsic box, in logical pixels, inside the surface (all of it, unless made for a
       box): the surface's size and the box's place in it. */
    double surface_width;
    double surface_height;
    int x;
    int y;
    int width;
    int height;
};

static void dossier_surface_paintable_iface_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(DossierSurfacePaintable, dossier_surface_paintable, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, dossier_surface_paintable_iface_init))

static void dossier_surface_paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    DossierSurfacePaintable *self = DOSSIER_SURFACE_PAINTABLE(paintable);
    if (width <= 0 || height <= 0 || self->width <= 0 || self->height <= 0) return;
    double scale_x = width / self->width, scale_y = height / self->height;
    graphene_rect_t bounds = GRAPHENE_RECT_INIT((float)(-self->x * scale_x), (float)(-self->y * scale_y),
                                                (float)(self->surface_width * scale_x), (float)(self->surface_height * scale_y));
    cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), &bounds);
    gboolean scaled = width != self->width || height != self->height;
    if (scaled) cairo_scale(cr, scale_x, scale_y);
    cairo_set_source_surface(cr, self->surface, -self->x, -self->y);
    if (scaled) cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_destroy(cr);
}

static int dossier_surface_paintable_get_intrinsic_width(GdkPaintable *paintable) {
    return DOSSIER_SURFACE_PAINTABLE(paintable)->width;
}

static int dossier_surface_paintable_get_intrinsic_height(GdkPaintable *paintable) {
    return DOSSIER_SURFACE_PAINTABLE(paintable)->height;
}

static GdkPaintableFlags dossier_surface_paintable_get_flags(GdkPaintable *paintable) {
    (void)paintable;
    return GDK_PAINTABLE_STATIC_SIZE | GDK_PAINTABLE_STATIC_CONTENTS;
}

static void dossier_surface_paintable_iface_init(GdkPaintableInterface *iface) {
    iface->snapshot = dossier_surface_paintable_snapshot;
    iface->get_intrinsic_width = dossier_surface_paintable_get_intrinsic_width;
    iface->get_intrinsic_height = dossier_surface_paintable_get_intrinsic_height;
    iface->get_flags = dossier_surface_paintable_get_flags;
}

static void dossier_surface_paintable_finalize(GObject *object) {
    DossierSurfacePaintable *self = DOSSIER_SURFACE_PAINTABLE(object);
    g_clear_pointer(&self->surface, cairo_surface_destroy);
    G_OBJECT_CLASS(dossier_surface_paintable_parent_class)->finalize(object);
}

static void dossier_surface_paintable_class_init(DossierSurfacePaintableClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = dossier_surface_paintable_finalize;
}

static void dossier_surface_paintable_init(DossierSurfacePaintable *self) {
    (void)self;
}

GdkPaintable *dossier_surface_paintable_new(cairo_surface_t *surface) {
    g_return_val_if_fail(surface != NULL, NULL);
    /* A surface with a device scale (2 pixels to a logical one) has its logical size. */
    double scale_x = 1, scale_y = 1;
    cairo_surface_get_device_scale(surface, &scale_x, &scale_y);
    return dossier_surface_paintable_new_for_box(surface, 0, 0, (int)ceil(cairo_image_surface_get_width(surface) / scale_x),
                                                 (int)ceil(cairo_image_surface_get_height(surface) / scale_y));
}

GdkPaintable *dossier_surface_paintable_new_for_box(cairo_surface_t *surface, int x, int y, int width, int height) {
    g_return_val_if_fail(surface != NULL, NULL);
    DossierSurfacePaintable *self = g_object_new(DOSSIER_TYPE_SURFACE_PAINTABLE, NULL);
    self->surface = cairo_surface_reference(surface);
    double scale_x = 1, scale_y = 1;
    cairo_surface_get_device_scale(surface, &scale_x, &scale_y);
    self->surface_width = cairo_image_surface_get_width(surface) / scale_x;
    self->surface_height = cairo_image_surface_get_height(surface) / scale_y;
    self->x = x;
    self->y = y;
    self->width = width;
    self->height = height;
    return GDK_PAINTABLE(self);
}
