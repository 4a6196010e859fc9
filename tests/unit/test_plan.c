/* Unit tests of planning (runtime/plan/: build.c and its passes): the plan is built from a spec
 * and host facts the test makes up (struct plan_host), so the same spec can be planned for
 * different hosts; and the plan stands alone: every pointer in it points into its own arena, so
 * the spec can be freed right after planning and the plan still says everything. */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "plan/plan.h"
#include "base/reach.h"
#include "spec/spec.h"
#include "../lib/tap.h"

/* the scratch rootfs, in a 0700 directory of its own (scratch): a user's writable rootfs that
 * other users can reach is refused (plan_user_rootfs) */
static char scratch[64], root[80], bindsrc[128];

/* A host: an ordinary user in the initial user namespace, at a terminal. The user is the one
 * running the test (1000 when that is root), which owns the directory the scratch rootfs is
 * in: only the user's own directories (and root's) shut others out. */
static struct plan_host user_host(void)
{
        uid_t uid = getuid() ? getuid() : 1000;
        gid_t gid = getuid() ? getgid() : 1000;
        struct plan_host h = {
                .uid = uid,
                .euid = uid,
                .gid = gid,
                .egid = gid,
                .initial_userns = true,
                .stdin_tty = true,
                .term = "xterm-test",
                .cap_last = CAP_LAST_CAP,
                .cap_sys_resource = false,
                .idmapped_mounts = true,
                .seccomp_filters = true,
                .apparmor = false,
                .apparmor_why = "it is not built into this kernel",
                .apparmor_fix = "use another kernel",
        };
        h.cap_bounding = CAP_LAST_CAP >= 63 ? ~0ULL : (1ULL << (CAP_LAST_CAP + 1)) - 1;
        h.cap_bounding_known = true;
        for (int r = 0; r < SPEC_NLIMITS; r++) {
                h.rlimits[r].rlim_cur = h.rlimits[r].rlim_max = RLIM_INFINITY;
                h.rlimit_known[r] = true;
        }
        return h;
}

/* Load `body` (after a [container] rootfs line for the scratch rootfs) as spec t.ini. */
static int load(const char *body, struct spec *s, struct error *err)
{
        char text[4096];
        snprintf(text, sizeof text, "[container]\nrootfs = %s\n%s", root, body);
        FILE *f = fmemopen(text, strlen(text), "r");
        int r = spec_load("t.ini", f, false, s, err);
        fclose(f);
        return r;
}

static bool in_arena(const struct plan *p, const void *ptr)
{
        const char *a = p->arena, *c = ptr;
        return ptr && a && c >= a && c <= a + p->arena_size;
}

static bool str_in_arena(const struct plan *p, const char *str)
{
        return in_arena(p, str) && str + strlen(str) < (const char *)p->arena + p->arena_size;
}

/* Every pointer plan.h lists points into the plan's own arena. */
static bool all_in_arena(const struct plan *p)
{
        bool inside = str_in_arena(p, p->rootfs) && str_in_arena(p, p->spec_path) &&
                      str_in_arena(p, p->cwd) && (!p->hostname || str_in_arena(p, p->hostname));
        for (size_t i = 0; i < p->nmounts; i++) {
                const struct mount_op *m = &p->mounts[i];
                inside &= str_in_arena(p, m->dst) && (!m->src || str_in_arena(p, m->src)) &&
                          (!m->data || str_in_arena(p, m->data));
        }
        inside &= in_arena(p, p->argv) && in_arena(p, p->envp);
        for (char **a = p->argv; inside && *a; a++)
                inside &= str_in_arena(p, *a);
        for (char **e = p->envp; inside && *e; e++)
                inside &= str_in_arena(p, *e);
        inside &= in_arena(p, p->groups) && in_arena(p, p->pass_fds);
        inside &= in_arena(p, p->masked) && in_arena(p, p->readonly);
        for (size_t i = 0; inside && i < p->masked->n; i++)
                inside &= str_in_arena(p, p->masked->items[i]);
        for (size_t i = 0; inside && i < p->readonly->n; i++)
                inside &= str_in_arena(p, p->readonly->items[i]);
        inside &= !p->seccomp.n || in_arena(p, p->seccomp.insns);
        return inside;
}

static const struct mount_op *find_mount(const struct plan *p, const char *dst)
{
        for (size_t i = 0; i < p->nmounts; i++)
                if (!strcmp(p->mounts[i].dst, dst))
                        return &p->mounts[i];
        return NULL;
}

/* The plan's warning that holds `text`, or "" */
static const char *warning_with(const struct plan *p, const char *text)
{
        for (size_t i = 0; i < p->nwarnings; i++)
                if (strstr(p->warnings[i], text))
                        return p->warnings[i];
        return "";
}

static bool has_env(const struct plan *p, const char *kv)
{
        for (char **e = p->envp; *e; e++)
                if (!strcmp(*e, kv))
                        return true;
        return false;
}

static void plan_outlives_spec(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;
        char body[1024];
        snprintf(body, sizeof body,
                 "hostname = box\n[process]\nargs = /bin/echo 'hello world'\nenv = A=1\n"
                 "cwd = /srv\npass_fds = 7\n[mounts]\nbind = %s /mnt ro\ntmpfs = /t size=1m\n",
                 bindsrc);
        ok(load(body, &s, &err) == 0, "spec loads");
        /* the host's facts say which of the spec's pass_fds crib lacks */
        h.closed_fd = 7;
        ok(plan_build(&s, &h, NULL, &p, &err) < 0, "pass_fds: a descriptor crib lacks");
        contains(err.msg, "t.ini:8: pass_fds: fd 7 is not open", "is refused with FILE:LINE");
        h.closed_fd = -1;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0, "plan_build: %s", p.rootfs ? "" : err.msg);

        /* free the spec and scribble over what held it: the plan must not notice */
        spec_free(&s);
        memset(&s, 0xa5, sizeof s);
        char *junk[64];
        for (size_t i = 0; i < 64; i++)
                if ((junk[i] = malloc(64)))
                        memset(junk[i], 'x', 64);

        ok(all_in_arena(&p), "every pointer of the plan points into its own arena");
        is_str(p.argv[0], "/bin/echo", "argv[0] after the spec is gone");
        is_str(p.argv[1], "hello world", "argv[1]");
        ok(!p.argv[2], "argv ends");
        ok(has_env(&p, "A=1"), "the spec's env");
        ok(has_env(&p, "TERM=xterm-test"), "TERM from the host's facts, at a terminal");
        ok(has_env(&p, "HOME=/root"), "HOME for uid 0");
        is_str(p.cwd, "/srv", "cwd");
        is_str(p.hostname, "box", "hostname");
        is_str(p.spec_path, "t.ini", "the spec's path, for the child's FILE:LINE");
        ok(p.npass_fds == 1 && p.pass_fds[0] == 7, "pass_fds");
        ok(p.masked->n == 12 && !strcmp(p.masked->items[3], "/proc/kcore"),
           "the default level's masked paths");
        ok(p.readonly->n == 5, "and its read-only paths");
        const struct mount_op *m = find_mount(&p, "/mnt");
        ok(m && m->kind == MOP_BIND && !strcmp(m->src, bindsrc) && (m->flags & MS_RDONLY) &&
                   m->line == 10,
           "the bind mount, with its spec line");
        m = find_mount(&p, "/t");
        ok(m && m->kind == MOP_TMPFS && !strcmp(m->data, "size=1m"), "the tmpfs mount");
        ok(p.seccomp.n > 0, "a seccomp program (%zu instructions)", p.seccomp.n);
        ok(p.nwarnings == 1 && strstr(p.warnings[0], "AppArmor is not available (it is not "
                                                     "built into this kernel)"),
           "the host without AppArmor: a warning, from the host's facts");
        for (size_t i = 0; i < 64; i++)
                free(junk[i]);

        /* written as bytes (a state file) and read back, by what would be another process */
        void *bytes;
        size_t len;
        ok(plan_to_bytes(&p, &bytes, &len, &err) == 0, "the plan as bytes (%zu)", len);
        struct plan q;
        ok(plan_from_bytes(bytes, len, &q, &err) == 0, "read back: %s", q.rootfs ? "" : err.msg);
        ok(all_in_arena(&q) && q.arena != p.arena, "every pointer points into its new arena");
        ok(q.argv && !strcmp(q.argv[1], "hello world") && !q.argv[2] && has_env(&q, "A=1") &&
                   !strcmp(q.cwd, "/srv") && !strcmp(q.hostname, "box") && q.pass_fds[0] == 7 &&
                   !strcmp(q.masked->items[3], "/proc/kcore") && q.readonly->n == 5 &&
                   find_mount(&q, "/t") && !strcmp(find_mount(&q, "/t")->data, "size=1m"),
           "strings, lists and mounts the same");
        ok(q.seccomp.n == p.seccomp.n &&
                   !memcmp(q.seccomp.insns, p.seccomp.insns,
                           p.seccomp.n * sizeof *p.seccomp.insns) &&
                   q.cap_bounding == p.cap_bounding && q.uid == p.uid &&
                   q.clone_flags == p.clone_flags,
           "the seccomp program, capabilities, ids and namespaces the same");
        plan_free(&q);
        ok(plan_from_bytes(bytes, len - 1, &q, &err) < 0 && strstr(err.msg, "length"),
           "a short file is refused: %s", err.msg);
        char *bad = malloc(len);
        memcpy(bad, bytes, len);
        bad[0] = 'X';
        ok(plan_from_bytes(bad, len, &q, &err) < 0 && strstr(err.msg, "not written by this crib"),
           "another format is refused");
        /* a pointer of the struct moved past the end of the block */
        memcpy(bad, bytes, len);
        struct plan *hdr_plan = (struct plan *)(bad + (len - p.arena_size - sizeof(struct plan)));
        hdr_plan->cwd = (const char *)(uintptr_t)(p.arena_size + 100);
        ok(plan_from_bytes(bad, len, &q, &err) < 0 && strstr(err.msg, "outside its memory"),
           "an offset outside the block is refused");
        /* a count beyond its array */
        memcpy(bad, bytes, len);
        hdr_plan->nmounts = PLAN_MAX_MOUNTS + 1;
        ok(plan_from_bytes(bad, len, &q, &err) < 0 && strstr(err.msg, "count out of range"),
           "a count out of range is refused");
        /* a string without its end: the rootfs at the block's last byte, which is not NUL */
        memcpy(bad, bytes, len);
        hdr_plan->rootfs = (char *)(uintptr_t)p.arena_size; /* 1 + the last byte's offset */
        bad[len - 1] = 'x';
        ok(plan_from_bytes(bad, len, &q, &err) < 0 && strstr(err.msg, "outside its memory"),
           "a string that runs off the end of the block is refused");
        free(bad);
        free(bytes);

        plan_free(&p);
        ok(!p.arena && !p.argv && !p.nmounts, "plan_free clears the plan");
}

