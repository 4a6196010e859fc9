/* test_capname.c - runtime/base/capname.c: capability names read and written one way. */
#include <linux/capability.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/capname.h"

int main(void)
{
        ok(capname_parse("NET_RAW") == CAP_NET_RAW, "NET_RAW");
        ok(capname_parse("CAP_NET_RAW") == CAP_NET_RAW, "CAP_NET_RAW");
        ok(capname_parse("net_raw") == CAP_NET_RAW &&
                   capname_parse("cap_Sys_Admin") == CAP_SYS_ADMIN,
           "any case, with or without CAP_");
        ok(capname_parse("NET_RAWX") == -1 && capname_parse("") == -1 &&
                   capname_parse("CAP_") == -1 && capname_parse("1") == -1,
           "unknown names, empty, a number: -1");
        is_str(capname_of(CAP_SYS_PTRACE), "SYS_PTRACE", "the name of 19: SYS_PTRACE");
        is_str(capname_of(0), "CHOWN", "of 0: CHOWN");
        ok(capname_of(64) == NULL && capname_of(-1) == NULL, "out of range: NULL");
        char buf[256];
        capname_list((1ULL << CAP_SYS_ADMIN) | (1ULL << CAP_CHOWN), " ", buf, sizeof buf);
        is_str(buf, "CHOWN SYS_ADMIN", "a set, in number order");
        capname_list(0, " ", buf, sizeof buf);
        is_str(buf, "none", "the empty set: none");
        capname_list((1ULL << CAP_CHOWN) | (1ULL << CAP_SYS_ADMIN), ",", buf, 10);
        is_str(buf, "CHOWN", "cut short at a whole name");
        for (int c = 0; c <= CAP_LAST_CAP; c++)
                if (capname_parse(capname_of(c)) != c)
                        ok(0, "capability %d does not read back", c);
        ok(1, "every capability up to %d reads back from its name", CAP_LAST_CAP);
        return tap_done();
}
