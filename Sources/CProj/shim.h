#ifndef FLYR_CPROJ_SHIM_H
#define FLYR_CPROJ_SHIM_H
#include <proj.h>
#include <geodesic.h>
#endif
