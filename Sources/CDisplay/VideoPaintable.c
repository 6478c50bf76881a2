/* A video's paintable, made smaller cheaply: see CDisplay.h. */
#include "CDisplay.h"

#define DOSSIER_TYPE_VIDEO_PAINTABLE (dossier_video_paintable_get_type())
G_DECLARE_FINAL_TYPE(DossierVideoPaintable, dossier_video_paintable, DOSSIER, VIDEO_PAINTABLE, GObject)

struct _DossierVideoPaintable {
    GObject parent_instance;
    GdkPaintable *source;
#if !GTK_CHECK_VERSION(4, 10, 0)
    GdkTexture *frame;        /* the frame `surface` holds the pixels of */
    cairo_surface_t *surface;
#endif
};

static void dossier_video_paintable_iface_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(DossierVideoPaintable, dossier_video_paintable, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, dossier_video_paintable_iface_init))

#if !GTK_CHECK_VERSION(4, 10, 0)
/* The frame's pixels for cairo, copied once per frame (the frame may be drawn more than once). */
static cairo_surface_t *video_paintable_surface(DossierVideoPaintable *self, GdkTexture *frame) {
    if (self->frame == frame) return self->surface;
    g_clear_object(&self->frame);
    g_clear_pointer(&self->surface, cairo_surface_destroy);
    int width = gdk_texture_get_width(frame), height = gdk_texture_get_height(frame);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        return NULL;
    }
    /* gdk_texture_download writes cairo's own format: premultiplied ARGB32 in native order. */
    cairo_surface_flush(surface);
    gdk_texture_download(frame, cairo_image_surface_get_data(surface), (gsize)cairo_image_surface_get_stride(surface));
    cairo_surface_mark_dirty(surface);
    self->frame = g_object_ref(frame);
    self->surface = surface;
    return surface;
}
#endif

static void dossier_video_paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    DossierVideoPaintable *self = DOSSIER_VIDEO_PAINTABLE(paintable);
    if (width <= 0 || height <= 0) return;
    GdkPaintable *image = gdk_paintable_get_current_image(self->source);
    /* Frames in memory only: a GL texture (GTK's GL renderer) is made smaller by the GPU. */
    GdkTexture *frame = GDK_IS_MEMORY_TEXTURE(image) ? GDK_TEXTURE(image) : NULL;
    if (frame == NULL || (width >= gdk_texture_get_width(frame) && height >= gdk_texture_get_height(frame))) {
        gdk_paintable_snapshot(self->source, snapshot, width, height);
        g_object_unref(image);
        return;
    }
    graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
#if GTK_CHECK_VERSION(4, 10, 0)
    gtk_snapshot_append_scaled_texture(GTK_SNAPSHOT(snapshot), frame, GSK_SCALING_FILTER_LINEAR, &bounds);
#else
    cairo_surface_t *surface = video_paintable_surface(self, frame);
    if (surface == NULL) {
        gdk_paintable_snapshot(self->source, snapshot, width, height);
    } else {
        cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), &bounds);
        cairo_scale(cr, width / gdk_texture_get_width(frame), height / gdk_texture_get_height(frame));
        cairo_set_source_surface(cr, surface, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
        cairo_paint(cr);
        cairo_destroy(cr);
    }
#endif
    g_object_unref(image);
}

static GdkPaintable *dossier_video_paintable_get_current_image(GdkPaintable *paintable) {
    return gdk_paintable_get_current_image(DOSSIER_VIDEO_PAINTABLE(paintable)->source);
}

static int dossier_video_paintable_get_intrinsic_width(GdkPaintable *paintable) {
    return gdk_paintable_get_intrinsic_width(DOSSIER_VIDEO_PAINTABLE(paintable)->source);
}

static int dossier_video_paintable_get_intrinsic_height(GdkPaintable *paintable) {
    return gdk_paintable_get_intrinsic_height(DOSSIER_VIDEO_PAINTABLE(paintable)->source);
}

static double dossier_video_paintable_get_intrinsic_aspect_ratio(GdkPaintable *paintable) {
    return gdk_paintable_get_intrinsic_aspect_ratio(DOSSIER_VIDEO_PAINTABLE(paintable)->source);
}

static GdkPaintableFlags dossier_video_paintable_get_flags(GdkPaintable *paintable) {
    return gdk_paintable_get_flags(DOSSIER_VIDEO_PAINTABLE(paintable)->source);
}

static void dossier_video_paintable_iface_init(GdkPaintableInterface *iface) {
    iface->snapshot = dossier_video_paintable_snapshot;
    iface->get_current_image = dossier_video_paintable_get_current_image;
    iface->get_intrinsic_width = dossier_video_paintable_get_intrinsic_width;
    iface->get_intrinsic_height = dossier_video_paintable_get_intrinsic_height;
    iface->get_intrinsic_aspect_ratio = dossier_video_paintable_get_intrinsic_aspect_ratio;
    iface->get_flags = dossier_video_paintable_get_flags;
}

static void dossier_video_paintable_finalize(GObject *object) {
    DossierVideoPaintable *self = DOSSIER_VIDEO_PAINTABLE(object);
    g_clear_object(&self->source);
#if !GTK_CHECK_VERSION(4, 10, 0)
    g_clear_object(&self->frame);
    g_clear_pointer(&self->surface, cairo_surface_destroy);
#endif
    G_OBJECT_CLASS(dossier_video_paintable_parent_class)->finalize(object);
}

static void dossier_video_paintable_class_init(DossierVideoPaintableClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = dossier_video_paintable_finalize;
}

static void dossier_video_paintable_init(DossierVideoPaintable *self) {
    (void)self;
}

GdkPaintable *dossier_video_paintable_new(GdkPaintable *source) {
    g_return_val_if_fail(GDK_IS_PAINTABLE(source), NULL);
    DossierVideoPaintable *self = g_object_new(DOSSIER_TYPE_VIDEO_PAINTABLE, NULL);
    self->source = g_object_ref(source);
    /* The source's changes are this paintable's, for as long as it lives. */
    g_signal_connect_object(source, "invalidate-contents", G_CALLBACK(gdk_paintable_invalidate_contents), self,
                            G_CONNECT_SWAPPED);
    g_signal_connect_object(source, "invalidate-size", G_CALLBACK(gdk_paintable_invalidate_size), self,
                            G_CONNECT_SWAPPED);
    return GDK_PAINTABLE(self);
}
