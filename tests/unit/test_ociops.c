/* test_ociops.c - crib's OCI runtime (runtime/container/) on made-up state directories: the
 * state object and its JSON, and the transitions of the state machine that need no real
 * container (its "process" is a child of this test): state and list, start of a created
 * container whose process ends first, start/pause/resume/exec/update refused in the wrong
 * state, kill, delete with and without --force and the poststop hook it runs, and the words
 * an engine looks for ("does not exist"). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "container/ocicgroup.h"
#include "container/ociexec.h"
#include "container/ociops.h"
#include "container/ocistate.h"
#include "state/record.h"
#include "state/state.h"

static char root[300], top[256], warned[2048];

static void on_hook_warn(void *ctx, const char *line)
{
        (void)ctx;
        snprintf(warned, sizeof warned, "%s", line);
}

static struct oci_runtime rt = {.root = root, .hook_warn = on_hook_warn};

/* a child that waits for a signal, or ends after `ms` */
static pid_t sleeper_for(int ms)
{
        pid_t pid = fork();
        if (pid == 0) {
                if (ms)
                        usleep((useconds_t)ms * 1000);
                else
                        pause();
                _exit(0);
        }
        return pid;
}

static pid_t sleeper(void)
{
        return sleeper_for(0);
}

/* A container as crib oci create leaves it: its record, the `oci` file (with `hooks`, a
 * config's .hooks JSON, or NULL), its process `pid` (0: none recorded), the exec fifo when
 * `created` */
static void made(const char *id, pid_t pid, const char *hooks, bool created)
{
        struct error err;
        int sroot = state_open_root(root, geteuid(), &err);
        int dir = state_create(sroot, id, &err);
        struct record r = {.created = 86400 * 365};
        snprintf(r.name, sizeof r.name, "%s", id);
        record_write_info(dir, &r, &err);
        if (pid)
                record_write_pid(dir, pid, 0, &err);
        struct oci_config oc = {.annotations = "{\"org.example\":\"yes\"}", .hooks = (char *)hooks};
        json_object *saved = ocistate_saved_new("/bundle", "/bundle/rootfs", &oc);
        ocistate_save(dir, saved, &err);
        json_object_put(saved);
        if (created)
                state_fifo_make(dir, STORE_FILE_FIFO, &err);
        close(dir);
        close(sroot);
}

