/* test_ocispec.c - `crib oci spec`'s config.json (runtime/oci/ocispec.c) read back by crib's
 * own OCI front end, as create would read it: no refusal, the shell on a terminal, a read-only
 * rootfs, and with --rootless a user namespace mapping the caller's ids to 0 and no network
 * namespace. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "oci/oci.h"
#include "oci/ocispec.h"
#include "../lib/tap.h"

static int load(const char *text, struct oci_config *c, struct error *err)
{
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        int r = oci_load("b/config.json", f, c, err);
        fclose(f);
        return r;
}

int main(void)
{
        for (int rootless = 0; rootless < 2; rootless++) {
                const char *mode = rootless ? "spec --rootless" : "spec";
                char *text = oci_spec_default(rootless, 1234, 5678);
                struct oci_config c;
                struct error err;
                error_clear(&err);
                ok(text != NULL, "%s makes a config", mode);
                int r = text ? load(text, &c, &err) : -1;
                ok(r == 0, "%s: crib's OCI front end takes it as it is", mode);
                if (r < 0) {
                        printf("#   %s\n", err.msg);
                        free(text);
                        continue;
                }
                struct spec *s = &c.spec;
                ok(s->args && !strcmp(s->args[0], "sh") && !s->args[1], "%s: the program is sh",
                   mode);
                ok(s->terminal == TERMINAL_YES, "%s: on a terminal", mode);
                ok(s->readonly_rootfs, "%s: the rootfs read-only", mode);
                is_str(s->rootfs, "rootfs", "%s: the rootfs is rootfs, beside config.json", mode);
                ok(s->ns_pid && s->ns_ipc && s->ns_uts && s->ns_cgroup,
                   "%s: pid, ipc, uts and cgroup namespaces", mode);
                ok(s->ns_net == !rootless, "%s: %s network namespace", mode, rootless ? "no" : "a");
                ok(s->ns_user == !!rootless, "%s: %s user namespace", mode, rootless ? "a" : "no");
                if (rootless)
                        ok(s->uidmap.n == 1 && s->uidmap.ranges[0].inside == 0 &&
                                   s->uidmap.ranges[0].outside == 1234 &&
                                   s->uidmap.ranges[0].count == 1 && s->gidmap.n == 1 &&
                                   s->gidmap.ranges[0].outside == 5678,
                           "%s: the caller's uid and gid as 0, alone", mode);
                oci_free(&c);
                free(text);
        }
        return tap_done();
}
