/* Unit tests of the OCI front end (runtime/oci/): config.json into crib's spec, and the
 * JSON path in every refusal. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/resource.h>

#include "cgroup/cgroup.h"
#include "oci/oci.h"
#include "seccomp/seccomp_profile.h"
#include "../lib/tap.h"

static int load(const char *text, struct oci_config *c, struct error *err)
{
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        int r = oci_load("b/config.json", f, c, err);
        fclose(f);
        return r;
}

#define HEAD "{\"ociVersion\":\"1.0.2\",\"root\":{\"path\":\"rootfs\"},"
#define PROC "\"process\":{\"args\":[\"/bin/sh\"],\"cwd\":\"/\"},"
#define NS   "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}]}"

/* a config of podman's shape, trimmed */
static const char podman[] =
        "{\"ociVersion\":\"1.0.2-dev\",\"process\":{\"user\":{\"uid\":0,\"gid\":0,\"umask\":18},"
        "\"args\":[\"/bin/echo\",\"hi\"],\"env\":[\"PATH=/bin\",\"TERM=xterm\"],\"cwd\":\"/\","
        "\"terminal\":false,\"consoleSize\":{\"height\":0,\"width\":0},"
        "\"capabilities\":{\"bounding\":[\"CAP_CHOWN\",\"CAP_KILL\"],\"effective\":[\"CAP_CHOWN\","
        "\"CAP_KILL\"],\"permitted\":[\"CAP_KILL\",\"CAP_CHOWN\"]},"
        "\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1048576,\"soft\":1024}],"
        "\"noNewPrivileges\":true,\"oomScoreAdj\":null},"
        "\"root\":{\"path\":\"/var/lib/x/merged\",\"readonly\":true},\"hostname\":\"box\","
        "\"mounts\":[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\","
        "\"options\":[\"nosuid\",\"noexec\",\"nodev\"]},{\"destination\":\"/dev\",\"type\":"
        "\"tmpfs\",\"source\":\"tmpfs\",\"options\":[\"nosuid\",\"strictatime\",\"mode=755\"]},"
        "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup\",\"source\":\"cgroup\"},"
        "{\"destination\":\"/etc/hosts\",\"type\":\"bind\",\"source\":\"/run/x/hosts\","
        "\"options\":[\"bind\",\"rprivate\",\"nosuid\",\"noexec\",\"nodev\",\"ro\"]},"
        "{\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":\"tmpfs\",\"options\":[\"rw\","
        "\"rprivate\",\"nosuid\",\"nodev\",\"tmpcopyup\",\"size=1m\"]}],"
        "\"annotations\":{\"io.podman.x\":\"y\"},"
        "\"linux\":{\"sysctl\":{\"net.ipv4.ping_group_range\":\"0 0\"},"
        "\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}],"
        "\"memory\":{\"limit\":67108864,\"swap\":134217728},\"pids\":{\"limit\":100},"
        "\"cpu\":{\"quota\":50000,\"period\":100000}},"
        "\"cgroupsPath\":\"machine.slice:libpod:x\",\"namespaces\":[{\"type\":\"pid\"},"
        "{\"type\":\"network\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":\"mount\"},"
        "{\"type\":\"cgroup\"}],"
        "\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":1,"
        "\"architectures\":[\"SCMP_ARCH_X86_64\"],\"syscalls\":[{\"names\":[\"read\",\"write\","
        "\"exit_group\"],\"action\":\"SCMP_ACT_ALLOW\"},{\"names\":[\"personality\"],\"action\":"
        "\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":8,\"op\":\"SCMP_CMP_EQ\"}]},"
        "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":"
        "2114060288,\"valueTwo\":0,\"op\":\"SCMP_CMP_MASKED_EQ\"}]},{\"names\":[\"clone3\"],"
        "\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":38}]},"
        "\"maskedPaths\":[\"/proc/kcore\"],\"readonlyPaths\":[\"/proc/sys\"]},"
        "\"somethingNew\":{\"x\":1}}";

static void refused(const char *text, const char *want, const char *what)
{
        struct oci_config c;
        struct error err;
        ok(load(text, &c, &err) < 0, "%s: refused", what);
        contains(err.msg, want, "%s: the message names it", what);
}

/* a config whose .linux.seccomp is `sc` (JSON) */
#define SC(sc) HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"seccomp\":" sc "}}"

/* the config's seccomp profile, translated and parsed as crib's own; -1: refused on the way */
static int seccomp_of(const char *text, struct profile *p, struct error *err)
{
        struct oci_config c;
        if (load(text, &c, err) < 0)
                return -1;
        int r = -1;
        if (c.spec.seccomp_text) {
                FILE *f = fmemopen(c.spec.seccomp_text, strlen(c.spec.seccomp_text), "r");
                r = f ? profile_parse(f, "oci", p, err) : -1;
                if (f)
                        fclose(f);
        }
        oci_free(&c);
        return r;
}