static const char *field(json_object *o, const char *key)
{
        json_object *v;
        return o && json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static void test_json(void)
{
        json_object *saved = json_tokener_parse(
                "{\"bundle\":\"/b\",\"rootfs\":\"/b/r\",\"annotations\":{\"k\":\"v\"}}");
        struct ocistate st = {
                .id = "c1", .status = STORE_PAUSED, .pid = 42, .created = 0, .saved = saved};
        json_object *o = ocistate_json(&st), *a;
        is_str(field(o, "ociVersion"), "1.0.2", "state: ociVersion");
        ok(!strcmp(field(o, "id"), "c1") && !strcmp(field(o, "pid"), "42") &&
                   !strcmp(field(o, "status"), "paused"),
           "id, pid and status (paused)");
        ok(!strcmp(field(o, "bundle"), "/b") && !strcmp(field(o, "rootfs"), "/b/r"),
           "bundle and rootfs from the oci file");
        is_str(field(o, "created"), "1970-01-01T00:00:00.000000000Z", "created, as RFC 3339");
        ok(json_object_object_get_ex(o, "annotations", &a) && !strcmp(field(a, "k"), "v"),
           "the annotations");
        json_object_put(o);
        json_object_put(saved);
        st.saved = NULL;
        st.status = STORE_CREATING;
        o = ocistate_json(&st);
        ok(!strcmp(field(o, "bundle"), "") && !strcmp(field(o, "status"), "creating") &&
                   json_object_object_get_ex(o, "annotations", &a) &&
                   json_object_object_length(a) == 0,
           "without an oci file: empty bundle, no annotations; creating");
        json_object_put(o);
}

static void test_state(void)
{
        struct error err;
        pid_t c = sleeper_for(400);
        made("c1", c, NULL, true);
        json_object *st = ocistate_state(&rt, "c1", &err);
        char pid[16];
        snprintf(pid, sizeof pid, "%d", (int)c);
        ok(st && !strcmp(field(st, "status"), "created") && !strcmp(field(st, "pid"), pid) &&
                   !strcmp(field(st, "bundle"), "/bundle"),
           "a set-up container waiting on its fifo: created, its pid");
        json_object_put(st);
        ok(!ocistate_state(&rt, "nope", &err) && err.errnum == ENOENT &&
                   !strcmp(err.msg, "container \"nope\" does not exist"),
           "an unknown id: 'container \"nope\" does not exist', as the engines look for");
        ok(!ocistate_state(&rt, "../c1", &err) && strstr(err.msg, "does not exist"),
           "a name crib would not take: does not exist either");
        int code = 0;
        ok(ocicgroup_freeze(&rt, "c1", true, &err) < 0 &&
                   strstr(err.msg, "is created, not running"),
           "pause of a created container: refused (%s)", err.msg);
        struct ociexec x = {.id = "c1"};
        int status;
        ok(ociexec_run(&rt, &x, &status, &err) < 0 &&
                   !strcmp(err.msg, "container \"c1\" is created, not running"),
           "exec into a created container: refused");

        /* its process ends (in 400 ms) before anyone starts it */
        ok(ociops_start(&rt, "c1", &code, &err) < 0 &&
                   strstr(err.msg, "ended before it was started"),
           "start of a created container whose process ended: says so");
        waitpid(c, NULL, 0);
        st = ocistate_state(&rt, "c1", &err);
        ok(st && !strcmp(field(st, "status"), "stopped") && !strcmp(field(st, "pid"), "0"),
           "then stopped, pid 0");
        json_object_put(st);
        ok(ociops_kill(&rt, "c1", SIGTERM, false, &err) < 0 &&
                   !strcmp(err.msg, "container \"c1\" is not running"),
           "kill of a stopped container: not running");
        FILE *f = fmemopen((char *)"{}", 2, "r");
        ok(ocicgroup_update(&rt, "c1", "stdin", f, &err) < 0 &&
                   strstr(err.msg, "is stopped: nothing to update"),
           "update of a stopped container: nothing to update");
        fclose(f);
        ok(ociops_delete(&rt, "c1", false, &err) == 0 && !ocistate_state(&rt, "c1", &err),
           "delete of a stopped container: gone");
        ok(ociops_delete(&rt, "c1", true, &err) == 0, "delete --force of no container: no error");
        ok(ociops_delete(&rt, "c1", false, &err) < 0 && err.errnum == ENOENT,
           "without --force: does not exist");
}

static void test_running(void)
{
        struct error err;
        char file[300], hooks[600];
        snprintf(file, sizeof file, "%s/poststop", top);
        snprintf(hooks, sizeof hooks,
                 "{\"poststop\":[{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"cat > %s\"]},"
                 "{\"path\":\"/bin/false\"}]}",
                 file);
        pid_t c = sleeper();
        made("r1", c, hooks, false);
        made("r2", 0, NULL, false);
        json_object *all = ocistate_list(&rt, &err);
        ok(all && json_object_array_length(all) == 2, "list: both containers");
        json_object_put(all);
        int code = 0;
        ok(ociops_start(&rt, "r1", &code, &err) < 0 && strstr(err.msg, "is running, not created"),
           "start of a running container: refused");
        ok(ocicgroup_freeze(&rt, "r1", false, &err) < 0 &&
                   strstr(err.msg, "is running, not paused"),
           "resume of a running container: refused");
        ok(ocicgroup_freeze(&rt, "r1", true, &err) < 0 &&
                   strstr(err.msg, "has no cgroup v2 of its own to freeze"),
           "pause of one without a cgroup of its own: says so");
        pid_t pids[8];
        size_t n = 0;
        ok(ocicgroup_ps(&rt, "r1", pids, 8, &n, &err) == 0 && n == 1 && pids[0] == c,
           "ps without a cgroup of its own: its process");
        ok(ociops_delete(&rt, "r1", false, &err) < 0 && strstr(err.msg, "is running") &&
                   strstr(err.hint, "delete --force"),
           "delete of a running container: refused, with the way out");
        ok(ociops_kill(&rt, "r1", SIGUSR1, false, &err) == 0, "kill: sent");
        int status;
        waitid(P_PID, (id_t)c, &(siginfo_t){0}, WEXITED | WNOWAIT);
        ok(waitpid(c, &status, WNOHANG) == c && WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1,
           "its process got it");

        c = sleeper();
        struct error e2;
        int sroot = state_open_root(root, geteuid(), &e2), dir = state_open(sroot, "r1", &e2);
        record_write_pid(dir, c, 0, &e2);
        close(dir);
        close(sroot);
        warned[0] = '\0';
        ok(ociops_delete(&rt, "r1", true, &err) == 0, "delete --force of a running container");
        ok(waitpid(c, &status, 0) == c && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
           "its process killed first");
        ok(!ocistate_state(&rt, "r1", &err) && err.errnum == ENOENT, "and its state gone");
        char text[4096] = "";
        FILE *f = fopen(file, "re");
        if (f) {
                size_t got = fread(text, 1, sizeof text - 1, f);
                text[got] = '\0';
                fclose(f);
        }
        json_object *st = json_tokener_parse(text);
        ok(st && !strcmp(field(st, "id"), "r1") && !strcmp(field(st, "status"), "stopped") &&
                   !strcmp(field(st, "bundle"), "/bundle"),
           "the poststop hook ran with the state on its stdin: stopped");
        json_object_put(st);
        ok(strstr(warned, "poststop") != NULL,
           "a failing poststop hook is a warning, after the others ran (%s)", warned);
}

int main(void)
{
        char tmpl[] = "/tmp/crib-ociops-test.XXXXXX";
        snprintf(top, sizeof top, "%s", mkdtemp(tmpl));
        snprintf(root, sizeof root, "%s/root", top);
        test_json();
        test_state();
        test_running();
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
        (void)!system(cmd);
        return tap_done();
}
