/* The one state struct (ofs.h).  Defined here, at the bottom, so that every layer and
 * every unit test that links util finds it without the start-up code above. */
#include "ofs.h"

struct ofs_state ofs_g;
