#ifndef FLYR_CCAIRO_SHIM_H
#define FLYR_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <cairo/cairo-svg.h>
#include <cairo/cairo-pdf.h>
#endif
