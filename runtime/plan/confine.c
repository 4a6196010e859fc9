/* confine.c - what confines the workload, computed so the child only applies it: its
 * capability sets (capabilities(7)), its seccomp program (built into crib, or compiled now:
 * runtime/seccomp/), the AppArmor profile for its exec (the devices it may open: devices.c). */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/capname.h"
#include "base/cleanup.h"
#include "spec/phrase.h"
#include "seccomp/seccomp_profile.h"

void plan_caps_for_uid(struct plan *p, uid_t uid)
{
        p->cap_permitted = p->cap_effective = uid == 0 ? p->cap_bounding : p->cap_user;
        p->cap_inheritable = p->cap_ambient = uid == 0 ? 0 : p->cap_user;
}

/* Real root's capabilities (no user namespace): what crib itself may hold, the bounding set it
 * runs under (a root inside another container may lack some), of the capabilities in *set. */
static int plan_caps_real_root(struct plan *p, const struct spec *s, const struct plan_host *h,
                               uint64_t known, uint64_t *set, struct error *err)
{
        uint64_t own = h->cap_bounding_known ? h->cap_bounding : known;
        uint64_t missing = *set & ~own;
        unsigned line = spec_line(s, SPEC_KEY_SECURITY_CAPABILITIES);
        /* the spec's own list is a demand; a level's is a ceiling (below) */
        if (missing && spec_in_file(s, SPEC_KEY_SECURITY_CAPABILITIES)) {
                int c = __builtin_ctzll(missing);
                error_at(err, s->path, line,
                         "capability %s is not in crib's own bounding set, so a container "
                         "without a user namespace cannot have it",
                         capname_of(c) ? capname_of(c) : "?");
                return error_hint(err, "leave it out, or run crib where root has it (see CapBnd "
                                       "in /proc/self/status)");
        }
        *set &= own; /* a level's list is a ceiling */
        if (*set & (1ULL << CAP_SYS_PTRACE))
                plan_warn(p,
                          "%s with SYS_PTRACE: the container is host root with ptrace(2), which "
                          "can take over any process it sees%s%s%s",
                          phrase_off(s->front, SPEC_KEY_NAMESPACES_USER),
                          s->ns_pid ? "" : ", and with ",
                          s->ns_pid ? "" : phrase_off(s->front, SPEC_KEY_NAMESPACES_PID),
                          s->ns_pid ? "" : " it sees the host's");
        return 0;
}

