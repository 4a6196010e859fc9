/* Unit tests of the cgroup host facts (runtime/host/cgroupfacts.c: cgroup_host_decide): made-up
 * hosts, cgroup v2, hybrid and v1-only, delegated or not, with a controller disabled at boot;
 * for each, where containers' cgroups go, and for each controller that is missing the reason
 * and remedy crib gives, the most basic first. Then the same hosts under a spec's limits
 * (plan.c): the words a crib.ini user and an engine's (config.json) user read. */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
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

/* The device program, run by a small interpreter of the instructions it uses, against a model
 * written here from runc's rules (the last rule matching a device with each access bit asked
 * wins, none denies), for the standard nodes, a bound device and random rule lists. */
static int run_devices(const struct bpf_insn *insn, size_t n, int type, int access, uint32_t major,
                       uint32_t minor, bool *bad)
{
        uint64_t r[11] = {0};
        uint32_t ctx[3] = {(uint32_t)(type | access << 16), major, minor};
        for (size_t pc = 0, steps = 0; pc < n && steps < 100000; pc++, steps++) {
                const struct bpf_insn *i = &insn[pc];
                uint64_t k = (uint64_t)(int64_t)i->imm;
                switch (i->code) {
                case BPF_LDX | BPF_MEM | BPF_W:
                        r[i->dst_reg] = ctx[i->off / 4];
                        continue;
                case BPF_ALU64 | BPF_MOV | BPF_X:
                        r[i->dst_reg] = r[i->src_reg];
                        continue;
                case BPF_ALU64 | BPF_MOV | BPF_K:
                        r[i->dst_reg] = k;
                        continue;
                case BPF_ALU64 | BPF_AND | BPF_K:
                        r[i->dst_reg] &= k;
                        continue;
                case BPF_ALU64 | BPF_RSH | BPF_K:
                        r[i->dst_reg] >>= i->imm;
                        continue;
                case BPF_JMP | BPF_JA:
                        pc += (size_t)(ptrdiff_t)i->off;
                        continue;
                case BPF_JMP | BPF_JNE | BPF_K:
                        if (r[i->dst_reg] != k)
                                pc += (size_t)(ptrdiff_t)i->off;
                        continue;
                case BPF_JMP | BPF_JLT | BPF_K:
                        if (r[i->dst_reg] < k)
                                pc += (size_t)(ptrdiff_t)i->off;
                        continue;
                case BPF_JMP | BPF_JGT | BPF_K:
                        if (r[i->dst_reg] > k)
                                pc += (size_t)(ptrdiff_t)i->off;
                        continue;
                case BPF_JMP | BPF_JSET | BPF_K:
                        if (r[i->dst_reg] & k)
                                pc += (size_t)(ptrdiff_t)i->off;
                        continue;
                case BPF_JMP | BPF_EXIT:
                        return (int)r[0];
                }
                break;
        }
        *bad = true; /* an instruction not known here, or off the end */
        return -1;
}

static bool model_rules(const struct cgroup_device_rule *rules, size_t n, char type, uint32_t major,
                        uint32_t minor, unsigned access)
{
        for (unsigned bit = 1; bit <= 4; bit <<= 1) {
                if (!(access & bit))
                        continue;
                int verdict = 0;
                for (size_t k = 0; k < n; k++) /* first to last: the last match is left */
                        if ((rules[k].access & bit) &&
                            (rules[k].type == 'a' || rules[k].type == type) &&
                            (rules[k].major < 0 || rules[k].major == major) &&
                            (rules[k].minor < 0 || rules[k].minor == minor))
                                verdict = rules[k].allow;
                if (!verdict)
                        return false;
        }
        return true;
}

static bool model_list(const struct cgroup_device *d, size_t n, char type, uint32_t major,
                       uint32_t minor)
{
        for (size_t i = 0; i < n; i++)
                if (d[i].type == type && major >= d[i].major_lo && major <= d[i].major_hi &&
                    (d[i].minor < 0 || (uint32_t)d[i].minor == minor))
                        return true;
        return false;
}

static bool model(const struct cgroup_device_policy *pol, char type, uint32_t major, uint32_t minor,
                  unsigned access)
{
        if (access == CGROUP_DEV_MKNOD || model_list(pol->own, pol->nown, type, major, minor))
                return true;
        if (pol->rules_on && !model_rules(pol->rules, pol->nrules, type, major, minor, access))
                return false;
        return model_list(pol->extra, pol->nextra, type, major, minor);
}

/* every type, access and a few numbers near the ones the policy names: the program and the model
 * agree; returns the number of disagreements */
static int compare(const struct cgroup_device_policy *pol, const char *what)
{
        size_t n;
        struct bpf_insn *insn = cgroup_devices_program(pol, &n);
        int wrong = 0;
        bool bad = false;
        static const uint32_t majors[] = {1, 5, 8, 10, 136, 137, 143, 144, 4095};
        static const uint32_t minors[] = {0, 1, 2, 3, 5, 11, 237, 1048575};
        static const unsigned accesses[] = {1, 2, 3, 4};
        for (int t = 0; insn && t < 2; t++)
                for (size_t a = 0; a < 4; a++)
                        for (size_t ma = 0; ma < sizeof majors / sizeof majors[0]; ma++)
                                for (size_t mi = 0; mi < sizeof minors / sizeof minors[0]; mi++) {
                                        char type = t ? 'b' : 'c';
                                        unsigned acc = accesses[a];
                                        int bpf_acc = (acc & 1 ? BPF_DEVCG_ACC_READ : 0) |
                                                      (acc & 2 ? BPF_DEVCG_ACC_WRITE : 0) |
                                                      (acc & 4 ? BPF_DEVCG_ACC_MKNOD : 0);
                                        int got = run_devices(
                                                insn, n,
                                                t ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR,
                                                bpf_acc, majors[ma], minors[mi], &bad);
                                        bool want = model(pol, type, majors[ma], minors[mi], acc);
                                        if (got != (int)want && wrong++ < 3)
                                                printf("#   %s: %c %u:%u access %u: program %d, "
                                                       "model %d\n",
                                                       what, type, majors[ma], minors[mi], acc, got,
                                                       want);
                                }
        free(insn);
        return insn && !bad ? wrong : -1;
}

