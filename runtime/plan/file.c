/* file.c - a plan as bytes: packed into one block of its own when it is built, written to a
 * file and read back by another crib process (the state directory of `crib run -d`, `exec`,
 * and the OCI front end's `create` then `start`).
 *
 * No kernel feature. A plan is built with ordinary allocations, then packed: everything it
 * points to is copied into one block (plan_pack()), so it points into nothing else. plan_walk()
 * is the one list of the plan's pointers, used both to pack and to write.
 *
 * Writing it is the struct with each pointer turned into 1 + its offset in that block (0 for
 * NULL), then the block with the pointers inside it (argv's and envp's strings, the masked and
 * read-only paths) turned the same way. Reading checks everything before it trusts anything:
 * the header (this crib's format and struct size: a plan is read by the crib that wrote it),
 * every count against its array, every offset against the block, every string's NUL and every
 * list's end inside it. What the checks cannot tell is whether someone else wrote the file:
 * that is the state directory's to ensure (runtime/state: a directory only its owner may
 * write).
 */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *null_str(void *ctx, const char *s)
{
        (void)ctx, (void)s;
        return NULL;
}
static char **null_strv(void *ctx, char **v)
{
        (void)ctx, (void)v;
        return NULL;
}
static const struct spec_paths *null_paths(void *ctx, const struct spec_paths *l)
{
        (void)ctx, (void)l;
        return NULL;
}
static void *null_blob(void *ctx, const void *b, size_t n)
{
        (void)ctx, (void)b, (void)n;
        return NULL;
}

/* Every pointer into the arena is set to NULL and the counts of what they pointed to to 0, so a
 * use after free fails at once; the rest of the plan (27 KB, mostly fixed arrays) is left as it
 * is: it holds nothing that needs erasing, and writing all of it again made `crib run` fault in
 * 7 pages after the container exited. */
void plan_free(struct plan *p)
{
        const struct plan_walker w = {null_str, null_strv, null_paths, null_blob, NULL};
        free(p->arena);
        plan_walk(p, &w);
        p->nmounts = p->ngroups = p->npass_fds = p->seccomp.n = 0;
        p->nhooks[PLAN_HOOK_SETUP] = p->nhooks[PLAN_HOOK_START] = 0;
        p->arena = NULL;
        p->arena_size = 0;
}

/* Packing the plan into its arena: each call reserves room for `n` bytes at the next 16-byte
 * boundary. Counting (base NULL) only adds up, and returns `src` unchanged, so that the same
 * walk first measures, then copies. */
struct packer {
        char *base;
        size_t used;
};

static void *pack(struct packer *k, const void *src, size_t n)
{
        size_t at = (k->used + 15) & ~(size_t)15;
        if (!src)
                return NULL;
        k->used = at + n;
        return k->base ? memcpy(k->base + at, src, n) : (void *)src;
}

static char *pack_str(struct packer *k, const char *str)
{
        return str ? pack(k, str, strlen(str) + 1) : NULL;
}

static char **pack_strv(struct packer *k, char *const *v)
{
        size_t n = 0;
        if (!v)
                return NULL;
        while (v[n])
                n++;
        char **out = pack(k, v, (n + 1) * sizeof *v);
        for (size_t i = 0; i < n; i++) {
                char *str = pack_str(k, v[i]);
                if (k->base)
                        out[i] = str;
        }
        return out;
}

static const struct spec_paths *pack_paths(struct packer *k, const struct spec_paths *l)
{
        struct spec_paths *out = pack(k, l, sizeof *l);
        for (size_t i = 0; l && i < l->n; i++) {
                char *str = pack_str(k, l->items[i]);
                if (k->base)
                        out->items[i] = str;
        }
        return out;
}

