/* runimage.c - `crib run [FLAGS] IMAGE`: podman's flags turned into crib.ini(5) keys over the
 * image's own spec (the store's images/HEX/crib.ini), written as one INI text that crib's spec
 * loader reads as it reads any file: every check a spec gets, the flags get, and an error names
 * the flag that wrote the line. `crib run --print-spec` prints the text; run as a spec, it makes
 * the same container.
 *
 *   -e K=V, --env K=V, --env-file FILE   [process] env       (over the image's of that name)
 *   -w DIR, --workdir DIR                [process] cwd
 *   -u UID[:GID], --user UID[:GID]       [process] user
 *   -t, --tty                            [process] terminal = yes (else no, as podman)
 *   -v SRC:DST[:ro|rw], --volume ...     [mounts] bind
 *   --read-only                          [container] readonly_rootfs = yes
 *   --level NAME                         [security] level
 *   --cap-add CAP, --cap-drop CAP        [security] capabilities: +CAP, -CAP after the image's
 *   --memory BYTES, --cpus N, --pids-limit N   [resources] memory, cpus, pids
 *   --network MODE                       [network] mode
 *   -p [ADDR:]HOST:CTR[/udp], --publish  [network] publish (with pasta, else slirp4netns, when
 *                                        no mode is given)
 *   --restart POLICY                     [service] restart (with -d only, and not with --rm:
 *                                        run.c says so)
 */
#define _GNU_SOURCE
#include "runimage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/ini.h"
#include "image/imgspec.h"

/* The flags that take a value, each with the spec key it sets ("" for those that need more
 * than a key: handled in flag_lines) */
static const struct {
        const char *flag, *alias, *section, *key;
        bool repeat, quote;
} flags[] = {
        {"-e", "--env", "process", "env", true, true},
        {"--env-file", NULL, "process", "env", true, true},
        {"-w", "--workdir", "process", "cwd", false, true},
        {"-u", "--user", "process", "user", false, false},
        {"-v", "--volume", "mounts", "bind", true, false},
        {"--level", NULL, "security", "level", false, false},
        {"--cap-add", NULL, "security", "capabilities", false, false},
        {"--cap-drop", NULL, "security", "capabilities", false, false},
        {"--memory", "-m", "resources", "memory", false, false},
        {"--cpus", NULL, "resources", "cpus", false, false},
        {"--pids-limit", NULL, "resources", "pids", false, false},
        {"--network", "--net", "network", "mode", false, false},
        {"-p", "--publish", "network", "publish", true, false},
        {"--restart", NULL, "service", "restart", false, false},
};
#define NFLAGS (sizeof flags / sizeof flags[0])

static const char *const sections[] = {"container", "process", "namespaces", "idmap",   "mounts",
                                       "security",  "limits",  "resources",  "network", "service"};
#define NSECTIONS (sizeof sections / sizeof sections[0])

static int flag_index(const char *a)
{
        for (size_t i = 0; i < NFLAGS; i++)
                if (!strcmp(a, flags[i].flag) || (flags[i].alias && !strcmp(a, flags[i].alias)))
                        return (int)i;
        return -1;
}

int runimage_take(struct run_flags *f, int argc, char **argv, int i)
{
        const char *a = argv[i];
        if (!strcmp(a, "--rm"))
                return f->rm = true, 1;
        if (!strcmp(a, "--print-spec"))
                return f->print_spec = true, 1;
        if (!strcmp(a, "-i") || !strcmp(a, "--interactive"))
                return f->interactive = true, 1;
        if (!strcmp(a, "-t") || !strcmp(a, "--tty"))
                return f->tty = true, 1;
        if (!strcmp(a, "-it") || !strcmp(a, "-ti"))
                return f->tty = f->interactive = true, 1;
        if (!strcmp(a, "--read-only")) {
                if (f->n < RUNIMAGE_MAX_FLAGS)
                        f->f[f->n++] = (struct run_flag){a, NULL};
                return 1;
        }
        /* --flag=value as podman takes it too */
        const char *eq = strchr(a, '=');
        if (eq && a[1] == '-') {
                char name[32];
                snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
                int k = flag_index(name);
                if (k < 0 || f->n == RUNIMAGE_MAX_FLAGS)
                        return 0;
                f->f[f->n++] = (struct run_flag){flags[k].flag, eq + 1};
                return 1;
        }
        int k = flag_index(a);
        if (k < 0)
                return 0;
        if (i + 1 >= argc || f->n == RUNIMAGE_MAX_FLAGS)
                return -1;
        f->f[f->n++] = (struct run_flag){flags[k].flag, argv[i + 1]};
        return 2;
}

