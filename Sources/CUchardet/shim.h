#ifndef DOSSIER_CUCHARDET_SHIM_H
#define DOSSIER_CUCHARDET_SHIM_H

/* uchardet, the charset detector of Mozilla's lineage (libuchardet-dev). Only the API of
   0.0.7 (Debian 12) is used: new, handle_data, data_end, get_charset, delete. 0.0.8 (Debian 13
   and testing) adds confidences and languages, which Dossier does without. The header is
   named with its folder, so it is found whatever include path uchardet.pc gives. */
#include <uchardet/uchardet.h>

#endif
