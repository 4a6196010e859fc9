/* ocistate.c - what crib's OCI runtime keeps and tells of a container; see ocistate.h.
 *
 * Kernel features: SCM_RIGHTS over an AF_UNIX socket (unix(7)) to give the engine the
 * terminal's master side; rename(2) for the pid file an engine reads.
 *
 * crib oci create keeps the config's bundle, rootfs, annotations and checked hooks in the
 * state directory's `oci` file (read back as untrusted JSON, bounded); `state` and every
 * hook's stdin are built from it and the record (store.h). Hooks (runtime/launch/hooks.c):
 * prestart and createRuntime from create, while the setup waits for GO, poststart from start,
 * poststop from delete.
 */
#define _GNU_SOURCE
#include "ocistate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "launch/enter.h"
#include "launch/hooks.h"
#include "launch/sealed.h"
#include "state/state.h"
#include "base/sys.h"

/* the state directory's `oci` file: bundle, rootfs, annotations and hooks */
#define OCI_SAVED_MAX (OCI_MAX_ANNOTATIONS_JSON + OCI_MAX_HOOKS_JSON + 16384)

static int no_such(const char *id, struct error *err)
{
        /* podman and containerd look for "does not exist" */
        return error_set(err, ENOENT, "container \"%s\" does not exist", id);
}

int ocistate_open(const struct oci_runtime *rt, const char *id, bool locked, struct stored *ret,
                  struct error *err)
{
        ret->root = ret->dir = -1;
        if (!state_name_valid(id))
                return no_such(id, err);
        int r = locked ? store_open_locked(rt->root, id, ret, err)
                       : store_open(rt->root, id, ret, err);
        return r < 0 && err->errnum == ENOENT ? no_such(id, err) : r;
}

/* Where the plan alone cannot name the container's cgroup (a user's, in systemd's scope,
 * carries the pid of the crib that made it) the workload could not be asked either: it may have
 * moved itself where no rule finds it, or been reaped. So create writes it down; read back, it
 * must still be one crib makes for this plan (container_leaf_valid); a container made by a crib
 * that wrote none is found by its name under the plan's base. */
void ocistate_leaf(const struct stored *o, const char *id, char *buf, size_t len, char *top,
                   size_t tlen)
{
        struct plan p;
        struct error ignored;
        buf[0] = '\0';
        if (top)
                top[0] = '\0';
        if (store_read_plan(o->dir, &p, &ignored) < 0)
                return;
        if (top && p.cgroup_path[0])
                snprintf(top, tlen, "%s", p.cgroup_top);
        if (p.cgroup && state_read(o->dir, OCISTATE_CGROUP_FILE, buf, len, &ignored) > 0) {
                if (!container_leaf_valid(&p, buf))
                        buf[0] = '\0';
        } else if (p.cgroup && p.cgroup_path[0]) {
                snprintf(buf, len, "%s", p.cgroup_path);
        } else if (p.cgroup && p.cgroup_base[0] && !p.cgroup_systemd) {
                cgroup_leaf(p.cgroup_base, id, buf, len);
        }
        plan_free(&p);
}

/* ---- the state, and the hooks that read it ---- */

json_object *ocistate_json(const struct ocistate *s)
{
        json_object *out = json_object_new_object(), *v;
        json_object *saved = s->saved;
        json_object_object_add(out, "ociVersion", json_object_new_string("1.0.2"));
        json_object_object_add(out, "id", json_object_new_string(s->id));
        json_object_object_add(out, "pid", json_object_new_int(s->pid));
        json_object_object_add(out, "status", json_object_new_string(store_status_name(s->status)));
        const char *keys[] = {"bundle", "rootfs"};
        for (size_t i = 0; i < 2; i++)
                json_object_object_add(out, keys[i],
                                       json_object_new_string(saved && json_object_object_get_ex(
                                                                               saved, keys[i], &v)
                                                                      ? json_object_get_string(v)
                                                                      : ""));
        char when[64];
        time_t t = (time_t)s->created;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S.000000000Z", &tm);
        json_object_object_add(out, "created", json_object_new_string(when));
        json_object_object_add(out, "owner", json_object_new_string(""));
        if (saved && json_object_object_get_ex(saved, "annotations", &v))
                json_object_object_add(out, "annotations", json_object_get(v));
        else
                json_object_object_add(out, "annotations", json_object_new_object());
        return out;
}

json_object *ocistate_saved_new(const char *bundle, const char *rootfs, const struct oci_config *oc)
{
        json_object *o = json_object_new_object();
        json_object *a = json_tokener_parse(oc->annotations);
        json_object_object_add(o, "bundle", json_object_new_string(bundle));
        json_object_object_add(o, "rootfs", json_object_new_string(rootfs));
        json_object_object_add(o, "annotations", a ? a : json_object_new_object());
        if (oc->hooks)
                json_object_object_add(o, "hooks", json_object_new_string(oc->hooks));
        return o;
}

int ocistate_save(int dir, json_object *saved, struct error *err)
{
        const char *s = json_object_to_json_string_ext(saved, JSON_C_TO_STRING_PLAIN);
        return state_write(dir, STORE_FILE_OCI, s, strlen(s), err);
}

