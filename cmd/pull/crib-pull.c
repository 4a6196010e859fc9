/* crib-pull - `crib pull [OPTIONS] REF`: an image from a registry into crib's store.
 *
 *   crib pull [--platform OS/ARCH[/VARIANT]] [--quiet] [--tls-verify=false] [--authfile FILE]
 *             [--cert-dir DIR] REF
 *
 * A program of its own, beside crib and crib-image, because it links libcurl (HTTP, TLS),
 * which Debian ships only as a shared library: crib stays one static binary. crib execs it
 * from beside itself (or ../lib/crib/). The work is runtime/image/pull.c (registry.c: HTTP and
 * authentication; fetch.c: verified blobs; manifest.c: which manifest); this file reads argv
 * and the environment (the credentials files, the CA directories, the store's place), prints
 * progress and errors, and hands the layout to `crib-image store-add`, which makes it an image
 * of the store. Every string a registry sent (its error messages, media types, platforms)
 * reaches the terminal only through cmd/output.c, escaped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "base/error.h"
#include "host/kernel.h"
#include "image/auth.h"
#include "image/imgstore.h"
#include "image/pull.h"
#include "output.h"

static const char usage[] =
        "usage: crib pull [--platform OS/ARCH[/VARIANT]] [--quiet] [--tls-verify=false]\n"
        "                 [--authfile FILE] [--cert-dir DIR] REF\n"
        "  fetch the image REF ([REGISTRY/]NAME[:TAG][@sha256:HEX]; a short name is docker.io's)\n"
        "  into crib's store, the manifest of this machine's platform or of --platform's\n"
        "See crib(1).\n";

static int usage_error(const char *msg, const char *arg)
{
        output_usage_error(msg, arg);
        return EXIT_CRIB_ERROR;
}

/* --- progress: one line a layer on a terminal ---------------------------------------------- */

struct progress {
        bool on;
        char hex[65];
        uint64_t start_us, last_us, start_bytes;
};

static uint64_t now_us(void)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

static void progress(void *ctx, const char *hex, uint64_t done, uint64_t total, bool cached)
{
        struct progress *p = ctx;
        if (!p->on)
                return;
        uint64_t us = now_us();
        bool fresh = strcmp(p->hex, hex) != 0;
        if (fresh) {
                snprintf(p->hex, sizeof p->hex, "%s", hex);
                p->start_us = us;
                p->start_bytes = done;
                p->last_us = 0;
        }
        bool end = done == total;
        if (!end && us - p->last_us < 200000) /* a few times a second: a Pi's console is slow */
                return;
        p->last_us = us;
        double secs = (double)(us - p->start_us) / 1e6;
        double rate = secs > 0.05 ? (double)(done - p->start_bytes) / secs / 1e6 : 0;
        if (cached)
                fprintf(stderr, "\r%.12s  %.1f MB  already in the store\033[K\n", hex,
                        (double)total / 1e6);
        else if (rate > 0)
                fprintf(stderr, "\r%.12s  %.1f / %.1f MB  %.1f MB/s\033[K%s", hex,
                        (double)done / 1e6, (double)total / 1e6, rate, end ? "\n" : "");
        else
                fprintf(stderr, "\r%.12s  %.1f / %.1f MB\033[K%s", hex, (double)done / 1e6,
                        (double)total / 1e6, end ? "\n" : "");
}

/* --- the environment: the store, credentials, CAs ------------------------------------------ */

/* ROOT as docs/store.md says (imgstore.c: where, made 0700, checked out of other users'
 * reach), opened */
static int store_root(char *ret, size_t len, struct error *err)
{
        return store_open_mine(true, ret, len, err);
}

