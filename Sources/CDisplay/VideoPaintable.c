/* A video's paintable, made smaller cheaply: see CDisplay.h. */
#include "CDisplay.h"

#include <math.h>
#include <string.h>

#define DOSSIER_TYPE_VIDEO_PAINTABLE (dossier_video_paintable_get_type())
G_DECLARE_FINAL_TYPE(DossierVideoPaintable, dossier_video_paintable, DOSSIER, VIDEO_PAINTABLE, GObject)

struct _DossierVideoPaintable {
    GObject parent_instance;
    GdkPaintable *source;
#if !GTK_CHECK_VERSION(4, 10, 0)
    GdkTexture *frame;        /* the frame `surface` holds the pixels of */
    cairo_surface_t *surface;
#endif
#if GTK_CHECK_VERSION(4, 20, 0)
    gboolean converts_frames; /* the widget drawing it draws with cairo */
    GdkTexture *yuv_frame;    /* the frame `rgb` was converted from, at its size */
    GdkTexture *rgb;
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

#if GTK_CHECK_VERSION(4, 20, 0)
/* A 4:2:0 frame's planes, 8 bits a sample: luma, and each chroma sample `chroma_step` bytes
   from the next (1 in planes of their own, 2 interleaved). */
typedef struct {
    const guint8 *luma, *cb, *cr;
    gsize luma_stride, chroma_stride;
    int chroma_step;
} Planes420;

static gboolean planes_420(GdkMemoryFormat format, const guint8 *data, const gsize offsets[4], const gsize strides[4],
                           Planes420 *planes) {
    planes->luma = data + offsets[0];
    planes->luma_stride = strides[0];
    planes->chroma_stride = strides[1];
    switch (format) {
    case GDK_MEMORY_G8_B8_R8_420: /* I420 */
        planes->cb = data + offsets[1], planes->cr = data + offsets[2], planes->chroma_step = 1;
        return strides[1] == strides[2];
    case GDK_MEMORY_G8_R8_B8_420: /* YV12 */
        planes->cr = data + offsets[1], planes->cb = data + offsets[2], planes->chroma_step = 1;
        return strides[1] == strides[2];
    case GDK_MEMORY_G8_B8R8_420: /* NV12 */
        planes->cb = data + offsets[1], planes->cr = data + offsets[1] + 1, planes->chroma_step = 2;
        return TRUE;
    case GDK_MEMORY_G8_R8B8_420: /* NV21 */
        planes->cr = data + offsets[1], planes->cb = data + offsets[1] + 1, planes->chroma_step = 2;
        return TRUE;
    default:
        return FALSE;
    }
}

/* The frame's luma and chroma weights (Kr, Kb) and range, from its colour state's CICP matrix
   coefficients (H.273: 1 BT.709, 5 and 6 BT.601, 9 BT.2020); without them, BT.709 for HD and
   BT.601 below, narrow range, as GStreamer assumes. */
static void frame_matrix(GdkTexture *frame, double *kr, double *kb, gboolean *narrow) {
    guint matrix = gdk_texture_get_height(frame) > 576 ? 1 : 6;
    *narrow = TRUE;
    GdkCicpParams *params = gdk_color_state_create_cicp_params(gdk_texture_get_color_state(frame));
    if (params != NULL) {
        guint given = gdk_cicp_params_get_matrix_coefficients(params);
        if (given == 1 || given == 5 || given == 6 || given == 9) matrix = given;
        *narrow = gdk_cicp_params_get_range(params) == GDK_CICP_RANGE_NARROW;
        g_object_unref(params);
    }
    switch (matrix) {
    case 9: *kr = 0.2627, *kb = 0.0593; break;
    case 5: case 6: *kr = 0.299, *kb = 0.114; break;
    default: *kr = 0.2126, *kb = 0.0722; break;
    }
}

static inline guint8 clamp_byte(int value) { return value < 0 ? 0 : value > 255 ? 255 : (guint8)value; }

GdkTexture *dossier_video_frame_to_rgb(GdkTexture *frame, int width, int height) {
    g_return_val_if_fail(GDK_IS_TEXTURE(frame), NULL);
    int source_width = gdk_texture_get_width(frame), source_height = gdk_texture_get_height(frame);
    if (width <= 0 || height <= 0 || source_width < 2 || source_height < 2) return NULL;
    width = MIN(width, source_width), height = MIN(height, source_height);
    switch (gdk_texture_get_format(frame)) {
    case GDK_MEMORY_G8_B8_R8_420: case GDK_MEMORY_G8_R8_B8_420: case GDK_MEMORY_G8_B8R8_420: case GDK_MEMORY_G8_R8B8_420:
        break;
    default:
        return NULL;  /* not downloaded: any other frame is GTK's to draw */
    }
    GdkTextureDownloader *downloader = gdk_texture_downloader_new(frame);
    gdk_texture_downloader_set_format(downloader, gdk_texture_get_format(frame));
    gdk_texture_downloader_set_color_state(downloader, gdk_texture_get_color_state(frame));
    gsize offsets[4] = { 0 }, strides[4] = { 0 };
    GBytes *bytes = gdk_texture_downloader_download_bytes_with_planes(downloader, offsets, strides);
    gdk_texture_downloader_free(downloader);
    Planes420 planes;
    if (!planes_420(gdk_texture_get_format(frame), g_bytes_get_data(bytes, NULL), offsets, strides, &planes)) {
        g_bytes_unref(bytes);
        return NULL;
    }
    double kr, kb;
    gboolean narrow;
    frame_matrix(frame, &kr, &kb, &narrow);
    /* Y'CbCr to R'G'B', in 16.16 fixed point with the range's scaling folded in. */
    double luma_scale = narrow ? 255.0 / 219.0 : 1.0, chroma_scale = narrow ? 255.0 / 224.0 : 1.0;
    double kg = 1.0 - kr - kb;
    int luma_offset = narrow ? 16 : 0;
    int y_factor = (int)(luma_scale * 65536 + 0.5);
    int cr_to_r = (int)(2 * (1 - kr) * chroma_scale * 65536 + 0.5);
    int cb_to_b = (int)(2 * (1 - kb) * chroma_scale * 65536 + 0.5);
    int cb_to_g = (int)(2 * kb * (1 - kb) / kg * chroma_scale * 65536 + 0.5);
    int cr_to_g = (int)(2 * kr * (1 - kr) / kg * chroma_scale * 65536 + 0.5);

    gsize stride = (gsize)width * 4;
    guint8 *pixels = g_try_malloc(stride * (gsize)height);
    if (pixels == NULL) {
        g_bytes_unref(bytes);
        return NULL;
    }
    /* Each pixel samples the luma bilinearly at its centre, and the chroma sample under it. */
    for (int row = 0; row < height; row++) {
        double y_at = ((row + 0.5) * source_height / height) - 0.5;
        int y0 = CLAMP((int)y_at, 0, source_height - 2);
        int wy = CLAMP((int)((y_at - y0) * 256), 0, 256);
        const guint8 *line0 = planes.luma + (gsize)y0 * planes.luma_stride, *line1 = line0 + planes.luma_stride;
        int chroma_row = MIN((int)((row + 0.5) * source_height / height), source_height - 1) / 2;
        const guint8 *cb_line = planes.cb + (gsize)chroma_row * planes.chroma_stride;
        const guint8 *cr_line = planes.cr + (gsize)chroma_row * planes.chroma_stride;
        guint8 *out = pixels + (gsize)row * stride;
        for (int column = 0; column < width; column++) {
            double x_at = ((column + 0.5) * source_width / width) - 0.5;
            int x0 = CLAMP((int)x_at, 0, source_width - 2);
            int wx = CLAMP((int)((x_at - x0) * 256), 0, 256);
            int top = line0[x0] * (256 - wx) + line0[x0 + 1] * wx;
            int bottom = line1[x0] * (256 - wx) + line1[x0 + 1] * wx;
            int luma = ((top * (256 - wy) + bottom * wy) >> 16) - luma_offset;
            int chroma_column = MIN((int)((column + 0.5) * source_width / width), source_width - 1) / 2;
            int cb = cb_line[chroma_column * planes.chroma_step] - 128, cr = cr_line[chroma_column * planes.chroma_step] - 128;
            int y = luma * y_factor;
            /* Cairo's ARGB32 in memory order on a little-endian machine: B, G, R, A. */
            out[0] = clamp_byte((y + cb_to_b * cb + 32768) >> 16);
            out[1] = clamp_byte((y - cb_to_g * cb - cr_to_g * cr + 32768) >> 16);
            out[2] = clamp_byte((y + cr_to_r * cr + 32768) >> 16);
            out[3] = 255;
            out += 4;
        }
    }
    g_bytes_unref(bytes);
    GBytes *converted = g_bytes_new_take(pixels, stride * (gsize)height);
    GdkTexture *texture = gdk_memory_texture_new(width, height, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, converted, stride);
    g_bytes_unref(converted);
    return texture;
}

GdkTexture *dossier_video_frame_new_420(int width, int height, guint8 luma, guint8 cb, guint8 cr, gboolean interleaved) {
    g_return_val_if_fail(width > 1 && height > 1 && width % 2 == 0 && height % 2 == 0, NULL);
    gsize luma_size = (gsize)width * (gsize)height, chroma_size = luma_size / 4;
    guint8 *data = g_malloc(luma_size + 2 * chroma_size);
    memset(data, luma, luma_size);
    for (gsize index = 0; index < chroma_size; index++) {
        if (interleaved) {
            data[luma_size + 2 * index] = cb, data[luma_size + 2 * index + 1] = cr;
        } else {
            data[luma_size + index] = cb, data[luma_size + chroma_size + index] = cr;
        }
    }
    GBytes *bytes = g_bytes_new_take(data, luma_size + 2 * chroma_size);
    GdkMemoryTextureBuilder *builder = gdk_memory_texture_builder_new();
    gdk_memory_texture_builder_set_bytes(builder, bytes);
    gdk_memory_texture_builder_set_width(builder, width);
    gdk_memory_texture_builder_set_height(builder, height);
    gdk_memory_texture_builder_set_format(builder, interleaved ? GDK_MEMORY_G8_B8R8_420 : GDK_MEMORY_G8_B8_R8_420);
    gdk_memory_texture_builder_set_offset(builder, 0, 0);
    gdk_memory_texture_builder_set_stride_for_plane(builder, 0, (gsize)width);
    gdk_memory_texture_builder_set_offset(builder, 1, luma_size);
    gdk_memory_texture_builder_set_stride_for_plane(builder, 1, interleaved ? (gsize)width : (gsize)width / 2);
    if (!interleaved) {
        gdk_memory_texture_builder_set_offset(builder, 2, luma_size + chroma_size);
        gdk_memory_texture_builder_set_stride_for_plane(builder, 2, (gsize)width / 2);
    }
    /* BT.709, narrow range, as GStreamer describes an HD video. */
    GdkCicpParams *params = gdk_cicp_params_new();
    gdk_cicp_params_set_color_primaries(params, 1);
    gdk_cicp_params_set_transfer_function(params, 1);
    gdk_cicp_params_set_matrix_coefficients(params, 1);
    gdk_cicp_params_set_range(params, GDK_CICP_RANGE_NARROW);
    GdkColorState *state = gdk_cicp_params_build_color_state(params, NULL);
    g_object_unref(params);
    if (state != NULL) {
        gdk_memory_texture_builder_set_color_state(builder, state);
        gdk_color_state_unref(state);
    }
    GdkTexture *texture = gdk_memory_texture_builder_build(builder);
    g_object_unref(builder);
    g_bytes_unref(bytes);
    return texture;
}
#else
GdkTexture *dossier_video_frame_to_rgb(GdkTexture *frame, int width, int height) {
    (void)frame, (void)width, (void)height;
    return NULL;
}

GdkTexture *dossier_video_frame_new_420(int width, int height, guint8 luma, guint8 cb, guint8 cr, gboolean interleaved) {
    (void)width, (void)height, (void)luma, (void)cb, (void)cr, (void)interleaved;
    return NULL;
}
#endif

static void dossier_video_paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    DossierVideoPaintable *self = DOSSIER_VIDEO_PAINTABLE(paintable);
    if (width <= 0 || height <= 0) return;
    GdkPaintable *image = gdk_paintable_get_current_image(self->source);
#if GTK_CHECK_VERSION(4, 20, 0)
    /* A frame in memory as Y'CbCr (GTK 4.20's sink hands those over) is converted here, once
       per frame and size, at the size it is drawn: GTK's cairo renderer converts it at every
       drawing with its generic per-pixel path, too slowly for a full-size frame. */
    if (self->converts_frames && GDK_IS_MEMORY_TEXTURE(image)) {
        GdkTexture *frame = GDK_TEXTURE(image);
        int target_width = (int)ceil(width), target_height = (int)ceil(height);
        if (self->yuv_frame != frame || self->rgb == NULL
            || gdk_texture_get_width(self->rgb) != MIN(target_width, gdk_texture_get_width(frame))
            || gdk_texture_get_height(self->rgb) != MIN(target_height, gdk_texture_get_height(frame))) {
            g_clear_object(&self->rgb);
            g_clear_object(&self->yuv_frame);
            self->rgb = dossier_video_frame_to_rgb(frame, target_width, target_height);
            if (self->rgb != NULL) self->yuv_frame = g_object_ref(frame);
        }
        if (self->rgb != NULL) {
            graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
            gtk_snapshot_append_scaled_texture(GTK_SNAPSHOT(snapshot), self->rgb, GSK_SCALING_FILTER_LINEAR, &bounds);
            g_object_unref(image);
            return;
        }
    }
#endif
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
#if GTK_CHECK_VERSION(4, 20, 0)
    g_clear_object(&self->yuv_frame);
    g_clear_object(&self->rgb);
#endif
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

#if GTK_CHECK_VERSION(4, 20, 0)
static void video_paintable_widget_realized(GtkWidget *widget, DossierVideoPaintable *self) {
    GtkNative *native = gtk_widget_get_native(widget);
    GskRenderer *renderer = native != NULL ? gtk_native_get_renderer(native) : NULL;
    self->converts_frames = renderer != NULL && GSK_IS_CAIRO_RENDERER(renderer);
}
#endif

void dossier_video_paintable_draw_in(GdkPaintable *paintable, GtkWidget *widget) {
    g_return_if_fail(GTK_IS_WIDGET(widget));
#if GTK_CHECK_VERSION(4, 20, 0)
    DossierVideoPaintable *self = DOSSIER_VIDEO_PAINTABLE(paintable);
    g_signal_connect_object(widget, "realize", G_CALLBACK(video_paintable_widget_realized), self, 0);
    if (gtk_widget_get_realized(widget)) video_paintable_widget_realized(widget, self);
#else
    (void)paintable;
#endif
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
