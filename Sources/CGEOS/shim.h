#ifndef FLYR_CGEOS_SHIM_H
#define FLYR_CGEOS_SHIM_H
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#endif
