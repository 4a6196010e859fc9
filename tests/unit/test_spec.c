/* Unit tests of the spec table (runtime/spec/keys.c), and every file of tests/data/invalid/ fails
 * with the message its first line states ("# expect: TEXT", TEXT following the file name):
 * while reading it, or else while planning the container (runtime/plan/plan.c). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "plan/plan.h"
#include "spec/spec.h"
#include "../lib/tap.h"

static int load(const char *text, struct spec *s, struct error *err)
{
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        int r = spec_load("t.ini", f, false, s, err);
        fclose(f);
        return r;
}

/* One value for each key, and whether the field it sets holds it. */
struct key_sample {
        const char *value;
        bool (*holds)(const struct spec *s);
};
static bool has_env_a1(const struct spec *s)
{
        for (size_t i = 0; i < s->nenv; i++)
                if (!strcmp(s->env[i], "A=1"))
                        return true;
        return false;
}
#define HOLDS(name, expr)                                                                          \
        static bool name(const struct spec *s)                                                     \
        {                                                                                          \
                return (expr);                                                                     \
        }
HOLDS(rootfs_set, !strcmp(s->rootfs, "/srv/root"))
HOLDS(image_set, s->image && !strcmp(s->image, "busybox:1.36") && !s->rootfs)
HOLDS(hostname_set, s->hostname && !strcmp(s->hostname, "box"))
HOLDS(ro_set, s->readonly_rootfs)
HOLDS(args_set, !strcmp(s->args[0], "/bin/echo") && !strcmp(s->args[2], "b") && !s->args[3])
HOLDS(cwd_set, s->cwd && !strcmp(s->cwd, "/srv"))
HOLDS(user_set, s->uid == 1000 && s->gid == 1001)
HOLDS(groups_set, s->groups_set && s->ngroups == 2 && s->groups[1] == 7)
HOLDS(umask_set, s->umask == 077)
HOLDS(terminal_set, s->terminal == TERMINAL_YES)
HOLDS(init_set, !s->init)
HOLDS(fds_set, s->npass_fds == 1 && s->pass_fds[0] == 3)
HOLDS(nsuser_set, !s->ns_user)
HOLDS(nsmount_set, s->path != NULL) /* the mount namespace is not optional: "yes" is all */
HOLDS(nspid_set, !s->ns_pid)
HOLDS(nsipc_set, !s->ns_ipc)
HOLDS(nsuts_set, !s->ns_uts)
HOLDS(nsnet_set, !s->ns_net)
HOLDS(nscgroup_set, !s->ns_cgroup)
HOLDS(uid_set, s->uidmap.n == 1 && s->uidmap.ranges[0].outside == 100000 &&
                       s->uidmap.ranges[0].count == 65536)
HOLDS(gid_set, s->gidmap.n == 1 && s->gidmap.ranges[0].outside == 200000)
HOLDS(bind_set,
      s->nmounts == 1 && s->mounts[0].kind == SPEC_MOUNT_BIND && !strcmp(s->mounts[0].dst, "/b"))
HOLDS(tmpfs_set,
      s->nmounts == 1 && s->mounts[0].kind == SPEC_MOUNT_TMPFS && !strcmp(s->mounts[0].dst, "/t"))
HOLDS(cgroup_mount_set, s->cgroup_mount == SPEC_CGROUP_MOUNT_RO)
HOLDS(level_set, !strcmp(s->level, "strict"))
HOLDS(caps_set, s->caps == 0)
HOLDS(nnp_set, !s->no_new_privileges)
HOLDS(masked_set, s->masked.n == 1 && !strcmp(s->masked.items[0], "/x"))
HOLDS(readonly_set, s->readonly.n == 1 && !strcmp(s->readonly.items[0], "/y"))
HOLDS(seccomp_set, !strcmp(s->seccomp, "unconfined"))
HOLDS(seccomp_mode_set, s->seccomp_require)
HOLDS(apparmor_set, !strcmp(s->apparmor, "unconfined"))
HOLDS(apparmor_mode_set, s->apparmor_require)
HOLDS(memory_set,
      s->resources.memory_max == 256LL << 20 && s->resources.need == CGROUP_BIT(CGROUP_MEMORY))
HOLDS(memory_high_set, s->resources.memory_high == 3LL << 30)
HOLDS(memory_swap_set, s->resources.memory_swap == CGROUP_MAX)
HOLDS(memory_low_set,
      s->resources.memory_low == 64LL << 20 && s->resources.need == CGROUP_BIT(CGROUP_MEMORY))
