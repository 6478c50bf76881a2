/* A GdkPaintable of a texture whose pixels stay sharp when enlarged: see CDisplay.h. */
#include "CDisplay.h"

#define DOSSIER_TYPE_PIXEL_PAINTABLE (dossier_pixel_paintable_get_type())
G_DECLARE_FINAL_TYPE(DossierPixelPaintable, dossier_pixel_paintable, DOSSIER, PIXEL_PAINTABLE, GObject)

struct _DossierPixelPaintable {
    GObject parent_instance;
    GdkTexture *texture;
    int width, height; /* the intrinsic size; 0: the texture's */
#if !GTK_CHECK_VERSION(4, 10, 0)
    cairo_surface_t *surface; /* the texture's pixels for cairo, made when first enlarged */
#endif
};

static void dossier_pixel_paintable_iface_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(DossierPixelPaintable, dossier_pixel_paintable, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, dossier_pixel_paintable_iface_init))

#if !GTK_CHECK_VERSION(4, 10, 0)
/* The largest enlargement drawn through cairo (GTK's GL renderer draws a cairo node into an
   image of the node's whole size): past it, the texture is drawn smoothed, as GTK does. */
enum { PIXEL_PAINTABLE_CAIRO_LIMIT = 4096 * 4096 };

static cairo_surface_t *pixel_paintable_surface(DossierPixelPaintable *self) {
    if (self->surface == NULL) {
        int width = gdk_texture_get_width(self->texture), height = gdk_texture_get_height(self->texture);
        cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
        if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(surface);
            return NULL;
        }
        /* gdk_texture_download writes cairo's own format: premultiplied ARGB32 in native order. */
        cairo_surface_flush(surface);
        gdk_texture_download(self->texture, cairo_image_surface_get_data(surface),
                             (gsize)cairo_image_surface_get_stride(surface));
        cairo_surface_mark_dirty(surface);
        self->surface = surface;
    }
    return self->surface;
}
#endif

static void dossier_pixel_paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    DossierPixelPaintable *self = DOSSIER_PIXEL_PAINTABLE(paintable);
    if (width <= 0 || height <= 0) return;
    int texture_width = gdk_texture_get_width(self->texture), texture_height = gdk_texture_get_height(self->texture);
    gboolean enlarged = width > texture_width || height > texture_height;
    graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
    if (!enlarged) {
        /* GTK's own filter when made smaller (newer renderers use mipmaps there). */
        gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), self->texture, &bounds);
        return;
    }
#if GTK_CHECK_VERSION(4, 10, 0)
    gtk_snapshot_append_scaled_texture(GTK_SNAPSHOT(snapshot), self->texture, GSK_SCALING_FILTER_NEAREST, &bounds);
#else
    cairo_surface_t *surface = NULL;
    if (width * height <= PIXEL_PAINTABLE_CAIRO_LIMIT) surface = pixel_paintable_surface(self);
    if (surface == NULL) {
        gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), self->texture, &bounds);
        return;
    }
    cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), &bounds);
    cairo_scale(cr, width / texture_width, height / texture_height);
    cairo_set_source_surface(cr, surface, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_paint(cr);
    cairo_destroy(cr);
#endif
}

static int dossier_pixel_paintable_get_intrinsic_width(GdkPaintable *paintable) {
    DossierPixelPaintable *self = DOSSIER_PIXEL_PAINTABLE(paintable);
    return self->width > 0 ? self->width : gdk_texture_get_width(self->texture);
}

static int dossier_pixel_paintable_get_intrinsic_height(GdkPaintable *paintable) {
    DossierPixelPaintable *self = DOSSIER_PIXEL_PAINTABLE(paintable);
    return self->height > 0 ? self->height : gdk_texture_get_height(self->texture);
}

static GdkPaintableFlags dossier_pixel_paintable_get_flags(GdkPaintable *paintable) {
    (void)paintable;
    return GDK_PAINTABLE_STATIC_CONTENTS;
}

static void dossier_pixel_paintable_iface_init(GdkPaintableInterface *iface) {
    iface->snapshot = dossier_pixel_paintable_snapshot;
    iface->get_intrinsic_width = dossier_pixel_paintable_get_intrinsic_width;
    iface->get_intrinsic_height = dossier_pixel_paintable_get_intrinsic_height;
    iface->get_flags = dossier_pixel_paintable_get_flags;
}

static void dossier_pixel_paintable_finalize(GObject *object) {
    DossierPixelPaintable *self = DOSSIER_PIXEL_PAINTABLE(object);
    g_clear_object(&self->texture);
#if !GTK_CHECK_VERSION(4, 10, 0)
    g_clear_pointer(&self->surface, cairo_surface_destroy);
#endif
    G_OBJECT_CLASS(dossier_pixel_paintable_parent_class)->finalize(object);
}

static void dossier_pixel_paintable_class_init(DossierPixelPaintableClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = dossier_pixel_paintable_finalize;
}

static void dossier_pixel_paintable_init(DossierPixelPaintable *self) {
    (void)self;
}

GdkPaintable *dossier_pixel_paintable_new(GdkTexture *texture) {
    g_return_val_if_fail(GDK_IS_TEXTURE(texture), NULL);
    DossierPixelPaintable *self = g_object_new(DOSSIER_TYPE_PIXEL_PAINTABLE, NULL);
    self->texture = g_object_ref(texture);
    return GDK_PAINTABLE(self);
}

void dossier_pixel_paintable_set_intrinsic_size(GdkPaintable *paintable, int width, int height) {
    DossierPixelPaintable *self = DOSSIER_PIXEL_PAINTABLE(paintable);
    if (self->width == width && self->height == height) return;
    self->width = width;
    self->height = height;
    gdk_paintable_invalidate_size(paintable);
}
