#ifndef DOSSIER_CDISPLAY_H
#define DOSSIER_CDISPLAY_H

/* A GdkPaintable drawn straight from a cairo image surface it keeps.

   GTK 4.8's cairo renderer draws a texture by converting it, pixel by pixel, into a new
   cairo surface on every frame that contains it, seen or not. This paintable's snapshot is
   a cairo node that paints the surface it keeps: cairo copies only the part on screen, and
   nothing is converted. Pictures, images and anything else that takes a paintable show it. */
#include <gtk/gtk.h>

/* A paintable of `surface` (an image surface; the paintable takes a reference of its own),
   `width` × `height` pixels: its intrinsic size, drawn 1:1 at that size and filtered when
   drawn at another. A surface with a device scale has its size in logical pixels (a surface
   of 2 pixels to 1, drawn 1:1 on a scale-2 display). Nothing may draw on the surface
   afterwards. Safe on any thread. */
GdkPaintable *dossier_surface_paintable_new(cairo_surface_t *surface);

/* A paintable of `surface` whose intrinsic size is the box of `width` × `height` logical pixels
   at `x`, `y` in it; what lies outside the box is drawn around it, beyond the paintable's size
   (a line of text's ink above or below its line, drawn over its neighbours as a label's is). */
GdkPaintable *dossier_surface_paintable_new_for_box(cairo_surface_t *surface, int x, int y, int width, int height);

/* A paintable of dossier_surface_paintable_new_for_box whose surface is coverage: only its alpha
   counts, drawn in `color` (a font specimen's glyphs, drawn once as coverage in a decoder
   worker, in the text colour of the style of the moment). Safe on any thread. */
GdkPaintable *dossier_coverage_paintable_new_for_box(cairo_surface_t *surface, int x, int y, int width, int height,
                                                     const GdkRGBA *color);

/* Draws a coverage paintable in `color` from its next frame on, without drawing the surface
   again (the style turned dark, or high contrast). Main thread. */
void dossier_coverage_paintable_set_color(GdkPaintable *paintable, const GdkRGBA *color);

/* A paintable of `texture` (it takes a reference of its own) whose pixels stay sharp when it
   is drawn larger than they are: nearest-neighbour above 100 %, smoothed below, so pixel art
   and icons zoomed in show their pixels rather than a blur. Intrinsic size: the texture's.
   GTK 4.10's scaled textures where the headers have them; before, a cairo node with a
   nearest filter (up to 4096 × 4096 drawn pixels, smoothed beyond; drawn at scale 1, so on a
   scale-2 display its pixel edges blend a little; it keeps a cairo copy of the texture once
   enlarged). Main thread. */
GdkPaintable *dossier_pixel_paintable_new(GdkTexture *texture);

/* Sets the intrinsic size of a paintable of dossier_pixel_paintable_new (0, 0: the texture's,
   as at first), so that a picture that may not shrink below it is exactly a zoomed size: a
   texture decoded larger than it is shown (an SVG drawn again for a zoom) would otherwise hold
   the picture at least at its own size. Main thread. */
void dossier_pixel_paintable_set_intrinsic_size(GdkPaintable *paintable, int width, int height);

/* A paintable that shows `source` (a video's GtkMediaStream; it takes a reference of its own)
   with frames made smaller by a linear filter. GTK 4.8's cairo renderer shrinks a texture
   with cairo's "good" filter, a convolution over every source pixel, which for a full-size
   video frame in the previewer's window takes more than a frame's time, on the way to the
   first frame and at every frame after. Here a frame in memory is copied once for cairo and
   sampled bilinearly (GTK 4.10's scaled textures with a linear filter where the headers have
   them). From GTK 4.20 a frame in memory as Y'CbCr is converted once at its drawn size
   (dossier_video_frame_to_rgb) where the cairo renderer draws
   (dossier_video_paintable_draw_in), which would otherwise convert it, slowly, at every
   drawing. A frame at its size or larger, or on the GPU, is drawn as the source draws it.
   Main thread. */
GdkPaintable *dossier_video_paintable_new(GdkPaintable *source);

/* Tells a paintable of dossier_video_paintable_new that `widget` draws it: from GTK 4.20, it
   converts Y'CbCr frames itself while that widget's renderer is GTK's cairo one (the GPU
   renderers convert them on the GPU). Main thread. */
void dossier_video_paintable_draw_in(GdkPaintable *paintable, GtkWidget *widget);

/* A video frame held in memory as 8-bit 4:2:0 Y'CbCr (GTK 4.20 and later: I420, YV12, NV12,
   NV21) converted to R'G'B' at `width` × `height` (no larger than the frame): luma sampled
   bilinearly, chroma from the sample under each pixel, the matrix and range from the frame's
   colour state. NULL for any other frame, and below GTK 4.20. Any thread. */
GdkTexture *dossier_video_frame_to_rgb(GdkTexture *frame, int width, int height);

/* For the tests: a `width` × `height` frame of one colour, 4:2:0 Y'CbCr in planes of their own
   (I420) or with the chroma interleaved (NV12), BT.709 narrow range, as GTK 4.20's video sink
   hands frames over. NULL below GTK 4.20. */
GdkTexture *dossier_video_frame_new_420(int width, int height, guint8 luma, guint8 cb, guint8 cr, gboolean interleaved);

/* Keeps the shared memory that GTK's frames reach an X11 window through.

   GTK 4.8's cairo renderer hands each frame to X11 through cairo-xlib, which copies it into
   a shared-memory image and frees that memory's pool as soon as its last image is gone. So
   the first frame of a window shown again, or drawn after a pause, gets a new segment and
   page-faults through all of it, which costs more than the drawing. This
   makes a pool for frames of `width` × `height` pixels (cairo sizes it for eight), touches
   it once (as long as one such frame's faults) and keeps a small image from it, so that
   later frames reuse its pages. False on other backends (nothing to do) or without shared
   memory. Main thread; later calls do nothing. */
gboolean dossier_keep_frame_pool(GdkDisplay *display, int width, int height);

/* `dossier_keep_frame_pool` for frames of `window` (just presented), once its first frame is
   drawn, at low priority: never in the way of that frame, nor of the work that follows it.
   Does nothing once a pool is kept. */
void dossier_keep_frame_pool_after_paint(GtkWidget *window);
/* A folder for GTK_PATH, under `cache_folder`, in which GTK finds its media modules (the
   GStreamer backend of GtkMediaFile) through links, listed in a GIO module cache.

   gtk_init scans GTK's media module folder, and Debian's has no giomodule.cache: GIO then
   loads each module there (GStreamer and a dozen of its libraries) to see what it provides,
   at every start, a good part of gtk_init on a cold start. Found first through GTK_PATH, with
   a cache, the same modules are only registered, and load when a media file is first
   played; the system folder's copies are then skipped as duplicates. The links and the cache
   are made again when GTK's modules change. NULL (nothing to set) when the folder cannot be
   made or GTK has no media modules. Free with g_free. */
char *dossier_lazy_media_modules_path(const char *cache_folder);

#endif