HOLDS(cpus_set, s->resources.cpu_quota == 150000 && s->resources.cpu_period == 100000 &&
                        s->resources.need == CGROUP_BIT(CGROUP_CPU))
HOLDS(cpu_weight_set, s->resources.cpu_weight == 200)
HOLDS(pids_set, s->resources.pids_max == 64 && s->resources.need == CGROUP_BIT(CGROUP_PIDS))
HOLDS(io_weight_set, s->resources.io_weight == 50 && s->resources.need == CGROUP_BIT(CGROUP_IO))
HOLDS(cpuset_cpus_set,
      !strcmp(s->resources.cpuset_cpus, "0-1,3") && s->resources.need == CGROUP_BIT(CGROUP_CPUSET))
HOLDS(cpuset_mems_set, !strcmp(s->resources.cpuset_mems, "0"))
HOLDS(resources_mode_set, !s->resources_require)
/* a helper's mode drops a level's NET_RAW (host_loopback = no) */
HOLDS(net_mode_set, s->net_mode == SPEC_NET_PASTA && s->caps && !(s->caps & (1ULL << 13)))
HOLDS(publish_set, s->nports == 1 && !strcmp(s->ports[0].addr, "127.0.0.1") &&
                           s->ports[0].host_port == 8080 && s->ports[0].port == 80 &&
                           s->ports[0].udp)
HOLDS(dns_set, s->ndns == 1 && !strcmp(s->dns[0], "192.0.2.53"))
HOLDS(host_loopback_set, s->host_loopback && (s->caps & (1ULL << 13)))
HOLDS(restart_set, s->restart == SPEC_RESTART_ON_FAILURE && s->restart_max == 5)
HOLDS(healthcheck_set, s->health.argv && !strcmp(s->health.argv[0], "/bin/sh") &&
                               !strcmp(s->health.argv[2], "test -e /ok") && !s->health.argv[3])
HOLDS(hc_interval_set, s->health.interval_ms == 500 && s->health.timeout_ms == 30000)
HOLDS(hc_timeout_set, s->health.timeout_ms == 90000 && s->health.interval_ms == 30000)
HOLDS(hc_retries_set, s->health.retries == 7)
HOLDS(hc_start_period_set, s->health.start_period_ms == 2 * 3600 * 1000)
HOLDS(on_unhealthy_set, s->health.on_unhealthy == SPEC_UNHEALTHY_RESTART)
HOLDS(notify_set, s->notify == SPEC_NOTIFY_CONTAINER)
#undef HOLDS

