/* Unit tests of the cgroup host facts (runtime/host/cgroupfacts.c: cgroup_host_decide): made-up
 * hosts, cgroup v2, hybrid and v1-only, delegated or not, with a controller disabled at boot;
 * for each, where containers' cgroups go, and for each controller that is missing the reason
 * and remedy crib gives, the most basic first. Then the same hosts under a spec's limits
 * (plan.c): the words a crib.ini user and an engine's (config.json) user read. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "oci/oci.h"
#include "plan/plan.h"
#include "spec/spec.h"
#include "../lib/tap.h"

#define ALL ((1u << CGROUP_NCTRL) - 1)

enum host_kind { V2, HYBRID, V1_ONLY };

/* A host of the kind; `delegated`: the parent of crib's cgroup is the user's; `boot_off`: the
 * controllers switched off at boot (cgroup_disable=, as Raspberry Pi OS does for memory). */
static struct cgroup_facts facts(enum host_kind kind, bool root, bool delegated, unsigned boot_off)
{
        struct cgroup_facts f;
        memset(&f, 0, sizeof f);
        f.root = root;
        f.clone_into = true;
        f.bootline = " in /boot/firmware/cmdline.txt";
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                f.ctrl[c].known = true;
                f.ctrl[c].enabled = !(boot_off & CGROUP_BIT(c));
                f.ctrl[c].v1 = kind != V2 && f.ctrl[c].enabled;
        }
        f.mounted = kind != V1_ONLY;
        snprintf(f.mount, sizeof f.mount, "%s",
                 kind == HYBRID ? "/sys/fs/cgroup/unified" : "/sys/fs/cgroup");
        snprintf(f.mount_root, sizeof f.mount_root, "/");
        f.top = kind == V2 ? ALL & ~boot_off : 0;
        if (f.mounted)
                snprintf(f.own, sizeof f.own, "%s",
                         root ? "/" : "/user.slice/user-1000.slice/session-3.scope");
        f.parent_delegated = !root && delegated;
        f.parent_ctrls = f.parent_delegated ? f.top : 0;
        return f;
}

static bool has(const char *text, const char *word)
{
        return strstr(text, word) != NULL;
}

