// Headers only. This module is Origami's private view of Cairo 1.16, pixman 0.42 and libpng 1.6;
// it is not API: only OrigamiRender imports it, and nothing here is re-exported.
#ifndef ORIGAMI_CCAIRO_SHIM_H
#define ORIGAMI_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>
#include <pixman.h>
#include <png.h>

#endif