/* .linux.seccomp's actions (runc's: libseccomp's names) into crib's, and what stays refused */
static void seccomp_actions(void)
{
        struct profile p;
        struct error err;
        int r = seccomp_of(
                SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
                   "{\"names\":[\"mkdir\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":13},"
                   "{\"names\":[\"uname\"],\"action\":\"SCMP_ACT_KILL_PROCESS\"},"
                   "{\"names\":[\"getppid\"],\"action\":\"SCMP_ACT_KILL\"},"
                   "{\"names\":[\"gettid\"],\"action\":\"SCMP_ACT_KILL_THREAD\"},"
                   "{\"names\":[\"getuid\"],\"action\":\"SCMP_ACT_TRAP\"},"
                   "{\"names\":[\"getgid\"],\"action\":\"SCMP_ACT_LOG\"},"
                   "{\"names\":[\"rmdir\"],\"action\":\"SCMP_ACT_ERRNO\"},"
                   "{\"names\":[\"getpid\"],\"action\":\"SCMP_ACT_ALLOW\",\"errnoRet\":5}]}"),
                &p, &err);
        ok(r == 0, "a deny-list with every action crib takes loads and parses%s%s", r ? ": " : "",
           r ? err.msg : "");
        if (r == 0) {
                static const struct {
                        enum profile_act act;
                        int errnum;
                        const char *name;
                } want[] = {
                        {PROFILE_ERRNO, 13, "mkdir"},        {PROFILE_KILL, 0, "uname"},
                        {PROFILE_KILL_THREAD, 0, "getppid"}, {PROFILE_KILL_THREAD, 0, "gettid"},
                        {PROFILE_TRAP, 0, "getuid"},         {PROFILE_LOG, 0, "getgid"},
                        {PROFILE_ERRNO, 1, "rmdir"},         {PROFILE_ALLOW, 0, "getpid"},
                };
                ok(p.def.act == PROFILE_ALLOW && p.n == 8, "default allow, eight rules");
                for (size_t i = 0; i < 8 && p.n == 8; i++)
                        ok(p.rules[i].action.act == want[i].act &&
                                   p.rules[i].action.errnum == want[i].errnum &&
                                   p.rules[i].nnames == 1 &&
                                   !strcmp(p.rules[i].names[0], want[i].name),
                           "rule %zu (%s): the action libseccomp's name says", i, want[i].name);
                profile_free(&p);
        }
        static const struct {
                const char *json;
                enum profile_act act;
                int errnum;
        } dflt[] = {
                {"\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":38", PROFILE_ERRNO, 38},
                {"\"SCMP_ACT_ERRNO\"", PROFILE_ERRNO, 1},
                {"\"SCMP_ACT_KILL\"", PROFILE_KILL_THREAD, 0},
                {"\"SCMP_ACT_KILL_PROCESS\"", PROFILE_KILL, 0},
                {"\"SCMP_ACT_TRAP\"", PROFILE_TRAP, 0},
                {"\"SCMP_ACT_LOG\",\"defaultErrnoRet\":5", PROFILE_LOG, 0},
        };
        for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++) {
                char text[1024];
                snprintf(text, sizeof text,
                         SC("{\"defaultAction\":%s,\"syscalls\":[{\"names\":[\"read\"],"
                            "\"action\":\"SCMP_ACT_ALLOW\"}]}"),
                         dflt[i].json);
                r = seccomp_of(text, &p, &err);
                ok(r == 0 && p.def.act == dflt[i].act && p.def.errnum == dflt[i].errnum,
                   "defaultAction %s: crib's default says the same%s%s", dflt[i].json,
                   r ? ": " : "", r ? err.msg : "");
                if (r == 0)
                        profile_free(&p);
        }

        /* every errno glibc names, as errnoRet: written by name, read back as its number */
        size_t n = 0, good = 0;
        for (int e = 1; e <= 4095; e++) {
                char text[1024];
                if (!strerrorname_np(e))
                        continue;
                n++;
                snprintf(text, sizeof text,
                         SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":"
                            "[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":%d}]}"),
                         e);
                if (seccomp_of(text, &p, &err) == 0) {
                        good += p.n == 1 && p.rules[0].action.errnum == e;
                        profile_free(&p);
                }
        }
        ok(n > 100 && good == n, "each of the %zu errnos glibc names goes through (%zu do)", n,
           good);

        refused(SC("{\"defaultAction\":\"SCMP_ACT_NOTIFY\"}"),
                ".linux.seccomp.defaultAction: crib cannot honour 'SCMP_ACT_NOTIFY': it runs no "
                "seccomp listener",
                "a notify default");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"],"
                   "\"action\":\"SCMP_ACT_NOTIFY\"}]}"),
                ".linux.seccomp.syscalls[0].action: crib cannot honour 'SCMP_ACT_NOTIFY'",
                "a notify rule");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"],"
                   "\"action\":\"SCMP_ACT_TRACE\"}]}"),
                ".linux.seccomp.syscalls[0].action: crib cannot honour 'SCMP_ACT_TRACE': it "
                "attaches no tracer",
                "a trace rule");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_TRACE\"}"),
                ".linux.seccomp.defaultAction: crib cannot honour 'SCMP_ACT_TRACE'",
                "a trace default");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"listenerPath\":\"/run/l.sock\"}"),
                ".linux.seccomp.listenerPath: crib has no seccomp notify support", "a listener");
        refused(SC("{\"syscalls\":[]}"), ".linux.seccomp.defaultAction: is missing",
                "no defaultAction");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_KILL_PROCESS \"}"),
                ".linux.seccomp.defaultAction: 'SCMP_ACT_KILL_PROCESS ' is not a libseccomp "
                "action crib knows",
                "an action with a trailing space");
        refused(SC("{\"defaultAction\":\"allow\"}"),
                ".linux.seccomp.defaultAction: 'allow' is not a libseccomp action",
                "crib's own word for an action");
        /* the text the config becomes is parsed again: nothing of the config's strings may
         * make a line or a word of it */
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ERRNO\\n[allow]\\nmount\"}"),
                ".linux.seccomp.defaultAction: 'SCMP_ACT_ERRNO\n[allow]\nmount' is not a "
                "libseccomp action",
                "a default action with lines in it");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"x\"],"
                   "\"action\":\"SCMP_ACT_ALLOW]\\n[allow\"}]}"),
                ".linux.seccomp.syscalls[0].action: 'SCMP_ACT_ALLOW]\n[allow' is not a libseccomp",
                "a rule action with a bracket and a line in it");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":"
                   "[\"read\\nmount\"],\"action\":\"SCMP_ACT_ALLOW\"}]}"),
                ".linux.seccomp.syscalls[0].names[0]: 'read\nmount' is not a system call name",
                "a name with a line in it");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":4096}"),
                ".linux.seccomp.defaultErrnoRet: must be a number from 1 to 4095",
                "an errno past 4095");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":0}"),
                ".linux.seccomp.defaultErrnoRet: must be a number from 1 to 4095", "errno 0");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"],"
                   "\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":\"EPERM\"}]}"),
                ".linux.seccomp.syscalls[0].errnoRet: must be a number", "an errno by name");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"],"
                   "\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":-1}]}"),
                ".linux.seccomp.syscalls[0].errnoRet: must be a number from 1", "a negative errno");
        refused(SC("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"]}]}"),
                ".linux.seccomp.syscalls[0].action: is missing", "a rule without an action");
        refused(SC("{\"defaultAction\":7}"), ".linux.seccomp.defaultAction: must be a string",
                "an action that is no string");
}

/* cgroupsPath as runc reads it: a path, or with --systemd-cgroup systemd's SLICE:PREFIX:NAME,
 * placed where systemd would place the unit. */
static void cgroups_paths(void)
{
        static const struct {
                const char *in;
                bool systemd, root;
                const char *want; /* NULL: refused */
        } cases[] = {
                {"/default/ctr1", false, true, "/default/ctr1"},
                {"/kubepods/besteffort/pod12/abc", false, true, "/kubepods/besteffort/pod12/abc"},
                {"//a///b/", false, true, "/a/b"},
                {"a/b", false, false, "a/b"},
                {"machine.slice:libpod:x", false, true, "machine.slice:libpod:x"},
                {"machine.slice:libpod:x", true, true, "/machine.slice/libpod-x.scope"},
                {"kubepods-besteffort-pod12.slice:cri-containerd:abc", true, true,
                 "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod12.slice/"
                 "cri-containerd-abc.scope"},
                {":libpod:x", true, true, "/system.slice/libpod-x.scope"},
                {":libpod:x", true, false, "/user.slice/libpod-x.scope"},
                {"system.slice::x", true, true, "/system.slice/x.scope"},
                {"-.slice:p:x", true, true, "/p-x.scope"},
                {"a.slice:p:b-c.slice", true, true, "/b.slice/b-c.slice"},
                {"/a/../b", false, true, NULL},
                {"../b", false, false, NULL},
                {"/a/./b", false, true, NULL},
                {"/", false, true, NULL},
                {"machine:libpod:x", true, true, NULL},
                {"a--b.slice:p:x", true, true, NULL},
                {"a-.slice:p:x", true, true, NULL},
                {"m.slice:p:", true, true, NULL},
                {"m.slice:p:..", true, true, NULL},
                {"m.slice:p:a/b", true, true, NULL},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char buf[1024] = "";
                struct error err;
                error_clear(&err);
                int r = cgroup_oci_path(cases[i].in, cases[i].systemd, cases[i].root, buf,
                                        sizeof buf, &err);
                if (cases[i].want)
                        ok(r == 0 && !strcmp(buf, cases[i].want), "'%s'%s%s: '%s' (got '%s'%s)",
                           cases[i].in, cases[i].systemd ? " --systemd-cgroup" : "",
                           cases[i].root ? "" : " (a user)", cases[i].want, buf, r ? err.msg : "");
                else
                        ok(r < 0 && err.msg[0], "'%s'%s: refused (%s)", cases[i].in,
                           cases[i].systemd ? " --systemd-cgroup" : "", err.msg);
        }
}