/* ---- the text ---- */

struct line {
        const char *section;
        char key[32];
        char *value; /* as written after "key = " */
        char label[96];
};

/* The lines, as many as there are: RUNIMAGE_MAX_LINES of them would be 144 kB, and every page
 * crib touches costs a fault on the way to each container's start */
struct text {
        struct line *l;
        size_t n, cap;
};

/* A line more at the end of `t`, its value `value` (taken: freed on failure) */
static struct line *more(struct text *t, char *value, struct error *err)
{
        if (!value) { /* quoted() or volume() said why, or out of memory */
                if (!err->msg[0])
                        error_set(err, ENOMEM, "cannot allocate");
                return NULL;
        }
        if (t->n == RUNIMAGE_MAX_LINES) {
                free(value);
                return error_set(err, E2BIG, "too many lines for one spec"), NULL;
        }
        if (t->n == t->cap) {
                size_t cap = t->cap ? 2 * t->cap : 32;
                struct line *l = realloc(t->l, cap * sizeof *l);
                if (!l) {
                        free(value);
                        return error_set(err, ENOMEM, "cannot allocate"), NULL;
                }
                t->l = l, t->cap = cap;
        }
        t->l[t->n].value = value;
        return &t->l[t->n++];
}

static void text_free(struct text *t)
{
        for (size_t i = 0; i < t->n; i++)
                free(t->l[i].value);
        free(t->l);
}

static int add(struct text *t, const char *section, const char *key, char *value, const char *fmt,
               const char *a, const char *b, struct error *err)
{
        struct line *l = more(t, value, err);
        if (!l)
                return -1;
        l->section = section;
        snprintf(l->key, sizeof l->key, "%s", key);
        snprintf(l->label, sizeof l->label, fmt, a, b ? b : "");
        return 0;
}

/* `v` as one double-quoted INI value, escaped as an image's env is (imgspec_escape); NULL with
 * `err` set when it cannot be one (longer than a line, not UTF-8) */
static char *quoted(const char *v, const char *what, struct error *err)
{
        char buf[INI_MAX_LINE];
        if (imgspec_escape(v, strlen(v), IMGSPEC_VALUE, buf, sizeof buf, what, err) < 0)
                return NULL;
        char *out = strdup(buf);
        if (!out)
                error_set(err, ENOMEM, "cannot allocate");
        return out;
}

/* No flag's value may hold a control character (a newline would start a line of its own), and
 * one written as it is, no quote, backslash or comment sign */
static int check_value(const struct run_flag *r, bool quote, struct error *err)
{
        for (const char *p = r->value; *p; p++) {
                if ((unsigned char)*p < 0x20 || *p == 0x7f)
                        return error_set(err, 0, "%s: its value has a control character", r->flag);
                if (!quote && strchr("\"'\\#; \t", *p))
                        return error_set(err, 0, "%s '%s': its value may not hold '%c'", r->flag,
                                         r->value, *p);
        }
        if (!*r->value)
                return error_set(err, 0, "%s: its value is empty", r->flag);
        return 0;
}

/* -v SRC:DST[:ro|rw]: SRC made absolute (a spec's relative paths are its directory's); a bare
 * NAME, podman's named volume, is refused rather than taken from the working directory */