static const struct key_sample samples[] = {
        [SPEC_KEY_CONTAINER_ROOTFS] = {"/srv/root", rootfs_set},
        [SPEC_KEY_CONTAINER_IMAGE] = {"busybox:1.36", image_set},
        [SPEC_KEY_CONTAINER_HOSTNAME] = {"box", hostname_set},
        [SPEC_KEY_CONTAINER_READONLY_ROOTFS] = {"yes", ro_set},
        [SPEC_KEY_PROCESS_ARGS] = {"/bin/echo a b", args_set},
        [SPEC_KEY_PROCESS_ENV] = {"A=1", has_env_a1},
        [SPEC_KEY_PROCESS_CWD] = {"/srv", cwd_set},
        [SPEC_KEY_PROCESS_USER] = {"1000:1001", user_set},
        [SPEC_KEY_PROCESS_GROUPS] = {"5 7", groups_set},
        [SPEC_KEY_PROCESS_UMASK] = {"0077", umask_set},
        [SPEC_KEY_PROCESS_TERMINAL] = {"yes", terminal_set},
        [SPEC_KEY_PROCESS_INIT] = {"no", init_set},
        [SPEC_KEY_PROCESS_PASS_FDS] = {"3", fds_set},
        [SPEC_KEY_NAMESPACES_USER] = {"no", nsuser_set},
        [SPEC_KEY_NAMESPACES_MOUNT] = {"yes", nsmount_set},
        [SPEC_KEY_NAMESPACES_PID] = {"no", nspid_set},
        [SPEC_KEY_NAMESPACES_IPC] = {"no", nsipc_set},
        [SPEC_KEY_NAMESPACES_UTS] = {"no", nsuts_set},
        [SPEC_KEY_NAMESPACES_NET] = {"no", nsnet_set},
        [SPEC_KEY_NAMESPACES_CGROUP] = {"no", nscgroup_set},
        [SPEC_KEY_IDMAP_UID] = {"0 100000 65536", uid_set},
        [SPEC_KEY_IDMAP_GID] = {"0 200000 65536", gid_set},
        [SPEC_KEY_MOUNTS_BIND] = {"/a /b ro", bind_set},
        [SPEC_KEY_MOUNTS_TMPFS] = {"/t size=1m", tmpfs_set},
        [SPEC_KEY_MOUNTS_CGROUP] = {"ro", cgroup_mount_set},
        [SPEC_KEY_SECURITY_LEVEL] = {"strict", level_set},
        [SPEC_KEY_SECURITY_CAPABILITIES] = {"none", caps_set},
        [SPEC_KEY_SECURITY_NO_NEW_PRIVILEGES] = {"no", nnp_set},
        [SPEC_KEY_SECURITY_MASKED_PATHS] = {"/x", masked_set},
        [SPEC_KEY_SECURITY_READONLY_PATHS] = {"/y", readonly_set},
        [SPEC_KEY_SECURITY_SECCOMP] = {"unconfined", seccomp_set},
        [SPEC_KEY_SECURITY_SECCOMP_MODE] = {"require", seccomp_mode_set},
        [SPEC_KEY_SECURITY_APPARMOR] = {"unconfined", apparmor_set},
        [SPEC_KEY_SECURITY_APPARMOR_MODE] = {"require", apparmor_mode_set},
        [SPEC_KEY_RESOURCES_MEMORY] = {"256M", memory_set},
        [SPEC_KEY_RESOURCES_MEMORY_HIGH] = {"3g", memory_high_set},
        [SPEC_KEY_RESOURCES_MEMORY_SWAP] = {"max", memory_swap_set},
        [SPEC_KEY_RESOURCES_MEMORY_LOW] = {"64M", memory_low_set},
        [SPEC_KEY_RESOURCES_CPUS] = {"1.5", cpus_set},
        [SPEC_KEY_RESOURCES_CPU_WEIGHT] = {"200", cpu_weight_set},
        [SPEC_KEY_RESOURCES_PIDS] = {"64", pids_set},
        [SPEC_KEY_RESOURCES_IO_WEIGHT] = {"50", io_weight_set},
        [SPEC_KEY_RESOURCES_CPUSET_CPUS] = {"0-1,3", cpuset_cpus_set},
        [SPEC_KEY_RESOURCES_CPUSET_MEMS] = {"0", cpuset_mems_set},
        [SPEC_KEY_RESOURCES_MODE] = {"prefer", resources_mode_set},
        [SPEC_KEY_NETWORK_MODE] = {"pasta", net_mode_set},
        [SPEC_KEY_NETWORK_PUBLISH] = {"127.0.0.1:8080:80/udp", publish_set},
        [SPEC_KEY_NETWORK_DNS] = {"192.0.2.53", dns_set},
        [SPEC_KEY_NETWORK_HOST_LOOPBACK] = {"yes", host_loopback_set},
        [SPEC_KEY_SERVICE_RESTART] = {"on-failure:5", restart_set},
        [SPEC_KEY_SERVICE_HEALTHCHECK] = {"/bin/sh -c \"test -e /ok\"", healthcheck_set},
        [SPEC_KEY_SERVICE_HEALTHCHECK_INTERVAL] = {"500ms", hc_interval_set},
        [SPEC_KEY_SERVICE_HEALTHCHECK_TIMEOUT] = {"90s", hc_timeout_set},
        [SPEC_KEY_SERVICE_HEALTHCHECK_RETRIES] = {"7", hc_retries_set},
        [SPEC_KEY_SERVICE_HEALTHCHECK_START_PERIOD] = {"2h", hc_start_period_set},
        [SPEC_KEY_SERVICE_ON_UNHEALTHY] = {"restart", on_unhealthy_set},
        [SPEC_KEY_SERVICE_NOTIFY] = {"container", notify_set},
};

/* `key` set to its sample, alone in its section (with the rootfs and args every spec needs):
 * the field holds the value, and the origin is this file's line */
