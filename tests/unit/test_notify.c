/* Unit tests of what crib passes on from a container's sd_notify (runtime/launch/notify.c):
 * the fields of the allow list in lines of text; MAINPID= and the descriptor store's never. */
#include <stdbool.h>
#include <string.h>

#include "launch/notify.h"
#include "../lib/tap.h"

static const char *filter(const char *in, size_t n, bool *ready)
{
        static char out[256];
        *ready = false;
        notify_filter(in, n, out, sizeof out, ready);
        return out;
}

int main(void)
{
        bool ready;
        const char m1[] = "READY=1\nSTATUS=up";
        is_str(filter(m1, sizeof m1 - 1, &ready), "READY=1\nSTATUS=up\n", "READY and STATUS pass");
        ok(ready, "READY=1 seen");
        const char m2[] = "MAINPID=1\nREADY=1";
        is_str(filter(m2, sizeof m2 - 1, &ready), "READY=1\n",
               "MAINPID= from the container dropped");
        const char m3[] = "FDSTORE=1\nFDNAME=x\nBARRIER=1\nREADY=0";
        is_str(filter(m3, sizeof m3 - 1, &ready), "READY=0\n",
               "the descriptor store's fields and unknown ones dropped");
        ok(!ready, "READY=0 is not ready");
        const char m4[] = "STATUS=a\x01"
                          "b\nSTATUS=c\0MAINPID=2\n=1\nREADY";
        is_str(filter(m4, sizeof m4 - 1, &ready), "",
               "control characters, a NUL, an empty name, no '=': each line dropped");
        const char m5[] = "\n\nWATCHDOG=1\n";
        is_str(filter(m5, sizeof m5 - 1, &ready), "WATCHDOG=1\n", "empty lines skipped");
        char small[8];
        notify_filter(m1, sizeof m1 - 1, small, sizeof small, &ready);
        ok(strlen(small) < sizeof small, "the output is bounded by its buffer ('%s')", small);
        return tap_done();
}
