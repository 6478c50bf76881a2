#ifndef DOSSIER_CGSTREAMER_H
#define DOSSIER_CGSTREAMER_H

/* GStreamer for the audio and video previewer, on both sides of the decoder worker's line:
   - the discoverer (Discoverer.c), what a media file holds before it is played: called in
     the decoder worker only (DocumentCore/Formats/Media), never in the previewer's process;
   - loading and initialising GStreamer for GtkMediaFile's playback (Playback.c), in the
     previewer's process, off the main thread; it also builds or updates the user's plugin
     registry, which the worker reads.

   GStreamer is not linked (its libraries would load at every start of Dossier): it is opened
   with dlopen() the first time it is needed. Playback itself goes through GtkMediaFile, whose
   GStreamer backend GTK loads as a module when it is first used. */
#include <glib.h>

typedef enum {
    DOSSIER_MEDIA_OK,
    /* GStreamer could not be loaded or initialised: error says why. */
    DOSSIER_MEDIA_NOT_STARTED,
    /* No decoder for the format is installed. */
    DOSSIER_MEDIA_MISSING_PLUGINS,
    DOSSIER_MEDIA_TIMEOUT,
    /* The file could not be read or decoded: error says why. */
    DOSSIER_MEDIA_UNREADABLE,
} DossierMediaResult;

typedef struct {
    /* The first title, artist and album tags found in any stream (NULL when none). */
    char *title;
    char *artist;
    char *album;
    /* The embedded cover art as stored (JPEG, PNG…), or NULL. */
    GBytes *cover;
    gboolean has_video;  /* moving pictures, not just a still image stream */
    gboolean has_audio;
    guint64 duration;    /* nanoseconds; G_MAXUINT64 when unknown */
} DossierMediaInfo;

/* Inspects the media file at uri with GStreamer's discoverer, waiting at most timeout
   nanoseconds (blocking; in the decoder worker only). Fills *info when the result is
   DOSSIER_MEDIA_OK; otherwise *error may get a message (g_free it). */
DossierMediaResult dossier_media_discover(const char *uri, guint64 timeout, DossierMediaInfo *info, char **error);

/* Loads and initialises GStreamer for playback (blocking: not on the main thread; once). On
   failure, *error (when not NULL) gets why, to g_free. */
gboolean dossier_gstreamer_load(char **error);

/* Whether dossier_gstreamer_load succeeded (thread-safe). */
gboolean dossier_gstreamer_is_loaded(void);

/* Frees what dossier_media_discover put in *info. */
void dossier_media_info_clear(DossierMediaInfo *info);

#endif