static void key_value_check(enum spec_key k, const char *sec, const char *key)
{
        char text[512];
        const char *value = k < sizeof samples / sizeof samples[0] ? samples[k].value : NULL;
        int limit = -1;
        for (int r = 0; r < SPEC_NLIMITS; r++)
                if (spec_limit_key(r) == k)
                        limit = r;
        if (limit >= 0)
                value = "7:9";
        if (!value) {
                ok(0, "%s.%s has a sample value in this test", sec, key);
                return;
        }
        int n = 0;
        if (k != SPEC_KEY_CONTAINER_ROOTFS && k != SPEC_KEY_CONTAINER_IMAGE &&
            k != SPEC_KEY_PROCESS_ARGS)
                n = snprintf(text, sizeof text, "[container]\nrootfs = r\n[process]\nargs = x\n");
        else if (k == SPEC_KEY_CONTAINER_ROOTFS || k == SPEC_KEY_CONTAINER_IMAGE)
                n = snprintf(text, sizeof text, "[process]\nargs = x\n");
        else
                n = snprintf(text, sizeof text, "[container]\nrootfs = r\n");
        /* a map needs its partner, given first so the key's line stays the last */
        const char *partner = k == SPEC_KEY_IDMAP_UID   ? "gid = 0 200000 65536\n"
                              : k == SPEC_KEY_IDMAP_GID ? "uid = 0 100000 65536\n"
                              /* the other [network] keys need a helper's mode */
                              : !strcmp(sec, "network") && k != SPEC_KEY_NETWORK_MODE
                                      ? "mode = slirp4netns\n"
                                      : "";
        snprintf(text + n, sizeof text - (size_t)n, "[%s]\n%s%s = %s\n", sec, partner, key, value);
        unsigned line = 1;
        for (const char *c = text; *c; c++)
                line += *c == '\n';
        line -= 1; /* the key's line is the last */
        struct spec s;
        struct error err;
        if (load(text, &s, &err) < 0) {
                ok(0, "%s.%s = %s parses: %s", sec, key, value, err.msg);
                return;
        }
        bool holds = limit >= 0 ? s.limits[limit].set && s.limits[limit].soft == 7 &&
                                          s.limits[limit].hard == 9
                                : samples[k].holds(&s);
        ok(holds && spec_in_file(&s, k) && spec_line(&s, k) == line,
           "%s.%s = %s sets its field, from t.ini:%u", sec, key, value, line);
        spec_free(&s);
}

static void invalid_files(const char *dir)
{
        DIR *d = opendir(dir);
        struct dirent *e;
        int n = 0;
        ok(d != NULL, "open %s", dir);
        if (!d)
                return;
        while ((e = readdir(d))) {
                char path[1024], expect[1024], want[2048];
                if (!strstr(e->d_name, ".ini"))
                        continue;
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                FILE *f = fopen(path, "r");
                if (!f || !fgets(expect, sizeof expect, f) || strncmp(expect, "# expect: ", 10)) {
                        ok(0, "%s starts with '# expect: '", e->d_name);
                        if (f)
                                fclose(f);
                        continue;
                }
                expect[strcspn(expect, "\n")] = '\0';
                rewind(f);
                struct spec s;
                struct error err;
                int r = spec_load(path, f, false, &s, &err);
                fclose(f);
                if (r == 0) {
                        /* a spec that reads well but names something it cannot have (rootfs = /)
                         * is refused by the plan, before any change */
                        struct plan_host host;
                        struct plan p;
                        plan_host_gather(&s, &host);
                        r = plan_build(&s, &host, NULL, &p, &err);
                        if (r == 0)
                                plan_free(&p);
                        spec_free(&s);
                        r = r < 0 ? -1 : 0;
                }
                snprintf(want, sizeof want, "%s%s", path, expect + 10);
                ok(r < 0, "%s is refused", e->d_name);
                if (r < 0)
                        is_str(err.msg, want, "%s: the stated message", e->d_name);
                n++;
        }
        closedir(d);
        ok(n >= 30, "%d invalid specs checked", n);
}

