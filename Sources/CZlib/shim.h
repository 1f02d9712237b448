#ifndef FLYR_CZLIB_SHIM_H
#define FLYR_CZLIB_SHIM_H
#include <zlib.h>
#endif
