/* devices.c - the device program of a real-root container (user = no), and of every container
 * of an OCI config crib runs as root.
 *
 * Kernel feature: a BPF_PROG_TYPE_CGROUP_DEVICE program (Linux 4.15, CONFIG_CGROUP_BPF), cgroup
 * v2's answer to cgroup v1's devices.allow. Attached to a cgroup (BPF_PROG_ATTACH with
 * BPF_CGROUP_DEVICE), it runs whenever a process of that cgroup, or of any cgroup below it,
 * opens a device node or makes one with mknod(2), and says allow (1) or deny (0: EPERM). It
 * does not look at the node's path, so a node made anywhere, on any mount, is judged by its
 * type and numbers alone. It needs a cgroup of the v2 hierarchy, and nothing else of v2: on a
 * hybrid host (v1 controllers, v2 mounted at /sys/fs/cgroup/unified, as here) the program on
 * the container's v2 cgroup holds as well, and a v1 devices cgroup, where one also applies,
 * must allow too.
 *
 * Why: with user = no the container is real root and keeps CAP_MKNOD. crib's other layers keep
 * it away from host devices (every mount it could make a node on is nodev; its /dev nodes are
 * its own copies), but a container given CAP_SYS_ADMIN can mount a fresh filesystem without
 * nodev and make, say, /dev/sda there. The program is the layer that holds then. An OCI config
 * says which devices its container may use (.linux.resources.devices): the program is how
 * those rules hold, as runc's does, a host device bound in by .mounts included.
 *
 * The program, written here instruction by instruction (no compiler, no libbpf: a few dozen
 * instructions, a few thousand at most): read the access type, major and minor from its context
 * (struct bpf_cgroup_dev_ctx); allow mknod(2) alone of any node (Docker's and runc's "c *:* m"
 * and "b *:* m": a package that makes nodes still installs, and the node then does not open);
 * allow everything for each device in `own`; with rules, for each access bit asked (read,
 * write), the last rule with that bit matching the device decides, deny when none does; then
 * allow what `extra` holds; deny the rest.
 *
 *   r2 = ctx->access_type   r3 = r2 & 0xffff (type)   r4 = r2 >> 16 (access)
 *   r5 = ctx->major         r6 = ctx->minor
 *   if r4 == MKNOD: return 1
 *   for each own device: if type, major (or major range) and minor (unless any) match: return 1
 *   for bit in read, write, mknod: if r4 & bit:
 *       for each rule with bit, last first: if it matches: deny: return 0; allow: next bit
 *       return 0
 *   for each extra device: as own
 *   return 0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup.h"
#include "base/cleanup.h"

/* the preamble (10), the longest device test (6: type, a major range, a minor; return) each,
 * each rule's (5: type, major, minor, deny's return) for each of the 3 bits and a bit's own 4,
 * the final return (2) */
#define MAX_INSNS (10 + CGROUP_MAX_DEVICES * 6 + 3 * (4 + SPEC_MAX_DEVICE_RULES * 5) + 2)

struct prog {
        struct bpf_insn *insn;
        size_t n;
};

static void emit(struct prog *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
        if (p->n >= MAX_INSNS)
                abort(); /* MAX_INSNS is wrong: never a program cut short */
        p->insn[p->n++] = (struct bpf_insn){
                .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm};
}

/* `return v` */
static void emit_return(struct prog *p, int v)
{
        emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, v);
        emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* one device: its tests each jump past the device when they fail */
static void emit_device(struct prog *p, const struct cgroup_device *d)
{
        int tests = 1 + (d->major_lo == d->major_hi ? 1 : 2) + (d->minor >= 0 ? 1 : 0);
        int len = tests + 2, i = 0;
        int type = d->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR;
        emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_3, 0, (int16_t)(len - ++i), type);
        if (d->major_lo == d->major_hi) {
                emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_5, 0, (int16_t)(len - ++i),
                     (int32_t)d->major_lo);
        } else {
                emit(p, BPF_JMP | BPF_JLT | BPF_K, BPF_REG_5, 0, (int16_t)(len - ++i),
                     (int32_t)d->major_lo);
                emit(p, BPF_JMP | BPF_JGT | BPF_K, BPF_REG_5, 0, (int16_t)(len - ++i),
                     (int32_t)d->major_hi);
        }
        if (d->minor >= 0)
                emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_6, 0, (int16_t)(len - ++i), d->minor);
        emit_return(p, 1);
}

/* One access bit of the rules: skipped unless asked; each rule with the bit, last first,
 * decides when it matches (deny: return 0; allow: on to the next bit); none: return 0. The
 * jumps to the next bit are patched once its place is known. */