/* crib's own mounts come from one table: which rows apply follows the namespaces. */
static void default_mounts(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;
        ok(load("[process]\nargs = /bin/true\n", &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0,
           "default namespaces");
        static const char *const order[] = {
                "/proc",       "/dev",         "/dev/null", "/dev/zero",  "/dev/full",
                "/dev/random", "/dev/urandom", "/dev/tty",  "/dev/pts",   "/dev/ptmx",
                "/dev/shm",    "/dev/mqueue",  "/dev/fd",   "/dev/stdin", "/dev/stdout",
                "/dev/stderr", "/sys"};
        struct stat st;
        size_t at = 0;
        bool same = true;
        bool unlooked = true;
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
                /* in a user namespace every node is planned, and the child binds the host's
                 * where there is one (mounts.c): nothing is looked up here */
                same &= at < p.nmounts && !strcmp(p.mounts[at].dst, order[i]);
                if (i >= 2 && i <= 7)
                        unlooked &= at < p.nmounts && p.mounts[at].dev == 0;
                at++;
        }
        ok(same && at == p.nmounts, "crib's mounts, in order (%zu)", p.nmounts);
        ok(unlooked, "the six nodes planned without their numbers: the child looks at the host's");
        ok(p.mounts[0].kind == MOP_PROC && find_mount(&p, "/sys")->kind == MOP_SYSFS &&
                   find_mount(&p, "/dev/mqueue")->kind == MOP_MQUEUE,
           "own proc, sysfs and mqueue");
        ok(!strcmp(find_mount(&p, "/dev/pts")->data, "newinstance,ptmxmode=0666,mode=0620"),
           "devpts without gid=5 where gid 5 is not mapped");
        plan_free(&p);
        spec_free(&s);

        /* real root copies the nodes: the plan has the host's numbers, and no node it lacks */
        struct plan_host hr = user_host();
        hr.uid = hr.euid = 0;
        hr.gid = hr.egid = 0;
        ok(load("[process]\nargs = /bin/true\n[namespaces]\nuser = no\n", &s, &err) == 0 &&
                   plan_build(&s, &hr, NULL, &p, &err) == 0,
           "user = no, as root");
        ok(stat("/dev/null", &st) == 0 && find_mount(&p, "/dev/null") &&
                   find_mount(&p, "/dev/null")->dev == st.st_rdev,
           "/dev/null: the host's device number");
        bool as_host = true;
        for (size_t i = 2; i <= 7; i++)
                as_host &= (stat(order[i], &st) == 0 && S_ISCHR(st.st_mode)) ==
                           (find_mount(&p, order[i]) != NULL);
        ok(as_host, "each node there exactly where the host has it");
        plan_free(&p);
        spec_free(&s);

        ok(load("[process]\nargs = /bin/true\n[namespaces]\npid = no\nnet = no\nipc = no\n", &s,
                &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0,
           "pid, net and ipc shared with the host");
        const struct mount_op *proc = find_mount(&p, "/proc"), *sys = find_mount(&p, "/sys");
        ok(proc->kind == MOP_BIND && !strcmp(proc->src, "/proc") && sys->kind == MOP_BIND &&
                   (sys->flags & MS_RDONLY),
           "the host's proc and sys, bound");
        const struct mount_op *mq = find_mount(&p, "/dev/mqueue");
        ok(stat("/dev/mqueue", &st) == 0 ? mq && mq->kind == MOP_BIND : !mq,
           "the host's mqueue where it has one");
        plan_free(&p);
        spec_free(&s);
}

/* The same spec on different hosts: the plan follows the facts it is given. */
/* What a front end asks besides the spec (struct plan_opts) is in the plan plan_build() returns,
 * and in its bytes: nothing writes a plan afterwards. */
static void front_end_opts(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p, q;
        struct error err;
        void *bytes = NULL;
        size_t len = 0;

        ok(load("[process]\nargs = /bin/true\n", &s, &err) == 0, "spec");
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 && p.self_maps && !p.wait_start && !p.trace &&
                   !p.cgroup_name[0],
           "no options: the child writes its own maps, no wait for crib start, no name");
        plan_free(&p);
        struct plan_opts o = {.trace = true, .wait_start = true, .hooks = true, .name = "web-1"};
        ok(plan_build(&s, &h, &o, &p, &err) == 0 && !p.self_maps && p.wait_start && p.trace &&
                   !strcmp(p.cgroup_name, "web-1"),
           "hooks: the parent writes the maps; crib start waited for; the cgroup's name");
        ok(plan_to_bytes(&p, &bytes, &len, &err) == 0 &&
                   plan_from_bytes(bytes, len, &q, &err) == 0 && q.wait_start && !q.self_maps &&
                   !strcmp(q.cgroup_name, "web-1"),
           "and so in the plan crib start and crib exec read back");
        free(bytes);
        plan_free(&q);
        plan_free(&p);

        /* the hooks the container's processes run: copied in, packed, written and read back */
        char *argv[] = {"hook", "a b", NULL}, *envp[] = {"X=1", NULL}, *none[] = {NULL};
        struct plan_hook in[2] = {{"/usr/bin/h", argv, envp, 3}, {"/bin/s", argv + 1, none, 0}};
        o.in_hooks[PLAN_HOOK_SETUP] = in;
        o.nin_hooks[PLAN_HOOK_SETUP] = 1;
        o.in_hooks[PLAN_HOOK_START] = in + 1;
        o.nin_hooks[PLAN_HOOK_START] = 1;
        o.hook_state = "{\"id\":\"web-1\"}";
        bytes = NULL;
        ok(plan_build(&s, &h, &o, &p, &err) == 0 && p.nhooks[PLAN_HOOK_SETUP] == 1 &&
                   p.nhooks[PLAN_HOOK_START] == 1 && p.hooks[PLAN_HOOK_SETUP][0].argv != argv &&
                   !strcmp(p.hooks[PLAN_HOOK_SETUP][0].argv[1], "a b") &&
                   p.hook_state != o.hook_state,
           "hooks in the container: the plan's own copies (%s)", err.msg);
        ok(plan_to_bytes(&p, &bytes, &len, &err) == 0 &&
                   plan_from_bytes(bytes, len, &q, &err) == 0 &&
                   !strcmp(q.hooks[PLAN_HOOK_SETUP][0].path, "/usr/bin/h") &&
                   !strcmp(q.hooks[PLAN_HOOK_SETUP][0].envp[0], "X=1") &&
                   q.hooks[PLAN_HOOK_SETUP][0].timeout == 3 &&
                   !strcmp(q.hooks[PLAN_HOOK_START][0].argv[0], "a b") &&
                   !q.hooks[PLAN_HOOK_START][0].envp[0] && !strcmp(q.hook_state, o.hook_state),
           "and read back from the plan's bytes");
        plan_free(&q);
        /* a count out of range in the bytes is refused before anything is followed */
        struct plan *copy = (struct plan *)((char *)bytes + 32);
        size_t saved = copy->nhooks[PLAN_HOOK_START];
        copy->nhooks[PLAN_HOOK_START] = PLAN_MAX_HOOKS + 1;
        ok(plan_from_bytes(bytes, len, &q, &err) < 0 && strstr(err.msg, "count out of range"),
           "too many hooks in a plan file: damaged (%s)", err.msg);
        copy->nhooks[PLAN_HOOK_START] = saved;
        copy->hooks[PLAN_HOOK_START][0].argv = NULL;
        ok(plan_from_bytes(bytes, len, &q, &err) < 0, "a hook without argv: damaged (%s)", err.msg);
        free(bytes);
        plan_free(&p);
        o.hooks = false;
        ok(plan_build(&s, &h, &o, &p, &err) < 0,
           "hooks in the container without plan_opts.hooks (no pid from GO): refused (%s)",
           err.msg);
        spec_free(&s);
}

/* A profile the spec holds itself (an engine's config's) is named in its front end's words,
 * which the plan takes from phrase.h: where it is, and whose it is. */
static void own_profile_words(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;

        ok(load("[process]\nargs = /bin/true\n", &s, &err) == 0, "spec");
        s.front = SPEC_FRONT_OCI;
        s.seccomp_text = strdup("not a profile\n");
        ok(plan_build(&s, &h, NULL, &p, &err) < 0 && !strncmp(err.msg, "t.ini: .linux.seccomp", 21),
           "its compile errors say where the config holds it (%s)", err.msg);
        h.seccomp_filters = false;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 &&
                   *warning_with(&p, "running without the config's seccomp profile"),
           "no seccomp filters: running without the config's seccomp profile (%s)",
           warning_with(&p, "seccomp"));
        plan_free(&p);
        s.seccomp_require = true;
        ok(plan_build(&s, &h, NULL, &p, &err) < 0 &&
                   strstr(err.msg, ".linux.seccomp: the config's seccomp profile is required"),
           "required: the config's seccomp profile, at its path (%s)", err.msg);
        spec_free(&s);
        ok(load("[process]\nargs = /bin/true\n", &s, &err) == 0, "spec");
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 &&
                   *warning_with(&p, "running without the seccomp profile 'default'"),
           "crib.ini's level: running without the seccomp profile 'default' (%s)",
           warning_with(&p, "seccomp"));
        plan_free(&p);
        spec_free(&s);
}

