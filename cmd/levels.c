/* levels.c - `crib levels`: the security levels side by side, one row a setting. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "spec/spec.h"
#include "output.h"

#define MAX_LEVELS 8

int cmd_levels(int argc, char **argv);

static void caps_cell(const struct spec *s, const struct spec *dflt, char *buf, size_t len)
{
        int n = __builtin_popcountll(s->caps);
        if (!s->caps)
                snprintf(buf, len, "none");
        else if (s->caps == dflt->caps)
                snprintf(buf, len, "%d (Docker's)", n);
        else if (n > 30)
                snprintf(buf, len, "all (%d)", n);
        else
                snprintf(buf, len, "%d", n);
}

static void paths_cell(const struct spec_paths *l, const struct spec_paths *dflt, char *buf,
                       size_t len)
{
        bool same = l->n == dflt->n;
        for (size_t i = 0; same && i < l->n; i++)
                same = !strcmp(l->items[i], dflt->items[i]);
        if (!l->n)
                snprintf(buf, len, "none");
        else
                snprintf(buf, len, "%zu%s", l->n, same ? " (Docker's)" : "");
}

static void limit_cell(const struct spec_limit *l, char *buf, size_t len)
{
        char soft[32], hard[32];
        if (!l->set) {
                snprintf(buf, len, "-");
                return;
        }
        snprintf(soft, sizeof soft, "%llu", (unsigned long long)l->soft);
        snprintf(hard, sizeof hard, "%llu", (unsigned long long)l->hard);
        if (l->soft == l->hard)
                snprintf(buf, len, "%s", l->soft == (uint64_t)-1 ? "unlimited" : soft);
        else
                snprintf(buf, len, "%s:%s", soft, hard);
}

/* what the table's star and two of its rows mean */
static void print_notes(void)
{
        printf("\n* differs between levels. A spec picks one with '[security] level = NAME' and "
               "can\n"
               "override any key; the levels are the files of profiles/levels/.\n");
        printf("\ncapabilities: what the container's root gets. A user other than root ('user = "
               "1000',\n"
               "an image's USER) gets none of them, only those the spec names itself, as Docker "
               "does:\n"
               "'capabilities = default +NET_BIND_SERVICE' gives it NET_BIND_SERVICE alone.\n"
               "limit nproc: processes (and threads) per uid of the container, RLIMIT_NPROC in "
               "its user\n"
               "namespace: it bounds each uid, not the container. A fork bomb under one uid "
               "stops there,\n"
               "but container root may switch uids (SETUID) and run as many again under "
               "each; the bound\n"
               "on the whole container is '[resources] pids', a cgroup. With 'user = no', "
               "where\n"
               "RLIMIT_NPROC binds no one, nproc is the pids.max of the container's cgroup.\n");
}

int cmd_levels(int argc, char **argv)
{
        (void)argc, (void)argv; /* main.c: 'crib levels' takes none */
        struct spec specs[MAX_LEVELS];
        const char *names[MAX_LEVELS];
        size_t n = 0;
        struct error err;
        char cell[MAX_LEVELS][64];

        for (; n < MAX_LEVELS && spec_level_name(n); n++) {
                names[n] = spec_level_name(n);
                if (spec_from_level(names[n], &specs[n], &err) < 0)
                        return output_error(&err);
        }
        /* "default" first, then the others as the build lists them */
        size_t d = 0;
        while (d < n && strcmp(names[d], "default"))
                d++;
        if (d == n)
                d = 0;
        size_t order[MAX_LEVELS], o = 0;
        order[o++] = d;
        for (size_t i = 0; i < n; i++)
                if (i != d)
                        order[o++] = i;

        printf("%-22s", "setting");
        for (size_t i = 0; i < n; i++)
                printf("  %-16s", names[order[i]]);
        printf("\n");

#define ROW(label, fill)                                                                           \
        do {                                                                                       \
                bool differ = false;                                                               \
                for (size_t i = 0; i < n; i++) {                                                   \
                        const struct spec *s = &specs[order[i]];                                   \
                        fill;                                                                      \
                        differ |= strcmp(cell[i], cell[0]) != 0;                                   \
                }                                                                                  \
                printf("%-22s", label);                                                            \
                for (size_t i = 0; i < n; i++)                                                     \
                        printf("  %-16s", cell[i]);                                                \
                printf("%s\n", differ ? "  *" : "");                                               \
        } while (0)

        const struct spec *dflt = &specs[d];
        ROW("capabilities", caps_cell(s, dflt, cell[i], sizeof cell[i]));
        ROW("no_new_privileges",
            snprintf(cell[i], sizeof cell[i], "%s", s->no_new_privileges ? "yes" : "no"));
        ROW("masked_paths", paths_cell(&s->masked, &dflt->masked, cell[i], sizeof cell[i]));
        ROW("readonly_paths", paths_cell(&s->readonly, &dflt->readonly, cell[i], sizeof cell[i]));
        ROW("seccomp",
            snprintf(cell[i], sizeof cell[i], "%s", s->seccomp ? s->seccomp : "unconfined"));
        ROW("apparmor",
            snprintf(cell[i], sizeof cell[i], "%s", s->apparmor ? s->apparmor : "unconfined"));
        ROW("readonly_rootfs",
            snprintf(cell[i], sizeof cell[i], "%s", s->readonly_rootfs ? "yes" : "no"));
        ROW("private network", snprintf(cell[i], sizeof cell[i], "%s", s->ns_net ? "yes" : "no"));
        for (int r = 0; r < SPEC_NLIMITS; r++) {
                bool any = false;
                for (size_t i = 0; i < n; i++)
                        any |= specs[i].limits[r].set;
                if (!any)
                        continue;
                char label[32];
                snprintf(label, sizeof label, "limit %s", spec_limit_name(r));
                ROW(label, limit_cell(&s->limits[r], cell[i], sizeof cell[i]));
        }
#undef ROW
        print_notes();
        for (size_t i = 0; i < n; i++)
                spec_free(&specs[i]);
        return 0;
}