void plan_walk(struct plan *p, const struct plan_walker *w)
{
        p->rootfs = w->str(w->ctx, p->rootfs);
        p->overlay_lower = w->str(w->ctx, p->overlay_lower);
        p->overlay_upper = w->str(w->ctx, p->overlay_upper);
        p->overlay_work = w->str(w->ctx, p->overlay_work);
        p->image_dir = w->str(w->ctx, p->image_dir);
        p->spec_path = w->str(w->ctx, p->spec_path);
        p->cwd = w->str(w->ctx, p->cwd);
        p->hostname = w->str(w->ctx, p->hostname);
        p->net_helper = w->str(w->ctx, p->net_helper);
        p->nft = w->str(w->ctx, p->nft);
        for (size_t i = 0; i < SPEC_NNS; i++)
                p->join_path[i] = w->str(w->ctx, p->join_path[i]);
        for (size_t i = 0; i < p->nmounts; i++) {
                p->mounts[i].src = w->str(w->ctx, p->mounts[i].src);
                p->mounts[i].dst = w->str(w->ctx, p->mounts[i].dst);
                p->mounts[i].data = w->str(w->ctx, p->mounts[i].data);
        }
        p->argv = w->strv(w->ctx, p->argv);
        p->envp = w->strv(w->ctx, p->envp);
        p->sysctl = w->strv(w->ctx, p->sysctl);
        p->health.argv = w->strv(w->ctx, p->health.argv);
        p->groups = w->blob(w->ctx, p->groups, p->ngroups * sizeof *p->groups);
        p->masked = w->paths(w->ctx, p->masked);
        p->readonly = w->paths(w->ctx, p->readonly);
        p->pass_fds = w->blob(w->ctx, p->pass_fds, p->npass_fds * sizeof *p->pass_fds);
        p->seccomp.insns =
                w->blob(w->ctx, p->seccomp.insns, p->seccomp.n * sizeof *p->seccomp.insns);
        for (size_t when = 0; when < PLAN_HOOK_WHENS; when++)
                for (size_t i = 0; i < p->nhooks[when]; i++) {
                        struct plan_hook *h = &p->hooks[when][i];
                        h->path = w->str(w->ctx, h->path);
                        h->argv = w->strv(w->ctx, h->argv);
                        h->envp = w->strv(w->ctx, h->envp);
                }
        p->hook_state = w->str(w->ctx, p->hook_state);
}

static char *packer_str(void *k, const char *s)
{
        return pack_str(k, s);
}
static char **packer_strv(void *k, char **v)
{
        return pack_strv(k, v);
}
static const struct spec_paths *packer_paths(void *k, const struct spec_paths *l)
{
        return pack_paths(k, l);
}
static void *packer_blob(void *k, const void *p, size_t n)
{
        return pack(k, p, n);
}

static void pack_walk(struct plan *p, struct packer *k)
{
        const struct plan_walker w = {packer_str, packer_strv, packer_paths, packer_blob, k};
        plan_walk(p, &w);
}

/* Copy everything the plan points to into one block of its own: afterwards it points into
 * nothing else (not the spec, the scratch, or crib's string constants). */
int plan_pack(struct plan *p, struct error *err)
{
        struct packer k = {0};
        /* counting changes no pointer (pack() returns `src` when there is no base), so it
         * walks the plan itself, not a 27 KB copy on the stack */
        pack_walk(p, &k); /* measure */
        k.base = calloc(1, k.used ? k.used : 1);
        if (!k.base)
                return error_set(err, ENOMEM, "cannot allocate");
        p->arena_size = k.used;
        k.used = 0;
        pack_walk(p, &k); /* copy */
        p->arena = k.base;
        return 0;
}

#define PLANFILE_MAGIC "crib-plan-v1\n"

struct planfile_head {
        char magic[16];
        uint32_t plan_size; /* sizeof(struct plan) of the writer */
        uint32_t pad;
        uint64_t arena_size;
};

/* Turning pointers into offsets (out) or offsets back into pointers (in), checked. Out, the
 * pointers hold addresses in `base`, the block being written, and the arrays changed in place
 * are its copy at `at`; in, both are the block just read. */
struct reloc {
        char *base, *at;
        size_t size;
        bool in;
        bool bad;
};

