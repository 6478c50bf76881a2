#ifndef DOSSIER_CIMAGING_SHIM_H
#define DOSSIER_CIMAGING_SHIM_H

/* Image decoding and drawing without GTK: GdkPixbuf, cairo, pango, libjpeg, libpng (PDFs: CPoppler);
   font files drawn without GTK, in the decoder worker: fontconfig and Pango's fontconfig font map. */
#include <stdio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <cairo-ft.h>
#include <jpeglib.h>
#include <png.h>
#include <setjmp.h>
#include <string.h>

/* Decodes a PNG held in memory with libpng's simplified API into RGBA rows (8 bits, straight
   alpha), or RGB rows for an image without alpha (*channels says which; width * channels bytes a
   row; g_free them), as GdkPixbuf's loader gives them, or NULL when it is not a PNG, is damaged, or is
   larger than max_side pixels a side or max_pixels in all (refused from its header, before any
   pixel is allocated). libpng's own error handling (setjmp) stays inside libpng. */
static inline unsigned char *dossier_png_decode_rgba(const void *data, size_t size, unsigned int max_side,
                                                     size_t max_pixels, unsigned int *width, unsigned int *height,
                                                     unsigned int *channels) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return NULL;
    if (image.width == 0 || image.height == 0 || image.width > max_side || image.height > max_side
        || (size_t)image.width * image.height > max_pixels) {
        png_image_free(&image);
        return NULL;
    }
    unsigned int count = (image.format & PNG_FORMAT_FLAG_ALPHA) ? 4 : 3;
    image.format = count == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    unsigned char *pixels = g_try_malloc((gsize)image.width * image.height * count);
    if (pixels == NULL) {
        png_image_free(&image);
        return NULL;
    }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {  /* frees the image either way */
        g_free(pixels);
        return NULL;
    }
    *width = image.width;
    *height = image.height;
    *channels = count;
    return pixels;
}

/* Saves a pixbuf as PNG with tEXt chunks: keys and values are parallel NULL-ended arrays
   (gdk_pixbuf_savev takes them as is; this only names the PNG type). */
static inline gboolean dossier_pixbuf_save_png(GdkPixbuf *pixbuf, const char *path, char **keys, char **values,
                                               GError **error) {
    return gdk_pixbuf_savev(pixbuf, path, "png", keys, values, error);
}


/* Decodes a JPEG with libjpeg's DCT scaling (1/1 … 1/8) into RGB rows: the fast way (integer
   fast DCT, no fancy upsampling) for thumbnails, or, when `fine`, as GdkPixbuf's loader does
   (accurate DCT, fancy upsampling) for the previewer. Returns NULL on any decoding error
   (libjpeg's error exit is caught with setjmp); *width, *height get the decoded size. */
struct dossier_jpeg_error { struct jpeg_error_mgr base; jmp_buf jump; };

static void dossier_jpeg_error_exit(j_common_ptr info) {
    longjmp(((struct dossier_jpeg_error *)info->err)->jump, 1);
}

/* Corrupt-data warnings are the caller's to report, not libjpeg's to print. */
static void dossier_jpeg_quiet(j_common_ptr info) { (void)info; }

static inline unsigned char *dossier_jpeg_decode_scaled_quality(FILE *file, unsigned int scale_denom, int fine,
                                                                int *width, int *height,
                                                                int *full_width, int *full_height) {
    struct jpeg_decompress_struct info;
    struct dossier_jpeg_error error;
    unsigned char *volatile pixels = NULL;
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = dossier_jpeg_error_exit;
    error.base.output_message = dossier_jpeg_quiet;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        g_free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_read_header(&info, TRUE);
    *full_width = (int)info.image_width;
    *full_height = (int)info.image_height;
    info.scale_num = 1;
    info.scale_denom = scale_denom;
    info.out_color_space = JCS_RGB;
    info.dct_method = fine ? JDCT_ISLOW : JDCT_IFAST;
    info.do_fancy_upsampling = fine ? TRUE : FALSE;
    jpeg_start_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    size_t stride = (size_t)info.output_width * 3;
    pixels = g_malloc(stride * info.output_height);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return pixels;
}

static inline unsigned char *dossier_jpeg_decode_scaled(FILE *file, unsigned int scale_denom,
                                                        int *width, int *height,
                                                        int *full_width, int *full_height) {
    return dossier_jpeg_decode_scaled_quality(file, scale_denom, 0, width, height, full_width, full_height);
}

/* An animation's frames on a timeline of its own (milliseconds from 0), not the wall clock:
   GdkPixbuf's iterators take a GTimeVal, deprecated in GLib 2.62 and kept out of Swift here. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static inline GdkPixbufAnimationIter *dossier_animation_iter_new(GdkPixbufAnimation *animation) {
    GTimeVal start = { 0, 0 };
    return gdk_pixbuf_animation_get_iter(animation, &start);
}
/* Moves `iter` to `milliseconds` on that timeline; true when the frame changed. */
static inline gboolean dossier_animation_iter_advance_to(GdkPixbufAnimationIter *iter, gint64 milliseconds) {
    GTimeVal time = { (glong)(milliseconds / 1000), (glong)(milliseconds % 1000) * 1000 };
    return gdk_pixbuf_animation_iter_advance(iter, &time);
}
G_GNUC_END_IGNORE_DEPRECATIONS

/* Reads only the header: the size, without decoding (NULL-safe on errors). */
static inline int dossier_jpeg_size(FILE *file, int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct dossier_jpeg_error error;
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = dossier_jpeg_error_exit;
    error.base.output_message = dossier_jpeg_quiet;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_read_header(&info, TRUE);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return 1;
}

/* The fontconfig font map of a private configuration: a font file drawn without installing it. */
static inline PangoFontMap *dossier_font_map_new_for_config(FcConfig *config) {
    PangoFontMap *map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
    if (map != NULL && PANGO_IS_FC_FONT_MAP(map)) {
        pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
        return map;
    }
    if (map != NULL) g_object_unref(map);
    return NULL;
}

/* A cairo font face for the font file at path (face 0), read by FreeType, for fonts HarfBuzz
   cannot read (Type 1, BDF, PCF, WOFF, WOFF2, Windows FNT); NULL, *error set, when FreeType cannot.
   The FreeType face lives as long as the cairo face (freed with it), and the library for the
   life of the process, since cairo may keep scaled fonts of a face past its last use. */
static inline cairo_font_face_t *dossier_cairo_face_for_file(const char *path, int *error) {
    static FT_Library library;
    static gsize initialized;
    if (g_once_init_enter(&initialized)) {
        if (FT_Init_FreeType(&library) != 0) library = NULL;
        g_once_init_leave(&initialized, 1);
    }
    if (library == NULL) { *error = -1; return NULL; }
    FT_Face face;
    *error = FT_New_Face(library, path, 0, &face);
    if (*error != 0) return NULL;
    cairo_font_face_t *font = cairo_ft_font_face_create_for_ft_face(face, 0);
    static const cairo_user_data_key_t key;
    if (cairo_font_face_status(font) != CAIRO_STATUS_SUCCESS
        || cairo_font_face_set_user_data(font, &key, face, (cairo_destroy_func_t)FT_Done_Face) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(font);
        FT_Done_Face(face);
        *error = -1;
        return NULL;
    }
    return font;
}

#endif