json_object *ocistate_saved(int dir, struct error *err)
{
        _cleanup_free_ char *text = malloc(OCI_SAVED_MAX);
        if (!text) {
                error_set(err, ENOMEM, "cannot read the state file '%s'", STORE_FILE_OCI);
                return NULL;
        }
        if (state_read(dir, STORE_FILE_OCI, text, OCI_SAVED_MAX, err) < 0)
                return NULL;
        json_object *o = json_tokener_parse(text);
        if (!o)
                error_set(err, EINVAL, "the state file '%s' is not JSON", STORE_FILE_OCI);
        return o;
}

int ocistate_hooks(const struct oci_runtime *rt, json_object *saved, enum oci_hook_kind kind,
                   const char *name, const struct ocistate *state, struct error *err)
{
        json_object *h;
        if (!saved || !json_object_object_get_ex(saved, "hooks", &h))
                return 0;
        struct oci_hook hooks[OCI_MAX_HOOKS];
        int n = oci_hooks_of(json_object_get_string(h), kind, hooks, err);
        if (n < 0)
                return -1;
        json_object *st = ocistate_json(state);
        const char *text = json_object_to_json_string_ext(
                st, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        bool fatal = kind == OCI_HOOK_PRESTART || kind == OCI_HOOK_CREATE_RUNTIME;
        int r = 0;
        for (int i = 0; i < n && !r; i++) {
                struct error herr;
                error_clear(&herr);
                struct hook run = {hooks[i].path, hooks[i].args, hooks[i].env, hooks[i].timeout};
                if (hook_run(&run, name, text, &herr) == 0)
                        continue;
                if (fatal) {
                        *err = herr;
                        r = -1;
                } else if (rt->hook_warn) {
                        char line[sizeof herr.msg + 64];
                        snprintf(line, sizeof line, "%s%s%s", herr.msg, herr.errnum ? ": " : "",
                                 herr.errnum ? strerror(herr.errnum) : "");
                        rt->hook_warn(rt->ctx, line);
                }
        }
        json_object_put(st);
        oci_hooks_free(hooks, (size_t)n);
        return r;
}

int ocistate_seal(const struct oci_runtime *rt, const struct plan *p, struct error *err)
{
        if (!sealed_needed(p))
                return 0;
        return sealed_reexec(rt->self_argv, environ, err);
}

/* ---- what the engine is given ---- */

int ocistate_pid_file(const char *path, pid_t pid, struct error *err)
{
        char tmp[4200], text[32];
        int n = snprintf(tmp, sizeof tmp, "%s.crib-%d", path, (int)getpid());
        if (n < 0 || (size_t)n >= sizeof tmp)
                return error_set(err, ENAMETOOLONG, "pid file '%s'", path);
        snprintf(text, sizeof text, "%d", (int)pid);
        _cleanup_close_ int fd =
                open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || sys_write_all(fd, text, strlen(text)) < 0 || rename(tmp, path) < 0) {
                int e = errno;
                unlink(tmp);
                return error_set(err, e, "cannot write the pid file '%s'", path);
        }
        return 0;
}

int ocistate_console(const char *socket_path, int master, struct error *err)
{
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        _cleanup_close_ int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int r = 0;
        if (!socket_path || strlen(socket_path) >= sizeof a.sun_path || s < 0) {
                r = error_set(err, s < 0 ? errno : 0, "no console socket for the terminal");
                close(master);
                return r;
        }
        memcpy(a.sun_path, socket_path, strlen(socket_path));
        char byte = '\0', cbuf[CMSG_SPACE(sizeof(int))] = {0};
        struct iovec iov = {.iov_base = &byte, .iov_len = 1};
        struct msghdr mh = {.msg_iov = &iov,
                            .msg_iovlen = 1,
                            .msg_control = cbuf,
                            .msg_controllen = sizeof cbuf};
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &master, sizeof master);
        if (connect(s, (struct sockaddr *)&a, sizeof a) < 0 || sendmsg(s, &mh, MSG_NOSIGNAL) < 0)
                r = error_set(err, errno, "cannot send the terminal to '%s'", socket_path);
        close(master);
        return r;
}

/* ---- state, list ---- */

/* Its state as `state` shows it: its process's pid while that runs */
static json_object *state_of(const struct stored *o, json_object *saved)
{
        struct ocistate st = {.id = o->rec.name,
                              .status = store_status(o),
                              .pid = o->rec.pid_alive ? o->rec.pid : 0,
                              .created = o->rec.created,
                              .saved = saved};
        return ocistate_json(&st);
}

json_object *ocistate_state(const struct oci_runtime *rt, const char *id, struct error *err)
{
        struct stored o;
        if (ocistate_open(rt, id, false, &o, err) < 0)
                return NULL;
        json_object *saved = ocistate_saved(o.dir, err);
        json_object *out = saved ? state_of(&o, saved) : NULL;
        json_object_put(saved);
        store_close(&o);
        return out;
}

/* A container `state` can show (store_each), into the array */
static int list_one(void *ctx, struct stored *o)
{
        struct error ignored;
        json_object *saved = ocistate_saved(o->dir, &ignored);
        if (saved)
                json_object_array_add(ctx, state_of(o, saved));
        json_object_put(saved);
        return 0;
}

json_object *ocistate_list(const struct oci_runtime *rt, struct error *err)
{
        json_object *all = json_object_new_array();
        if (store_each(rt->root, list_one, all, err) < 0) {
                json_object_put(all);
                return NULL;
        }
        return all;
}