/* a pointer to `need` bytes in the block, or NULL */
static void *rel(struct reloc *r, const void *p, size_t need)
{
        if (!r->in)
                return p ? (void *)((uintptr_t)((const char *)p - r->base) + 1) : NULL;
        uintptr_t off = (uintptr_t)p;
        if (!off)
                return NULL;
        off--;
        if (off > r->size || need > r->size - off) {
                r->bad = true;
                return NULL;
        }
        return r->base + off;
}

/* where the array at `p` (an address in the block) is to be changed */
static void *editable(struct reloc *r, const void *p)
{
        return r->in ? (void *)p : r->at + ((const char *)p - r->base);
}

static char *rel_str(struct reloc *r, const char *s)
{
        char *p = rel(r, s, r->in ? 1 : 0);
        if (r->in && p && !memchr(p, '\0', r->size - (size_t)(p - r->base))) {
                r->bad = true;
                return NULL;
        }
        return p;
}

/* a NULL-terminated array of strings, and its strings */
static char **rel_strv(struct reloc *r, char **v)
{
        char **a = r->in ? rel(r, v, sizeof *a) : v;
        if (!a)
                return NULL;
        char **e = editable(r, a);
        size_t room = (r->size - (size_t)((char *)a - r->base)) / sizeof *a;
        size_t i = 0;
        for (; i < room && e[i]; i++)
                if (!(e[i] = rel_str(r, e[i])))
                        r->bad = true;
        if (i == room)
                r->bad = true; /* no NULL at the end inside the block */
        return r->in ? a : rel(r, v, 0);
}

static const struct spec_paths *rel_paths(struct reloc *r, const struct spec_paths *l)
{
        const struct spec_paths *a = r->in ? rel(r, l, sizeof *a) : l;
        if (!a)
                return NULL;
        struct spec_paths *e = editable(r, a);
        if (e->n > SPEC_MAX_PATHS) {
                r->bad = true;
                return NULL;
        }
        for (size_t i = 0; i < e->n; i++)
                if (!(e->items[i] = rel_str(r, e->items[i])))
                        r->bad = true;
        return r->in ? a : rel(r, l, 0);
}

static char *reloc_str(void *r, const char *s)
{
        return rel_str(r, s);
}
static char **reloc_strv(void *r, char **v)
{
        return rel_strv(r, v);
}
static const struct spec_paths *reloc_paths(void *r, const struct spec_paths *l)
{
        return rel_paths(r, l);
}
static void *reloc_blob(void *r, const void *p, size_t n)
{
        return rel(r, p, n);
}

/* Every pointer of the plan (plan_walk), out or in. The arrays in the block are changed in
 * place; the struct's own pointers in `p`. */
static void walk(struct plan *p, struct reloc *r)
{
        const struct plan_walker w = {reloc_str, reloc_strv, reloc_paths, reloc_blob, r};
        plan_walk(p, &w);
}

int plan_to_bytes(const struct plan *p, void **ret, size_t *ret_len, struct error *err)
{
        struct planfile_head h = {.plan_size = sizeof *p, .arena_size = p->arena_size};
        memcpy(h.magic, PLANFILE_MAGIC, sizeof PLANFILE_MAGIC - 1);
        size_t len = sizeof h + sizeof *p + p->arena_size;
        char *out = calloc(1, len);
        if (!out)
                return error_set(err, ENOMEM, "cannot allocate");
        struct plan *copy = (struct plan *)(out + sizeof h);
        char *arena = out + sizeof h + sizeof *p;
        memcpy(out, &h, sizeof h);
        memcpy(copy, p, sizeof *p);
        memcpy(arena, p->arena, p->arena_size);
        struct reloc r = {.base = p->arena, .at = arena, .size = p->arena_size, .in = false};
        walk(copy, &r);
        copy->arena = NULL;
        *ret = out;
        *ret_len = len;
        return 0;
}

