#include "CGStreamer.h"

#include <glib-object.h>
#include <string.h>

#include "CLoader.h"

/* The part of GStreamer 1.x's API (libgstreamer-1.0.so.0 and libgstpbutils-1.0.so.0, stable
   ABIs) used here, declared as <gst/gst.h> and <gst/pbutils/pbutils.h> declare it: the
   headers are not included, so the build needs neither their include paths nor the libraries. */
typedef struct _GstDiscoverer GstDiscoverer;
typedef struct _GstDiscovererInfo GstDiscovererInfo;
typedef struct _GstDiscovererStreamInfo GstDiscovererStreamInfo;
typedef struct _GstTagList GstTagList;
typedef struct _GstSample GstSample;
typedef struct _GstBuffer GstBuffer;
typedef struct _GstMiniObject GstMiniObject;

enum { GST_DISCOVERER_OK = 0, GST_DISCOVERER_TIMEOUT = 3, GST_DISCOVERER_MISSING_PLUGINS = 5 };

static struct {
    gboolean (*init_check)(int *, char ***, GError **);
    GstDiscoverer *(*discoverer_new)(guint64, GError **);
    GstDiscovererInfo *(*discoverer_discover_uri)(GstDiscoverer *, const gchar *, GError **);
    int (*discoverer_info_get_result)(const GstDiscovererInfo *);
    GList *(*discoverer_info_get_stream_list)(GstDiscovererInfo *);
    GList *(*discoverer_info_get_video_streams)(GstDiscovererInfo *);
    GList *(*discoverer_info_get_audio_streams)(GstDiscovererInfo *);
    void (*discoverer_stream_info_list_free)(GList *);
    const GstTagList *(*discoverer_stream_info_get_tags)(GstDiscovererStreamInfo *);
    gboolean (*discoverer_video_info_is_image)(const GstDiscovererStreamInfo *);
    guint64 (*discoverer_info_get_duration)(const GstDiscovererInfo *);
    const GstTagList *(*discoverer_info_get_tags)(const GstDiscovererInfo *);
    gboolean (*tag_list_get_string)(const GstTagList *, const gchar *, gchar **);
    gboolean (*tag_list_get_sample)(const GstTagList *, const gchar *, GstSample **);
    GstBuffer *(*sample_get_buffer)(GstSample *);
    gsize (*buffer_get_size)(GstBuffer *);
    void (*buffer_extract_dup)(GstBuffer *, gsize, gsize, gpointer *, gsize *);
    void (*mini_object_unref)(GstMiniObject *);
} gst;

/* The table's entries in order, by their names without the "gst_" prefix. */
static const char *const gst_symbols[] = {
    "init_check", "discoverer_new", "discoverer_discover_uri", "discoverer_info_get_result",
    "discoverer_info_get_stream_list", "discoverer_info_get_video_streams", "discoverer_info_get_audio_streams",
    "discoverer_stream_info_list_free", "discoverer_stream_info_get_tags", "discoverer_video_info_is_image",
    "discoverer_info_get_duration", "discoverer_info_get_tags",
    "tag_list_get_string", "tag_list_get_sample", "sample_get_buffer", "buffer_get_size", "buffer_extract_dup",
    "mini_object_unref",
};
G_STATIC_ASSERT(sizeof gst == G_N_ELEMENTS(gst_symbols) * sizeof(void (*)(void)));

static char *gst_error;
static gpointer gst_open(gpointer unused) {
    (void)unused;
    /* In the decoder worker: the plugin registry is the caller's, read-only (GST_REGISTRY_1_0,
       GST_REGISTRY_UPDATE=no): gst-plugin-scanner is a program, and the worker runs none. */
    /* pbutils brings libgstreamer-1.0 with it; dlsym on its handle finds both. */
    void *library = dossier_library_open("DOSSIER_GSTREAMER_LIBRARY", "libgstpbutils-1.0.so.0", "gst_", gst_symbols,
                                         G_N_ELEMENTS(gst_symbols), (void (**)(void))&gst, &gst_error);
    if (library == NULL) return NULL;
    GError *error = NULL;
    if (!gst.init_check(NULL, NULL, &error)) {
        gst_error = g_strdup(error ? error->message : "gst_init_check failed");
        g_clear_error(&error);
        return NULL;
    }
    return library;
}

static char *take_message(GError **error, const char *fallback) {
    char *message = g_strdup(*error ? (*error)->message : fallback);
    g_clear_error(error);
    return message;
}