static void decide(void)
{
        struct cgroup_host h;
        struct cgroup_facts f;

        /* systemd's hybrid setup: cgroup2 at /sys/fs/cgroup/unified without a controller */
        f = facts(HYBRID, true, false, 0);
        cgroup_host_decide(&h, &f);
        ok(h.v2 && !strcmp(h.base, "/sys/fs/cgroup/unified/crib") && h.available == 0,
           "hybrid, root: containers' cgroups go under unified/crib, with no controller");
        ok(h.lack[CGROUP_MEMORY] == CGROUP_NO_V1 &&
                   has(h.ctrl_why[CGROUP_MEMORY],
                       "memory controller is on a cgroup v1 hierarchy") &&
                   has(h.ctrl_fix[CGROUP_MEMORY], "systemd.unified_cgroup_hierarchy=1 in "
                                                  "/boot/firmware/cmdline.txt"),
           "hybrid, root: memory is on cgroup v1; boot with unified_cgroup_hierarchy=1 (%s)",
           h.ctrl_fix[CGROUP_MEMORY]);

        f = facts(HYBRID, false, false, 0);
        cgroup_host_decide(&h, &f);
        ok(!h.base[0] && has(h.why, "no cgroup is delegated to you"),
           "hybrid, a user without a delegated cgroup: none (%s)", h.why);
        bool all_v1 = true, any_systemd_run = false;
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                all_v1 &= h.lack[c] == CGROUP_NO_V1 && has(h.ctrl_why[c], "cgroup v1") &&
                          has(h.ctrl_fix[c], "systemd.unified_cgroup_hierarchy=1");
                any_systemd_run |= has(h.ctrl_fix[c], "systemd-run");
        }
        ok(all_v1 && !any_systemd_run,
           "and each controller is blamed on cgroup v1, not on delegation: no systemd-run hint "
           "(%s / %s)",
           h.ctrl_why[CGROUP_PIDS], h.ctrl_fix[CGROUP_PIDS]);

        f = facts(HYBRID, false, true, 0);
        cgroup_host_decide(&h, &f);
        ok(!strcmp(h.base, "/sys/fs/cgroup/unified/user.slice/user-1000.slice") &&
                   h.available == 0 && h.lack[CGROUP_CPU] == CGROUP_NO_V1,
           "hybrid, a user with a delegated cgroup: it is there, with no controller (cgroup v1)");

        /* pure cgroup v2 */
        f = facts(V2, false, false, 0);
        cgroup_host_decide(&h, &f);
        ok(!h.base[0] && h.lack[CGROUP_MEMORY] == CGROUP_NO_DELEGATE &&
                   has(h.ctrl_fix[CGROUP_MEMORY], "systemd-run --user --scope -p Delegate=yes") &&
                   has(h.ctrl_why[CGROUP_MEMORY], "no cgroup is delegated to you"),
           "v2, a user without a delegated cgroup: the systemd-run hint (%s)",
           h.ctrl_fix[CGROUP_MEMORY]);

        f = facts(V2, false, true, 0);
        cgroup_host_decide(&h, &f);
        ok(!strcmp(h.base, "/sys/fs/cgroup/user.slice/user-1000.slice") && h.available == ALL,
           "v2, delegated: every controller, under the parent of crib's cgroup");

        f = facts(V2, false, true, CGROUP_BIT(CGROUP_MEMORY));
        cgroup_host_decide(&h, &f);
        ok(h.available == (ALL & ~CGROUP_BIT(CGROUP_MEMORY)) &&
                   h.lack[CGROUP_MEMORY] == CGROUP_NO_BOOT &&
                   has(h.ctrl_fix[CGROUP_MEMORY], "cgroup_enable=memory to the kernel command "
                                                  "line in /boot/firmware/cmdline.txt"),
           "v2, delegated, memory off at boot (a Pi): cgroup_enable=memory (%s)",
           h.ctrl_fix[CGROUP_MEMORY]);

        f = facts(V2, false, false, CGROUP_BIT(CGROUP_MEMORY));
        cgroup_host_decide(&h, &f);
        ok(h.lack[CGROUP_MEMORY] == CGROUP_NO_BOOT && h.lack[CGROUP_PIDS] == CGROUP_NO_DELEGATE &&
                   !has(h.ctrl_fix[CGROUP_MEMORY], "systemd-run"),
           "v2, not delegated, memory off at boot: memory's remedy is the boot line, pids' the "
           "delegation");

        f = facts(V2, false, false, 0);
        f.top = ALL & ~CGROUP_BIT(CGROUP_IO);
        cgroup_host_decide(&h, &f);
        ok(h.lack[CGROUP_IO] == CGROUP_NO_V2 && h.lack[CGROUP_CPU] == CGROUP_NO_DELEGATE,
           "v2 without io in its root: io is not in the hierarchy, whoever delegates");

        f = facts(V2, false, false, 0);
        snprintf(f.systemd_base, sizeof f.systemd_base,
                 "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service");
        f.systemd_ctrls = ALL;
        cgroup_host_decide(&h, &f);
        ok(h.systemd && !strcmp(h.base, f.systemd_base) && h.available == ALL,
           "v2, not delegated, the user's systemd can give a scope: its subtree");

        /* cgroup v1 alone (systemd's legacy setup) */
        f = facts(V1_ONLY, false, false, 0);
        cgroup_host_decide(&h, &f);
        ok(!h.v2 && has(h.why, "no cgroup v2 hierarchy is mounted (cgroup v1 only)") &&
                   h.lack[CGROUP_PIDS] == CGROUP_NO_V1,
           "v1 only: no cgroup v2, each controller on cgroup v1 (%s)", h.why);
        f.ctrl[CGROUP_IO].v1 = false; /* in no hierarchy at all */
        cgroup_host_decide(&h, &f);
        ok(h.lack[CGROUP_IO] == CGROUP_NO_V2 &&
                   has(h.ctrl_fix[CGROUP_IO], "systemd.unified_cgroup_hierarchy=1"),
           "and a controller in no hierarchy: no cgroup v2 (%s)", h.ctrl_why[CGROUP_IO]);

        /* a hierarchy mounted at a cgroup (inside a container): paths are relative to it */
        f = facts(V2, false, true, 0);
        snprintf(f.mount_root, sizeof f.mount_root, "/a");
        snprintf(f.own, sizeof f.own, "/a/b/c");
        cgroup_host_decide(&h, &f);
        ok(!strcmp(h.own_parent, "/sys/fs/cgroup/b") && !strcmp(h.base, h.own_parent),
           "a mount of cgroup /a: the parent of /a/b/c is <mount>/b (%s)", h.own_parent);
}

/* --- the same hosts under a spec's limits: the words of each front end --------------------- */

static char scratch[64], rootfs[96];

static struct plan_host host_of(enum host_kind kind, bool delegated, unsigned boot_off)
{
        uid_t uid = getuid() ? getuid() : 1000;
        struct plan_host h;
        memset(&h, 0, sizeof h);
        h.uid = h.euid = uid;
        h.gid = h.egid = uid;
        h.initial_userns = true;
        h.cap_last = 40;
        h.cap_bounding = ~0ULL;
        h.cap_bounding_known = true;
        h.idmapped_mounts = h.seccomp_filters = true;
        for (int r = 0; r < SPEC_NLIMITS; r++) {
                h.rlimits[r].rlim_cur = h.rlimits[r].rlim_max = RLIM_INFINITY;
                h.rlimit_known[r] = true;
        }
        struct cgroup_facts f = facts(kind, false, delegated, boot_off);
        cgroup_host_decide(&h.cgroup, &f);
        return h;
}

