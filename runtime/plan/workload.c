/* workload.c - the workload's process: its command, ids and terminal as the spec asks for them;
 * its environment, with PATH, HOME and TERM filled in; the descriptors it gets besides 0, 1
 * and 2; the programs crib runs for it, found in the system's directories only; and the files
 * crib writes for it, each mounted read-only on a path of its own (MOP_FILE). */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int plan_env(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        struct scratch *sc = &pl->sc;
        size_t n = s->nenv;
        bool has_path = false, has_home = false, has_term = false;
        for (size_t i = 0; i < n; i++) {
                has_path |= !strncmp(s->env[i], "PATH=", 5);
                has_home |= !strncmp(s->env[i], "HOME=", 5);
                has_term |= !strncmp(s->env[i], "TERM=", 5);
        }
        p->envp = plan_keep(sc, calloc(n + 4, sizeof *p->envp));
        if (!p->envp)
                return error_set(err, ENOMEM, "cannot allocate");
        for (size_t i = 0; i < n; i++)
                p->envp[i] = s->env[i];
        if (!has_path)
                p->envp[n++] = "PATH=" PLAN_DEFAULT_PATH;
        if (!has_home)
                p->envp[n++] = p->uid == 0 ? "HOME=/root" : "HOME=/";
        if (p->terminal && !has_term) {
                const char *t = h->term;
                char *term;
                if (asprintf(&term, "TERM=%s", t && *t ? t : "xterm") < 0 || !plan_keep(sc, term))
                        return error_set(err, ENOMEM, "cannot allocate");
                p->envp[n++] = term;
        }
        return 0;
}

/* Where crib looks for a program it runs (a network helper, nft): the system's directories
 * only, so that neither a writable directory nor $PATH (root's could be a user's) decides. */
/* Find NAME (of Debian's PACKAGE) for `what` in the system's directories; *ret is kept in sc. */
int plan_find_program(struct plan *p, const struct spec *s, const char *name, const char *package,
                      const char *what, const char **ret, struct scratch *sc, struct error *err)
{
        static const char *const dirs[] = {"/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin",
                                           "/sbin"};
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
                char path[64];
                struct stat st, dir;
                snprintf(path, sizeof path, "%s/%s", dirs[i], name);
                if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || stat(dirs[i], &dir) < 0)
                        continue;
                if (st.st_uid != 0 || dir.st_uid != 0 || (st.st_mode & 022) ||
                    (dir.st_mode & 022)) {
                        error_at(err, s->path, p->net_line,
                                 "'%s' is not root's, or others may change it; crib does not run "
                                 "it %s",
                                 path, what);
                        return error_hint(err, "reinstall it: sudo apt install --reinstall %s",
                                          package);
                }
                if (!(*ret = plan_keep(sc, strdup(path))))
                        return error_set(err, ENOMEM, "cannot allocate");
                return 0;
        }
        error_at(err, s->path, p->net_line, "mode = %s needs %s %s, which is not installed",
                 spec_net_mode_name(s->net_mode), name, what);
        return error_hint(err, "install it: sudo apt install %s", package);
}

/* A mount of one generated file, unless the spec mounts something of its own there. */
int plan_file(struct plan *p, const struct spec *s, const char *dst, char *text, struct scratch *sc,
              struct error *err)
{
        if (!plan_keep(sc, text))
                return error_set(err, ENOMEM, "cannot allocate");
        for (size_t i = 0; i < s->nmounts; i++)
                if (!strcmp(s->mounts[i].dst, dst) || !strcmp(s->mounts[i].dst, "/etc") ||
                    !strcmp(s->mounts[i].dst, "/"))
                        return 0;
        return plan_add_op(p, (struct mount_op){.kind = MOP_FILE, .dst = dst, .data = text}, err);
}

/* The descriptors the workload gets besides 0, 1 and 2: each must be open in crib. */
int plan_pass_fds(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        for (size_t i = 0; i < s->npass_fds; i++)
                if (s->pass_fds[i] == h->closed_fd)
                        return error_at(err, s->path, spec_line(s, SPEC_KEY_PROCESS_PASS_FDS),
                                        "pass_fds: fd %d is not open", s->pass_fds[i]);
        p->pass_fds = s->pass_fds;
        p->npass_fds = s->npass_fds;
        return 0;
}

/* The spec's process as it asks for it: its strings and lists for now, which plan_pack() copies
 * into the plan. */
int plan_process(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        (void)err;
        p->argv = s->args;
        p->cwd = s->cwd ? s->cwd : "/";
        p->uid = s->uid;
        p->gid = s->gid;
        p->groups = s->groups;
        p->ngroups = s->ngroups;
        p->umask = s->umask;
        p->hostname = s->hostname;
        p->readonly_rootfs = s->readonly_rootfs;
        p->init = s->init;
        p->restart = s->restart;
        p->restart_max = s->restart_max;
        p->health = s->health;
        /* a joined network namespace is its maker's to set up */
        p->loopback = s->ns_net && !s->ns_path[SPEC_NS_NET];
        p->terminal =
                s->terminal == TERMINAL_YES || (s->terminal == TERMINAL_AUTO && pl->h->stdin_tty);
        return 0;
}