/* Capability sets: computed here so the child only applies them. */
int plan_caps(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        p->cap_last = h->cap_last;
        uint64_t known = p->cap_last >= 63 ? ~0ULL : (1ULL << (p->cap_last + 1)) - 1;
        uint64_t unknown = s->caps_named & ~known;
        if (unknown) {
                char names[256] = "";
                for (int c = 0; c < 64; c++)
                        if (unknown & (1ULL << c))
                                snprintf(names + strlen(names), sizeof names - strlen(names),
                                         "%s%s", names[0] ? " " : "",
                                         capname_of(c) ? capname_of(c) : "?");
                plan_warn(p, "this kernel knows capabilities up to %d (%s); dropping the newer %s",
                          p->cap_last, capname_of(p->cap_last) ? capname_of(p->cap_last) : "?",
                          names);
        }
        uint64_t set = s->caps & known;
        if (!p->userns && plan_caps_real_root(p, s, h, known, &set, err) < 0)
                return -1;
        /* The bounding set is the level's (or the spec's) for every uid. Root gets it at exec;
         * a user other than root gets only what the spec names (Docker's rule: an image's
         * USER drops its privilege for a reason, and the word `default` or a level's list names
         * nothing), through the ambient set. An OCI config's sets are its own: caps_file is its
         * bounding set, and caps_no_ambient says it gave that user none to inherit. */
        p->cap_bounding = set;
        p->cap_user = s->caps_no_ambient ? 0 : set & s->caps_file;
        plan_caps_for_uid(p, s->uid);
        p->caps_sets = s->caps_sets;
        if (s->caps_sets) {
                /* an engine's config: its own five sets (oci/ociprocess.c), as runc gives them */
                p->cap_effective = s->caps_effective & set;
                p->cap_permitted = s->caps_permitted & set;
                p->cap_inheritable = s->caps_inheritable & set;
                p->cap_ambient = s->caps_ambient & set;
                if (s->caps_ambient_dropped) {
                        int cap = __builtin_ctzll(s->caps_ambient_dropped);
                        plan_warn(p,
                                  "%s: %d ambient capabilities (CAP_%s first) are not in both "
                                  ".process.capabilities.permitted and inheritable: the kernel "
                                  "does not raise them, and they are left out (as under runc)",
                                  s->path ? s->path : "config.json",
                                  __builtin_popcountll(s->caps_ambient_dropped),
                                  capname_of(cap) ? capname_of(cap) : "?");
                }
        }
        p->no_new_privs = s->no_new_privileges;
        p->masked = &s->masked; /* copied into the plan by plan_pack() */
        p->readonly = &s->readonly;
        /* CAP_SYS_ADMIN may unmount or remount what the setup mounted in the same user
         * namespace (masks, read-only paths and binds, nodev and nosuid everywhere): below one
         * of the workload's own, the kernel locks it (lockmounts.c). At every level: the
         * nodev of the rootfs keeps host devices shut at unconfined too. */
        if ((set & (1ULL << CAP_SYS_ADMIN)) && p->userns) {
                p->nest_flags = CLONE_NEWUSER | CLONE_NEWNS |
                                (p->clone_flags & (CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP));
                /* A helper's tap is in the container's network namespace: one of the
                 * workload's own would cut it off from its published ports and the way out.
                 * With a helper it has no NET_RAW or NET_ADMIN to use there anyway
                 * (spec/network.c); what its capabilities could still do, bind a port below
                 * 1024, the namespace's sysctl opens to it (steps/netns.c). */
                if (spec_net_has_helper(s->net_mode)) {
                        p->nest_flags &= ~CLONE_NEWNET;
                        p->low_ports_open = (set & (1ULL << CAP_NET_BIND_SERVICE)) != 0;
                }
                /* One network namespace, not two: the lower user namespace is made before the
                 * setup's first mount (by the parent, nestns.c), and owns the only one, which
                 * the setup joins (~0.6 ms less a start). Not with namespaces joined by path,
                 * nor where an engine's hooks look at the setup's namespaces before it goes
                 * on (GO): those keep the late way, all in the workload's process. */
                p->nest_early = (p->nest_flags & CLONE_NEWNET) && !p->join_flags && !pl->o->hooks;
        } else if ((set & (1ULL << CAP_SYS_ADMIN)) &&
                   (s->masked.n || s->readonly.n || s->readonly_rootfs))
                plan_warn(p,
                          "%s with SYS_ADMIN: the container is host root and can undo its masked "
                          "and read-only paths (the kernel locks mounts only for a user namespace "
                          "below the one that made them), and leave its cgroup and with it the "
                          "device program",
                          phrase_off(s->front, SPEC_KEY_NAMESPACES_USER));
        return 0;
}

/* Prepare the seccomp program: built into crib for a built-in profile, or compiled now. A
 * profile the spec holds itself (seccomp_text, from an engine's config) is named in its front
 * end's words (phrase.h): the plan has none of its own for it. */