/* Plan `text` as crib.ini (oci false) or config.json; the error, or "" when it plans. */
static const char *plan_words(const char *text, bool oci, const struct plan_host *h)
{
        static struct error err;
        struct oci_config c;
        struct spec s;
        struct plan p;
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        int r = oci ? oci_load("b/config.json", f, &c, &err)
                    : spec_load("t.ini", f, false, &s, &err);
        fclose(f);
        if (r < 0)
                return err.msg;
        r = plan_build(oci ? &c.spec : &s, h, NULL, &p, &err);
        if (oci)
                oci_free(&c);
        else
                spec_free(&s);
        if (r == 0) {
                plan_free(&p);
                return "";
        }
        static char both[sizeof err.msg + sizeof err.hint + 8];
        snprintf(both, sizeof both, "%s\nhint: %s", err.msg, err.hint);
        return both;
}

static void words(void)
{
        char ini[512], json[1024];
        unsigned uid = getuid() ? getuid() : 1000;
        snprintf(ini, sizeof ini,
                 "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n[resources]\nmemory = "
                 "64M\npids = 10\n",
                 rootfs);
        snprintf(json, sizeof json,
                 "{\"ociVersion\":\"1.0.2\",\"root\":{\"path\":\"%s\"},\"process\":{\"args\":"
                 "[\"/bin/true\"],\"cwd\":\"/\"},\"linux\":{\"namespaces\":[{\"type\":\"mount\"},"
                 "{\"type\":\"user\"}],\"uidMappings\":[{\"containerID\":0,\"hostID\":%u,\"size\":"
                 "1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":%u,\"size\":1}],"
                 "\"resources\":{\"memory\":{\"limit\":67108864},\"pids\":{\"limit\":10}}}}",
                 rootfs, uid, uid);

        struct plan_host h = host_of(HYBRID, false, 0);
        const char *w = plan_words(ini, false, &h);
        ok(has(w, "t.ini:6: the memory limits cannot be applied: the memory controller is on a "
                  "cgroup v1 hierarchy here") &&
                   has(w, "systemd.unified_cgroup_hierarchy=1") && !has(w, "systemd-run") &&
                   has(w, "set resources_mode = prefer"),
           "crib.ini, a user on a hybrid host: cgroup v1 and resources_mode = prefer, no "
           "systemd-run (%s)",
           w);
        w = plan_words(json, true, &h);
        ok(has(w, "b/config.json: .linux.resources.memory.limit: the memory limits cannot be "
                  "applied: the memory controller is on a cgroup v1 hierarchy here") &&
                   has(w, "leave out .linux.resources.memory.limit (set by podman run --memory)") &&
                   !has(w, "resources_mode") && !has(w, "[resources]") && !has(w, "systemd-run"),
           "config.json, the same host: its JSON path and podman's flag, no crib.ini key (%s)", w);

        h = host_of(V2, false, 0);
        w = plan_words(ini, false, &h);
        ok(has(w, "the memory and pids limits cannot be applied: no cgroup is delegated to you") &&
                   has(w, "systemd-run --user --scope -p Delegate=yes") &&
                   has(w, "set resources_mode = prefer"),
           "crib.ini, a user on cgroup v2 without a delegated cgroup: one error for both, the "
           "systemd-run hint (%s)",
           w);
        w = plan_words(json, true, &h);
        ok(has(w, "leave out .linux.resources.memory.limit and .linux.resources.pids.limit (set "
                  "by podman run --memory, --pids-limit)") &&
                   !has(w, "resources_mode"),
           "config.json, the same host: both paths and both flags (%s)", w);

        h = host_of(V2, true, CGROUP_BIT(CGROUP_MEMORY));
        w = plan_words(json, true, &h);
        ok(has(w, "cgroup_enable=memory") && has(w, ".linux.resources.memory.limit") &&
                   !has(w, "pids.limit"),
           "config.json, delegated, memory off at boot: cgroup_enable=memory, the memory limit "
           "alone (%s)",
           w);
        h = host_of(V2, true, 0);
        w = plan_words(json, true, &h);
        ok(!strcmp(w, ""), "config.json, delegated, every controller: it plans (%s)", w);
}

int main(void)
{
        decide();
        snprintf(scratch, sizeof scratch, "/tmp/crib-test-cgroup.XXXXXX");
        ok(mkdtemp(scratch) != NULL, "scratch directory %s (0700: the rootfs out of others' reach)",
           scratch);
        snprintf(rootfs, sizeof rootfs, "%s/rootfs", scratch);
        ok(mkdir(rootfs, 0755) == 0, "scratch rootfs %s", rootfs);
        words();
        rmdir(rootfs);
        rmdir(scratch);
        return tap_done();
}