static void host_facts(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;

        ok(load("[process]\nargs = /bin/true\n", &s, &err) == 0, "spec");
        h.stdin_tty = false;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 && !p.terminal && !has_env(&p, "TERM=xterm"),
           "no terminal on stdin: terminal = auto gives none, and no TERM");
        plan_free(&p);
        h = user_host();
        h.apparmor = true;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 && !strcmp(p.apparmor, "crib-default") &&
                   p.nwarnings == 0,
           "AppArmor on: the level's profile, no warning");
        plan_free(&p);
        h = user_host();
        h.seccomp_filters = false;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 && p.seccomp.n == 0 &&
                   strstr(p.seccomp_how, "no kernel support"),
           "no seccomp filters: no program (prefer)");
        plan_free(&p);
        spec_free(&s);
        /* read-only: the scratch directory is not uid 0's here, as it would be under unshare -r,
         * so a writable rootfs would count as reachable by others */
        h = user_host();
        h.euid = 0;
        h.uid = 0;
        h.initial_userns = false;
        ok(load("[container]\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n", &s, &err) ==
                           0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0 && !p.privileged,
           "root in a user namespace of its own is not privileged");
        plan_free(&p);
        spec_free(&s);
        /* root of a namespace not the host's, with ids mapped in it (rootless podman's, whose
         * --userns=keep-id config.json maps them on): it may map those, writing the maps
         * itself, setgroups allowed; not the host's /etc/subuid ranges, nor more */
        h.own_uids[0] = h.own_gids[0] = (struct idmap_range){0, 0, 1};
        h.own_uids[1] = h.own_gids[1] = (struct idmap_range){0, 1, 65536};
        h.nown_uids = h.nown_gids = 2;
        ok(load("[container]\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n"
                "[idmap]\nuid = 0 1 1000\nuid = 1000 0 1\ngid = 0 1 1000\ngid = 1000 0 1\n",
                &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0 && !p.uidmap.use_helper &&
                   !p.gidmap.use_helper && !p.deny_setgroups && p.uidmap.n == 2,
           "root of a nested namespace maps the ids of its own, itself, setgroups allowed%s%s",
           p.uidmap.n ? "" : ": ", p.uidmap.n ? "" : err.msg);
        plan_free(&p);
        spec_free(&s);
        ok(load("[container]\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n"
                "[idmap]\nuid = 0 1 65537\ngid = 0 1 1000\n",
                &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) < 0 &&
                   strstr(err.msg, "uid range '0 1 65537' is not yours to map") &&
                   strstr(err.msg, "(0-0, 1-65536)"),
           "but no id that is not mapped in it (%s)", err.msg);
        spec_free(&s);

        /* limits: a level's is a ceiling, the spec's own a demand */
        h = user_host();
        h.rlimits[RLIMIT_NOFILE].rlim_max = 512;
        ok(load("[security]\nlevel = strict\n[process]\nargs = /bin/true\n", &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0,
           "strict level under a hard nofile limit of 512");
        bool capped = false;
        for (size_t i = 0; i < p.nrlimits; i++)
                if (p.rlimits[i].resource == RLIMIT_NOFILE)
                        capped = p.rlimits[i].lim.rlim_max == 512 &&
                                 p.rlimits[i].lim.rlim_cur == 512;
        ok(capped, "the level's nofile = 1024 is held to the host's 512");
        plan_free(&p);
        spec_free(&s);
        ok(load("[process]\nargs = /bin/true\n[limits]\nnofile = 2048\n", &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) < 0,
           "the spec's own nofile = 2048 above the host's 512 is refused");
        contains(err.msg, "t.ini:6: limit 'nofile' asks for a hard limit above your own (512)",
                 "with FILE:LINE");
        h.cap_sys_resource = true;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0, "unless crib may raise limits");
        plan_free(&p);
        spec_free(&s);

        /* user = no: root only; capabilities within crib's own bounding set */
        h = user_host();
        ok(load("[process]\nargs = /bin/true\n[namespaces]\nuser = no\n", &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) < 0,
           "user = no as a user is refused");
        contains(err.msg, "user = no needs root", "and says why");
        h.uid = h.euid = h.gid = h.egid = 0;
        h.cap_bounding = 1ULL << CAP_CHOWN;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 && p.cap_bounding == 1ULL << CAP_CHOWN,
           "as root: the level's capabilities held to crib's own bounding set");
        plan_free(&p);
        spec_free(&s);
        ok(load("[process]\nargs = /bin/true\n[namespaces]\nuser = no\n[security]\n"
                "capabilities = KILL\n",
                &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) < 0,
           "the spec's own capability outside crib's bounding set is refused");
        contains(err.msg, "t.ini:8: capability KILL is not in crib's own bounding set",
                 "with FILE:LINE");
        spec_free(&s);
}

/* The real host, asked for everything, and for one spec's needs only. */
static void real_host(void)
{
        struct plan_host h;
        struct spec s;
        struct error err;
        plan_host_gather(NULL, &h);
        ok(h.euid == geteuid() && h.gid == getgid() && h.cap_last >= CAP_SETFCAP &&
                   h.cap_bounding_known && h.rlimit_known[RLIMIT_NOFILE],
           "plan_host_gather(NULL): everything");
        ok(load("[process]\nargs = /bin/true\npass_fds = 1000\n[limits]\nnofile = 64\n", &s,
                &err) == 0,
           "a spec with one limit and a descriptor to pass");
        plan_host_gather(&s, &h);
        ok(!h.cap_bounding_known && h.rlimit_known[RLIMIT_NOFILE] && !h.rlimit_known[RLIMIT_CORE],
           "for a spec: only its limits, no bounding set with a user namespace");
        ok(h.closed_fd == 1000, "fd 1000 is not open in this test");
        spec_free(&s);

        /* the facts host/gather.c reads: the last capability from its file, the initial user
         * namespace by its inode, setgroups(2) only outside it */
        FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
        int last = -1;
        ok(f && fscanf(f, "%d", &last) == 1 && h.cap_last == last,
           "cap_last %d, as /proc/sys/kernel/cap_last_cap says (%d)", h.cap_last, last);
        if (f)
                fclose(f);
        f = fopen("/proc/self/uid_map", "re");
        unsigned long a = 1, b = 1, n = 0;
        bool full = f && fscanf(f, "%lu %lu %lu", &a, &b, &n) == 3 && a == 0 && b == 0 &&
                    n == 4294967295UL;
        if (f)
                fclose(f);
        ok(!h.setgroups_denied && (geteuid() == 0 ? h.initial_userns == full : !h.initial_userns),
           "for a spec: the initial user namespace asked for root only (%d; uid_map says %d); "
           "setgroups allowed",
           h.initial_userns, full);
        plan_host_gather(NULL, &h);
        ok(h.initial_userns == full && !h.setgroups_denied,
           "without a spec: initial user namespace %d, as uid_map says; setgroups allowed",
           h.initial_userns);
        /* in a user namespace of its own that denies setgroups, as under `unshare -r` */
        pid_t pid = fork();
        if (pid == 0) {
                if (unshare(CLONE_NEWUSER) < 0)
                        _exit(100);
                int fd = open("/proc/self/setgroups", O_WRONLY);
                if (fd < 0 || write(fd, "deny", 4) != 4)
                        _exit(101);
                close(fd);
                plan_host_gather(NULL, &h);
                int bad = (h.initial_userns ? 1 : 0) | (h.setgroups_denied ? 0 : 2) |
                          (h.cap_last == last ? 0 : 4);
                /* unmapped, crib is no one's root here: asked for a spec, setgroups matters
                 * only to a gid map (newgidmap's), and the answer is then the same */
                struct spec sp;
                if (load("[process]\nargs = /bin/true\n[idmap]\nuid = auto\ngid = auto\n", &sp,
                         &err) < 0)
                        _exit(102);
                plan_host_gather(&sp, &h);
                bad |= h.setgroups_denied ? 0 : 8;
                spec_free(&sp);
                if (load("[process]\nargs = /bin/true\n", &sp, &err) < 0)
                        _exit(103);
                plan_host_gather(&sp, &h);
                bad |= h.setgroups_denied || h.initial_userns ? 16 : 0;
                spec_free(&sp);
                _exit(bad);
        }
        int status = -1;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && (WEXITSTATUS(status) == 100 || WEXITSTATUS(status) == 101))
                ok(1, "# SKIP no user namespace here (unshare or setgroups failed: %d)",
                   WEXITSTATUS(status));
        else
                ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                   "in a new user namespace: not the initial one, setgroups denied (asked for "
                   "a spec with gid maps, not for one without), the same last capability "
                   "(status %d)",
                   status);
}

/* The rootfs's name in the plan: a user's absolute path as written, a relative one and root's
 * resolved; the directory (device and inode) is the one the name led to either way. */
static void rootfs_names(void)
{
        char link[128], text[512], base[128];
        struct spec s;
        struct plan p;
        struct error err;
        struct stat st;
        snprintf(link, sizeof link, "%s-link", root);
        ok(symlink(root, link) == 0 && stat(root, &st) == 0, "a symlink to the scratch rootfs");
        struct plan_host user = user_host(), real_root = user_host();
        real_root.uid = real_root.euid = 0;
        real_root.gid = real_root.egid = 0;
        snprintf(base, sizeof base, "%s", strrchr(link, '/') + 1);
        static const struct {
                bool relative, as_root;
                const char *body;
        } cases[] = {
                {false, false, ""},
                {true, false, ""},
                {false, true, "[namespaces]\nuser = no\n"},
        };
        char here[4096];
        ok(getcwd(here, sizeof here) != NULL && chdir(scratch) == 0, "in %s", scratch);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                snprintf(text, sizeof text,
                         "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n%s",
                         cases[i].relative ? base : link, cases[i].body);
                FILE *f = fmemopen(text, strlen(text), "r");
                int r = spec_load("t.ini", f, false, &s, &err);
                fclose(f);
                r = r < 0 ? r
                          : plan_build(&s, cases[i].as_root ? &real_root : &user, NULL, &p, &err);
                const char *want = cases[i].relative || cases[i].as_root ? root : link;
                ok(r == 0 && !strcmp(p.rootfs, want) && p.rootfs_dev == st.st_dev &&
                           p.rootfs_ino == st.st_ino,
                   "%s, %s: the plan names it '%s' (got '%s')",
                   cases[i].relative ? "relative" : "absolute",
                   cases[i].as_root ? "root" : "a user", want, r == 0 ? p.rootfs : err.msg);
                if (r == 0)
                        plan_free(&p);
                spec_free(&s);
        }
        ok(chdir(here) == 0 && unlink(link) == 0, "back, and the symlink removed");
}

#define BIT(c)      (1ULL << (c))
#define DOCKER_CAPS 0xa80425fbULL /* Docker's 14, as /proc/self/status shows them */
#define ALL_CAPS    (CAP_LAST_CAP >= 63 ? ~0ULL : (1ULL << (CAP_LAST_CAP + 1)) - 1)
#define ROOT_MAP    "[idmap]\nuid = 0 100000 65536\ngid = 0 100000 65536\n"

/* root of the host, in the initial user namespace */
static struct plan_host root_host(void)
{
        struct plan_host h = user_host();
        h.uid = h.euid = 0;
        h.gid = h.egid = 0;
        h.cap_sys_resource = true;
        return h;
}

static const struct plan_rlimit *find_rlimit(const struct plan *p, int resource)
{
        for (size_t i = 0; i < p->nrlimits; i++)
                if (p->rlimits[i].resource == resource)
                        return &p->rlimits[i];
        return NULL;
}

/* Issue 31, hole 6: Docker's rule. A process whose uid is not 0 gets empty effective,
 * permitted, inheritable and ambient sets, unless the spec names capabilities: then those, by
 * the ambient set. The bounding set is the level's for every uid. */
