/* sysctlkey.c - which sysctls a container may set, and in which of its namespaces: runc's rule,
 * as spec_sysctl_ns() (spec.h) checks it.
 *
 * A sysctl (sysctl(8), proc(5) /proc/sys) is the kernel's, the host's, unless the kernel keeps
 * it per namespace: those of the network stack (net.*) per network namespace, the System V
 * IPC limits (kernel.msg*, sem, shm*) and POSIX message queues' (fs.mqueue.*) per IPC
 * namespace (ipc_namespaces(7)), the NIS domain name (kernel.domainname) per UTS namespace.
 * Setting one of those in the container's own namespace changes nothing outside it; setting any
 * other would change the host, so it is refused, as runc refuses it. kernel.hostname is the
 * UTS namespace's too, but it is the hostname, which a spec sets on its own (runc refuses it as
 * a sysctl for that reason).
 *
 * The name becomes a path below /proc/sys (its dots slashes), so it is held to a grammar that
 * cannot leave that directory: components of lowercase letters, digits, '_' and '-', one dot
 * between each two; no '/', no empty component, so no "." or "..". The value is written as
 * one write(2) to that file: one line, shorter than SPEC_SYSCTL_VAL. Pure: no system call.
 */
#define _GNU_SOURCE
#include "spec.h"

#include <string.h>

/* The IPC namespace's sysctls (ipc_namespaces(7)) besides fs.mqueue.* */
static const char *const ipc_keys[] = {"kernel.msgmax", "kernel.msgmnb",         "kernel.msgmni",
                                       "kernel.sem",    "kernel.shmall",         "kernel.shmmax",
                                       "kernel.shmmni", "kernel.shm_rmid_forced"};

/* The name's grammar: [a-z0-9_-]+ components, one '.' between each two */
static bool key_clean(const char *key)
{
        size_t n = strlen(key);
        if (!n || n >= SPEC_SYSCTL_KEY || key[0] == '.' || key[n - 1] == '.')
                return false;
        for (size_t i = 0; i < n; i++) {
                char ch = key[i];
                if (ch == '.' && key[i + 1] == '.')
                        return false;
                if (ch != '.' && ch != '_' && ch != '-' && !(ch >= 'a' && ch <= 'z') &&
                    !(ch >= '0' && ch <= '9'))
                        return false;
        }
        return true;
}

static const struct {
        const char *file, *title;
} ns_kinds[SPEC_NNS] = {
        [SPEC_NS_USER] = {"user", "user"},  [SPEC_NS_PID] = {"pid", "pid"},
        [SPEC_NS_IPC] = {"ipc", "IPC"},     [SPEC_NS_UTS] = {"uts", "UTS"},
        [SPEC_NS_NET] = {"net", "network"}, [SPEC_NS_CGROUP] = {"cgroup", "cgroup"},
};

const char *spec_ns_file(enum spec_ns k)
{
        return ns_kinds[k].file;
}

const char *spec_ns_title(enum spec_ns k)
{
        return ns_kinds[k].title;
}

int spec_sysctl_ns(const char *key, const char *value, struct error *err)
{
        if (!key_clean(key))
                return error_set(err, 0,
                                 "is not a sysctl name crib takes: lowercase letters, digits, '_' "
                                 "and '-', with single dots between them, shorter than %d bytes",
                                 SPEC_SYSCTL_KEY);
        if (strlen(value) >= SPEC_SYSCTL_VAL)
                return error_set(err, 0, "its value is longer than %d bytes", SPEC_SYSCTL_VAL - 1);
        if (strpbrk(value, "\n\r"))
                return error_set(err, 0, "its value is more than one line");
        if (!strncmp(key, "net.", 4))
                return SPEC_NS_NET;
        if (!strncmp(key, "fs.mqueue.", 10))
                return SPEC_NS_IPC;
        for (size_t i = 0; i < sizeof ipc_keys / sizeof ipc_keys[0]; i++)
                if (!strcmp(key, ipc_keys[i]))
                        return SPEC_NS_IPC;
        if (!strcmp(key, "kernel.domainname"))
                return SPEC_NS_UTS;
        if (!strcmp(key, "kernel.hostname"))
                return error_set(err, 0,
                                 "is the hostname, which the spec sets on its own: give it as "
                                 "the hostname, not as a sysctl");
        return error_set(err, 0,
                         "is not a sysctl of a namespace the container can have of its own: "
                         "setting it would change the host (crib sets net.*, the IPC "
                         "namespace's kernel.msg*, kernel.sem, kernel.shm* and fs.mqueue.*, and "
                         "kernel.domainname)");
}