/* The first credentials file that names the registry */
static int find_cred(const char *authfile, const char *registry, struct auth_cred *ret, bool *found,
                     struct error *err)
{
        char files[4][PATH_MAX];
        const char *rt = getenv("XDG_RUNTIME_DIR"), *home = getenv("HOME");
        const char *env = getenv("REGISTRY_AUTH_FILE");
        size_t n = 0;
        if (authfile)
                snprintf(files[n++], PATH_MAX, "%s", authfile);
        else {
                if (env && *env)
                        snprintf(files[n++], PATH_MAX, "%s", env);
                if (rt && *rt)
                        snprintf(files[n++], PATH_MAX, "%s/containers/auth.json", rt);
                if (home && *home) {
                        snprintf(files[n++], PATH_MAX, "%s/.config/containers/auth.json", home);
                        snprintf(files[n++], PATH_MAX, "%s/.docker/config.json", home);
                }
        }
        *found = false;
        for (size_t i = 0; i < n && !*found; i++)
                if (auth_file_lookup(files[i], registry, ret, found, err) < 0)
                        return -1;
        if (authfile && access(authfile, R_OK) < 0)
                return error_set(err, errno, "--authfile '%s'", authfile);
        return 0;
}

static int find_cas(const char *certdir, const char *registry, char **pem, size_t *len,
                    struct error *err)
{
        char user[PATH_MAX] = "", where[PATH_MAX];
        const char *home = getenv("HOME");
        if (home && *home)
                snprintf(user, sizeof user, "%s/.config/containers/certs.d", home);
        const char *dirs[] = {user[0] ? user : NULL, "/etc/containers/certs.d",
                              "/etc/docker/certs.d"};
        if (certdir) {
                /* podman's --cert-dir: the CAs are in DIR itself */
                const char *one[] = {certdir};
                char parent[PATH_MAX], base[PATH_MAX];
                snprintf(parent, sizeof parent, "%s", certdir);
                snprintf(base, sizeof base, "%s", basename(parent));
                snprintf(parent, sizeof parent, "%s", certdir);
                one[0] = dirname(parent);
                int rc = auth_read_cas(one, 1, base, pem, len, where, sizeof where, err);
                if (rc == 0 && !*pem)
                        return error_set(err, 0, "--cert-dir '%s' holds no *.crt", certdir);
                return rc;
        }
        return auth_read_cas(dirs, 3, registry, pem, len, where, sizeof where, err);
}

/* --- the store's writer --------------------------------------------------------------------- */

/* crib-image store-add --name NAME [--platform P] ROOT/LAYOUT, from beside this program (the
 * platform when --platform chose it, which store-add checks as import does) */
static int store_add(const char *name, const char *platform, const char *layout)
{
        char exe[PATH_MAX], path[PATH_MAX + 32];
        struct error err;
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
                return error_set(&err, errno, "cannot find crib-image beside crib-pull"),
                       output_error(&err);
        exe[n] = '\0';
        snprintf(path, sizeof path, "%s/crib-image", dirname(exe));
        fflush(stdout), fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
                if (platform)
                        execl(path, "crib-image", "store-add", "--name", name, "--platform",
                              platform, layout, (char *)NULL);
                else
                        execl(path, "crib-image", "store-add", "--name", name, layout,
                              (char *)NULL);
                output_line(stderr, "crib: cannot run '%s': %s", path, strerror(errno));
                _exit(EXIT_CRIB_ERROR);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) < 0)
                return error_set(&err, errno, "cannot run '%s' to store the image", path),
                       output_error(&err);
        if (WIFSIGNALED(st)) {
                error_set(&err, 0, "'%s' was killed by signal %d while storing the image", path,
                          WTERMSIG(st));
                error_hint(&err,
                           "what it fetched stays in the store's blobs/: crib pull %s "
                           "again uses it",
                           name);
                return output_error(&err);
        }
        return WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_CRIB_ERROR;
}

struct options {
        const char *platform, *authfile, *certdir, *ref;
        bool quiet, insecure, layout_only;
};