static void caps_by_uid(void)
{
        static const struct {
                const char *body; /* after [process] args */
                uint64_t bounding, user;
                const char *what;
        } cases[] = {
                {"user = 1000:1000\n", DOCKER_CAPS, 0, "no capabilities key"},
                {"user = 1000:1000\n[security]\ncapabilities = default\n", DOCKER_CAPS, 0,
                 "capabilities = default"},
                {"user = 1000:1000\n[security]\ncapabilities = default +NET_BIND_SERVICE\n",
                 DOCKER_CAPS, BIT(CAP_NET_BIND_SERVICE), "default +NET_BIND_SERVICE"},
                {"user = 1000:1000\n[security]\ncapabilities = default -NET_RAW\n",
                 DOCKER_CAPS & ~BIT(CAP_NET_RAW), 0, "default -NET_RAW"},
                {"user = 1000:1000\n[security]\ncapabilities = CHOWN KILL\n",
                 BIT(CAP_CHOWN) | BIT(CAP_KILL), BIT(CAP_CHOWN) | BIT(CAP_KILL),
                 "an explicit list, CHOWN KILL"},
                {"user = 1000:1000\n[security]\ncapabilities = all\n", ALL_CAPS, ALL_CAPS,
                 "capabilities = all"},
                {"user = 1000:1000\n[security]\nlevel = unconfined\n", ALL_CAPS, 0,
                 "level = unconfined: a level's list names nothing"},
                {"user = 1000:1000\n[security]\nlevel = strict\ncapabilities = +KILL\n",
                 BIT(CAP_KILL), BIT(CAP_KILL), "level = strict, capabilities = +KILL"},
                {"user = 1000:1000\n[security]\ncapabilities = default +SYS_PTRACE -SYS_PTRACE\n",
                 DOCKER_CAPS, 0, "a name added and taken away again"},
        };
        struct plan_host h = root_host();
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char body[512];
                struct spec s;
                struct plan p;
                struct error err;
                snprintf(body, sizeof body, "[process]\nargs = /bin/true\n%s%s", cases[i].body,
                         ROOT_MAP);
                int r = load(body, &s, &err);
                r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
                ok(r == 0 && p.uid == 1000 && p.cap_bounding == cases[i].bounding &&
                           p.cap_user == cases[i].user && p.cap_permitted == cases[i].user &&
                           p.cap_effective == cases[i].user && p.cap_inheritable == cases[i].user &&
                           p.cap_ambient == cases[i].user,
                   "uid 1000, %s: bounding %#llx, the other four %#llx (got %#llx, %#llx %#llx "
                   "%#llx %#llx)%s%s",
                   cases[i].what, (unsigned long long)cases[i].bounding,
                   (unsigned long long)cases[i].user, (unsigned long long)p.cap_bounding,
                   (unsigned long long)p.cap_permitted, (unsigned long long)p.cap_effective,
                   (unsigned long long)p.cap_inheritable, (unsigned long long)p.cap_ambient,
                   r ? ": " : "", r ? err.msg : "");
                if (r == 0)
                        plan_free(&p);
                if (r == 0 || s.path)
                        spec_free(&s);
        }

        /* uid 0: the bounding set at exec, nothing to inherit; the named ones kept for an exec
         * as another uid (crib exec -u) */
        struct spec s;
        struct plan p;
        struct error err;
        ok(load("[process]\nargs = /bin/true\n[security]\ncapabilities = default "
                "+NET_BIND_SERVICE\n" ROOT_MAP,
                &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0,
           "uid 0 with default +NET_BIND_SERVICE");
        ok(p.uid == 0 && p.cap_bounding == DOCKER_CAPS && p.cap_permitted == DOCKER_CAPS &&
                   p.cap_effective == DOCKER_CAPS && !p.cap_inheritable && !p.cap_ambient &&
                   p.cap_user == BIT(CAP_NET_BIND_SERVICE),
           "uid 0: bounding, permitted and effective the level's 14, none inheritable or "
           "ambient; a user other than root would get NET_BIND_SERVICE");
        void *bytes;
        size_t len;
        struct plan q;
        ok(plan_to_bytes(&p, &bytes, &len, &err) == 0 &&
                   plan_from_bytes(bytes, len, &q, &err) == 0 && q.cap_user == p.cap_user,
           "the plan file keeps what a user other than root gets (crib exec reads it)");
        free(bytes);
        plan_free(&q);
        /* crib exec -u 1000 into it, and -u 0: the rule for the exec's uid */
        plan_caps_for_uid(&p, 1000);
        ok(p.cap_bounding == DOCKER_CAPS && p.cap_permitted == BIT(CAP_NET_BIND_SERVICE) &&
                   p.cap_effective == BIT(CAP_NET_BIND_SERVICE) &&
                   p.cap_inheritable == BIT(CAP_NET_BIND_SERVICE) &&
                   p.cap_ambient == BIT(CAP_NET_BIND_SERVICE),
           "exec as uid 1000: NET_BIND_SERVICE alone, through the ambient set");
        plan_caps_for_uid(&p, 0);
        ok(p.cap_permitted == DOCKER_CAPS && p.cap_effective == DOCKER_CAPS && !p.cap_inheritable &&
                   !p.cap_ambient,
           "exec as uid 0: the bounding set again");
        plan_free(&p);
        spec_free(&s);
        ok(load("[process]\nargs = /bin/true\n" ROOT_MAP, &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0,
           "uid 0 at the default level");
        plan_caps_for_uid(&p, 1000);
        ok(p.cap_bounding == DOCKER_CAPS && !p.cap_permitted && !p.cap_effective &&
                   !p.cap_inheritable && !p.cap_ambient,
           "exec as uid 1000 into it: no capability but the bounding set");
        plan_free(&p);
        spec_free(&s);
}

/* Issue 31, hole 8: a user's writable rootfs that other host users can reach is refused (a
 * setuid file the container made there would run as the user for them); shut in a 0700
 * directory, or read-only, it runs. */
static void user_rootfs_reach(void)
{
        char open_dir[128], text[1024];
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;
        /* the directories the test makes are in its own primary group: root's, or a user's,
         * which may be the user's private group */
        FILE *pwf = fopen("/etc/passwd", "re"), *grf = fopen("/etc/group", "re");
        bool own_group =
                !getuid() || (pwf && grf && reach_group_private(pwf, grf, getuid(), getgid()));
        if (pwf)
                fclose(pwf);
        if (grf)
                fclose(grf);
        /* scratch is 0700: open it (and /tmp is reachable) */
        snprintf(open_dir, sizeof open_dir, "%s/open", scratch);
        snprintf(text, sizeof text, "%s/rootfs", open_dir);
        ok(mkdir(open_dir, 0755) == 0 && mkdir(text, 0755) == 0 && chmod(scratch, 0755) == 0,
           "a rootfs in a 0755 directory, in a 0755 directory");
        const struct {
                const char *extra;
                mode_t open_mode, rootfs_mode;
                bool runs;
                const char *what;
        } cases[] = {
                {"", 0755, 0755, false, "writable, reachable: refused"},
                {"", 0755, 0700, false, "the rootfs itself 0700 (its root may chmod it): refused"},
                {"[container]\nreadonly_rootfs = yes\n", 0755, 0755, true, "read-only: runs"},
                {"[container]\nreadonly_rootfs = yes\n[security]\ncapabilities = default "
                 "+SYS_ADMIN\n",
                 0755, 0755, true,
                 "read-only with SYS_ADMIN: runs (the kernel locks the flag in the workload's "
                 "nested mount namespace: lockmounts.c)"},
                {"", 0700, 0755, true, "a 0700 directory above it: runs"},
                {"", 0710, 0755, own_group,
                 own_group ? "0710, the group root's or the user's private group: runs"
                           : "0710, the group one others may be in: refused"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char body[1024];
                snprintf(body, sizeof body,
                         "[container]\nrootfs = %s/rootfs\n[process]\nargs = "
                         "/bin/true\n%s",
                         open_dir, cases[i].extra);
                chmod(open_dir, cases[i].open_mode);
                chmod(text, cases[i].rootfs_mode);
                FILE *f = fmemopen(body, strlen(body), "r");
                int r = spec_load("t.ini", f, false, &s, &err);
                fclose(f);
                r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
                if (cases[i].runs)
                        ok(r == 0, "%s%s%s", cases[i].what, r ? ": " : "", r ? err.msg : "");
                else
                        ok(r < 0 && strstr(err.msg, "t.ini:2: other users can reach rootfs") &&
                                   strstr(err.msg, "a setuid file the container made there would "
                                                   "run as you for them"),
                           "%s: %s", cases[i].what, r < 0 ? err.msg : "it ran");
                if (i == 0)
                        contains(err.hint, "chmod 700", "the remedy: chmod 700 a directory above");
                if (r == 0)
                        plan_free(&p);
                spec_free(&s);
        }
        /* an ACL lets a named user in behind the group bits (which show its mask): 0750 with
         * the tester's own group, and nobody (65534) given r-x */
        if (own_group) {
                /* the xattr's format (linux/posix_acl_xattr.h): version 2, then tag, perm, id */
                struct {
                        uint32_t version;
                        struct {
                                uint16_t tag, perm;
                                uint32_t id;
                        } e[5];
                } acl = {2,
                         {{0x01, 7, (uint32_t)-1},   /* ACL_USER_OBJ rwx */
                          {0x02, 5, 65534},          /* ACL_USER nobody r-x */
                          {0x04, 5, (uint32_t)-1},   /* ACL_GROUP_OBJ r-x */
                          {0x10, 5, (uint32_t)-1},   /* ACL_MASK r-x */
                          {0x20, 0, (uint32_t)-1}}}; /* ACL_OTHER --- */
                chmod(open_dir, 0750);
                if (setxattr(open_dir, "system.posix_acl_access", &acl, sizeof acl, 0) < 0) {
                        ok(1, "# SKIP no POSIX ACLs on %s: %m", scratch);
                } else {
                        char body[1024];
                        snprintf(body, sizeof body,
                                 "[container]\nrootfs = %s/rootfs\n[process]\nargs = /bin/true\n",
                                 open_dir);
                        FILE *f = fmemopen(body, strlen(body), "r");
                        int r = spec_load("t.ini", f, false, &s, &err);
                        fclose(f);
                        r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
                        ok(r < 0 && strstr(err.msg, "other users can reach rootfs"),
                           "0750 with the own group, but an ACL entry for nobody: refused (%s)",
                           r < 0 ? err.msg : "it ran");
                        if (r == 0)
                                plan_free(&p);
                        spec_free(&s);
                        /* the same without the ACL: runs (the test can tell) */
                        removexattr(open_dir, "system.posix_acl_access");
                        chmod(open_dir, 0750);
                        f = fmemopen(body, strlen(body), "r");
                        r = spec_load("t.ini", f, false, &s, &err);
                        fclose(f);
                        r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
                        ok(r == 0, "and without the ACL it runs%s%s", r ? ": " : "",
                           r ? err.msg : "");
                        if (r == 0)
                                plan_free(&p);
                        spec_free(&s);
                }
        }
        ok(chmod(scratch, 0700) == 0 && rmdir(text) == 0 && rmdir(open_dir) == 0, "cleaned up");

        /* the private group: the user's primary group, no one else's, no other member */
        static const char passwd[] = "root:x:0:0::/root:/bin/sh\n"
                                     "alice:x:1000:1000::/home/alice:/bin/sh\n"
                                     "bob:x:1001:1001::/home/bob:/bin/sh\n"
                                     "carol:x:1002:1001::/home/carol:/bin/sh\n";
        static const struct {
                const char *group;
                uid_t uid;
                gid_t gid;
                bool private;
                const char *what;
        } groups[] = {
                {"alice:x:1000:\n", 1000, 1000, true, "alice's own group, no members"},
                {"alice:x:1000:alice\n", 1000, 1000, true, "listing only alice"},
                {"alice:x:1000:alice,bob\n", 1000, 1000, false, "with bob in it"},
                {"staff:x:50:\n", 1000, 50, false, "not her primary group"},
                {"bob:x:1001:\n", 1001, 1001, false, "also carol's primary group"},
                {"users:x:100:\n", 1000, 1000, false, "not in /etc/group"},
                {"alice:x:1000:\nalias:x:1000:bob\n", 1000, 1000, false,
                 "a second name of the gid with bob in it"},
                {"alice:x:1000:\n+:::\n", 1000, 1000, false, "a NIS line that may add members"},
        };
        for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
                FILE *pw = fmemopen((void *)passwd, strlen(passwd), "r");
                FILE *gr = fmemopen((void *)groups[i].group, strlen(groups[i].group), "r");
                ok(reach_group_private(pw, gr, groups[i].uid, groups[i].gid) == groups[i].private,
                   "gid %u for uid %u, %s: %s", (unsigned)groups[i].gid, (unsigned)groups[i].uid,
                   groups[i].what, groups[i].private ? "private" : "not private");
                fclose(pw);
                fclose(gr);
        }
}

/* Issue 31, hole 9: a default bound on processes. The default level's nproc = 2048 is
 * RLIMIT_NPROC in a user namespace; with user = no, where it binds no one, the pids.max of the
 * cgroup crib makes anyway (the device program's); a spec's own nproc or [resources] pids wins. */
static void default_pids(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;
        const struct plan_rlimit *l;
        ok(load("[process]\nargs = /bin/true\n", &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0,
           "a user's spec with no limits");
        l = find_rlimit(&p, RLIMIT_NPROC);
        ok(l && l->lim.rlim_cur == 2048 && l->lim.rlim_max == 2048,
           "the default level's nproc: RLIMIT_NPROC 2048:2048");
        ok(!(p.limits.need & CGROUP_BIT(CGROUP_PIDS)) && !p.cgroup, "and no cgroup for it");
        plan_free(&p);
        h.rlimits[RLIMIT_NPROC].rlim_max = 1000;
        ok(plan_build(&s, &h, NULL, &p, &err) == 0 && (l = find_rlimit(&p, RLIMIT_NPROC)) &&
                   l->lim.rlim_max == 1000 && l->lim.rlim_cur == 1000,
           "a ceiling: under the caller's hard limit of 1000, 1000");
        plan_free(&p);
        spec_free(&s);
        h = user_host();
        ok(load("[process]\nargs = /bin/true\n[limits]\nnproc = 50:60\n", &s, &err) == 0 &&
                   plan_build(&s, &h, NULL, &p, &err) == 0 && (l = find_rlimit(&p, RLIMIT_NPROC)) &&
                   l->lim.rlim_cur == 50 && l->lim.rlim_max == 60,
           "the spec's own nproc = 50:60 instead");
        plan_free(&p);
        spec_free(&s);

        /* user = no, on a host with cgroup v2, clone3 into a cgroup and the pids controller */
        struct cgroup_host v2 = {.v2 = true, .clone_into = true, .available = 0xf};
        snprintf(v2.mount, sizeof v2.mount, "%s", root);
        snprintf(v2.base, sizeof v2.base, "%s", bindsrc);
        static const struct {
                const char *body;
                unsigned available;
                int64_t pids;  /* pids.max, or CGROUP_UNSET */
                int64_t nproc; /* RLIMIT_NPROC, or -1 for none */
                const char *what;
        } cases[] = {
                {"", 0xf, 2048, -1, "the level's bound as the device cgroup's pids.max"},
                {"[limits]\nnproc = 100\n", 0xf, CGROUP_UNSET, 100,
                 "the spec's own nproc: RLIMIT_NPROC, as it says"},
                {"[resources]\npids = 300\n", 0xf, 300, -1, "the spec's [resources] pids"},
                {"", 0xf & ~CGROUP_BIT(CGROUP_PIDS), CGROUP_UNSET, -1,
                 "without the pids controller: no bound (crib.ini(5) says so)"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char body[512];
                h = root_host();
                h.cgroup = v2;
                h.cgroup.available = cases[i].available;
                snprintf(body, sizeof body,
                         "[process]\nargs = /bin/true\n[namespaces]\nuser = no\n%s", cases[i].body);
                int r = load(body, &s, &err);
                r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
                l = r == 0 ? find_rlimit(&p, RLIMIT_NPROC) : NULL;
                bool pids_need = r == 0 && (p.limits.need & CGROUP_BIT(CGROUP_PIDS));
                ok(r == 0 && p.device_program && p.cgroup && p.limits.pids_max == cases[i].pids &&
                           pids_need == (cases[i].pids != CGROUP_UNSET) &&
                           (cases[i].nproc < 0 ? !l
                                               : l && l->lim.rlim_max == (rlim_t)cases[i].nproc),
                   "user = no: %s (pids.max %lld, RLIMIT_NPROC %s)%s%s", cases[i].what,
                   r == 0 ? (long long)p.limits.pids_max : 0LL, l ? "set" : "unset", r ? ": " : "",
                   r ? err.msg : "");
                if (r == 0)
                        plan_free(&p);
                spec_free(&s);
        }
}

/* An engine's cgroupsPath (OCI): where the container's cgroup goes, on hosts that can and
 * cannot put it there. */
static void engine_cgroup(void)
{
        struct plan_host user = user_host(), real_root = user_host();
        real_root.uid = real_root.euid = 0;
        real_root.gid = real_root.egid = 0;
        struct cgroup_host v2 = {.v2 = true, .clone_into = true, .available = 0xf};
        snprintf(v2.mount, sizeof v2.mount, "%s", root);
        snprintf(v2.base, sizeof v2.base, "%s", bindsrc);             /* delegated to the user */
        snprintf(v2.own_parent, sizeof v2.own_parent, "%s", bindsrc); /* and writable */
        static const struct {
                const char *path;
                bool as_root, v2;
                const char *want; /* under the mount, or NULL: not honoured, with a warning */
        } cases[] = {
                {"/default/c1", true, true, "/default/c1"},
                {"/src/pod/c2", false, true, "/src/pod/c2"},
                {"pod/c3", false, true, "/src/pod/c3"},
                {"/elsewhere/c4", false, true, NULL},
                {"/src", false, true, NULL},
                {"/default/c5", true, false, NULL},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                struct plan_host h = cases[i].as_root ? real_root : user;
                if (cases[i].v2)
                        h.cgroup = v2;
                else
                        snprintf(h.cgroup.why, sizeof h.cgroup.why, "no cgroup v2 here");
                struct spec s;
                struct plan p;
                struct error err;
                char want[1200] = "";
                if (cases[i].want)
                        snprintf(want, sizeof want, "%s%s", root, cases[i].want);
                int r = load("[process]\nargs = /bin/true\n", &s, &err);
                s.cgroups_path = strdup(cases[i].path);
                r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
                bool warned = false;
                for (size_t k = 0; r == 0 && k < p.nwarnings; k++)
                        warned |= strstr(p.warnings[k], "not where the engine asked") != NULL;
                if (cases[i].want)
                        ok(r == 0 && p.cgroup && !strcmp(p.cgroup_path, want) &&
                                   !strcmp(p.cgroup_top, cases[i].as_root ? root : bindsrc) &&
                                   !warned,
                           "cgroupsPath '%s' as %s: the container's cgroup is %s", cases[i].path,
                           cases[i].as_root ? "root" : "a user", want);
                else
                        ok(r == 0 && !p.cgroup && !p.cgroup_path[0] && warned,
                           "cgroupsPath '%s' as %s%s: not honoured, with a warning", cases[i].path,
                           cases[i].as_root ? "root" : "a user",
                           cases[i].v2 ? "" : " without cgroup v2");
                if (r == 0)
                        plan_free(&p);
                spec_free(&s);
        }
}

/* Namespaces joined by path (an OCI config's): none of them made, each in join_flags, its file
 * of the type named, a joined user namespace's maps the ones the host facts read, a config's
 * own maps that differ refused, and no loopback set up in a network namespace not crib's. */
static void joined_namespaces(void)
{
        struct plan_host h = user_host();
        struct spec s;
        struct plan p;
        struct error err;
        int r = load("[process]\nargs = /bin/true\n", &s, &err);
        s.ns_path[SPEC_NS_NET] = strdup("/run/netns/a");
        s.ns_path[SPEC_NS_USER] = strdup("/proc/9/ns/user");
        h.ns_type[SPEC_NS_NET] = CLONE_NEWNET;
        h.ns_type[SPEC_NS_USER] = CLONE_NEWUSER;
        h.joined_uidmap = (struct idmap){.r = {{0, 100000, 65536}}, .n = 1};
        h.joined_gidmap = (struct idmap){.r = {{0, 100000, 65536}}, .n = 1};
        r = r < 0 ? r : plan_build(&s, &h, NULL, &p, &err);
        ok(r == 0, "a joined user and network namespace plan: %s", r ? err.msg : "");
        if (r == 0) {
                ok(!(p.clone_flags & (CLONE_NEWNET | CLONE_NEWUSER)) &&
                           (p.clone_flags & CLONE_NEWPID) &&
                           p.join_flags == (CLONE_NEWNET | CLONE_NEWUSER),
                   "neither is made; both are joined; the pid namespace is made");
                ok(p.userns && !p.self_maps && p.uidmap.n == 1 && p.uidmap.r[0].outside == 100000 &&
                           p.gidmap.r[0].count == 65536,
                   "the container is in a user namespace with the joined one's maps, which no "
                   "one writes");
                ok(!p.loopback, "a joined network namespace is its maker's to set up (no lo)");
                ok(p.join_path[SPEC_NS_NET] && str_in_arena(&p, p.join_path[SPEC_NS_NET]),
                   "the path is the plan's own");
                const struct mount_op *sys = find_mount(&p, "/sys");
                ok(sys && sys->kind == MOP_SYSFS,
                   "a sysfs of the joined network namespace: the user namespace is joined too");
                plan_free(&p);
        }
        /* the config's own maps must match the joined namespace's */
        s.uidmap.n = 1;
        s.uidmap.ranges[0] = (struct spec_range){.inside = 0, .outside = 1000, .count = 1};
        s.uidmap.line = 1;
        r = plan_build(&s, &h, NULL, &p, &err);
        ok(r < 0 && strstr(err.msg, "does not match the maps of the joined user namespace"),
           "a uid map other than the joined namespace's: refused (%s)", err.msg);
        s.uidmap.n = 0;
        s.uidmap.line = 0;
        h.ns_type[SPEC_NS_NET] = CLONE_NEWIPC;
        r = plan_build(&s, &h, NULL, &p, &err);
        ok(r < 0 && strstr(err.msg, "'/run/netns/a' is not a network namespace"),
           "a file of another type: refused (%s)", err.msg);
        h.ns_type[SPEC_NS_NET] = -ENOTTY;
        r = plan_build(&s, &h, NULL, &p, &err);
        ok(r < 0 && strstr(err.msg, "is not a namespace file"), "no namespace at all: refused (%s)",
           err.msg);
        h.ns_type[SPEC_NS_NET] = CLONE_NEWNET;
        h.joined_maps = -EPERM;
        r = plan_build(&s, &h, NULL, &p, &err);
        ok(r < 0 && strstr(err.msg, "cannot read the id maps of the user namespace"),
           "a user namespace crib may not join: refused before anything starts (%s)", err.msg);
        /* a joined pid namespace under a new user namespace: its /proc cannot be mounted */
        s.ns_path[SPEC_NS_PID] = strdup("/proc/7/ns/pid");
        h.ns_type[SPEC_NS_PID] = CLONE_NEWPID;
        free(s.ns_path[SPEC_NS_USER]);
        s.ns_path[SPEC_NS_USER] = NULL;
        r = plan_build(&s, &h, NULL, &p, &err);
        ok(r < 0 && strstr(err.msg, "the pid namespace '/proc/7/ns/pid' is joined, but the user "
                                    "namespace is a new one"),
           "a joined pid namespace and a new user namespace: refused before anything starts (%s)",
           err.msg);
        free(s.ns_path[SPEC_NS_PID]);
        s.ns_path[SPEC_NS_PID] = NULL;
        /* a new user namespace and a joined network one: the host's sysfs is bound */
        h.joined_maps = 0;
        r = plan_build(&s, &h, NULL, &p, &err);
        ok(r == 0, "a new user namespace and a joined network one: %s", r ? err.msg : "");
        if (r == 0) {
                const struct mount_op *sys = find_mount(&p, "/sys");
                ok((p.clone_flags & CLONE_NEWUSER) && p.join_flags == CLONE_NEWNET && sys &&
                           sys->kind == MOP_BIND,
                   "then the user namespace is made, and /sys is the host's, bound read-only "
                   "(the joined one is not the container's to mount)");
                plan_free(&p);
        }
        spec_free(&s);
}

/* Plan the spec `text` (named t.ini) for host `h`; the spec is freed, the plan kept when 0. */
static int build(const char *text, const struct plan_host *h, struct plan *p, struct error *err)
{
        struct spec s;
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        int r = spec_load("t.ini", f, false, &s, err);
        fclose(f);
        if (r < 0)
                return r;
        r = plan_build(&s, h, NULL, p, err);
        spec_free(&s);
        return r;
}

/* The first line of `text` (a warning's second line is its remedy), for a TAP description. */
static const char *first_line(const char *text)
{
        static char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(text, "\n"), text);
        return line;
}

/* The plan's warning that names `needle`, or NULL. */
static const char *warning_of(const struct plan *p, const char *needle)
{
        for (size_t i = 0; i < p->nwarnings; i++)
                if (strstr(p->warnings[i], needle))
                        return p->warnings[i];
        return NULL;
}

/* Issue 31, the review of hole 8: root's container with a rootfs host root does not own (crib's
 * own hint gave it to the container's range) was never checked: container root left a setuid
 * file of the range's first id there, which every root container runs as, and another user ran
 * it. Now every root container with a user namespace gets the rootfs check, whoever owns it. */
static void root_rootfs_reach(void)
{
        char dir[128], rootfs[160], text[1024];
        struct plan_host h = root_host();
        struct plan p;
        struct error err;
        bool as_root = getuid() == 0;
        snprintf(dir, sizeof dir, "%s/ranged", scratch);
        snprintf(rootfs, sizeof rootfs, "%s/rootfs", dir);
        ok(mkdir(dir, 0755) == 0 && mkdir(rootfs, 0755) == 0 && chmod(scratch, 0755) == 0,
           "a rootfs in a 0755 directory, in a 0755 directory");
        /* as root, given to the range as crib's hint said; as a user, the user's: not host
         * root's either way */
        if (as_root)
                ok(chown(rootfs, 100000, 100000) == 0, "rootfs owned by uid 100000");
        snprintf(text, sizeof text,
                 "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n" ROOT_MAP, rootfs);
        int r = build(text, &h, &p, &err);
        ok(r < 0 && strstr(err.msg, "t.ini:2: other users can reach rootfs") &&
                   strstr(err.msg, "would run as uid 100000 (the container's root) for them"),
           "root's writable rootfs not owned by host root, others reach it: refused (%s)",
           r < 0 ? err.msg : "it ran");
        if (r == 0)
                plan_free(&p);
        contains(err.hint, "chmod 700", "the remedy: shut a directory above it");
        ok(!strstr(err.hint, "chown"),
           "and not 'give it to the range', which is what is refused here (%s)", err.hint);

        snprintf(text, sizeof text,
                 "[container]\nrootfs = %s\nreadonly_rootfs = yes\n[process]\nargs = "
                 "/bin/true\n" ROOT_MAP,
                 rootfs);
        r = build(text, &h, &p, &err);
        ok(r == 0, "read-only, it runs%s%s", r ? ": " : "", r ? err.msg : "");
        if (r == 0)
                plan_free(&p);

        /* container root is host root: what it leaves is host root's */
        snprintf(text, sizeof text,
                 "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n[idmap]\nuid = 0 0 "
                 "65536\ngid = 0 0 65536\n",
                 rootfs);
        r = build(text, &h, &p, &err);
        ok(r < 0 && strstr(err.msg, "other users can reach rootfs") && strstr(err.msg, "host root"),
           "a map of host root, others reach the rootfs: refused (%s)", r < 0 ? err.msg : "it ran");
        if (r == 0)
                plan_free(&p);

        if (as_root) {
                chmod(dir, 0700);
                snprintf(text, sizeof text,
                         "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n" ROOT_MAP,
                         rootfs);
                r = build(text, &h, &p, &err);
                ok(r == 0, "in a 0700 directory of root's, it runs%s%s", r ? ": " : "",
                   r ? err.msg : "");
                if (r == 0)
                        plan_free(&p);
        } else {
                ok(1, "# SKIP a directory that shuts others out of root's container is root's: "
                      "run as root");
        }
        ok(rmdir(rootfs) == 0 && rmdir(dir) == 0 && chmod(scratch, 0700) == 0, "cleaned up");
}

/* Issue 31, the review of hole 8: a read-write bind takes the container's setuid files as the
 * rootfs does (a nosuid mount inside does not help: the bit is on the host's file). A bind is
 * the spec's explicit choice, so a warning names each that other users can reach; but a bind of
 * the rootfs itself, of a directory in it or of one that holds it, which would undo
 * readonly_rootfs for a rootfs the check refuses, is refused like that rootfs. */
static void bind_reach(void)
{
        char pub[128], shut[128], text[2048], path[4][192];
        struct plan_host h = user_host();
        struct plan p;
        struct error err;
        const char *w;
        int r;
        snprintf(pub, sizeof pub, "%s/pub", scratch);
        snprintf(shut, sizeof shut, "%s/shut", scratch);
        snprintf(path[0], sizeof path[0], "%s/rootfs", shut); /* a rootfs no one else reaches */
        snprintf(path[1], sizeof path[1], "%s/src", shut);    /* a bind source no one reaches */
        snprintf(path[2], sizeof path[2], "%s/rootfs", pub);  /* a rootfs others reach */
        snprintf(path[3], sizeof path[3], "%s/rootfs/var", pub);
        char file[160], linked[160];
        snprintf(file, sizeof file, "%s/file", pub);
        snprintf(linked, sizeof linked, "%s/linked", shut);
        int fd = -1;
        ok(chmod(scratch, 0755) == 0 && mkdir(pub, 0755) == 0 && mkdir(shut, 0700) == 0 &&
                   mkdir(path[0], 0755) == 0 && mkdir(path[1], 0755) == 0 &&
                   mkdir(path[2], 0755) == 0 && mkdir(path[3], 0755) == 0 &&
                   (fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) >= 0,
           "directories and a file others reach (%s), and ones they do not (%s)", pub, shut);
        if (fd >= 0)
                close(fd);
        /* the container's root (the user) owns it, and may chmod it */
        if (getuid() == 0)
                ok(chown(file, h.uid, h.gid) == 0, "the file is uid %u's", (unsigned)h.uid);
        /* and a second name of it where no one else reaches */
        ok(link(file, linked) == 0, "a second link %s", linked);

        const struct {
                const char *rootfs, *extra, *mounts;
                bool runs;
                const char *warning; /* NULL: none */
                const char *what;
        } cases[] = {
                {path[0], "", "bind = PUB /d rw\n", true,
                 "t.ini:6: other users can reach bind source 'PUB', and the container can write "
                 "it: a setuid file the container made there would run as you for them",
                 "a rw bind of a directory others reach: a warning"},
                {path[0], "", "bind = PUB /d\n", true, "t.ini:6: other users can reach bind source",
                 "rw is the default"},
                {path[0], "", "bind = PUB /d ro\n", true, NULL, "ro: no warning"},
                {path[0], "", "bind = PUB /d ro,nosuid\n", true, NULL, "ro,nosuid: no warning"},
                {path[0], "", "bind = PUB /d rw,nosuid\n", true,
                 "t.ini:6: other users can reach bind source",
                 "rw,nosuid: still a warning (the bit is on the host's file)"},
                {path[0], "", "bind = SRC /d rw\n", true, NULL,
                 "a rw bind of a directory in a 0700 one: no warning"},
                {path[0], "", "bind = FILE /f rw\n", true,
                 "t.ini:6: other users can reach bind source 'FILE'",
                 "a rw bind of my file others reach (the container may chmod it): a warning"},
                {path[0], "", "bind = FILE /f ro\n", true, NULL, "the file ro: no warning"},
                {path[0], "", "bind = LINKED /f rw\n", true,
                 "t.ini:6: other users can reach bind source 'LINKED'",
                 "my file in a 0700 directory, with a second link where others reach it: a "
                 "warning"},
                {path[0], "", "bind = SRC /s rw\nbind = PUB /d rw\nbind = FILE /f rw\n", true,
                 "t.ini:7: other users can reach bind source 'PUB' (and 1 more, at line 8)",
                 "two of three: one warning naming both lines"},
                {path[2], "readonly_rootfs = yes\n", "bind = VAR /var rw\n", false,
                 "t.ini:7: bind source 'VAR' is in rootfs",
                 "readonly_rootfs others reach, a rw bind of its /var: refused"},
                {path[2], "readonly_rootfs = yes\n", "bind = ROOTFS /r rw\n", false,
                 "t.ini:7: bind source 'ROOTFS' is rootfs",
                 "readonly_rootfs others reach, a rw bind of the rootfs itself: refused"},
                {path[2], "readonly_rootfs = yes\n", "bind = PUB /up rw\n", false,
                 "t.ini:7: bind source 'PUB' holds rootfs",
                 "readonly_rootfs others reach, a rw bind of the directory above it: refused"},
                {path[2], "readonly_rootfs = yes\n", "bind = VAR /var ro\n", true, NULL,
                 "readonly_rootfs others reach, its /var bound ro: runs"},
                {path[0], "readonly_rootfs = yes\n", "bind = ROOTFS0 /r rw\n", true, NULL,
                 "readonly_rootfs no one else reaches, the rootfs bound rw: runs"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char mounts[512] = "", want[512] = "";
                /* the placeholders, in the mounts and the warning */
                const char *from[2] = {cases[i].mounts, cases[i].warning};
                char *to[2] = {mounts, want};
                for (int k = 0; k < 2; k++) {
                        const char *in = from[k];
                        char *out = to[k];
                        size_t n = 0;
                        while (in && *in && n < 500) {
                                static const char *const names[] = {
                                        "ROOTFS0", "ROOTFS", "PUB", "SRC", "FILE", "VAR", "LINKED"};
                                const char *vals[] = {path[0], path[2], pub,   path[1],
                                                      file,    path[3], linked};
                                size_t j = 0;
                                for (; j < 7; j++)
                                        if (!strncmp(in, names[j], strlen(names[j])))
                                                break;
                                if (j < 7) {
                                        n += (size_t)snprintf(out + n, 512 - n, "%s", vals[j]);
                                        in += strlen(names[j]);
                                } else {
                                        out[n++] = *in++;
                                        out[n] = '\0';
                                }
                        }
                }
                snprintf(text, sizeof text,
                         "[container]\nrootfs = %s\n%s[process]\nargs = /bin/true\n[mounts]\n%s",
                         cases[i].rootfs, cases[i].extra, mounts);
                r = build(text, &h, &p, &err);
                if (!cases[i].runs) {
                        ok(r < 0 && strstr(err.msg, want) &&
                                   strstr(err.msg, "a setuid file the container made there would "
                                                   "run as you for them"),
                           "%s (%s)", cases[i].what, r < 0 ? err.msg : "it ran");
                        if (r == 0)
                                plan_free(&p);
                        continue;
                }
                w = r == 0 ? warning_of(&p, "bind source") : NULL;
                if (cases[i].warning)
                        ok(r == 0 && w && strstr(w, want), "%s (%s)", cases[i].what,
                           r   ? err.msg
                           : w ? first_line(w)
                               : "no warning");
                else
                        ok(r == 0 && !w, "%s%s%s", cases[i].what, r || w ? ": " : "",
                           r   ? err.msg
                           : w ? first_line(w)
                               : "");
                if (i == 0)
                        ok(w && strstr(w, "\nbind it ro, or shut other users out of a directory "
                                          "above it (chmod 700"),
                           "with the remedy on its own line");
                if (r == 0)
                        plan_free(&p);
        }

        /* root's containers: the setuid file would be the container's root's, or host root's */
        h = root_host();
        if (getuid() == 0) {
                snprintf(text, sizeof text,
                         "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n" ROOT_MAP
                         "[mounts]\nbind = %s /d rw\n",
                         path[0], pub);
                r = build(text, &h, &p, &err);
                w = r == 0 ? warning_of(&p, "bind source") : NULL;
                ok(w && strstr(w, "t.ini:9: other users can reach bind source") &&
                           strstr(w, "would run as uid 100000 (the container's root) for them"),
                   "root's container, a rw bind others reach: a warning (%s)",
                   r   ? err.msg
                   : w ? first_line(w)
                       : "none");
                if (r == 0)
                        plan_free(&p);
        } else {
                ok(1, "# SKIP root's container needs a rootfs no other user reaches, which a "
                      "user cannot make: run as root");
        }
        snprintf(text, sizeof text,
                 "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n[namespaces]\nuser = "
                 "no\n[mounts]\nbind = %s /d rw\n",
                 path[0], pub);
        r = build(text, &h, &p, &err);
        w = r == 0 ? warning_of(&p, "bind source") : NULL;
        ok(w && strstr(w, "t.ini:8: other users can reach bind source") &&
                   strstr(w, "would run as host root for them"),
           "user = no, a rw bind others reach: a warning (%s)",
           r   ? err.msg
           : w ? first_line(w)
               : "none");
        if (r == 0)
                plan_free(&p);

        unlink(file);
        unlink(linked);
        ok(rmdir(path[3]) == 0 && rmdir(path[2]) == 0 && rmdir(path[1]) == 0 &&
                   rmdir(path[0]) == 0 && rmdir(pub) == 0 && rmdir(shut) == 0 &&
                   chmod(scratch, 0700) == 0,
           "cleaned up");
}

/* Issue 31, the review of hole 8: a rootfs on a nosuid mount was taken as safe, but the same
 * directory may be reachable through another mount that is not nosuid (seen: the filesystem
 * bound again elsewhere), or become so later (a remount, the next boot). A nosuid mount is no
 * exemption any more. In a mount namespace of the test's own (and a user namespace, as a
 * user): a nosuid tmpfs holding a reachable rootfs, and the same tmpfs bound suid elsewhere. */
static void nosuid_rootfs(void)
{
        char dir[128], other[128], rootfs[160];
        snprintf(dir, sizeof dir, "%s/nosuid", scratch);
        snprintf(other, sizeof other, "%s/suid", scratch);
        snprintf(rootfs, sizeof rootfs, "%s/rootfs", dir);
        ok(chmod(scratch, 0755) == 0 && mkdir(dir, 0755) == 0 && mkdir(other, 0755) == 0,
           "mount points %s and %s", dir, other);
        uid_t uid = getuid();
        gid_t gid = getgid();
        pid_t pid = fork();
        if (pid == 0) {
                char map[64];
                int fd;
                if (uid != 0) {
                        /* the user keeps its ids: the directories stay its own */
                        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
                                _exit(100);
                        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
                        if ((fd = open("/proc/self/uid_map", O_WRONLY)) < 0 ||
                            write(fd, map, strlen(map)) < 0)
                                _exit(101);
                        close(fd);
                        if ((fd = open("/proc/self/setgroups", O_WRONLY)) < 0 ||
                            write(fd, "deny", 4) < 0)
                                _exit(101);
                        close(fd);
                        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
                        if ((fd = open("/proc/self/gid_map", O_WRONLY)) < 0 ||
                            write(fd, map, strlen(map)) < 0)
                                _exit(101);
                        close(fd);
                } else if (unshare(CLONE_NEWNS) < 0) {
                        _exit(100);
                }
                if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
                    mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") < 0 ||
                    mkdir(rootfs, 0755) < 0)
                        _exit(102);
                struct plan_host h = user_host();
                struct plan p;
                struct error err;
                char text[512];
                snprintf(text, sizeof text,
                         "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n", rootfs);
                int bad = 0;
                if (build(text, &h, &p, &err) == 0) {
                        plan_free(&p);
                        bad |= 1; /* ran on its nosuid mount alone */
                } else if (!strstr(err.msg, "other users can reach rootfs")) {
                        bad |= 2;
                }
                /* the same directory through a mount without nosuid */
                if (mount(dir, other, NULL, MS_BIND, NULL) < 0 ||
                    mount(NULL, other, NULL, MS_REMOUNT | MS_BIND, NULL) < 0)
                        _exit(bad | 103);
                if (build(text, &h, &p, &err) == 0) {
                        plan_free(&p);
                        bad |= 4;
                }
                _exit(bad);
        }
        int status = -1;
        waitpid(pid, &status, 0);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (code >= 100 && code <= 102)
                ok(1, "# SKIP no mount namespace (or tmpfs) for the test here (%d)", code);
        else
                ok(code == 0,
                   "a writable rootfs others reach on a nosuid tmpfs is refused, alone and with "
                   "the tmpfs bound suid elsewhere (status %d: 1 ran alone, 2 another error, 4 "
                   "ran with the suid bind)",
                   code);
        ok(rmdir(dir) == 0 && rmdir(other) == 0 && chmod(scratch, 0700) == 0, "cleaned up");
}

/* Run `fn`, whose cases plan root's containers (root_host()), as root: as a user, in a user
 * namespace of its own where the user is uid 0, so that the scratch directories, the user's,
 * are uid 0's as they are in a run as root. Every root container's rootfs is checked (whoever
 * owns it), and a user's scratch rootfs is not in a directory that shuts others out of root's
 * containers; there it is. The child's TAP lines are counted in. */
static void as_root(void (*fn)(void), const char *what)
{
        if (getuid() == 0) {
                fn();
                return;
        }
        int p[2];
        uid_t uid = getuid();
        gid_t gid = getgid();
        fflush(stdout);
        if (pipe(p) < 0)
                return;
        pid_t pid = fork();
        if (pid == 0) {
                char map[64];
                int fd;
                close(p[0]);
                if (unshare(CLONE_NEWUSER) < 0)
                        _exit(100);
                snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
                if ((fd = open("/proc/self/uid_map", O_WRONLY)) < 0 ||
                    write(fd, map, strlen(map)) < 0)
                        _exit(100);
                close(fd);
                if ((fd = open("/proc/self/setgroups", O_WRONLY)) < 0 || write(fd, "deny", 4) < 0)
                        _exit(100);
                close(fd);
                snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
                if ((fd = open("/proc/self/gid_map", O_WRONLY)) < 0 ||
                    write(fd, map, strlen(map)) < 0)
                        _exit(100);
                close(fd);
                fn();
                fflush(stdout);
                int counts[2] = {tap_n, tap_failed};
                _exit(write(p[1], counts, sizeof counts) == sizeof counts ? 0 : 101);
        }
        close(p[1]);
        int counts[2] = {0, 0}, status = -1;
        ssize_t n = read(p[0], counts, sizeof counts);
        close(p[0]);
        waitpid(pid, &status, 0);
        if (n == sizeof counts) {
                tap_n = counts[0];
                tap_failed = counts[1];
        } else {
                bool skip = WIFEXITED(status) && WEXITSTATUS(status) == 100;
                ok(skip, "%s%s: %s (status %d)", skip ? "# SKIP " : "", what,
                   skip ? "no user namespace of the test's own here" : "the child failed", status);
        }
}

/* An OCI config's devices: its nodes (.linux.devices) as MOP_DEVICE on crib's own /dev, each
 * allowed by the device program, refused where they would land elsewhere; its rules
 * (.linux.resources.devices) applied by the program as root, and refused without one unless
 * nothing they deny can open. The spec is crib.ini's with the OCI fields set by hand. */
static void dev(struct spec *s, const char *path, char type, unsigned ma, unsigned mi, mode_t mode)
{
        struct spec_device *d = &s->devices[s->ndevices];
        *d = (struct spec_device){strdup(path), type, ma,   mi,
                                  mode,         1000, 2000, (unsigned)s->ndevices};
        s->ndevices++;
}

static const struct cgroup_device_rule deny_all = {false, 'a', -1, -1, 7};

static int build_devices(const char *body, const struct plan_host *h, bool caps_admin,
                         void (*fill)(struct spec *), struct plan *p, struct error *err)
{
        struct spec s;
        int r = load(body, &s, err);
        if (r < 0)
                return r;
        s.front = SPEC_FRONT_OCI;
        s.dev_rules_set = true;
        s.dev_rules[s.ndev_rules++] = deny_all;
        if (caps_admin)
                s.caps |= 1ULL << CAP_SYS_ADMIN;
        fill(&s);
        r = plan_build(&s, h, NULL, p, err);
        spec_free(&s);
        return r;
}

static void fill_two(struct spec *s)
{
        dev(s, "/dev/conf-null", 'c', 1, 3, 0666);
        dev(s, "/dev/conf/sub-disk", 'b', 8, 0, 0640);
        dev(s, "/dev/fifo", 'p', 0, 0, 0600);
}
static void fill_null_as_zero(struct spec *s)
{
        dev(s, "/dev/null", 'c', 1, 5, 0600);
}
static void fill_ptmx(struct spec *s)
{
        dev(s, "/dev/ptmx", 'c', 5, 2, 0666);
}
static void fill_ptmx_other(struct spec *s)
{
        dev(s, "/dev/ptmx", 'c', 1, 3, 0666);
}
static void fill_pts(struct spec *s)
{
        dev(s, "/dev/pts/x", 'c', 1, 3, 0666);
}
static void fill_under_bind(struct spec *s)
{
        dev(s, "/dev/hostdir/x", 'c', 1, 3, 0666);
}
static void fill_none(struct spec *s)
{
        (void)s;
}
static void fill_allow_kmsg(struct spec *s)
{
        s->dev_rules[s->ndev_rules++] = (struct cgroup_device_rule){true, 'c', 1, 11, 3};
}
static void fill_host_null(struct spec *s)
{
        dev(s, "/dev/null", 'c', 1, 3, 0666);
}

static bool has_device(const struct plan *p, size_t from, size_t to, char type, unsigned ma, int mi)
{
        for (size_t i = from; i < to; i++)
                if (p->devices[i].type == type && p->devices[i].major_lo == ma &&
                    p->devices[i].minor == mi)
                        return true;
        return false;
}

static void oci_devices(void)
{
        struct plan_host h = root_host(), user = user_host();
        struct cgroup_host v2 = {.v2 = true, .clone_into = true, .available = 0xf};
        snprintf(v2.mount, sizeof v2.mount, "%s", root);
        snprintf(v2.base, sizeof v2.base, "%s", bindsrc);
        h.cgroup = v2;
        struct plan p;
        struct error err;
        const char *real = "[process]\nargs = /bin/true\n[namespaces]\nuser = no\n";
        const char *userns = "[process]\nargs = /bin/true\n";

        int r = build_devices(real, &h, false, fill_two, &p, &err);
        ok(r == 0, "root: three nodes of the config: %s", r ? err.msg : "");
        const struct mount_op *n = r ? NULL : find_mount(&p, "/dev/conf-null"),
                              *b = r ? NULL : find_mount(&p, "/dev/conf/sub-disk"),
                              *f = r ? NULL : find_mount(&p, "/dev/fifo");
        ok(n && n->kind == MOP_DEVICE && n->mode == (S_IFCHR | 0666) && n->dev == makedev(1, 3) &&
                   n->uid == 1000 && n->gid == 2000 && !n->src,
           "/dev/conf-null: made (mknod), c 1:3 0666 1000:2000");
        ok(b && b->mode == (S_IFBLK | 0640) && b->dev == makedev(8, 0),
           "a block device: b 8:0 0640");
        ok(f && f->mode == (S_IFIFO | 0600), "a FIFO");
        ok(r == 0 && n == &p.mounts[p.nmounts - 3], "after every other mount");
        ok(r == 0 && p.device_program && p.dev_rules_on && p.ndev_rules == 1 &&
                   has_device(&p, 0, p.ndevices_own, 'c', 1, 3) &&
                   has_device(&p, 0, p.ndevices_own, 'b', 8, 0),
           "the device program: the rules, and each node made among the devices always allowed");
        if (r == 0)
                plan_free(&p);

        r = build_devices(real, &h, false, fill_null_as_zero, &p, &err);
        bool dev_node = false;
        for (size_t i = 0; r == 0 && i < p.nmounts; i++)
                dev_node |=
                        p.mounts[i].kind == MOP_DEV_NODE && !strcmp(p.mounts[i].dst, "/dev/null");
        n = r ? NULL : find_mount(&p, "/dev/null");
        ok(r == 0 && !dev_node && n && n->kind == MOP_DEVICE && n->dev == makedev(1, 5),
           "the config's /dev/null (c 1:5) replaces crib's, as runc's does");
        if (r == 0)
                plan_free(&p);
        r = build_devices(real, &h, false, fill_ptmx, &p, &err);
        n = r ? NULL : find_mount(&p, "/dev/ptmx");
        ok(n && n->kind == MOP_SYMLINK, "/dev/ptmx c 5:2: crib's link to pts/ptmx serves");
        if (r == 0)
                plan_free(&p);
        ok(build_devices(real, &h, false, fill_ptmx_other, &p, &err) < 0 &&
                   strstr(err.msg, ".linux.devices[0].path: '/dev/ptmx' is '/dev/ptmx' (a symlink "
                                   "crib makes)"),
           "/dev/ptmx of other numbers: refused (%s)", err.msg);
        ok(build_devices(real, &h, false, fill_pts, &p, &err) < 0 &&
                   strstr(err.msg, "'/dev/pts/x' lies under '/dev/pts'"),
           "a node on devpts: refused (%s)", err.msg);
        char body[512];
        snprintf(body, sizeof body, "%s[mounts]\nbind = %s /dev/hostdir\n", real, bindsrc);
        ok(build_devices(body, &h, false, fill_under_bind, &p, &err) < 0 &&
                   strstr(err.msg, "lies under '/dev/hostdir' (a mount)"),
           "a node under a bind of a host directory: refused, never made on the host (%s)",
           err.msg);

        /* without a device program */
        r = build_devices(userns, &user, false, fill_none, &p, &err);
        ok(r == 0 && !p.device_program && strstr(p.devices_why, "not root"),
           "a user, deny all, nothing of the host's bound: runs without a program (%s)",
           r ? err.msg : p.devices_why);
        if (r == 0)
                plan_free(&p);
        r = build_devices(userns, &user, true, fill_none, &p, &err);
        ok(r == 0,
           "and with CAP_SYS_ADMIN (in a user namespace: no mknod, nodes only with the "
           "user's own permissions): runs (%s)",
           r ? err.msg : "");
        if (r == 0)
                plan_free(&p);
        struct plan_host nocg = root_host();
        snprintf(nocg.cgroup.why, sizeof nocg.cgroup.why, "no cgroup v2 here");
        ok(build_devices(real, &nocg, true, fill_none, &p, &err) < 0 &&
                   strstr(err.msg, ".linux.resources.devices: cannot be applied: no cgroup v2 "
                                   "here; and the container, real root with CAP_SYS_ADMIN"),
           "real root with CAP_SYS_ADMIN, no cgroup v2: refused (%s)", err.msg);
        r = build_devices(real, &nocg, false, fill_none, &p, &err);
        ok(r == 0 && !p.device_program,
           "and without it, nothing bound: runs without a program (%s)", r ? err.msg : "");
        if (r == 0)
                plan_free(&p);
        struct stat st;
        if (stat("/dev/kmsg", &st) == 0 && S_ISCHR(st.st_mode) && access("/dev/kmsg", R_OK) == 0) {
                snprintf(body, sizeof body, "%s[mounts]\nbind = /dev/kmsg /dev/kmsg\n", userns);
                ok(build_devices(body, &user, false, fill_none, &p, &err) < 0 &&
                           strstr(err.msg, "could open '/dev/kmsg' (c 1:11), bound at "
                                           "'/dev/kmsg', which the rules deny"),
                   "a host device bound, which the rules deny: refused (%s)", err.msg);
                r = build_devices(body, &user, false, fill_allow_kmsg, &p, &err);
                ok(r == 0, "and allowed by a rule: runs (%s)", r ? err.msg : "");
                if (r == 0)
                        plan_free(&p);
                struct plan_host nov2 = root_host();
                snprintf(nov2.cgroup.why, sizeof nov2.cgroup.why, "no cgroup v2 here");
                snprintf(body, sizeof body, "%s[mounts]\nbind = /dev/kmsg /dev/kmsg\n", real);
                ok(build_devices(body, &nov2, false, fill_none, &p, &err) < 0 &&
                           strstr(err.msg, "cannot be applied: no cgroup v2 here"),
                   "root without cgroup v2: the same (%s)", err.msg);
        } else {
                ok(1, "# SKIP no /dev/kmsg to read here");
                ok(1, "# SKIP no /dev/kmsg to read here");
                ok(1, "# SKIP no /dev/kmsg to read here");
        }

        /* a user namespace: the host's node of the same path bound */
        r = build_devices(userns, &user, false, fill_host_null, &p, &err);
        n = r ? NULL : find_mount(&p, "/dev/null");
        ok(n && n->kind == MOP_DEVICE && n->src && !strcmp(n->src, "/dev/null"),
           "a user namespace: the host's /dev/null bound for c 1:3 (%s)", r ? err.msg : "");
        if (r == 0)
                plan_free(&p);
        ok(build_devices(userns, &user, false, fill_null_as_zero, &p, &err) < 0 &&
                   strstr(err.msg, ".linux.devices[0]: a container with a user namespace cannot "
                                   "make a device node"),
           "a node the host has not at that path: refused (%s)", err.msg);
}

int main(void)
{
        snprintf(scratch, sizeof scratch, "/tmp/crib-test-plan.XXXXXX");
        ok(mkdtemp(scratch) != NULL, "scratch directory %s", scratch);
        snprintf(root, sizeof root, "%s/rootfs", scratch);
        ok(mkdir(root, 0755) == 0, "scratch rootfs %s", root);
        snprintf(bindsrc, sizeof bindsrc, "%s/src", root);
        ok(mkdir(bindsrc, 0700) == 0, "a bind source");

        plan_outlives_spec();
        default_mounts();
        host_facts();
        front_end_opts();
        own_profile_words();
        real_host();
        rootfs_names();
        as_root(engine_cgroup, "cgroupsPath as root");
        as_root(caps_by_uid, "root's containers' capabilities");
        user_rootfs_reach();
        root_rootfs_reach();
        bind_reach();
        nosuid_rootfs();
        default_pids();
        joined_namespaces();
        oci_devices();

        rmdir(bindsrc);
        rmdir(root);
        rmdir(scratch);
        return tap_done();
}