static char *volume(const struct run_flag *r, struct error *err)
{
        char *copy = strdup(r->value), *dst, *opt, cwd[4096], *out = NULL;
        if (!copy)
                return NULL;
        dst = strchr(copy, ':');
        opt = dst ? strchr(dst + 1, ':') : NULL;
        if (dst)
                *dst++ = '\0';
        if (opt)
                *opt++ = '\0';
        if (!dst || !*copy || !*dst || (opt && strcmp(opt, "ro") && strcmp(opt, "rw"))) {
                error_set(err, 0, "%s '%s': give SOURCE:DESTINATION[:ro|rw]", r->flag, r->value);
        } else if (copy[0] != '/' && strcmp(copy, ".") && strcmp(copy, "..") &&
                   strncmp(copy, "./", 2) && strncmp(copy, "../", 3)) {
                /* podman's named volume: not whatever the working directory holds by that name */
                error_set(err, 0,
                          "%s '%s': '%s' is no path (crib has no named volumes); './%s' is the "
                          "working directory's",
                          r->flag, r->value, copy, copy);
        } else if (copy[0] != '/' && !getcwd(cwd, sizeof cwd)) {
                error_set(err, errno, "%s '%s': cannot resolve '%s'", r->flag, r->value, copy);
        } else if (asprintf(&out, "%s%s%s %s%s%s", copy[0] == '/' ? "" : cwd,
                            copy[0] == '/' ? "" : "/", copy, dst, opt ? " " : "",
                            opt ? opt : "") < 0) {
                out = NULL;
                error_set(err, ENOMEM, "cannot allocate");
        }
        free(copy);
        return out;
}

/* --env-file FILE: NAME=VALUE lines; blank lines and '#' comments skipped. Each line is read
 * whole (getline): a line cut at a buffer's end, a '\r' or a NUL would leave its tail to be read
 * as a variable of its own; a '\r' ends a line only before its '\n', and a NUL is refused. */
#define ENV_FILE_MAX_LINE 65536
static int env_file(struct text *t, const struct run_flag *r, struct error *err)
{
        _cleanup_fclose_ FILE *f = fopen(r->value, "re");
        _cleanup_free_ char *buf = NULL;
        size_t cap = 0;
        ssize_t len;
        unsigned n = 0;
        if (!f)
                return error_set(err, errno, "--env-file '%s': cannot open it", r->value);
        while ((len = getline(&buf, &cap, f)) >= 0) {
                n++;
                if (len > 0 && buf[len - 1] == '\n')
                        buf[--len] = '\0';
                if (len > 0 && buf[len - 1] == '\r')
                        buf[--len] = '\0';
                if (len > ENV_FILE_MAX_LINE || memchr(buf, '\0', (size_t)len))
                        return error_set(err, 0, "%s '%s' line %u: %s", r->flag, r->value, n,
                                         len > ENV_FILE_MAX_LINE ? "longer than 64 KiB"
                                                                 : "it holds a NUL byte");
                if (!buf[0] || buf[0] == '#')
                        continue;
                struct run_flag one = {r->flag, buf};
                if (check_value(&one, true, err) < 0)
                        return error_wrap(err, "'%s' line %u", r->value, n);
                char label[64];
                snprintf(label, sizeof label, "%s:%u", r->value, n);
                if (add(t, "process", "env", quoted(buf, label, err), "%s '%s'", r->flag, label,
                        err) < 0)
                        return -1;
        }
        return 0;
}

/* One flag's line(s) */
static int flag_line(struct text *t, const struct run_flag *r, char **caps, struct error *err)
{
        if (!r->value)
                return add(t, "container", "readonly_rootfs", strdup("yes"), "%s%s", r->flag, NULL,
                           err);
        int k = flag_index(r->flag);
        if (check_value(r, flags[k].quote, err) < 0)
                return -1;
        if (!strcmp(r->flag, "--env-file"))
                return env_file(t, r, err);
        if (!strcmp(r->flag, "-e") && !strchr(r->value, '=')) {
                const char *v = getenv(r->value); /* -e NAME: the caller's, as podman */
                char *kv = NULL;
                if (!v)
                        return 0;
                if (asprintf(&kv, "%s=%s", r->value, v) < 0)
                        return error_set(err, ENOMEM, "cannot allocate");
                struct run_flag one = {r->flag, kv};
                int c = check_value(&one, true, err);
                char *q = c < 0 ? NULL : quoted(kv, r->flag, err);
                free(kv);
                return c < 0 ? -1 : add(t, "process", "env", q, "%s '%s'", r->flag, r->value, err);
        }
        if (!strcmp(r->flag, "--cap-add") || !strcmp(r->flag, "--cap-drop")) {
                char *more = NULL;
                if (asprintf(&more, "%s%s%c%s", *caps ? *caps : "", *caps ? " " : "",
                             r->flag[6] == 'a' ? '+' : '-', r->value) < 0)
                        return error_set(err, ENOMEM, "cannot allocate");
                free(*caps);
                *caps = more;
                return 0;
        }
        char *v = !strcmp(r->flag, "-v") ? volume(r, err)
                  : flags[k].quote       ? quoted(r->value, r->flag, err)
                                         : strdup(r->value);
        if (!v && err->msg[0])
                return -1;
        return add(t, flags[k].section, flags[k].key, v, "%s '%s'", r->flag, r->value, err);
}

