#ifndef DOSSIER_CFONTS_SHIM_H
#define DOSSIER_CFONTS_SHIM_H

/* Font files drawn without GTK, in the decoder worker: fontconfig, Pango's fontconfig font
   map and pangocairo. */
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>

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

#endif
