/* build.h - what the passes of planning share, private to runtime/plan/: the state of one
 * plan_build() (struct planning), the passes its table runs (build.c), each in the file of its
 * job, and the helpers more than one of those files calls. Nothing outside runtime/plan/
 * includes it. */
#ifndef CRIB_PLAN_BUILD_H
#define CRIB_PLAN_BUILD_H

#include <limits.h>
#include <sys/stat.h>

#include "plan.h"

/* What planning allocates on the way; plan_pack() copies what the plan keeps into its arena,
 * then plan_build() frees all of this. */
struct scratch {
        void *s[SPEC_MAX_MOUNTS + 8];
        size_t n;
};

/* What the passes of planning share (the rows of plan_build's table): the plan being built,
 * what they read it from, and what they hold on the way. */
struct planning {
        struct plan *p;            /* the plan being built */
        const struct spec *s;      /* what was asked */
        const struct plan_host *h; /* what this host offers */
        const struct plan_opts *o; /* what the front end asks besides */
        struct scratch sc;         /* what the passes allocate; plan_build frees it */
        int rootfs;                /* the rootfs (O_PATH, plan_rootfs), for the binds' check */
};

/* The read-write binds other users can reach, for one warning (a plan holds four, and a spec
 * 256 mounts): the first one's line and source, and the others' lines. */
struct bind_reach {
        int rootfs;       /* the rootfs's descriptor (O_PATH) */
        int rootfs_reach; /* whether others reach it: -1 not asked yet */
        unsigned n, line;
        const char *src;
        char lines[96];
        char above[PATH_MAX + 4]; /* a directory above the first one, to shut */
};

/* build.c: what a pass keeps until plan_build() returns (NULL, and `s` freed, when the scratch
 * is full or `s` is NULL); a warning for the user, in the plan */
void *plan_keep(struct scratch *sc, void *s);
void plan_warn(struct plan *p, const char *fmt, ...) CRIB_PRINTF(2, 3);

/* file.c: copy everything the plan points to into its arena */
int plan_pack(struct plan *p, struct error *err);

/* The passes, in the order of build.c's table; each returns 0, or -1 with err set. */
/* ids.c */
int plan_namespaces(struct planning *pl, struct error *err);
int plan_ids(struct planning *pl, struct error *err);
int plan_self_maps(struct planning *pl, struct error *err);
/* workload.c */
int plan_process(struct planning *pl, struct error *err);
int plan_env(struct planning *pl, struct error *err);
int plan_pass_fds(struct planning *pl, struct error *err);
/* fs.c */
int plan_rootfs(struct planning *pl, struct error *err);
int plan_default_mounts(struct planning *pl, struct error *err);
int plan_spec_mounts(struct planning *pl, struct error *err);
/* confine.c */
int plan_caps(struct planning *pl, struct error *err);
int plan_seccomp(struct planning *pl, struct error *err);
int plan_apparmor(struct planning *pl, struct error *err);
/* devices.c */
int plan_device_nodes(struct planning *pl, struct error *err);
int plan_devices(struct planning *pl, struct error *err);
/* the spec (an OCI config) asks for a node at `path` itself: crib's own is left out */
bool plan_device_given(const struct spec *s, const char *path);
/* resources.c */
int plan_rlimits(struct planning *pl, struct error *err);
int plan_limits(struct planning *pl, struct error *err);
int plan_default_pids(struct planning *pl, struct error *err);
int plan_cgroup(struct planning *pl, struct error *err);
/* net.c */
int plan_network(struct planning *pl, struct error *err);
/* tunables.c */
int plan_sysctls(struct planning *pl, struct error *err);
int plan_hostname(struct planning *pl, struct error *err);
int plan_oom_score_adj(struct planning *pl, struct error *err);

/* fs.c: `path` as written in the spec, relative to the spec file's directory; one mount
 * operation more */
char *plan_spec_relative(const struct spec *s, const char *path);
int plan_add_op(struct plan *p, struct mount_op op, struct error *err);

/* workload.c: a program crib runs for the container, found in the system's directories; a
 * generated file mounted on `dst` */
int plan_find_program(struct plan *p, const struct spec *s, const char *name, const char *package,
                      const char *what, const char **ret, struct scratch *sc, struct error *err);
int plan_file(struct plan *p, const struct spec *s, const char *dst, char *text, struct scratch *sc,
              struct error *err);

/* setuid.c: who else on the host reaches what the container writes, for the rootfs (root's
 * container, a user's) and for each read-write bind, with one warning for the binds */
int plan_root_rootfs(struct plan *p, const struct spec *s, const struct plan_host *h, int fd,
                     bool unmade, const struct stat *st, unsigned line, struct error *err);
int plan_user_rootfs(struct plan *p, const struct spec *s, int fd, bool unmade, unsigned line,
                     struct error *err);
int plan_bind_reach(struct plan *p, const struct spec *s, const struct spec_mount *m,
                    const char *src, struct bind_reach *b, struct error *err);
void plan_bind_warn(struct plan *p, const struct spec *s, const struct bind_reach *b);

#endif