/* Whether the image's entry `e` gives way to a flag's line: the same key, not a repeated one,
 * or env of the same name */
static bool overridden(const struct text *t, size_t from, const struct ini_entry *e)
{
        for (size_t i = from; i < t->n; i++) {
                const struct line *l = &t->l[i];
                if (strcmp(l->section, e->section) || strcmp(l->key, e->key))
                        continue;
                if (strcmp(l->key, "env") && strcmp(l->key, "bind") && strcmp(l->key, "publish"))
                        return true;
                if (!strcmp(l->key, "env")) {
                        size_t n = strcspn(e->value, "=");
                        if (!strncmp(l->value + 1, e->value, n) && l->value[n + 1] == '=')
                                return true;
                }
        }
        return false;
}

static bool has_key(const struct text *t, const char *section, const char *key)
{
        for (size_t i = 0; i < t->n; i++)
                if (!strcmp(t->l[i].section, section) && !strcmp(t->l[i].key, key))
                        return true;
        return false;
}

/* CMD ARGS... as crib.ini's args: each a double-quoted word, escaped as an image's Cmd is
 * (imgspec_escape), so --print-spec writes the program crib runs */
static int args_line(struct text *t, char **args, struct error *err)
{
        _cleanup_free_ char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (!m)
                return error_set(err, errno, "cannot allocate");
        for (size_t i = 0; args[i]; i++) {
                char w[4096];
                if (imgspec_escape(args[i], strlen(args[i]), IMGSPEC_WORD, w, sizeof w,
                                   "the program's arguments", err) < 0) {
                        fclose(m);
                        return -1;
                }
                fprintf(m, "%s%s", i ? " " : "", w);
        }
        if (fclose(m) != 0)
                return error_set(err, errno, "cannot allocate");
        return add(t, "process", "args", steal_ptr(&line), "%s%s", "CMD after IMAGE", NULL, err);
}

/* The flags' lines into `t`, after the image's `image` line; the capabilities' edits after the
 * image's own list (`image_caps`, NULL when it has none) */
static int flag_lines(struct text *t, const struct run_flags *f, const char *image_caps,
                      struct error *err)
{
        _cleanup_free_ char *caps = image_caps ? strdup(image_caps) : NULL;
        size_t ncaps = 0;
        for (size_t i = 0; i < f->n; i++) {
                if (flag_line(t, &f->f[i], &caps, err) < 0)
                        return -1;
                ncaps += !strncmp(f->f[i].flag, "--cap-", 6);
        }
        /* for --print-spec only: a run takes CMD as argv is (a newline in it, too) */
        if (f->print_spec && f->args && f->args[0] && args_line(t, f->args, err) < 0)
                return -1;
        if (ncaps && add(t, "security", "capabilities", steal_ptr(&caps), "%s%s",
                         "--cap-add/--cap-drop", NULL, err) < 0)
                return -1;
        if (add(t, "process", "terminal", strdup(f->tty ? "yes" : "no"), "%s%s",
                f->tty ? "-t" : "(no -t)", NULL, err) < 0)
                return -1;
        /* -p needs a network helper: pasta where it is installed, else slirp4netns */
        if (has_key(t, "network", "publish") && !has_key(t, "network", "mode")) {
                bool pasta = access("/usr/bin/pasta", X_OK) == 0;
                return add(t, "network", "mode", strdup(pasta ? "pasta" : "slirp4netns"), "%s%s",
                           "-p (without --network)", NULL, err);
        }
        return 0;
}

