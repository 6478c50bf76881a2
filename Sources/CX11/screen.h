#ifndef DOSSIER_CX11_SCREEN_H
#define DOSSIER_CX11_SCREEN_H

/* For the photo-folder benchmark: which window is the browser's, what colours a region of the
   screen holds, and the X DAMAGE reports of a window (when, and how much of it, was redrawn),
   read the same way for Dossier and for Nautilus. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/Xdamage.h>
#include <stdint.h>
#include <poll.h>

/* Counts, in a region of the screen (every 2nd pixel of every 2nd row), the pixels of the
   benchmark photos' colour family (magenta to violet: red and blue well above green) and the
   other clearly coloured pixels (a type icon's blues, greens, yellows). Grey (background, text,
   frames) counts as neither. */
static inline int dossier_x11_photo_pixels(Display *display, int x, int y, unsigned width, unsigned height,
                                           unsigned *photo, unsigned *other) {
    XImage *image = XGetImage(display, DefaultRootWindow(display), x, y, width, height, AllPlanes, ZPixmap);
    if (image == NULL) return 0;
    unsigned inPhoto = 0, inOther = 0;
    for (unsigned row = 0; row < height; row += 2) {
        for (unsigned column = 0; column < width; column += 2) {
            unsigned long pixel = XGetPixel(image, (int)column, (int)row);
            int red = (pixel >> 16) & 0xff, green = (pixel >> 8) & 0xff, blue = pixel & 0xff;
            int high = red > green ? (red > blue ? red : blue) : (green > blue ? green : blue);
            int low = red < green ? (red < blue ? red : blue) : (green < blue ? green : blue);
            if (red >= green + 40 && blue >= green + 40) inPhoto++;
            else if (high - low >= 40) inOther++;
        }
    }
    XDestroyImage(image);
    *photo = inPhoto;
    *other = inOther;
    return 1;
}

/* Starts DAMAGE reports of every rectangle drawn into `window`; returns the damage (0 when
   the server has no DAMAGE extension) and the extension's event base. */
static inline Damage dossier_x11_damage_watch(Display *display, Window window, int *eventBase) {
    int errorBase = 0;
    if (!XDamageQueryExtension(display, eventBase, &errorBase)) return 0;
    Damage damage = XDamageCreate(display, window, XDamageReportRawRectangles);
    XSync(display, False);
    return damage;
}

/* The next DAMAGE report already received, without waiting: its server time (ms) and the
   rectangle drawn. Returns 0 when none is queued. */
static inline int dossier_x11_damage_next(Display *display, int eventBase, unsigned long *time,
                                          int *x, int *y, unsigned *width, unsigned *height) {
    while (XPending(display) > 0) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type != eventBase + XDamageNotify) continue;
        XDamageNotifyEvent *notify = (XDamageNotifyEvent *)&event;
        *time = notify->timestamp;
        *x = notify->area.x; *y = notify->area.y;
        *width = notify->area.width; *height = notify->area.height;
        return 1;
    }
    return 0;
}

/* Waits up to `milliseconds` for an event from the X server (a DAMAGE report, say) without
   taking it from the queue. Returns 1 when one is queued. */
static inline int dossier_x11_wait_for_event(Display *display, int milliseconds) {
    if (XPending(display) > 0) return 1;
    struct pollfd descriptor = { .fd = ConnectionNumber(display), .events = POLLIN };
    if (poll(&descriptor, 1, milliseconds) <= 0) return 0;
    return XPending(display) > 0;
}

/* Takes every DAMAGE report queued (and any other event) off the queue; returns how many
   DAMAGE reports there were. */
static inline int dossier_x11_damage_drain(Display *display, int eventBase) {
    int reports = 0;
    while (XPending(display) > 0) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == eventBase + XDamageNotify) reports++;
    }
    return reports;
}

static inline void dossier_x11_damage_stop(Display *display, Damage damage) {
    XDamageDestroy(display, damage);
    XSync(display, False);
}

static Bool dossier_x11_is_property_notify(Display *display, XEvent *event, XPointer window) {
    (void)display;
    return event->type == PropertyNotify && event->xproperty.window == (Window)window;
}

/* The X server's time now (ms, the clock of DAMAGE reports): a property of a small unmapped
   window of ours is changed and the server's notification read. Other events stay queued. */
static inline unsigned long dossier_x11_server_time(Display *display) {
    static Window window = 0;
    Atom atom = XInternAtom(display, "DOSSIER_BENCH_TIME", False);
    if (window == 0) {
        window = XCreateSimpleWindow(display, DefaultRootWindow(display), -10, -10, 1, 1, 0, 0, 0);
        XSelectInput(display, window, PropertyChangeMask);
    }
    XChangeProperty(display, window, atom, XA_INTEGER, 32, PropModeReplace, (unsigned char *)"", 0);
    XEvent event;
    XIfEvent(display, &event, dossier_x11_is_property_notify, (XPointer)window);
    return event.xproperty.time;
}

#endif