static void device_program(void)
{
        static const struct cgroup_device own[] = {
                {'c', 5, 5, 2}, {'c', 136, 143, -1}, {'c', 1, 1, 3}};
        static const struct cgroup_device extra[] = {{'c', 10, 10, 237}, {'b', 8, 8, 0}};
        static const struct cgroup_device_rule deny_all[] = {{false, 'a', -1, -1, 7}};
        static const struct cgroup_device_rule allow_one[] = {{false, 'a', -1, -1, 7},
                                                              {true, 'c', 10, 237, 3}};
        static const struct cgroup_device_rule privileged[] = {{true, 'a', -1, -1, 7}};
        static const struct cgroup_device_rule partial[] = {
                {true, 'a', -1, -1, 7}, {false, 'c', 10, -1, 2}, {true, 'b', 8, -1, 1}};
        struct cgroup_device_policy pol = {.own = own, .nown = 3, .extra = extra, .nextra = 2};
        ok(compare(&pol, "no rules") == 0, "no rules: crib's own and the bound devices open");
        pol.rules_on = true;
        ok(compare(&pol, "rules on, none") == 0,
           "an OCI config without rules: only crib's own, the bound ones not");
        pol.rules = deny_all, pol.nrules = 1;
        ok(compare(&pol, "deny all") == 0, "deny all: the bound c 10:237 does not open");
        pol.rules = allow_one, pol.nrules = 2;
        ok(compare(&pol, "allow one") == 0, "deny all, allow c 10:237 rw: it opens, b 8:0 not");
        pol.rules = privileged, pol.nrules = 1;
        ok(compare(&pol, "a *:* rwm") == 0,
           "allow a *:* rwm: what crib's own bound allows, nothing more");
        pol.rules = partial, pol.nrules = 3;
        ok(compare(&pol, "partial") == 0, "allow all, deny c 10:* w, allow b 8:* r: bit by bit");
        ok(cgroup_rules_allow(allow_one, 2, 'c', 10, 237, CGROUP_DEV_READ | CGROUP_DEV_WRITE) &&
                   !cgroup_rules_allow(allow_one, 2, 'c', 10, 237, CGROUP_DEV_MKNOD) &&
                   !cgroup_rules_allow(deny_all, 1, 'c', 1, 3, CGROUP_DEV_READ) &&
                   !cgroup_rules_allow(NULL, 0, 'c', 1, 3, CGROUP_DEV_READ),
           "cgroup_rules_allow: the last match, bit by bit; none denies");
        ok(cgroup_rules_deny_some(deny_all, 1) && cgroup_rules_deny_some(allow_one, 2) &&
                   !cgroup_rules_deny_some(privileged, 1) && cgroup_rules_deny_some(partial, 3) &&
                   cgroup_rules_deny_some(NULL, 0),
           "cgroup_rules_deny_some: false only for an allow of all at the end");

        /* random lists, the longest ones crib takes */
        static struct cgroup_device_rule rules[SPEC_MAX_DEVICE_RULES];
        static struct cgroup_device many[CGROUP_MAX_DEVICES];
        unsigned seed = 34;
        int wrong = 0;
        for (int round = 0; round < 40; round++) {
                size_t nr = round < 39 ? (size_t)(rand_r(&seed) % 12) : SPEC_MAX_DEVICE_RULES;
                for (size_t i = 0; i < nr; i++) {
                        static const int64_t majors[] = {-1, 1, 5, 8, 10, 136};
                        static const int64_t minors[] = {-1, 0, 2, 3, 237};
                        rules[i] = (struct cgroup_device_rule){
                                .allow = rand_r(&seed) & 1,
                                .type = "acb"[rand_r(&seed) % 3],
                                .major = majors[rand_r(&seed) % 6],
                                .minor = minors[rand_r(&seed) % 5],
                                .access = 1 + (unsigned)(rand_r(&seed) % 7)};
                }
                size_t nd = round < 39 ? 6 : CGROUP_MAX_DEVICES;
                for (size_t i = 0; i < nd; i++)
                        many[i] = (struct cgroup_device){rand_r(&seed) & 1 ? 'c' : 'b',
                                                         (uint32_t)(rand_r(&seed) % 11), 0,
                                                         (int32_t)(rand_r(&seed) % 4) - 1};
                for (size_t i = 0; i < nd; i++)
                        many[i].major_hi = many[i].major_lo + (uint32_t)(rand_r(&seed) % 2);
                struct cgroup_device_policy rp = {.own = many,
                                                  .nown = nd / 2,
                                                  .extra = many + nd / 2,
                                                  .nextra = nd - nd / 2,
                                                  .rules = rules,
                                                  .nrules = nr,
                                                  .rules_on = true};
                int w = compare(&rp, "random");
                wrong += w ? 1 : 0;
        }
        ok(wrong == 0,
           "40 random policies, the last one of 256 rules and %d devices: the program "
           "and the model agree",
           CGROUP_MAX_DEVICES);
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
        device_program();
        rmdir(rootfs);
        rmdir(scratch);
        return tap_done();
}