int main(int argc, char **argv)
{
        struct spec s;
        struct error err;

        ok(load("[container]\nrootfs = r\n[process]\nargs = /bin/true\n", &s, &err) == 0,
           "minimal spec");
        ok(s.ns_user && s.ns_pid && s.ns_net && s.ns_ipc && s.ns_uts && s.ns_cgroup,
           "every namespace on by default");
        ok(s.init && s.terminal == TERMINAL_AUTO && s.umask == 022 && s.uid == 0,
           "process defaults");
        spec_free(&s);

        ok(load("[container]\nrootfs = r\nhostname = h\nreadonly_rootfs = yes\n"
                "[process]\nargs = sh -c 'a b'\nenv = A=1\nenv = B=x=y\ncwd = /tmp\n"
                "user = 1000:100\ngroups = 10, 20\numask = 077\nterminal = no\ninit = no\n"
                "[namespaces]\nnet = no\nmount = yes\n"
                "[idmap]\nuid = 0 1000 1\nuid = 1 100000 100\ngid = auto\n"
                "[mounts]\nbind = \"/a b\" /c ro,nosuid,recursive\ntmpfs = /t "
                "size=1m,mode=700,noexec\n",
                &s, &err) == 0,
           "full spec");
        is_str(s.hostname, "h", "hostname");
        ok(s.readonly_rootfs, "readonly_rootfs");
        is_str(s.args[2], "a b", "args split with quotes");
        is_str(s.env[1], "B=x=y", "env keeps '=' in values");
        ok(s.nenv == 2, "two env entries");
        ok(s.uid == 1000 && s.gid == 100, "user uid:gid");
        ok(s.ngroups == 2 && s.groups[1] == 20, "groups");
        ok(s.umask == 077 && s.terminal == TERMINAL_NO && !s.init && !s.ns_net, "other keys");
        ok(s.uidmap.n == 2 && s.uidmap.ranges[1].count == 100 && s.gidmap.is_auto, "id maps");
        ok(s.nmounts == 2, "two mounts");
        is_str(s.mounts[0].src, "/a b", "bind source with a space");
        ok(s.mounts[0].opts == (SPEC_MNT_RO | SPEC_MNT_NOSUID | SPEC_MNT_RECURSIVE),
           "bind options");
        is_str(s.mounts[1].data, "size=1m,mode=700", "tmpfs data");
        ok(s.mounts[1].opts & SPEC_MNT_NOEXEC, "tmpfs flags");
        ok(spec_line(&s, SPEC_KEY_PROCESS_USER) == 10, "spec_line");
        spec_free(&s);

        /* where each value came from, by key */
        char where[256];
        ok(load("[security]\nlevel = strict\ncapabilities = +CHOWN\n[container]\nrootfs = r\n"
                "[process]\nargs = x\n",
                &s, &err) == 0,
           "spec over the strict level");
        spec_origin_text(&s, SPEC_KEY_SECURITY_CAPABILITIES, where, sizeof where);
        is_str(where, "t.ini:3", "capabilities: from the spec file, with its line");
        ok(spec_in_file(&s, SPEC_KEY_SECURITY_CAPABILITIES) &&
                   spec_line(&s, SPEC_KEY_SECURITY_CAPABILITIES) == 3,
           "spec_in_file, spec_line");
        ok(spec_origin(&s, SPEC_KEY_CONTAINER_READONLY_ROOTFS)->kind == SPEC_FROM_LEVEL &&
                   !strcmp(spec_level_name(
                                   spec_origin(&s, SPEC_KEY_CONTAINER_READONLY_ROOTFS)->level),
                           "strict"),
           "readonly_rootfs: from the strict level");
        ok(spec_line(&s, SPEC_KEY_CONTAINER_READONLY_ROOTFS) == 0,
           "a level's key has no line in the spec file");
        spec_origin_text(&s, SPEC_KEY_SECURITY_APPARMOR, where, sizeof where);
        ok(!strncmp(where, "level default (profiles/levels/default:", 39),
           "apparmor: from the default level (%s)", where);
        spec_origin_text(&s, SPEC_KEY_PROCESS_UMASK, where, sizeof where);
        is_str(where, "built-in default", "umask: crib's built-in default");
        char *cli[] = {"/bin/echo", "hi", NULL};
        ok(spec_override_args(&s, cli, &err) == 0 && !strcmp(s.args[1], "hi") && !s.args[2],
           "the command line replaces args");
        spec_origin_text(&s, SPEC_KEY_PROCESS_ARGS, where, sizeof where);
        is_str(where, "command line", "args: from the command line");
        spec_free(&s);

        /* the enum and the key table agree: every key has a row, found again by its name */
        bool rows = true;
        for (size_t i = 0; i < SPEC_NKEYS; i++) {
                const char *sec = NULL, *key = NULL;
                rows &= spec_key_at(i, &sec, &key) && sec && key;
        }
        ok(rows, "every enum spec_key has its row in the key table");
        ok(spec_limit_key(RLIMIT_NOFILE) == SPEC_KEY_LIMITS_NOFILE &&
                   spec_limit_key(RLIMIT_RTTIME) == SPEC_KEY_LIMITS_RTTIME,
           "spec_limit_key follows RLIMIT_*");

        ok(load("[container]\nrootfs = r\n[process]\nuser = 7\nargs = x\n", &s, &err) == 0 &&
                   s.gid == 7,
           "user without gid uses the uid as gid");
        spec_free(&s);

        /* security: levels, capability lists and edits, paths, limits */
        ok(load("[container]\nrootfs = r\n[process]\nargs = x\n", &s, &err) == 0 &&
                   s.caps == 0xa80425fbULL && s.no_new_privileges && s.masked.n == 12 &&
                   s.readonly.n == 5 && !strcmp(s.level, "default"),
           "no [security]: the default level (Docker's caps %#llx)", (unsigned long long)s.caps);
        spec_free(&s);
        ok(load("[container]\nrootfs = r\n[process]\nargs = x\n[security]\n"
                "capabilities = default -NET_RAW +cap_sys_ptrace\nmasked_paths = -/proc/keys +/x\n"
                "[limits]\nnofile = 1k:2k\nas = unlimited\n",
                &s, &err) == 0,
           "edits and limits");
        ok(s.caps == ((0xa80425fbULL & ~(1ULL << 13)) | (1ULL << 19)), "capability edits");
        ok(s.masked.n == 12 && !strcmp(s.masked.items[11], "/x"), "path edits on the level's list");
        ok(s.limits[RLIMIT_NOFILE].set && s.limits[RLIMIT_NOFILE].soft == 1024 &&
                   s.limits[RLIMIT_NOFILE].hard == 2048,
           "nofile = 1k:2k");
        ok(s.limits[RLIMIT_AS].soft == RLIM_INFINITY, "as = unlimited");
        spec_free(&s);
        ok(load("[security]\nlevel = strict\ncapabilities = +CHOWN\n[container]\nrootfs = r\n"
                "[process]\nargs = x\n",
                &s, &err) == 0 &&
                   s.caps == 1 && s.readonly_rootfs && s.limits[RLIMIT_NOFILE].hard == 1024,
           "strict level, overridden key by key, wherever [security] stands");
        spec_free(&s);
        ok(load("[security]\nlevel = unconfined\n[container]\nrootfs = r\n[process]\nargs = x\n",
                &s, &err) == 0 &&
                   !s.no_new_privileges && s.masked.n == 0 && __builtin_popcountll(s.caps) > 38,
           "unconfined level");
        spec_free(&s);
        ok(spec_from_level("strict", &s, &err) == 0 && s.caps == 0, "spec_from_level");
        spec_free(&s);

        FILE *f = fmemopen((void *)"[container]\nrootfs = r\n", 22, "r");
        ok(spec_load("t.ini", f, true, &s, &err) == 0, "args may come from the command line");
        fclose(f);
        spec_free(&s);

        /* every key in the table: one value, parsed into its field, from this file's line */
        const char *sec, *key;
        size_t nkeys = 0;
        for (size_t i = 0; spec_key_at(i, &sec, &key); i++) {
                nkeys++;
                key_value_check((enum spec_key)i, sec, key);
        }
        ok(nkeys == SPEC_NKEYS, "the key table lists every one of the %zu keys", nkeys);

        invalid_files(argc > 1 ? argv[1] : "tests/data/invalid");

        /* every key is documented in crib.ini(5) */
        const char *man = argc > 2 ? argv[2] : "cmd/crib.ini.5";
        FILE *mf = fopen(man, "r");
        static char page[65536];
        size_t len = mf ? fread(page, 1, sizeof page - 1, mf) : 0;
        page[len] = '\0';
        if (mf)
                fclose(mf);
        ok(len > 0, "read %s", man);
        for (size_t i = 0; spec_key_at(i, &sec, &key); i++) {
                char section[64], bold[64], inlist[64], last[64];
                snprintf(section, sizeof section, ".SH [%s]", sec);
                snprintf(bold, sizeof bold, ".B %s\n", key);
                snprintf(inlist, sizeof inlist, " %s ", key);
                snprintf(last, sizeof last, " %s\n", key);
                char *at = strstr(page, section);
                char *next = at ? strstr(at + 4, ".SH ") : NULL;
                /* only within the section: the same word may name something in another */
                char saved = next ? *next : '\0';
                if (next)
                        *next = '\0';
                char *k = at ? strstr(at, bold) : NULL;
                if (!k && at)
                        k = strstr(at, inlist);
                if (!k && at)
                        k = strstr(at, last);
                if (next)
                        *next = saved;
                ok(k != NULL, "crib.ini(5) documents %s.%s", sec, key);
        }
        return tap_done();
}
