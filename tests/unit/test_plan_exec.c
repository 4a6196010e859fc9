/* test_plan_exec.c - the plan of `crib exec` (runtime/plan/execplan.c): the request checked
 * against the container's plan, which it never exceeds, and the exec's plan made from both.
 * The container's plan is made up here, with only what plan_exec reads: a user namespace
 * mapping container ids 0-65535, an environment, capability sets, an AppArmor profile, the
 * pass_fds of `crib run`. */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "plan/execplan.h"
#include "../lib/tap.h"

#define CAP(c) (1ULL << (c))

static char *plan_env[] = {"PATH=/usr/bin:/bin", "HOME=/root", "TERM=xterm", NULL};
static char *prog[] = {"/bin/sh", "-c", "true", NULL};
static const int passed_fds[] = {3, 4};

/* A container's plan: ids 0-65535 mapped to 100000-165535, a bounding set of four
 * capabilities of which the spec named one (cap_user), no no_new_privs. Large: static. */
static const struct plan *container(void)
{
        static struct plan p;
        memset(&p, 0, sizeof p);
        p.userns = true;
        p.uidmap = (struct idmap){.r = {{0, 100000, 65536}}, .n = 1};
        p.gidmap = p.uidmap;
        p.set_groups = true;
        p.argv = prog;
        p.envp = plan_env;
        p.cwd = "/";
        p.uid = 0;
        p.gid = 0;
        p.cap_bounding =
                CAP(CAP_CHOWN) | CAP(CAP_KILL) | CAP(CAP_NET_BIND_SERVICE) | CAP(CAP_SETUID);
        p.cap_user = CAP(CAP_NET_BIND_SERVICE);
        p.cap_permitted = p.cap_effective = p.cap_bounding;
        p.init = true;
        p.pass_fds = passed_fds;
        p.npass_fds = 2;
        p.nrlimits = 1;
        p.rlimits[0] = (struct plan_rlimit){RLIMIT_NOFILE, {1024, 4096}};
        snprintf(p.apparmor, sizeof p.apparmor, "crib-default");
        return &p;
}

/* A request to run `prog` in it, with nothing else asked. */
static struct enter_request request(void)
{
        return (struct enter_request){.pid = 1234, .argv = prog};
}

static struct plan q; /* the exec's plan: large, static */

/* plan_exec of `rq`; its environment freed by the caller (run). */
static int run(const struct enter_request *rq, char ***envp, struct error *err)
{
        error_clear(err);
        memset(&q, 0, sizeof q);
        return plan_exec(container(), rq, &q, envp, err);
}

static const char *env_of(char **envp, const char *key)
{
        size_t n = strlen(key);
        for (size_t i = 0; envp && envp[i]; i++)
                if (!strncmp(envp[i], key, n) && envp[i][n] == '=')
                        return envp[i] + n + 1;
        return NULL;
}

static size_t env_count(char **envp)
{
        size_t n = 0;
        while (envp && envp[n])
                n++;
        return n;
}

static void test_defaults(void)
{
        struct enter_request rq = request();
        struct error err;
        char **envp = NULL;
        ok(run(&rq, &envp, &err) == 0, "a bare request is planned: %s", err.msg);
        ok(q.argv == prog, "the exec's argv is the request's");
        ok(q.envp == envp && env_count(envp) == 3, "the environment is the container's");
        is_str(q.cwd, "/", "the working directory is the container's");
        ok(q.uid == 0 && q.gid == 0, "the ids are the container's");
        ok(!q.init, "no init for an exec");
        ok(!q.pass_fds && !q.npass_fds, "none of crib run's pass_fds");
        ok(!q.terminal, "no terminal unless asked");
        ok(q.cap_permitted == container()->cap_bounding && !q.cap_ambient,
           "root of the container gets the bounding set, nothing ambient");
        ok(q.nrlimits == 1 && q.rlimits[0].lim.rlim_cur == 1024, "the container's limits");
        is_str(q.apparmor, "crib-default", "the container's AppArmor profile");
        free(envp);
}