static void read_tags(const GstTagList *tags, DossierMediaInfo *info) {
    if (tags == NULL) return;
    struct { const char *name; char **slot; } strings[] = {
        {"title", &info->title}, {"artist", &info->artist}, {"album", &info->album},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(strings); i++) {
        char *value = NULL;
        if (*strings[i].slot == NULL && gst.tag_list_get_string(tags, strings[i].name, &value)) {
            if (value != NULL && *value != '\0') *strings[i].slot = value;
            else g_free(value);
        }
    }
    /* The cover: "image", else "preview-image" (ID3 APIC, FLAC and Vorbis pictures, MP4 covr). */
    const char *images[] = {"image", "preview-image"};
    for (gsize i = 0; i < G_N_ELEMENTS(images) && info->cover == NULL; i++) {
        GstSample *sample = NULL;
        if (!gst.tag_list_get_sample(tags, images[i], &sample) || sample == NULL) continue;
        GstBuffer *buffer = gst.sample_get_buffer(sample);
        if (buffer != NULL) {
            gpointer bytes = NULL;
            gsize size = 0;
            gst.buffer_extract_dup(buffer, 0, gst.buffer_get_size(buffer), &bytes, &size);
            if (bytes != NULL && size > 0) info->cover = g_bytes_new_take(bytes, size);
            else g_free(bytes);
        }
        gst.mini_object_unref((GstMiniObject *)sample);
    }
}

DossierMediaResult dossier_media_discover(const char *uri, guint64 timeout, DossierMediaInfo *info, char **error) {
    static GOnce once = G_ONCE_INIT;
    memset(info, 0, sizeof *info);
    info->duration = G_MAXUINT64;
    if (g_once(&once, gst_open, NULL) == NULL) {
        if (error) *error = g_strdup(gst_error);
        return DOSSIER_MEDIA_NOT_STARTED;
    }
    GError *failure = NULL;
    GstDiscoverer *discoverer = gst.discoverer_new(timeout, &failure);
    if (discoverer == NULL) {
        char *message = take_message(&failure, "");
        if (error) *error = message; else g_free(message);
        return DOSSIER_MEDIA_NOT_STARTED;
    }
    GstDiscovererInfo *result = gst.discoverer_discover_uri(discoverer, uri, &failure);
    g_object_unref(discoverer);
    if (result == NULL) {
        char *message = take_message(&failure, "");
        if (error) *error = message; else g_free(message);
        return DOSSIER_MEDIA_UNREADABLE;
    }
    DossierMediaResult outcome = DOSSIER_MEDIA_OK;
    switch (gst.discoverer_info_get_result(result)) {
    case GST_DISCOVERER_OK: break;
    case GST_DISCOVERER_MISSING_PLUGINS: outcome = DOSSIER_MEDIA_MISSING_PLUGINS; break;
    case GST_DISCOVERER_TIMEOUT: outcome = DOSSIER_MEDIA_TIMEOUT; break;
    default: outcome = DOSSIER_MEDIA_UNREADABLE; break;
    }
    if (outcome != DOSSIER_MEDIA_OK) {
        char *message = take_message(&failure, "");
        if (error) *error = message; else g_free(message);
        g_object_unref(result);
        return outcome;
    }
    g_clear_error(&failure);
    GList *streams = gst.discoverer_info_get_stream_list(result);
    for (GList *node = streams; node != NULL; node = node->next) {
        read_tags(gst.discoverer_stream_info_get_tags(node->data), info);
    }
    gst.discoverer_stream_info_list_free(streams);
    /* The container's own tags (MP4's and Matroska's titles and cover), which no stream carries.
       Deprecated in 1.20 for gst_discoverer_container_info_get_tags, which 1.18 lacks. */
    read_tags(gst.discoverer_info_get_tags(result), info);
    GList *videos = gst.discoverer_info_get_video_streams(result);
    for (GList *node = videos; node != NULL; node = node->next) {
        if (!gst.discoverer_video_info_is_image(node->data)) info->has_video = TRUE;
    }
    gst.discoverer_stream_info_list_free(videos);
    GList *audios = gst.discoverer_info_get_audio_streams(result);
    info->has_audio = audios != NULL;
    gst.discoverer_stream_info_list_free(audios);
    info->duration = gst.discoverer_info_get_duration(result);
    g_object_unref(result);
    return DOSSIER_MEDIA_OK;
}

void dossier_media_info_clear(DossierMediaInfo *info) {
    g_clear_pointer(&info->title, g_free);
    g_clear_pointer(&info->artist, g_free);
    g_clear_pointer(&info->album, g_free);
    g_clear_pointer(&info->cover, g_bytes_unref);
}