static int parse_args(int argc, char **argv, struct options *o)
{
        for (int i = 1; i < argc; i++) {
                const char *a = argv[i];
                if (!strcmp(a, "--platform") && i + 1 < argc)
                        o->platform = argv[++i];
                else if (!strncmp(a, "--platform=", 11))
                        o->platform = a + 11;
                else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
                        o->quiet = true;
                else if (!strcmp(a, "--tls-verify=false"))
                        o->insecure = true;
                else if (!strcmp(a, "--tls-verify=true") || !strcmp(a, "--tls-verify"))
                        o->insecure = false;
                else if (!strcmp(a, "--authfile") && i + 1 < argc)
                        o->authfile = argv[++i];
                else if (!strcmp(a, "--cert-dir") && i + 1 < argc)
                        o->certdir = argv[++i];
                else if (!strcmp(a, "--layout-only"))
                        o->layout_only = true; /* the tests': keep the layout, print its path */
                else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
                        return fputs(usage, stdout), 1;
                else if (a[0] == '-')
                        return usage_error("unknown option '%s' for 'crib pull'", a), -1;
                else if (!o->ref)
                        o->ref = a;
                else
                        return usage_error("unexpected argument '%s'", a), -1;
        }
        if (!o->ref)
                return usage_error("%s", "'crib pull' needs an image reference"), -1;
        return 0;
}

static int prepare(const struct options *o, struct pull_request *q, struct auth_cred *cred,
                   char **pem, struct error *err)
{
        if (image_ref_parse(o->ref, &q->ref, err) < 0)
                return -1;
        if (o->platform) {
                if (platform_parse(o->platform, &q->platform, err) < 0)
                        return -1;
                q->forced = true;
        } else {
                struct host_machine m;
                host_machine_facts(&m);
                platform_detect(m.machine, m.at_platform[0] ? m.at_platform : NULL,
                                m.cpu_part[0] ? m.cpu_part : NULL, &q->platform);
        }
        bool found;
        size_t len = 0;
        if (find_cred(o->authfile, q->ref.registry, cred, &found, err) < 0 ||
            find_cas(o->certdir, q->ref.registry, pem, &len, err) < 0)
                return -1;
        q->reg.cred = found ? cred : NULL;
        q->reg.ca_pem = *pem;
        q->reg.ca_len = len;
        q->reg.tls_verify = !o->insecure;
        q->reg.http_fallback = o->insecure;
        q->reg.connect_timeout = 30;
        q->reg.low_speed_time = 30;
        return 0;
}

int main(int argc, char **argv)
{
        struct options o = {0};
        int a = parse_args(argc, argv, &o);
        if (a)
                return a > 0 ? 0 : EXIT_CRIB_ERROR;
        struct error err;
        error_clear(&err);
        struct pull_request q = {.root = -1};
        struct auth_cred cred;
        char *pem = NULL, root[PATH_MAX];
        struct progress pg = {.on = !o.quiet && isatty(STDERR_FILENO) && isatty(STDOUT_FILENO)};
        if (prepare(&o, &q, &cred, &pem, &err) < 0 ||
            (q.root = store_root(root, sizeof root, &err)) < 0)
                return output_error(&err);
        if (o.insecure)
                output_warning("--tls-verify=false: crib does not check who '%s' is; anyone on "
                               "the way can give you another image",
                               q.ref.registry);
        q.root_path = root;
        q.progress = progress;
        q.ctx = &pg;
        /* a writer that adds holds store.lock shared: prune (exclusive) waits for the pull */
        int lock = openat(q.root, "store.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        int locked = lock < 0 ? -1 : flock(lock, LOCK_SH);
        while (locked < 0 && errno == EINTR) /* a signal while prune holds it: wait on */
                locked = flock(lock, LOCK_SH);
        if (locked < 0)
                return error_set(&err, errno, "'%s/store.lock'", root), output_error(&err);
        curl_global_init(CURL_GLOBAL_DEFAULT);
        struct pull_result r;
        int rc = pull_image(&q, &r, &err);
        explicit_bzero(&cred, sizeof cred);
        free(pem);
        if (rc < 0)
                return output_error(&err);
        if (pg.on)
                output_line(stderr, "crib: %s: %s, %zu layer%s, %.1f MB", r.name, r.platform,
                            r.nlayers, r.nlayers == 1 ? "" : "s", (double)r.bytes / 1e6);
        if (o.layout_only) {
                output_line(stdout, "%s/%s", root, r.layout);
                return 0;
        }
        char layout[PATH_MAX + 80];
        snprintf(layout, sizeof layout, "%s/%s", root, r.layout);
        rc = store_add(r.name, q.forced ? r.platform : NULL, layout);
        pull_done(q.root, &r);
        curl_global_cleanup();
        return rc;
}