int plan_seccomp(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const char *name = s->seccomp ? s->seccomp : "unconfined";
        unsigned line = spec_line(s, SPEC_KEY_SECURITY_SECCOMP);
        if (!s->seccomp_text && !strcmp(name, "unconfined")) {
                snprintf(p->seccomp_how, sizeof p->seccomp_how, "none (seccomp = unconfined)");
                return 0;
        }
        if (!h->seccomp_filters) {
                /* "seccomp profile 'NAME'", or "the config's seccomp profile" */
                char what[PATH_MAX + 64], whose[64];
                if (s->seccomp_text)
                        snprintf(what, sizeof what, "%s's seccomp profile",
                                 phrase_section(s->front, SPEC_KEY_SECURITY_SECCOMP, whose,
                                                sizeof whose));
                else
                        snprintf(what, sizeof what, "seccomp profile '%s'", name);
                if (s->seccomp_require) {
                        char change[256];
                        phrase_error(err, s, SPEC_KEY_SECURITY_SECCOMP_MODE,
                                     "%s is required, but this kernel has no seccomp filters",
                                     what);
                        return error_hint(err,
                                          "use a kernel built with CONFIG_SECCOMP_FILTER=y, or %s",
                                          phrase_change(s->front, SPEC_KEY_SECURITY_SECCOMP_MODE,
                                                        PHRASE_OFF, change, sizeof change));
                }
                plan_warn(p,
                          "this kernel has no seccomp filters (CONFIG_SECCOMP_FILTER); running "
                          "without %s%s",
                          s->seccomp_text ? "" : "the ", what);
                snprintf(p->seccomp_how, sizeof p->seccomp_how, "none (no kernel support)");
                return 0;
        }
        _cleanup_free_ char *text = NULL;
        /* a built-in profile's text is read in place: its program is usually compiled already,
         * and then the text is not read at all */
        const char *builtin = s->seccomp_text ? NULL : profile_builtin_text(name);
        char label[4096];
        if (s->seccomp_text) {
                text = strdup(s->seccomp_text);
                /* where the spec holds it: FILE:LINE, or an engine's FILE: PATH */
                phrase_where(s, SPEC_KEY_SECURITY_SECCOMP, 0, label, sizeof label);
        } else if (builtin) {
                snprintf(label, sizeof label, "profiles/seccomp/%s", name);
        } else {
                _cleanup_free_ char *path = plan_spec_relative(s, name);
                _cleanup_fclose_ FILE *f = path ? fopen(path, "re") : NULL;
                if (!f) {
                        return error_at_errno(err, errno, s->path, line,
                                              "cannot open seccomp profile '%s'",
                                              path ? path : name);
                }
                text = calloc(1, 1024 * 1024 + 1);
                if (text && fread(text, 1, 1024 * 1024, f) == 1024 * 1024)
                        return error_at(err, s->path, line, "seccomp profile '%s' is over 1 MiB",
                                        path);
                snprintf(label, sizeof label, "%s", path);
        }
        if (!builtin && !text)
                return error_set(err, ENOMEM, "cannot allocate");
        return seccomp_prepare(builtin ? name : NULL, builtin ? builtin : text, label,
                               seccomp_native_arch(), p->cap_bounding, &p->seccomp, p->seccomp_how,
                               sizeof p->seccomp_how, err);
}

/* AppArmor: is it there, and must the profile be applied? The child applies it on exec. */
int plan_apparmor(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const char *name = s->apparmor ? s->apparmor : "unconfined";
        unsigned line = spec_line(s, SPEC_KEY_SECURITY_APPARMOR);
        if (!strcmp(name, "unconfined"))
                return 0;
        /* prefer, unless apparmor_mode says require, or the spec names the profile itself and
         * does not say prefer */
        p->apparmor_required =
                s->apparmor_require || (spec_in_file(s, SPEC_KEY_SECURITY_APPARMOR) &&
                                        !spec_in_file(s, SPEC_KEY_SECURITY_APPARMOR_MODE));
        if (h->apparmor) {
                snprintf(p->apparmor, sizeof p->apparmor, "%s", name);
                return 0;
        }
        if (p->apparmor_required) {
                char change[256];
                phrase_error(err, s,
                             line ? SPEC_KEY_SECURITY_APPARMOR : SPEC_KEY_SECURITY_APPARMOR_MODE,
                             "AppArmor profile '%s' was asked for, but %s", name, h->apparmor_why);
                return error_hint(err, "%s; or run without it: %s", h->apparmor_fix,
                                  phrase_change(s->front, SPEC_KEY_SECURITY_APPARMOR, PHRASE_OFF,
                                                change, sizeof change));
        }
        plan_warn(p, "AppArmor is not available (%s); running without the profile '%s'\n%s",
                  h->apparmor_why, name, h->apparmor_fix);
        p->apparmor_warning = p->nwarnings;
        return 0;
}
