#ifndef PENCILD_CXCB_SHIM_H
#define PENCILD_CXCB_SHIM_H
/* pencil-actions' X11 focus provider: _NET_ACTIVE_WINDOW and WM_CLASS through libxcb. */
#include <xcb/xcb.h>
#include <stdlib.h>
#endif