int plan_from_bytes(const void *buf, size_t len, struct plan *ret, struct error *err)
{
        struct planfile_head h;
        memset(ret, 0, sizeof *ret);
        if (len < sizeof h)
                return error_set(err, EINVAL, "the plan file is too short");
        memcpy(&h, buf, sizeof h);
        if (memcmp(h.magic, PLANFILE_MAGIC, sizeof PLANFILE_MAGIC - 1) ||
            h.plan_size != sizeof *ret)
                return error_set(err, EINVAL,
                                 "the plan file was not written by this crib (another version "
                                 "or architecture)");
        if (h.arena_size != len - sizeof h - sizeof *ret || len < sizeof h + sizeof *ret)
                return error_set(err, EINVAL, "the plan file's length does not match its header");
        struct plan p;
        memcpy(&p, (const char *)buf + sizeof h, sizeof p);
        /* the counts, against the arrays they count, before anything is followed */
        if (p.nmounts > PLAN_MAX_MOUNTS || p.nrlimits > SPEC_NLIMITS ||
            p.nwarnings > sizeof p.warnings / sizeof p.warnings[0] ||
            p.apparmor_warning > p.nwarnings || p.uidmap.n > SPEC_MAX_RANGES + 1 ||
            p.gidmap.n > SPEC_MAX_RANGES + 1 || p.ngroups > 65536 || p.npass_fds > 1024 ||
            p.seccomp.n > 65536 || p.ndevices > CGROUP_MAX_DEVICES || p.ndevices_own > p.ndevices ||
            p.ndev_rules > SPEC_MAX_DEVICE_RULES || p.nports > SPEC_MAX_PORTS ||
            p.net_mode > SPEC_NET_PASTA || p.front > SPEC_FRONT_OCI ||
            (p.oom_score_adj_set && (p.oom_score_adj < -1000 || p.oom_score_adj > 1000)) ||
            p.nhooks[PLAN_HOOK_SETUP] > PLAN_MAX_HOOKS ||
            p.nhooks[PLAN_HOOK_START] > PLAN_MAX_HOOKS)
                return error_set(err, EINVAL, "the plan file is damaged (a count out of range)");
        p.seccomp_how[sizeof p.seccomp_how - 1] = '\0';
        p.apparmor[sizeof p.apparmor - 1] = '\0';
        p.cgroup_base[sizeof p.cgroup_base - 1] = '\0';
        p.cgroup_name[sizeof p.cgroup_name - 1] = '\0';
        p.cgroup_path[sizeof p.cgroup_path - 1] = '\0';
        p.cgroup_top[sizeof p.cgroup_top - 1] = '\0';
        p.devices_why[sizeof p.devices_why - 1] = '\0';
        p.ping_range[sizeof p.ping_range - 1] = '\0';
        p.run_dir[sizeof p.run_dir - 1] = '\0';
        for (size_t i = 0; i < SPEC_MAX_PORTS; i++)
                p.ports[i].addr[sizeof p.ports[i].addr - 1] = '\0';
        for (size_t i = 0; i < sizeof p.warnings / sizeof p.warnings[0]; i++)
                p.warnings[i][sizeof p.warnings[i] - 1] = '\0';
        p.arena = malloc(h.arena_size ? h.arena_size : 1);
        if (!p.arena)
                return error_set(err, ENOMEM, "cannot allocate");
        memcpy(p.arena, (const char *)buf + sizeof h + sizeof p, h.arena_size);
        p.arena_size = h.arena_size;
        struct reloc r = {.base = p.arena, .at = p.arena, .size = p.arena_size, .in = true};
        walk(&p, &r);
        for (size_t when = 0; when < PLAN_HOOK_WHENS; when++)
                for (size_t i = 0; i < p.nhooks[when]; i++) {
                        const struct plan_hook *hk = &p.hooks[when][i];
                        if (!hk->path || !hk->argv || !hk->argv[0] || !hk->envp || !p.hook_state ||
                            hk->timeout < 0)
                                r.bad = true;
                }
        if (r.bad || !p.rootfs || !p.argv || !p.argv[0] || !p.envp || !p.masked || !p.readonly) {
                free(p.arena);
                return error_set(err, EINVAL,
                                 "the plan file is damaged (a pointer outside its memory)");
        }
        *ret = p;
        return 0;
}