static void test_env(void)
{
        struct error err;
        char **envp = NULL;
        char *add[] = {"HOME=/home/u", "NEW=1", "EMPTY=", NULL};
        struct enter_request rq = request();
        rq.env = add;
        ok(run(&rq, &envp, &err) == 0, "-e is planned: %s", err.msg);
        is_str(env_of(envp, "HOME"), "/home/u", "-e HOME=... replaces the container's HOME");
        is_str(env_of(envp, "NEW"), "1", "-e NEW=1 is added");
        is_str(env_of(envp, "EMPTY"), "", "-e EMPTY= is added, empty");
        is_str(env_of(envp, "PATH"), "/usr/bin:/bin", "the container's PATH stays");
        ok(env_count(envp) == 5, "one entry per name (%zu)", env_count(envp));
        free(envp);

        char *twice[] = {"A=1", "A=2", NULL};
        rq.env = twice;
        ok(run(&rq, &envp, &err) == 0 && env_count(envp) == 4, "the same name twice: one entry");
        is_str(env_of(envp, "A"), "2", "the last one wins");
        free(envp);

        char *prefix[] = {"HOMER=x", NULL};
        rq.env = prefix;
        ok(run(&rq, &envp, &err) == 0 && env_count(envp) == 4, "HOMER= is another name than HOME=");
        is_str(env_of(envp, "HOME"), "/root", "HOME stays");
        free(envp);

        char *only[] = {"X=1", NULL};
        rq.env = only;
        rq.env_replace = true;
        ok(run(&rq, &envp, &err) == 0 && env_count(envp) == 1 && env_of(envp, "X"),
           "env_replace: the request's environment alone");
        free(envp);

        char *bad[][2] = {{"NOEQUALS", NULL}, {"=value", NULL}};
        for (size_t i = 0; i < 2; i++) {
                rq = request();
                rq.env = bad[i];
                envp = NULL;
                ok(run(&rq, &envp, &err) < 0 && !envp, "-e '%s' is refused", bad[i][0]);
                contains(err.msg, "is not NAME=VALUE", "  and says why");
                contains(err.hint, "-e NAME=VALUE", "  and how");
        }
}

static void test_user(void)
{
        struct error err;
        char **envp = NULL;
        struct enter_request rq = request();
        rq.user_set = true;
        rq.uid = 1000;
        rq.gid = 1000;
        ok(run(&rq, &envp, &err) == 0, "-u 1000:1000, mapped: planned: %s", err.msg);
        ok(q.uid == 1000 && q.gid == 1000, "the exec runs as 1000:1000");
        ok(!q.groups && !q.ngroups, "with no supplementary groups");
        ok(q.cap_permitted == CAP(CAP_NET_BIND_SERVICE) &&
                   q.cap_ambient == CAP(CAP_NET_BIND_SERVICE),
           "a user other than root gets only what the spec named (cap_user), ambient");
        ok(q.cap_bounding == container()->cap_bounding, "the bounding set stays the container's");
        free(envp);

        rq.uid = 70000;
        ok(run(&rq, &envp, &err) < 0, "-u 70000: not mapped: refused");
        contains(err.msg, "uid 70000 is not mapped", "  names the uid");
        rq.uid = 1000;
        rq.gid = 70000;
        ok(run(&rq, &envp, &err) < 0, "-u 1000:70000: refused");
        contains(err.msg, "gid 70000 is not mapped", "  names the gid");

        rq.gid = 1000;
        gid_t groups[] = {10, 70000};
        rq.groups_set = true;
        rq.groups = groups;
        rq.ngroups = 2;
        ok(run(&rq, &envp, &err) < 0, "a supplementary group not mapped: refused");
        contains(err.msg, "supplementary group 70000", "  names it");
        rq.ngroups = 1;
        ok(run(&rq, &envp, &err) == 0 && q.ngroups == 1 && q.groups[0] == 10,
           "a mapped supplementary group: set: %s", err.msg);
        free(envp);
}

static void test_user_no_userns(void)
{
        struct error err;
        char **envp = NULL;
        struct plan *p = (struct plan *)container();
        p->userns = false;
        struct enter_request rq = request();
        rq.user_set = true;
        rq.uid = 70000;
        rq.gid = 70000;
        error_clear(&err);
        memset(&q, 0, sizeof q);
        ok(plan_exec(p, &rq, &q, &envp, &err) == 0 && q.uid == 70000,
           "without a user namespace no id is checked against a map: %s", err.msg);
        free(envp);
}

static void test_groups_denied(void)
{
        struct error err;
        char **envp = NULL;
        struct plan *p = (struct plan *)container();
        p->set_groups = false;
        gid_t groups[] = {10};
        struct enter_request rq = request();
        rq.groups_set = true;
        rq.groups = groups;
        rq.ngroups = 1;
        error_clear(&err);
        ok(plan_exec(p, &rq, &q, &envp, &err) < 0 && !envp,
           "supplementary groups where setgroups is denied: refused");
        contains(err.msg, "cannot set supplementary groups", "  says why");
        rq.ngroups = 0;
        ok(plan_exec(p, &rq, &q, &envp, &err) == 0, "none asked: planned: %s", err.msg);
        free(envp);
}