/* .linux.sysctl: a sysctl of a namespace the container has of its own, by a name that stays
 * below /proc/sys; anything else refused at its JSON path. */
#define SYSCTL_NS                                                                                  \
        "\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"network\"},{\"type\":\"ipc\"},{"         \
        "\"type\":\"uts\"}]"
static void sysctls(void)
{
        struct oci_config c;
        struct error err;
        ok(load(HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{\"net.ipv4.ip_forward\":\"1\","
                          "\"kernel.shmmax\":\"65536\",\"fs.mqueue.msg_max\":\"20\","
                          "\"kernel.domainname\":\"example.org\","
                          "\"net.ipv4.ping_group_range\":\"0 2147483647\"}}}",
                &c, &err) == 0,
           "namespaced sysctls with their namespaces load: %s", err.msg);
        ok(c.spec.nsysctls == 5, "five sysctls kept (%zu)", c.spec.nsysctls);
        bool found = false;
        for (size_t i = 0; i < c.spec.nsysctls; i++)
                found |= !strcmp(c.spec.sysctls[i].key, "net.ipv4.ping_group_range") &&
                         !strcmp(c.spec.sysctls[i].value, "0 2147483647");
        ok(found, "ping_group_range kept with its value, to be set");
        oci_free(&c);
        ok(load(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":"
                          "\"network\",\"path\":\"/run/netns/x\"}],\"sysctl\":{"
                          "\"net.core.somaxconn\":\"1024\"}}}",
                &c, &err) == 0,
           "a net.* sysctl in a network namespace joined by path loads (the plan checks it is "
           "not the host's): %s",
           err.msg);
        oci_free(&c);
        static const struct {
                const char *json, *want, *what;
        } bad[] = {
                {"\"net.ipv4.ip_forward\":\"1\"",
                 ".linux.sysctl[\"net.ipv4.ip_forward\"]: needs a "
                 "network namespace",
                 "net.* without a network namespace"},
                {"\"kernel.shmmax\":\"1\"", ".linux.sysctl[\"kernel.shmmax\"]: needs an IPC",
                 "kernel.shmmax without an IPC namespace"},
                {"\"fs.mqueue.queues_max\":\"1\"", "needs an IPC", "fs.mqueue.* without IPC"},
                {"\"kernel.domainname\":\"x\"", "needs a UTS", "kernel.domainname without UTS"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                char text[512];
                snprintf(text, sizeof text,
                         HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],"
                                   "\"sysctl\":{%s}}}",
                         bad[i].json);
                refused(text, bad[i].want, bad[i].what);
        }
        static const struct {
                const char *json, *want, *what;
        } worse[] = {
                {"\"net/../../../etc/passwd\":\"x\"",
                 ".linux.sysctl[\"net/../../../etc/passwd\"]: is not a sysctl name",
                 "a '/' and '..'"},
                {"\"net.ipv4..\":\"1\"", "is not a sysctl name", "an empty component"},
                {"\"net...ipv4\":\"1\"", "is not a sysctl name", "dots in a row"},
                {"\".net.ipv4\":\"1\"", "is not a sysctl name", "a leading dot"},
                {"\"net.ipv4.\":\"1\"", "is not a sysctl name", "a trailing dot"},
                {"\"net.ipv4.Conf\":\"1\"", "is not a sysctl name", "an upper-case letter"},
                {"\"net.ipv4 x\":\"1\"", "is not a sysctl name", "a space"},
                {"\"\":\"1\"", ".linux.sysctl[\"\"]: is not a sysctl name", "an empty name"},
                /* json-c ends a name at a NUL: what is checked is what would be written */
                {"\"kernel.core_pattern\\u0000net.x\":\"|/tmp/x\"",
                 ".linux.sysctl[\"kernel.core_pattern\"]: is not a sysctl of a namespace",
                 "a NUL in the name cannot smuggle a host-wide sysctl past the check"},
                {"\"net.ipv4.ip_forward\":\"1\\n0\"", ": its value is more than one line",
                 "a newline in the value"},
                {"\"net.ipv4.ip_forward\":\"1\\u0000 0\"", "its value has a NUL byte",
                 "a NUL in the value"},
                {"\"net.ipv4.ip_forward\":1",
                 ".linux.sysctl[\"net.ipv4.ip_forward\"]: must be a "
                 "string",
                 "a number as value"},
                {"\"kernel.core_pattern\":\"|/tmp/x\"",
                 ".linux.sysctl[\"kernel.core_pattern\"]: is not a sysctl of a namespace",
                 "a host-wide sysctl (core_pattern)"},
                {"\"vm.overcommit_memory\":\"1\"", "setting it would change the host", "vm.*"},
                {"\"kernel.hostname\":\"h\"",
                 ".linux.sysctl[\"kernel.hostname\"]: is the "
                 "hostname",
                 "kernel.hostname (runc refuses it: the hostname field sets it)"},
                {"\"kernel.shm_next_id\":\"1\"", "is not a sysctl of a namespace",
                 "an IPC-looking name runc does not take"},
        };
        for (size_t i = 0; i < sizeof worse / sizeof worse[0]; i++) {
                char text[1024];
                snprintf(text, sizeof text, HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{%s}}}",
                         worse[i].json);
                refused(text, worse[i].want, worse[i].what);
        }
        /* a value at the limit, and one past it */
        char text[4096], value[SPEC_SYSCTL_VAL + 1];
        memset(value, '1', sizeof value - 1);
        value[SPEC_SYSCTL_VAL - 1] = '\0';
        snprintf(text, sizeof text,
                 HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{"
                           "\"net.ipv4.ip_forward\":\"%s\"}}}",
                 value);
        ok(load(text, &c, &err) == 0, "a value of %d bytes loads: %s", SPEC_SYSCTL_VAL - 1,
           err.msg);
        oci_free(&c);
        value[SPEC_SYSCTL_VAL - 1] = '1';
        value[SPEC_SYSCTL_VAL] = '\0';
        snprintf(text, sizeof text,
                 HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{"
                           "\"net.ipv4.ip_forward\":\"%s\"}}}",
                 value);
        refused(text, "its value is longer than 1023 bytes", "a value of 1024 bytes");
        /* a name at the limit, and one past it */
        char key[SPEC_SYSCTL_KEY + 1] = "net.";
        memset(key + 4, 'a', sizeof key - 5);
        key[SPEC_SYSCTL_KEY - 1] = '\0';
        snprintf(text, sizeof text,
                 HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{"
                           "\"%s\":\"1\"}}}",
                 key);
        ok(load(text, &c, &err) == 0, "a name of %d bytes loads: %s", SPEC_SYSCTL_KEY - 1, err.msg);
        oci_free(&c);
        key[SPEC_SYSCTL_KEY - 1] = 'a';
        key[SPEC_SYSCTL_KEY] = '\0';
        snprintf(text, sizeof text,
                 HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{"
                           "\"%s\":\"1\"}}}",
                 key);
        refused(text, "is not a sysctl name", "a name of 128 bytes");
        /* more entries than crib takes */
        size_t at = (size_t)snprintf(text, sizeof text,
                                     HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":{");
        for (int i = 0; i <= SPEC_MAX_SYSCTLS; i++)
                at += (size_t)snprintf(text + at, sizeof text - at, "%s\"net.a%d\":\"1\"",
                                       i ? "," : "", i);
        snprintf(text + at, sizeof text - at, "}}}");
        refused(text, ".linux.sysctl: has 65 entries; crib takes at most 64", "65 sysctls");
        refused(HEAD PROC "\"linux\":{" SYSCTL_NS ",\"sysctl\":[\"net.a=1\"]}}",
                ".linux.sysctl: must be an object", "sysctl as a list");

        ok(load(HEAD "\"process\":{\"args\":[\"a\"],\"oomScoreAdj\":-1000}," NS "}", &c, &err) ==
                           0 &&
                   c.spec.oom_score_adj_set && c.spec.oom_score_adj == -1000,
           "oomScoreAdj -1000 kept: %s", err.msg);
        oci_free(&c);
        ok(load(HEAD "\"process\":{\"args\":[\"a\"],\"oomScoreAdj\":1000}," NS "}", &c, &err) ==
                           0 &&
                   c.spec.oom_score_adj_set && c.spec.oom_score_adj == 1000,
           "oomScoreAdj 1000 kept: %s", err.msg);
        oci_free(&c);
        ok(load(HEAD PROC NS "}", &c, &err) == 0 && !c.spec.oom_score_adj_set,
           "no oomScoreAdj: none set");
        oci_free(&c);
}

/* `features`: the mount options are the parser's own table */
static void features(void)
{
        char *f = oci_features();
        ok(f != NULL, "features prints");
        if (!f)
                return;
        contains(f, "\"mountOptions\"", "it lists mountOptions");
        for (size_t i = 0; i < oci_nmount_options; i++) {
                char quoted[64];
                snprintf(quoted, sizeof quoted, "\"%s\"", oci_mount_options[i].name);
                bool listed = strstr(f, quoted) != NULL;
                ok(listed == (oci_mount_options[i].kind != OCI_MOPT_ENGINE), "'%s' %s",
                   oci_mount_options[i].name,
                   oci_mount_options[i].kind != OCI_MOPT_ENGINE ? "listed"
                                                                : "not listed (an "
                                                                  "engine's mark)");
                /* and the parser takes it */
                char text[512];
                struct oci_config c;
                struct error err;
                snprintf(text, sizeof text,
                         HEAD PROC "\"mounts\":[{\"destination\":\"/x\",\"type\":\"tmpfs\","
                                   "\"options\":[\"%s\"]}]," NS "}",
                         oci_mount_options[i].name);
                int r = load(text, &c, &err);
                /* bind and rbind turn the tmpfs into a bind, which needs a source */
                ok(r == 0 || oci_mount_options[i].kind == OCI_MOPT_BIND ||
                           oci_mount_options[i].kind == OCI_MOPT_RBIND,
                   "'%s' is taken by create: %s", oci_mount_options[i].name, r ? err.msg : "");
                if (r == 0)
                        oci_free(&c);
        }
        ok(!strstr(f, "\"size=") && !strstr(f, "\"sysctl\""),
           "no tmpfs data, no sysctl list (runc 1.1 prints none)");
        free(f);
}
/* .linux.resources.devices: runc's rules, in order; .linux.devices: the nodes to make */
#define LX "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],"
static void devices(void)
{
        struct oci_config c;
        struct error err;
        ok(load(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}]}}", &c, &err) == 0 &&
                   c.spec.dev_rules_set && c.spec.ndev_rules == 0,
           "no rules given: they apply all the same (none allows a device)");
        oci_free(&c);
        ok(load(HEAD PROC LX "\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"},"
                             "{\"allow\":true,\"type\":\"b\",\"major\":8,\"access\":\"r\"},"
                             "{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":237}]}}}",
                &c, &err) == 0,
           "deny all, allow b 8:* r, allow c 10:237: %s", err.msg);
        const struct cgroup_device_rule *r = c.spec.dev_rules;
        ok(c.spec.ndev_rules == 3 && !r[0].allow && r[0].type == 'a' && r[0].major == -1 &&
                   r[0].minor == -1 && r[0].access == 7,
           "rule 0: deny a *:* rwm");
        ok(r[1].allow && r[1].type == 'b' && r[1].major == 8 && r[1].minor == -1 &&
                   r[1].access == CGROUP_DEV_READ,
           "rule 1: allow b 8:* r");
        ok(r[2].allow && r[2].type == 'c' && r[2].major == 10 && r[2].minor == 237 &&
                   r[2].access == 7,
           "rule 2: no access given is rwm");
        oci_free(&c);
        refused(HEAD PROC LX "\"resources\":{\"devices\":[{\"allow\":true,\"type\":\"x\"}]}}}",
                ".linux.resources.devices[0].type: 'x' is not", "a rule of type x");
        refused(HEAD PROC LX "\"resources\":{\"devices\":[{\"allow\":true,\"access\":\"rx\"}]}}}",
                ".linux.resources.devices[0].access: 'rx'", "an access of x");
        refused(HEAD PROC LX "\"resources\":{\"devices\":[{\"type\":\"c\"}]}}}",
                ".linux.resources.devices[0].allow: is missing", "a rule without allow");
        refused(HEAD PROC LX "\"resources\":{\"devices\":[{\"allow\":true,\"major\":4096}]}}}",
                ".linux.resources.devices[0].major", "a major past the kernel's");

        ok(load(HEAD PROC LX "\"devices\":[{\"path\":\"/dev/conf-null\",\"type\":\"c\",\"major\":1,"
                             "\"minor\":3,\"fileMode\":438,\"uid\":0,\"gid\":0},"
                             "{\"path\":\"/dev/conf/sub\",\"type\":\"u\",\"major\":1,"
                             "\"minor\":5,\"fileMode\":8612,\"uid\":1000,\"gid\":2000},"
                             "{\"path\":\"/dev/fifo\",\"type\":\"p\"}]}}",
                &c, &err) == 0,
           "three device nodes load: %s", err.msg);
        const struct spec_device *d = c.spec.devices;
        ok(c.spec.ndevices == 3 && !strcmp(d[0].path, "/dev/conf-null") && d[0].type == 'c' &&
                   d[0].major == 1 && d[0].minor == 3 && d[0].mode == 0666 && !d[0].uid,
           "/dev/conf-null: c 1:3 0666 0:0");
        ok(d[1].type == 'c' && d[1].mode == 0644 && d[1].uid == 1000 && d[1].gid == 2000 &&
                   d[1].index == 1,
           "type u is c; fileMode's type bits (S_IFCHR|0644) dropped, as runc does");
        ok(d[2].type == 'p' && d[2].mode == 0666 && !d[2].major, "a FIFO: no numbers, 0666");
        oci_free(&c);
        static const struct {
                const char *entry, *want, *what;
        } bad[] = {
                {"{\"path\":\"/dev/../etc/x\",\"type\":\"c\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].path: '/dev/../etc/x' is not a path under /dev", "'..'"},
                {"{\"path\":\"/etc/x\",\"type\":\"c\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].path: '/etc/x'", "a path outside /dev"},
                {"{\"path\":\"/dev\",\"type\":\"c\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].path", "/dev itself"},
                {"{\"path\":\"/dev//x\",\"type\":\"c\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].path", "an empty name"},
                {"{\"path\":\"/dev/x/\",\"type\":\"c\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].path", "a trailing slash"},
                {"{\"path\":\"/dev/./x\",\"type\":\"c\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].path", "a '.'"},
                {"{\"path\":\"/dev/x\",\"type\":\"s\",\"major\":1,\"minor\":3}",
                 ".linux.devices[0].type: 's' is not 'c', 'b', 'u' or 'p'", "type s"},
                {"{\"path\":\"/dev/x\",\"major\":1,\"minor\":3}", ".linux.devices[0].type",
                 "no type"},
                {"{\"path\":\"/dev/x\",\"type\":\"b\",\"major\":8}",
                 ".linux.devices[0].minor: is missing", "no minor"},
                {"{\"path\":\"/dev/x\",\"type\":\"c\",\"major\":1,\"minor\":3,\"fileMode\":"
                 "67109302}",
                 ".linux.devices[0].fileMode: 67109302 is not a file mode", "Go's mode bits"},
                {"{\"type\":\"c\",\"major\":1,\"minor\":3}", ".linux.devices[0].path: is missing",
                 "no path"},
                {"{\"path\":\"/dev/x\",\"type\":\"c\",\"major\":1,\"minor\":3,\"uid\":-1}",
                 ".linux.devices[0].uid", "uid -1"},
                {"{\"path\":\"/dev/x\",\"type\":\"c\",\"major\":1,\"minor\":3},"
                 "{\"path\":\"/dev/x\",\"type\":\"c\",\"major\":1,\"minor\":5}",
                 ".linux.devices[1].path: '/dev/x' is .linux.devices[0]'s too", "a path twice"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                char text[1024];
                snprintf(text, sizeof text, HEAD PROC LX "\"devices\":[%s]}}", bad[i].entry);
                refused(text, bad[i].want, bad[i].what);
        }
}
#undef LX

