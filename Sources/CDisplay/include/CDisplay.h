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
   drawn at another. Nothing may draw on the surface afterwards. Safe on any thread. */
GdkPaintable *dossier_surface_paintable_new(cairo_surface_t *surface);


#endif
