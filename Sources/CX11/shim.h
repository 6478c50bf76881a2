#ifndef DOSSIER_CX11_SHIM_H
#define DOSSIER_CX11_SHIM_H

/* Xlib, for the previewer benchmark: it watches the screen from outside, the same way for
   Dossier and for Sushi. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdint.h>

/* Reads a region of the root window and summarises it: the spread of its brightness (0: a
   flat colour) and a checksum (to see when it stops changing). Samples every 3rd pixel. */
static inline int dossier_x11_region(Display *display, int x, int y, unsigned width, unsigned height,
                                     double *spread, uint64_t *checksum) {
    XImage *image = XGetImage(display, DefaultRootWindow(display), x, y, width, height, AllPlanes, ZPixmap);
    if (image == NULL) return 0;
    double sum = 0, squares = 0;
    uint64_t hash = 1469598103934665603ULL;
    unsigned count = 0;
    for (unsigned row = 0; row < height; row += 3) {
        for (unsigned column = 0; column < width; column += 3) {
            unsigned long pixel = XGetPixel(image, (int)column, (int)row);
            double brightness = ((pixel >> 16) & 0xff) * 0.299 + ((pixel >> 8) & 0xff) * 0.587 + (pixel & 0xff) * 0.114;
            sum += brightness;
            squares += brightness * brightness;
            hash = (hash ^ (pixel & 0xffffff)) * 1099511628211ULL;
            count++;
        }
    }
    XDestroyImage(image);
    double mean = sum / count;
    *spread = squares / count - mean * mean;
    *checksum = hash;
    return 1;
}

/* Windows come and go while the screen is watched: an X error about one that went is not
   fatal (Xlib's default handler exits the program). */
static int dossier_x11_ignore_error(Display *display, XErrorEvent *event) { (void)display; (void)event; return 0; }
static inline void dossier_x11_tolerate_errors(void) { XSetErrorHandler(dossier_x11_ignore_error); }

/* The largest viewable top-level window: its id, position and size; 0 when none. */
static inline Window dossier_x11_largest_window_id(Display *display, int *x, int *y, unsigned *width, unsigned *height) {
    Window root = DefaultRootWindow(display), parent, *children = NULL, found = 0;
    unsigned count = 0;
    if (!XQueryTree(display, root, &root, &parent, &children, &count)) return 0;
    unsigned long best = 0;
    for (unsigned i = 0; i < count; i++) {
        XWindowAttributes attributes;
        if (!XGetWindowAttributes(display, children[i], &attributes) || attributes.map_state != IsViewable) continue;
        unsigned long area = (unsigned long)attributes.width * (unsigned long)attributes.height;
        if (area > best && attributes.width > 100 && attributes.height > 100) {
            best = area;
            found = children[i];
            *x = attributes.x; *y = attributes.y;
            *width = (unsigned)attributes.width; *height = (unsigned)attributes.height;
        }
    }
    if (children) XFree(children);
    return found;
}

/* The largest mapped top-level window (under a bare X server, the previewer's): its position
   and size on screen. Returns 0 when no window is mapped. */
static inline int dossier_x11_largest_window(Display *display, int *x, int *y, unsigned *width, unsigned *height) {
    return dossier_x11_largest_window_id(display, x, y, width, height) != 0;
}

#endif