int main(void)
{
        struct oci_config c;
        struct error err;

        ok(load(HEAD PROC NS "}", &c, &err) == 0, "a minimal config loads: %s", err.msg);
        is_str(c.spec.rootfs, "rootfs", "root.path");
        is_str(c.spec.args[0], "/bin/sh", "process.args");
        ok(!c.spec.ns_user && !c.spec.ns_pid && !c.spec.ns_net, "only the namespaces listed");
        ok(!c.spec.init, "the process is pid 1, as under runc");
        ok(c.spec.caps == 0 && !c.spec.no_new_privileges, "no capabilities, nnp off: as asked");
        ok(!c.spec.seccomp && !c.spec.seccomp_text && !c.spec.apparmor,
           "no seccomp, no AppArmor: none asked for");
        is_str(c.annotations, "{}", "no annotations");
        oci_free(&c);

        ok(load(podman, &c, &err) == 0, "podman's shape loads: %s", err.msg);
        ok(c.spec.uid == 0 && c.spec.umask == 022, "user and umask");
        ok(c.spec.nenv == 2 && !strcmp(c.spec.env[1], "TERM=xterm"), "env");
        ok(c.spec.caps == ((1ULL << 0) | (1ULL << 5)), "capabilities CHOWN and KILL");
        ok(c.spec.limits[RLIMIT_NOFILE].set && c.spec.limits[RLIMIT_NOFILE].soft == 1024 &&
                   c.spec.limits[RLIMIT_NOFILE].hard == 1048576,
           "rlimits");
        ok(c.spec.no_new_privileges && c.spec.readonly_rootfs, "nnp and a read-only root");
        is_str(c.spec.hostname, "box", "hostname");
        ok(c.spec.ns_pid && c.spec.ns_net && c.spec.ns_ipc && c.spec.ns_uts && c.spec.ns_cgroup &&
                   !c.spec.ns_user,
           "namespaces");
        ok(c.spec.nmounts == 2, "crib's own mounts left to crib, two of the config's kept (%zu)",
           c.spec.nmounts);
        ok(c.spec.mounts[0].kind == SPEC_MOUNT_BIND &&
                   !strcmp(c.spec.mounts[0].src, "/run/x/hosts") &&
                   c.spec.mounts[0].opts ==
                           (SPEC_MNT_RO | SPEC_MNT_NOSUID | SPEC_MNT_NODEV | SPEC_MNT_NOEXEC),
           "a bind mount and its options");
        ok(c.spec.mounts[1].kind == SPEC_MOUNT_TMPFS && c.spec.mounts[1].data &&
                   !strcmp(c.spec.mounts[1].data, "size=1m"),
           "a tmpfs and its size");
        ok(c.spec.resources.memory_max == 67108864 && c.spec.resources.memory_swap == 67108864 &&
                   c.spec.resources.pids_max == 100 && c.spec.resources.cpu_quota == 50000,
           "resources (swap: OCI's memory+swap less memory)");
        ok(c.spec.masked.n == 1 && c.spec.readonly.n == 1, "masked and read-only paths");
        contains(c.annotations, "\"io.podman.x\":\"y\"", "annotations kept for state");
        is_str(c.spec.cgroups_path, "machine.slice:libpod:x", "cgroupsPath kept, as written");
        ok(c.spec.seccomp_text && c.spec.seccomp_require, "seccomp: a profile, required");
        if (c.spec.seccomp_text) {
                FILE *f = fmemopen(c.spec.seccomp_text, strlen(c.spec.seccomp_text), "r");
                struct profile p;
                int r = profile_parse(f, "oci", &p, &err);
                fclose(f);
                ok(r == 0, "the translated profile parses: %s", r ? err.msg : "");
                ok(r == 0 && p.def.act == PROFILE_ERRNO && p.def.errnum == 1 && p.n == 4,
                   "default EPERM, four rules");
                ok(r == 0 && p.rules[1].nconds == 1 && p.rules[1].conds[0].value == 8,
                   "an argument condition");
                ok(r == 0 && p.rules[2].conds[0].op == OP_MASKED_EQ &&
                           p.rules[2].conds[0].mask == 2114060288,
                   "a masked condition");
                ok(r == 0 && p.rules[3].action.act == PROFILE_ERRNO &&
                           p.rules[3].action.errnum == 38,
                   "errno ENOSYS");
                if (r == 0)
                        profile_free(&p);
        }
        oci_free(&c);

        refused("{", "b/config.json: not JSON", "truncated JSON");
        refused("{} x", "not JSON", "text after the object");
        refused("[]", ".: must be an object", "an array");
        refused("{\"ociVersion\":\"2.0\"}", ".ociVersion", "version 2");
        refused("{\"ociVersion\":\"1.0\"," PROC NS "}", ".root: is missing", "no root");
        refused(HEAD NS "}", ".process: is missing", "no process");
        refused(HEAD "\"process\":{\"args\":[]}," NS "}", ".process.args: is missing or empty",
                "empty args");
        refused(HEAD "\"process\":{\"args\":[\"a\",3]}," NS "}",
                ".process.args[1]: must be a string", "a number in args");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"user\":{\"uid\":\"0\"}}," NS "}",
                "b/config.json: .process.user.uid: must be a number", "uid as a string");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"user\":{\"uid\":-1}}," NS "}",
                ".process.user.uid: must be a number from 0", "negative uid");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"user\":{\"uid\":1.5}}," NS "}",
                ".process.user.uid: must be a number", "fractional uid");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"env\":[\"NOEQUALS\"]}," NS "}",
                ".process.env[0]: 'NOEQUALS' is not NAME=VALUE", "env without =");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"cwd\":\"x/..\"}," NS "}", ".process.cwd",
                "a relative cwd");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"capabilities\":{\"bounding\":[\"CAP_CHWON\"]"
                     "}}," NS "}",
                ".process.capabilities.bounding[0]: unknown capability 'CAP_CHWON'", "a typo");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"capabilities\":{\"bounding\":[\"CAP_KILL\"],"
                     "\"effective\":[\"CAP_KILL\"]}}," NS "}",
                ".process.capabilities.effective: has CAP_KILL, which is not in the permitted set",
                "an effective capability not permitted (capset(2) refuses it)");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"capabilities\":{\"bounding\":[\"CAP_KILL\"],"
                     "\"permitted\":[\"CAP_KILL\",\"CAP_CHOWN\"]}}," NS "}",
                ".process.capabilities.permitted: has CAP_CHOWN, which is not in the bounding set",
                "a permitted capability beyond the bounding set");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"capabilities\":{\"bounding\":[\"CAP_KILL\"],"
                     "\"inheritable\":[\"CAP_SYS_ADMIN\"]}}," NS "}",
                ".process.capabilities.inheritable: has CAP_SYS_ADMIN, which is not in the "
                "bounding "
                "set",
                "an inheritable capability beyond the bounding set (root would get it at exec)");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"rlimits\":[{\"type\":\"RLIMIT_NOPE\","
                     "\"soft\":1,\"hard\":1}]}," NS "}",
                ".process.rlimits[0].type", "an unknown limit");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"noNewPrivileges\":\"yes\"}," NS "}",
                ".process.noNewPrivileges: must be true or false", "nnp as a string");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"oomScoreAdj\":1001}," NS "}",
                ".process.oomScoreAdj: must be a number from -1000 to 1000",
                "oomScoreAdj above 1000");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"oomScoreAdj\":-1001}," NS "}",
                ".process.oomScoreAdj: must be a number from -1000", "oomScoreAdj below -1000");
        refused(HEAD "\"process\":{\"args\":[\"a\"],\"oomScoreAdj\":\"5\"}," NS "}",
                ".process.oomScoreAdj: must be a number", "oomScoreAdj as a string");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[]}}", "has no mount namespace",
                "no mount namespace");
        /* a namespace joined by path: kept for the launch, which checks the file's type */
        ok(load(HEAD PROC
                "\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"network\","
                "\"path\":\"/run/netns/a\"},{\"type\":\"user\",\"path\":\"/proc/9/ns/user\"}]}}",
                &c, &err) == 0,
           "namespaces joined by path load: %s", err.msg);
        ok(c.spec.ns_net && c.spec.ns_user && c.spec.ns_path[SPEC_NS_NET] &&
                   !strcmp(c.spec.ns_path[SPEC_NS_NET], "/run/netns/a") &&
                   !strcmp(c.spec.ns_path[SPEC_NS_USER], "/proc/9/ns/user") &&
                   !c.spec.ns_path[SPEC_NS_PID],
           "each path kept under its own type, the others none");
        oci_free(&c);
        refused(HEAD PROC
                "\"linux\":{\"namespaces\":[{\"type\":\"mount\",\"path\":\"/proc/1/ns/mnt\"}]}}",
                ".linux.namespaces[0].path: crib does not join a mount namespace",
                "joining a mount namespace");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"ipc\","
                          "\"path\":\"proc/1/ns/ipc\"}]}}",
                ".linux.namespaces[1].path: 'proc/1/ns/ipc' is not an absolute path",
                "a relative namespace path");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"uts\","
                          "\"path\":\"/proc/1/../1/ns/uts\"}]}}",
                ".linux.namespaces[1].path: '/proc/1/../1/ns/uts' is not an absolute path",
                "a namespace path with '..'");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"time\"}]}}",
                ".linux.namespaces[1].type: 'time'", "a time namespace");
        refused(HEAD PROC "\"hostname\":\"h\"," NS "}", ".hostname: needs a uts namespace",
                "a hostname without uts");
        refused(HEAD PROC
                "\"mounts\":[{\"destination\":\"/x\",\"type\":\"nfs\",\"source\":\"s\"}]," NS "}",
                ".mounts[0].type: crib cannot mount 'nfs'", "an nfs mount");
        refused(HEAD PROC "\"mounts\":[{\"destination\":\"/x\",\"type\":\"bind\",\"source\":\"/s\","
                          "\"options\":[\"rshared\"]}]," NS "}",
                ".mounts[0].options[0]: crib cannot honour mount option 'rshared'",
                "shared propagation");
        refused(HEAD PROC "\"mounts\":[{\"destination\":\"/a/../b\",\"type\":\"tmpfs\"}]," NS "}",
                ".mounts[0].destination", "a destination with ..");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"seccomp\":{"
                          "\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"a b\"],"
                          "\"action\":\"SCMP_ACT_ALLOW\"}]}}}",
                ".linux.seccomp.syscalls[0].names[0]", "a call name with a space");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"sysctl\":{"
                          "\"kernel.shmmax\":\"1\"}}}",
                ".linux.sysctl[\"kernel.shmmax\"]", "a sysctl");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"uidMappings\":["
                          "{\"containerID\":0,\"hostID\":1000,\"size\":1}]}}",
                ".linux.uidMappings: needs a user namespace", "a map without a user namespace");
        refused(HEAD PROC
                "\"linux\":{\"namespaces\":[{\"type\":\"mount\"},{\"type\":\"user\"}],"
                "\"uidMappings\":[{\"containerID\":0,\"hostID\":4294967295,\"size\":2}]}}",
                ".linux.uidMappings[0]: the range goes past", "a map past the last id");
        refused(HEAD PROC "\"annotations\":{\"a\":1}," NS "}",
                ".annotations[\"a\"]: must be a string", "a number as annotation");
        refused(HEAD PROC "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"rootfsPropagation\":"
                          "\"shared\"}}",
                ".linux.rootfsPropagation", "shared root propagation");

        /* a user other than root with no set to inherit (podman's --user): bounding only */
        ok(load(HEAD "\"process\":{\"args\":[\"/bin/sh\"],\"user\":{\"uid\":1000,\"gid\":1000},"
                     "\"capabilities\":{\"bounding\":[\"CAP_KILL\"]}}," NS "}",
                &c, &err) == 0,
           "uid 1000, a bounding set and nothing else loads: %s", err.msg);
        ok(c.spec.caps == 1ULL << 5 && c.spec.caps_no_ambient,
           "the bounding set, and none after the exec (no ambient set)");
        oci_free(&c);
        /* root with ambient and inheritable sets (buildah's RUN, runc spec's default): given
         * as runc gives them */
        ok(load(HEAD "\"process\":{\"args\":[\"/bin/sh\"],\"user\":{\"uid\":0,\"gid\":0},"
                     "\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_CHOWN\"],\"effective\":["
                     "\"CAP_KILL\"],\"permitted\":[\"CAP_KILL\",\"CAP_CHOWN\"],\"inheritable\":["
                     "\"CAP_KILL\",\"CAP_CHOWN\"],\"ambient\":[\"CAP_CHOWN\"]}}," NS "}",
                &c, &err) == 0,
           "root with all five sets, each within the bounding set, loads: %s", err.msg);
        ok(c.spec.caps == ((1ULL << 5) | 1ULL) && c.spec.caps_sets &&
                   c.spec.caps_effective == 1ULL << 5 &&
                   c.spec.caps_permitted == ((1ULL << 5) | 1ULL) &&
                   c.spec.caps_inheritable == ((1ULL << 5) | 1ULL) && c.spec.caps_ambient == 1ULL,
           "the five sets, as the config gives them");
        oci_free(&c);
        ok(load(HEAD "\"process\":{\"args\":[\"/bin/sh\"],\"user\":{\"uid\":0,\"gid\":0},"
                     "\"capabilities\":{\"bounding\":[\"CAP_KILL\"]}}," NS "}",
                &c, &err) == 0 &&
                   c.spec.caps_sets && !c.spec.caps_permitted,
           "root with a bounding set alone loads (it has the bounding set after its exec): %s",
           err.msg);
        oci_free(&c);
        /* an ambient capability not inheritable: the kernel would not raise it; left out, as
         * runc does (buildah's RUN names them so), and the plan warns */
        ok(load(HEAD "\"process\":{\"args\":[\"/bin/sh\"],\"user\":{\"uid\":1000,\"gid\":1000},"
                     "\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_CHOWN\"],\"permitted\":["
                     "\"CAP_KILL\",\"CAP_CHOWN\"],\"inheritable\":[\"CAP_KILL\"],\"ambient\":["
                     "\"CAP_KILL\",\"CAP_CHOWN\"]}}," NS "}",
                &c, &err) == 0,
           "an ambient capability not inheritable loads: %s", err.msg);
        ok(c.spec.caps_ambient == 1ULL << 5 && c.spec.caps_ambient_dropped == 1ULL,
           "KILL stays ambient, CHOWN is left out and noted");
        oci_free(&c);
        refused(HEAD "\"process\":{\"args\":[\"/bin/sh\"],\"user\":{\"uid\":0,\"gid\":0},"
                     "\"capabilities\":{\"bounding\":[\"CAP_KILL\"],\"permitted\":[\"CAP_KILL\"],"
                     "\"ambient\":[\"CAP_CHOWN\"]}}," NS "}",
                ".process.capabilities.ambient: has CAP_CHOWN, which is not in the bounding set",
                "an ambient capability outside the bounding set");

        /* containerd's defaults: /run a tmpfs with strictatime, /dev/console allowed, cpu
         * shares 1024 (cgroup v1's default: no preference) */
        ok(load(HEAD PROC
                "\"mounts\":[{\"destination\":\"/run\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
                "\"options\":[\"nosuid\",\"strictatime\",\"mode=755\",\"size=65536k\"]}],"
                "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"resources\":{\"devices\":["
                "{\"allow\":false,\"access\":\"rwm\"},{\"allow\":true,\"type\":\"c\",\"major\":5,"
                "\"minor\":1,\"access\":\"rwm\"}],\"cpu\":{\"shares\":1024}}}}",
                &c, &err) == 0,
           "containerd's defaults load: %s", err.msg);
        ok(c.spec.nmounts == 1 && (c.spec.mounts[0].opts & SPEC_MNT_STRICTATIME),
           "a tmpfs with strictatime");
        ok(!c.spec.resources.need, "cpu shares 1024 need no cpu controller");
        oci_free(&c);
        refused(HEAD PROC
                "\"mounts\":[{\"destination\":\"/x\",\"type\":\"bind\",\"source\":\"/tmp\","
                "\"options\":[\"rbind\",\"strictatime\"]}]," NS "}",
                ".mounts[0].options[1]: crib cannot honour mount option 'strictatime'",
                "strictatime on a bind mount");

        /* hooks: checked, kept as JSON, read back by kind */
        ok(load(HEAD PROC
                "\"hooks\":{\"prestart\":[{\"path\":\"/usr/bin/h\",\"args\":[\"h\",\"a\"],"
                "\"env\":[\"A=1\"],\"timeout\":5}],\"poststop\":[{\"path\":\"/bin/p\"}]}," NS "}",
                &c, &err) == 0 &&
                   c.hooks,
           "hooks load: %s", err.msg);
        struct oci_hook hk[OCI_MAX_HOOKS];
        int nh = oci_hooks_of(c.hooks, OCI_HOOK_PRESTART, hk, &err);
        ok(nh == 1 && !strcmp(hk[0].path, "/usr/bin/h") && !strcmp(hk[0].args[1], "a") &&
                   !hk[0].args[2] && !strcmp(hk[0].env[0], "A=1") && hk[0].timeout == 5,
           "prestart: path, args, env, timeout");
        oci_hooks_free(hk, nh > 0 ? (size_t)nh : 0);
        nh = oci_hooks_of(c.hooks, OCI_HOOK_POSTSTOP, hk, &err);
        ok(nh == 1 && !strcmp(hk[0].args[0], "/bin/p") && !hk[0].env[0] && !hk[0].timeout,
           "poststop without args: the path as argv[0], no environment, no timeout");
        oci_hooks_free(hk, nh > 0 ? (size_t)nh : 0);
        ok(oci_hooks_of(c.hooks, OCI_HOOK_CREATE_RUNTIME, hk, &err) == 0, "no createRuntime hooks");
        oci_free(&c);
        /* the kinds that run inside the container: taken, and read back as the others */
        ok(load(HEAD PROC "\"hooks\":{\"createContainer\":[{\"path\":\"/h\",\"timeout\":2}],"
                          "\"startContainer\":[{\"path\":\"/bin/s\",\"args\":[\"s\",\"x\"]},"
                          "{\"path\":\"/bin/t\"}]}," NS "}",
                &c, &err) == 0 &&
                   c.hooks,
           "createContainer and startContainer hooks load: %s", err.msg);
        nh = oci_hooks_of(c.hooks, OCI_HOOK_CREATE_CONTAINER, hk, &err);
        ok(nh == 1 && !strcmp(hk[0].path, "/h") && hk[0].timeout == 2, "createContainer: one");
        oci_hooks_free(hk, nh > 0 ? (size_t)nh : 0);
        nh = oci_hooks_of(c.hooks, OCI_HOOK_START_CONTAINER, hk, &err);
        ok(nh == 2 && !strcmp(hk[0].args[1], "x") && !strcmp(hk[1].args[0], "/bin/t"),
           "startContainer: two, in order");
        oci_hooks_free(hk, nh > 0 ? (size_t)nh : 0);
        oci_free(&c);
        refused(HEAD PROC "\"hooks\":{\"startContainer\":[{\"path\":\"bin/s\"}]}," NS "}",
                ".hooks.startContainer[0].path: 'bin/s' is not an absolute path",
                "a startContainer hook's path must be absolute (it is the container's)");
        refused(HEAD PROC "\"hooks\":{\"createContainer\":[{\"path\":\"/h\",\"timeout\":-1}]}," NS
                          "}",
                ".hooks.createContainer[0].timeout", "a createContainer timeout below 1");
        for (int k = 0; k < OCI_HOOK_KINDS; k++)
                ok(oci_hook_name(k) != NULL, "hook kind %d has a name: %s", k, oci_hook_name(k));
        ok(!strcmp(oci_hook_name(OCI_HOOK_CREATE_CONTAINER), "createContainer") &&
                   !strcmp(oci_hook_name(OCI_HOOK_START_CONTAINER), "startContainer") &&
                   !oci_hook_name(OCI_HOOK_KINDS),
           "the names are the config's, in the lifecycle's order");
        refused(HEAD PROC "\"hooks\":{\"prestart\":[{\"path\":\"/h\",\"timeout\":0}]}," NS "}",
                ".hooks.prestart[0].timeout", "a timeout of 0");
        refused(HEAD PROC "\"hooks\":{\"poststart\":[{\"path\":\"/a/../h\"}]}," NS "}",
                ".hooks.poststart[0].path", "a path with '..'");
        refused(HEAD PROC "\"hooks\":{\"poststart\":{\"path\":\"/h\"}}," NS "}",
                ".hooks.poststart: must be a list", "hooks not in a list");

        /* process.json (runc exec --process): the .process object alone */
        struct oci_process op;
        static const char proc[] =
                "{\"user\":{\"uid\":1000,\"gid\":100,\"additionalGids\":[5]},"
                "\"args\":[\"/bin/sh\",\"-c\",\"id\"],\"env\":[\"A=1\"],\"cwd\":\"/tmp\","
                "\"terminal\":true,\"capabilities\":{\"bounding\":[\"CAP_KILL\"]},"
                "\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":10,\"hard\":20}]}";
        FILE *f = fmemopen((void *)proc, strlen(proc), "r");
        ok(oci_load_process("p.json", f, &op, &err) == 0, "a process.json loads: %s", err.msg);
        fclose(f);
        ok(!strcmp(op.spec.args[2], "id") && op.spec.nenv == 1 && !strcmp(op.spec.cwd, "/tmp"),
           "args, env and cwd");
        ok(op.spec.uid == 1000 && op.spec.gid == 100 && op.spec.ngroups == 1 &&
                   op.spec.groups[0] == 5,
           "user and additional groups");
        ok(op.spec.terminal == TERMINAL_YES, "terminal");
        ok(op.has_caps && op.spec.caps == 1ULL << 5 && op.spec.caps_no_ambient,
           "capabilities, given");
        ok(op.has_rlimits && op.spec.limits[RLIMIT_NOFILE].hard == 20, "rlimits, given");
        spec_free(&op.spec);
        static const char bare[] = "{\"args\":[\"true\"]}";
        f = fmemopen((void *)bare, strlen(bare), "r");
        ok(oci_load_process("p.json", f, &op, &err) == 0 && !op.has_caps && !op.has_rlimits,
           "without capabilities and rlimits: neither given (the container's)");
        fclose(f);
        spec_free(&op.spec);
        static const char typo[] = "{\"args\":[\"true\"],\"terminal\":\"yes\"}";
        f = fmemopen((void *)typo, strlen(typo), "r");
        ok(oci_load_process("p.json", f, &op, &err) < 0,
           "a process.json of the wrong type: refused");
        fclose(f);
        contains(err.msg, "p.json: .terminal: must be true or false",
                 "its path from the top of process.json");
        static const char notobj[] = "[1]";
        f = fmemopen((void *)notobj, strlen(notobj), "r");
        ok(oci_load_process("p.json", f, &op, &err) < 0,
           "a process.json that is no object: refused");
        fclose(f);
        contains(err.msg, "p.json: .: must be an object", "saying so");

        /* an update's resources (runc update --resources): .linux.resources alone; only what
         * it names is set, -1 lifts a limit */
        struct cgroup_limits l;
        static const char res[] = "{\"memory\":{\"limit\":-1,\"swap\":-1},"
                                  "\"pids\":{\"limit\":200},\"cpu\":{\"quota\":-1}}";
        f = fmemopen((void *)res, strlen(res), "r");
        ok(oci_load_resources("r.json", f, &l, &err) == 0, "resources load: %s", err.msg);
        fclose(f);
        ok(l.memory_max == CGROUP_MAX && l.memory_swap == CGROUP_MAX && l.pids_max == 200 &&
                   l.cpu_quota == CGROUP_CPU_MAX && l.cpu_period == 0,
           "-1 lifts memory, swap and the cpu quota (the period kept: none given); pids 200");
        ok(l.need == (CGROUP_BIT(CGROUP_MEMORY) | CGROUP_BIT(CGROUP_PIDS) | CGROUP_BIT(CGROUP_CPU)),
           "and needs those three controllers");
        ok(l.memory_high == CGROUP_UNSET && !l.cpu_weight && !l.io_weight,
           "nothing it does not name");
        static const char zero[] = "{\"pids\":{\"limit\":0}}";
        f = fmemopen((void *)zero, strlen(zero), "r");
        ok(oci_load_resources("r.json", f, &l, &err) < 0,
           "pids limit 0 in an update: refused (runc reads no change, crun no limit)");
        fclose(f);
        contains(err.msg, "r.json: .pids.limit: 0 means no change", "saying why");
        static const char shares[] = "{\"cpu\":{\"shares\":1024,\"quota\":50000,"
                                     "\"period\":200000}}";
        f = fmemopen((void *)shares, strlen(shares), "r");
        ok(oci_load_resources("r.json", f, &l, &err) == 0 && l.cpu_weight == 39 &&
                   l.cpu_quota == 50000 && l.cpu_period == 200000,
           "shares 1024 in an update: weight 39, asked for; quota and period: %s", err.msg);
        fclose(f);
        static const char period[] = "{\"cpu\":{\"period\":50000}}";
        f = fmemopen((void *)period, strlen(period), "r");
        ok(oci_load_resources("r.json", f, &l, &err) < 0, "a period without a quota: refused");
        fclose(f);
        contains(err.msg, "r.json: .cpu.period: needs a quota", "saying why");
        static const char noswap[] = "{\"memory\":{\"swap\":1048576}}";
        f = fmemopen((void *)noswap, strlen(noswap), "r");
        ok(oci_load_resources("r.json", f, &l, &err) < 0, "swap without a limit: refused");
        fclose(f);
        contains(err.msg, "r.json: .memory.swap: must be -1, or at least .limit", "saying why");
        static const char cpus[] = "{\"cpu\":{\"cpus\":\"0-1,3\",\"mems\":\"0\"},"
                                   "\"memory\":{\"reservation\":33554432}}";
        f = fmemopen((void *)cpus, strlen(cpus), "r");
        ok(oci_load_resources("r.json", f, &l, &err) == 0 && !strcmp(l.cpuset_cpus, "0-1,3") &&
                   !strcmp(l.cpuset_mems, "0") && l.memory_low == 33554432 &&
                   l.need == (CGROUP_BIT(CGROUP_CPUSET) | CGROUP_BIT(CGROUP_MEMORY)),
           "cpus and mems: cpuset.cpus and cpuset.mems; reservation: memory.low (%s)", err.msg);
        fclose(f);
        static const char *const badsets[] = {"0-", "1-0", "a", "0,,1", "0 1", "-1", "0-1,"};
        for (size_t i = 0; i < sizeof badsets / sizeof badsets[0]; i++) {
                char text[128];
                snprintf(text, sizeof text, "{\"cpu\":{\"cpus\":\"%s\"}}", badsets[i]);
                f = fmemopen(text, strlen(text), "r");
                ok(oci_load_resources("r.json", f, &l, &err) < 0 &&
                           strstr(err.msg, "r.json: .cpu.cpus: must be a list of CPUs and ranges"),
                   "cpus \"%s\": refused, its path from the top of the file (%s)", badsets[i],
                   err.msg);
                fclose(f);
        }
        static const char kmem[] = "{\"memory\":{\"kernel\":1048576}}";
        f = fmemopen((void *)kmem, strlen(kmem), "r");
        ok(oci_load_resources("r.json", f, &l, &err) < 0, "what create refuses, update refuses");
        fclose(f);
        contains(err.msg, "r.json: .memory.kernel: is cgroup v1's alone",
                 "its path from the top of the file");
        static const char small[] = "{\"memory\":{\"limit\":100}}";
        f = fmemopen((void *)small, strlen(small), "r");
        ok(oci_load_resources("r.json", f, &l, &err) < 0, "a memory limit below a page: refused");
        fclose(f);
        contains(err.msg, "r.json: .memory.limit: is below 4096 bytes", "saying so");

        /* a config over the limit is refused before json-c sees it */
        size_t big = OCI_MAX_CONFIG + 16;
        char *huge = malloc(big + 1);
        memset(huge, ' ', big);
        huge[big] = '\0';
        refused(huge, "is over", "a config over 4 MiB");
        free(huge);
        seccomp_actions();
        cgroups_paths();
        sysctls();
        features();
        devices();
        return tap_done();
}
