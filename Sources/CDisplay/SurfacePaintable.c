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
    /* A coverage paintable: the surface's alpha, drawn in `color`. */
    gboolean tinted;
    GdkRGBA color;
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
    if (self->tinted) {
        /* The colour through the surface's alpha: what drawing the glyphs in it would give. */
        cairo_pattern_t *mask = cairo_pattern_create_for_surface(self->surface);
        cairo_matrix_t place;
        cairo_matrix_init_translate(&place, self->x, self->y);
        cairo_pattern_set_matrix(mask, &place);
        if (scaled) cairo_pattern_set_filter(mask, CAIRO_FILTER_GOOD);
        gdk_cairo_set_source_rgba(cr, &self->color);
        cairo_mask(cr, mask);
        cairo_pattern_destroy(mask);
    } else {
        cairo_set_source_surface(cr, self->surface, -self->x, -self->y);
        if (scaled) cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_paint(cr);
    }
    cairo_destroy(cr);
}

static int dossier_surface_paintable_get_intrinsic_width(GdkPaintable *paintable) {
    return DOSSIER_SURFACE_PAINTABLE(paintable)->width;
}

static int dossier_surface_paintable_get_intrinsic_height(GdkPaintable *paintable) {
    return DOSSIER_SURFACE_PAINTABLE(paintable)->height;
}

static GdkPaintableFlags dossier_surface_paintable_get_flags(GdkPaintable *paintable) {
    /* A coverage paintable's colour changes (the style's); its size never does. */
    if (DOSSIER_SURFACE_PAINTABLE(paintable)->tinted) return GDK_PAINTABLE_STATIC_SIZE;
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

GdkPaintable *dossier_coverage_paintable_new_for_box(cairo_surface_t *surface, int x, int y, int width, int height,
                                                     const GdkRGBA *color) {
    g_return_val_if_fail(color != NULL, NULL);
    GdkPaintable *paintable = dossier_surface_paintable_new_for_box(surface, x, y, width, height);
    if (paintable == NULL) return NULL;
    DossierSurfacePaintable *self = DOSSIER_SURFACE_PAINTABLE(paintable);
    self->tinted = TRUE;
    self->color = *color;
    return paintable;
}

void dossier_coverage_paintable_set_color(GdkPaintable *paintable, const GdkRGBA *color) {
    g_return_if_fail(DOSSIER_IS_SURFACE_PAINTABLE(paintable) && color != NULL);
    DossierSurfacePaintable *self = DOSSIER_SURFACE_PAINTABLE(paintable);
    g_return_if_fail(self->tinted);
    if (gdk_rgba_equal(&self->color, color)) return;
    self->color = *color;
    gdk_paintable_invalidate_contents(paintable);
}