static void emit_rules_bit(struct prog *p, const struct cgroup_device_rule *r, size_t n,
                           unsigned bit)
{
        size_t to_next[SPEC_MAX_DEVICE_RULES + 1], nj = 0;
        bool always = false; /* the last rule emitted matches every device */
        int access = bit == CGROUP_DEV_READ    ? BPF_DEVCG_ACC_READ
                     : bit == CGROUP_DEV_WRITE ? BPF_DEVCG_ACC_WRITE
                                               : BPF_DEVCG_ACC_MKNOD;
        emit(p, BPF_JMP | BPF_JSET | BPF_K, BPF_REG_4, 0, 1, access);
        to_next[nj++] = p->n;
        emit(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
        for (size_t k = n; k-- > 0;) {
                const struct cgroup_device_rule *e = &r[k];
                if (!(e->access & bit))
                        continue;
                int tests = (e->type != 'a') + (e->major >= 0) + (e->minor >= 0);
                always = !tests;
                int len = tests + (e->allow ? 1 : 2), i = 0;
                if (e->type != 'a')
                        emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_3, 0, (int16_t)(len - ++i),
                             e->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR);
                if (e->major >= 0)
                        emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_5, 0, (int16_t)(len - ++i),
                             (int32_t)e->major);
                if (e->minor >= 0)
                        emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_6, 0, (int16_t)(len - ++i),
                             (int32_t)e->minor);
                if (e->allow) {
                        to_next[nj++] = p->n;
                        emit(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
                } else {
                        emit_return(p, 0);
                }
                /* a rule of any device decides for all: what came before it is never reached
                 * (and the verifier refuses a program with instructions it cannot reach) */
                if (!tests)
                        break;
        }
        if (!always)
                emit_return(p, 0);
        for (size_t j = 0; j < nj; j++)
                p->insn[to_next[j]].off = (int16_t)(p->n - to_next[j] - 1);
}

static void build(struct prog *p, const struct cgroup_device_policy *pol)
{
        p->n = 0;
        emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1, 0, 0);
        emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_2, 0, 0);
        emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_3, 0, 0, 0xffff);
        emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_4, BPF_REG_2, 0, 0);
        emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_4, 0, 0, 16);
        emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_5, BPF_REG_1, 4, 0);
        emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_6, BPF_REG_1, 8, 0);
        /* mknod alone: any node (it does not open unless a rule below allows it) */
        emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_4, 0, 2, BPF_DEVCG_ACC_MKNOD);
        emit_return(p, 1);
        for (size_t i = 0; i < pol->nown; i++)
                emit_device(p, &pol->own[i]);
        if (pol->rules_on) {
                size_t n =
                        pol->nrules > SPEC_MAX_DEVICE_RULES ? SPEC_MAX_DEVICE_RULES : pol->nrules;
                emit_rules_bit(p, pol->rules, n, CGROUP_DEV_READ);
                emit_rules_bit(p, pol->rules, n, CGROUP_DEV_WRITE);
                emit_rules_bit(p, pol->rules, n, CGROUP_DEV_MKNOD);
        }
        for (size_t i = 0; i < pol->nextra; i++)
                emit_device(p, &pol->extra[i]);
        emit_return(p, 0);
}

void *cgroup_devices_program(const struct cgroup_device_policy *pol, size_t *ret_n)
{
        if (pol->nown + pol->nextra > CGROUP_MAX_DEVICES || pol->nrules > SPEC_MAX_DEVICE_RULES)
                return NULL;
        struct prog p = {.insn = calloc(MAX_INSNS, sizeof(struct bpf_insn)), .n = 0};
        if (!p.insn)
                return NULL;
        build(&p, pol);
        *ret_n = p.n;
        return p.insn;
}

static bool rule_matches(const struct cgroup_device_rule *e, char type, uint32_t major,
                         uint32_t minor)
{
        return (e->type == 'a' || e->type == type) && (e->major < 0 || e->major == major) &&
               (e->minor < 0 || e->minor == minor);
}

bool cgroup_rules_allow(const struct cgroup_device_rule *rules, size_t n, char type, uint32_t major,
                        uint32_t minor, unsigned access)
{
        for (unsigned bit = 1; bit <= CGROUP_DEV_MKNOD; bit <<= 1) {
                if (!(access & bit))
                        continue;
                bool allowed = false;
                for (size_t k = n; k-- > 0;)
                        if ((rules[k].access & bit) &&
                            rule_matches(&rules[k], type, major, minor)) {
                                allowed = rules[k].allow;
                                break;
                        }
                if (!allowed)
                        return false;
        }
        return true;
}

bool cgroup_rules_deny_some(const struct cgroup_device_rule *rules, size_t n)
{
        for (unsigned bit = CGROUP_DEV_READ; bit <= CGROUP_DEV_WRITE; bit <<= 1) {
                bool all = false;
                for (size_t k = n; k-- > 0 && !all;) {
                        const struct cgroup_device_rule *e = &rules[k];
                        if (!(e->access & bit))
                                continue;
                        if (!e->allow)
                                return true;
                        all = e->type == 'a' && e->major < 0 && e->minor < 0;
                }
                if (!all)
                        return true;
        }
        return false;
}

static long sys_bpf(int cmd, union bpf_attr *a)
{
        return syscall(SYS_bpf, cmd, a, sizeof *a);
}

