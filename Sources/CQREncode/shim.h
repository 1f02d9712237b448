#ifndef FLYR_CQRENCODE_SHIM_H
#define FLYR_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
