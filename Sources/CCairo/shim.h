#ifndef FLYR_CCAIRO_SHIM_H
#define FLYR_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <cairo/cairo-svg.h>
#include <cairo/cairo-pdf.h>
/* Pango lays text out (shaping, kerning, font fallback) on the same cairo_t: one module, so
   that cairo's types are the same types for both. */
#include <pango/pangocairo.h>
#endif