void cgroup_device_format(const struct cgroup_device *d, char *buf, size_t len)
{
        char major[24], minor[16];
        if (d->major_lo == d->major_hi)
                snprintf(major, sizeof major, "%u", d->major_lo);
        else
                snprintf(major, sizeof major, "%u-%u", d->major_lo, d->major_hi);
        if (d->minor >= 0)
                snprintf(minor, sizeof minor, "%d", d->minor);
        else
                snprintf(minor, sizeof minor, "*");
        snprintf(buf, len, "%c %s:%s", d->type, major, minor);
}

static int load(const struct prog *p, struct error *err)
{
        union bpf_attr load;
        memset(&load, 0, sizeof load);
        load.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
        load.insns = (uintptr_t)p->insn;
        load.insn_cnt = (uint32_t)p->n;
        load.license = (uintptr_t) "GPL";
        snprintf(load.prog_name, sizeof load.prog_name, "crib_devices");
        int prog = (int)sys_bpf(BPF_PROG_LOAD, &load);
        if (prog < 0 && errno == EINVAL) {
                /* prog_name: Linux 4.15 has the program type but not yet the name */
                memset(load.prog_name, 0, sizeof load.prog_name);
                prog = (int)sys_bpf(BPF_PROG_LOAD, &load);
        }
        if (prog < 0) {
                int e = errno;
                error_set(err, e, "cannot load the device program (BPF_PROG_TYPE_CGROUP_DEVICE)");
                return error_hint(err, "%s",
                                  e == EINVAL  ? "this kernel lacks CONFIG_CGROUP_BPF (Linux 4.15)"
                                  : e == EPERM ? "loading BPF programs needs CAP_SYS_ADMIN (crib "
                                                 "runs as root for a container without a user "
                                                 "namespace)"
                                               : "see bpf(2)");
        }
        return prog;
}

int cgroup_devices_probe(struct error *err)
{
        static const struct cgroup_device_policy none = {.nown = 0};
        size_t n;
        _cleanup_free_ struct bpf_insn *insn = cgroup_devices_program(&none, &n);
        if (!insn)
                return error_set(err, ENOMEM, "cannot allocate");
        struct prog p = {.insn = insn, .n = n};
        int prog = load(&p, err);
        if (prog < 0)
                return -1;
        close(prog);
        return 0;
}

/* the trace's line: how long the program is, what it lets open */
static void trace_program(struct trace *t, const struct cgroup_device_policy *pol, size_t n)
{
        char line[1024], one[40];
        size_t used = (size_t)snprintf(line, sizeof line,
                                       "  device program (%zu instructions): mknod of any node; "
                                       "open of",
                                       n);
        for (size_t i = 0; i < pol->nown + pol->nextra && used < sizeof line; i++) {
                bool own = i < pol->nown;
                cgroup_device_format(own ? &pol->own[i] : &pol->extra[i - pol->nown], one,
                                     sizeof one);
                used += (size_t)snprintf(line + used, sizeof line - used, "%s%s %s", i ? "," : "",
                                         !own && pol->rules_on ? " (if the rules allow)" : "", one);
        }
        trace_line(t, "%s", line);
        if (pol->rules_on)
                trace_line(t, "  and the config's %zu device rules, the last match winning",
                           pol->nrules);
}

int cgroup_devices_apply(const char *path, const struct cgroup_device_policy *pol, struct trace *t,
                         struct error *err)
{
        size_t n;
        if (pol->nown + pol->nextra > CGROUP_MAX_DEVICES || pol->nrules > SPEC_MAX_DEVICE_RULES)
                return error_set(err, E2BIG, "too many devices for the device program");
        _cleanup_free_ struct bpf_insn *insn = cgroup_devices_program(pol, &n);
        if (!insn)
                return error_set(err, ENOMEM, "cannot allocate");
        struct prog p = {.insn = insn, .n = n};
        /* the attach target must be a real descriptor of the directory, not O_PATH */
        _cleanup_close_ int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir < 0)
                return error_set(err, errno, "cannot open the container's cgroup %s", path);
        int prog = load(&p, err);
        if (prog < 0)
                return -1;
        union bpf_attr attach;
        memset(&attach, 0, sizeof attach);
        attach.target_fd = (uint32_t)dir;
        attach.attach_bpf_fd = (uint32_t)prog;
        attach.attach_type = BPF_CGROUP_DEVICE;
        /* more programs may follow below it; each of them, and this one, must allow */
        attach.attach_flags = BPF_F_ALLOW_MULTI;
        int r = (int)sys_bpf(BPF_PROG_ATTACH, &attach);
        int e = errno;
        close(prog); /* the cgroup holds it now, and drops it with the cgroup */
        if (r < 0) {
                error_set(err, e, "cannot attach the device program to %s", path);
                return error_hint(err, "root's containers get one wherever cgroup v2 is there "
                                       "(see bpf(2), BPF_PROG_ATTACH)");
        }
        if (t && t->on)
                trace_program(t, pol, n);
        return 0;
}