static void test_caps(void)
{
        struct error err;
        char **envp = NULL;
        struct enter_request rq = request();
        rq.caps_set = true;
        rq.caps = CAP(CAP_KILL) | CAP(CAP_CHOWN);
        ok(run(&rq, &envp, &err) == 0, "a subset of the bounding set: planned: %s", err.msg);
        ok(q.cap_bounding == rq.caps && q.cap_permitted == rq.caps && q.cap_effective == rq.caps,
           "bounding, permitted and effective are the request's");
        ok(!q.cap_ambient && !q.cap_inheritable, "root: nothing ambient");
        free(envp);

        rq.user_set = true;
        rq.uid = rq.gid = 1000;
        ok(run(&rq, &envp, &err) == 0 && q.cap_ambient == rq.caps && q.cap_permitted == rq.caps,
           "uid 1000: the request's set, through the ambient set");
        free(envp);
        rq.caps_no_ambient = true;
        ok(run(&rq, &envp, &err) == 0 && !q.cap_ambient && !q.cap_permitted && !q.cap_effective &&
                   q.cap_bounding == rq.caps,
           "uid 1000 with caps_no_ambient: the bounding set only");
        free(envp);

        rq = request();
        rq.caps_set = true;
        rq.caps = CAP(CAP_KILL) | CAP(CAP_SYS_ADMIN);
        ok(run(&rq, &envp, &err) < 0, "a capability beyond the bounding set: refused");
        contains(err.msg, "capability 21 (SYS_ADMIN)", "  names it");
        contains(err.msg, "not in the container's bounding set", "  says why");
}

static void test_checks(void)
{
        struct error err;
        char **envp = NULL;
        struct enter_request rq = request();
        rq.cwd = "tmp";
        ok(run(&rq, &envp, &err) < 0, "a relative working directory: refused");
        contains(err.msg, "'tmp' is not an absolute path", "  names it");
        rq.cwd = "/tmp";
        ok(run(&rq, &envp, &err) == 0, "an absolute one: planned: %s", err.msg);
        is_str(q.cwd, "/tmp", "  and used");
        free(envp);

        rq = request();
        rq.apparmor = "unconfined";
        ok(run(&rq, &envp, &err) < 0, "another AppArmor profile than the container's: refused");
        contains(err.msg, "'unconfined' is not the container's ('crib-default')", "  says so");
        rq.apparmor = "crib-default";
        ok(run(&rq, &envp, &err) == 0, "the container's own: planned");
        free(envp);
        rq.apparmor = "";
        ok(run(&rq, &envp, &err) == 0, "an empty one: the container's");
        free(envp);

        char *none[] = {NULL}, *empty[] = {"", NULL};
        char **argvs[] = {NULL, none, empty};
        for (size_t i = 0; i < 3; i++) {
                rq = request();
                rq.argv = argvs[i];
                ok(run(&rq, &envp, &err) < 0, "no program (%zu): refused", i);
                contains(err.msg, "needs a program to run", "  says so");
        }
}

static void test_the_rest(void)
{
        struct error err;
        char **envp = NULL;
        struct enter_request rq = request();
        rq.tty = true;
        rq.no_new_privs = true;
        struct plan_rlimit lim[] = {{RLIMIT_NPROC, {10, 20}}, {RLIMIT_CORE, {0, 0}}};
        rq.limits_set = true;
        rq.limits = lim;
        rq.nlimits = 2;
        ok(run(&rq, &envp, &err) == 0, "-t, no_new_privs and limits: planned: %s", err.msg);
        ok(q.terminal, "a terminal");
        ok(q.no_new_privs, "no_new_privs where the container has none");
        ok(q.nrlimits == 2 && q.rlimits[0].resource == RLIMIT_NPROC &&
                   q.rlimits[1].resource == RLIMIT_CORE,
           "the request's limits instead of the container's");
        free(envp);

        struct plan *p = (struct plan *)container();
        p->no_new_privs = true;
        rq = request();
        error_clear(&err);
        ok(plan_exec(p, &rq, &q, &envp, &err) == 0 && q.no_new_privs,
           "no_new_privs of the container's stays");
        free(envp);
}

int main(void)
{
        test_defaults();
        test_env();
        test_user();
        test_user_no_userns();
        test_groups_denied();
        test_caps();
        test_checks();
        test_the_rest();
        return tap_done();
}