/* Line `i` of `from` onto the end of `to`, its value with it */
static int move(struct text *to, struct text *from, size_t i, struct error *err)
{
        char *value = from->l[i].value;
        from->l[i].value = NULL;
        struct line *l = more(to, value, err);
        if (!l)
                return -1;
        *l = from->l[i];
        l->value = value;
        return 0;
}

static int write_text(const struct text *t, char **ret, size_t *ret_len, char (*lines)[96],
                      struct error *err)
{
        FILE *m = open_memstream(ret, ret_len);
        unsigned no = 0;
        if (!m)
                return error_set(err, errno, "cannot allocate");
        fprintf(m, "# crib run --print-spec: the image's crib.ini with the flags' keys\n");
        lines[0][0] = lines[++no][0] = '\0';
        for (size_t s = 0; s < NSECTIONS; s++) {
                bool any = false;
                for (size_t i = 0; i < t->n; i++) {
                        if (strcmp(t->l[i].section, sections[s]))
                                continue;
                        if (!any) {
                                fprintf(m, "[%s]\n", sections[s]);
                                if (++no < RUNIMAGE_MAX_LINES)
                                        lines[no][0] = '\0';
                                any = true;
                        }
                        fprintf(m, "%s = %s\n", t->l[i].key, t->l[i].value);
                        if (++no < RUNIMAGE_MAX_LINES)
                                snprintf(lines[no], sizeof lines[no], "%s", t->l[i].label);
                }
        }
        if (++no < RUNIMAGE_MAX_LINES) /* past the end: no line */
                lines[no][0] = '\0';
        if (fclose(m) != 0)
                return error_set(err, errno, "cannot allocate");
        return 0;
}

int runimage_ini(const struct run_flags *f, const char *image, FILE *spec, char **ret,
                 size_t *ret_len, char (*ret_lines)[96], struct error *err)
{
        struct text text = {0}, *t = &text, both = {0};
        struct ini_file ini = {0};
        const char *image_caps = NULL;
        int r = -1;
        if (spec && ini_parse(spec, "the image's crib.ini", &ini, err) < 0)
                goto out;
        if (add(t, "container", "image", quoted(image, "the image's name", err), "%s%s",
                "the image's name", NULL, err) < 0)
                goto out;
        for (size_t i = 0; i < ini.n; i++)
                if (ini.entries[i].key && !strcmp(ini.entries[i].key, "capabilities"))
                        image_caps = ini.entries[i].raw;
        size_t first = t->n;
        if (flag_lines(t, f, image_caps, err) < 0)
                goto out;
        /* the image's lines, before the flags' (their own section order below) */
        r = move(&both, t, 0, err);
        for (size_t i = 0; i < ini.n && r == 0; i++) {
                const struct ini_entry *e = &ini.entries[i];
                if (!e->key || !e->section || !strcmp(e->key, "rootfs") ||
                    !strcmp(e->key, "image") || overridden(t, first, e))
                        continue;
                r = add(&both, e->section, e->key, strdup(e->raw), "%s%s", "the image's crib.ini",
                        NULL, err);
        }
        for (size_t i = first; i < t->n && r == 0; i++)
                r = move(&both, t, i, err);
        if (r == 0)
                r = write_text(&both, ret, ret_len, ret_lines, err);
        text_free(&both);
out:
        text_free(t);
        ini_free(&ini);
        return r;
}

void runimage_blame(struct error *err, const char *label, char (*lines)[96])
{
        size_t n = strlen(label);
        char *end;
        if (strncmp(err->msg, label, n) || err->msg[n] != ':')
                return;
        unsigned long line = strtoul(err->msg + n + 1, &end, 10);
        if (end == err->msg + n + 1 || *end != ':' || line >= RUNIMAGE_MAX_LINES || !lines[line][0])
                return;
        char rest[sizeof err->msg];
        snprintf(rest, sizeof rest, "%s", end + 1 + (end[1] == ' '));
        snprintf(err->msg, sizeof err->msg, "%.95s: %.900s", lines[line], rest);
}
