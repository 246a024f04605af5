// giflib 5 (Debian: libgif-dev), for OrigamiRender's GIF writer. giflib ships no pkg-config file, so the
// header is found in the default include path (/usr/include/gif_lib.h).
#include <gif_lib.h>
