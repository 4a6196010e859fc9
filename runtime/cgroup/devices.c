/* devices.c - the device program of a real-root container (user = no).
 *
 * Kernel feature: a BPF_PROG_TYPE_CGROUP_DEVICE program (Linux 4.15, CONFIG_CGROUP_BPF), cgroup
 * v2's answer to cgroup v1's devices.allow. Attached to a cgroup (BPF_PROG_ATTACH with
 * BPF_CGROUP_DEVICE), it runs whenever a process of that cgroup, or of any cgroup below it,
 * opens a device node or makes one with mknod(2), and says allow (1) or deny (0: EPERM). It
 * does not look at the node's path, so a node made anywhere, on any mount, is judged by its
 * type and numbers alone.
 *
 * Why: with user = no the container is real root and keeps CAP_MKNOD. crib's other layers keep
 * it away from host devices (every mount it could make a node on is nodev; its /dev nodes are
 * its own copies), but a container given CAP_SYS_ADMIN can mount a fresh filesystem without
 * nodev and make, say, /dev/sda there. The program is the layer that holds then.
 *
 * The program, written here instruction by instruction (no compiler, no libbpf: it is a few
 * dozen instructions): read the access type, major and minor from its context (struct
 * bpf_cgroup_dev_ctx); allow mknod(2) alone of any node (Docker's "c *:* m" and "b *:* m": a
 * package that makes nodes still installs, and the node then does not open); allow everything
 * for each device in the list; deny the rest.
 *
 *   r2 = ctx->access_type   r3 = r2 & 0xffff (type)   r4 = r2 >> 16 (access)
 *   r5 = ctx->major         r6 = ctx->minor
 *   if r4 == MKNOD: return 1
 *   for each rule: if type, major (or major range) and minor (unless any) match: return 1
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

/* the preamble (10), the longest rule (6: type, a major range, a minor; return) each, the
 * final return (2) */
#define MAX_INSNS (10 + CGROUP_MAX_DEVICES * 6 + 2)

struct prog {
        struct bpf_insn insn[MAX_INSNS];
        int n;
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

/* one rule: its tests each jump past the rule when they fail */
static void emit_rule(struct prog *p, const struct cgroup_device *d)
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

static void build(struct prog *p, const struct cgroup_device *allow, size_t n)
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
        for (size_t i = 0; i < n; i++)
                emit_rule(p, &allow[i]);
        emit_return(p, 0);
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
        struct prog p;
        build(&p, NULL, 0);
        int prog = load(&p, err);
        if (prog < 0)
                return -1;
        close(prog);
        return 0;
}

int cgroup_devices_apply(const char *path, const struct cgroup_device *allow, size_t n,
                         struct trace *t, struct error *err)
{
        if (n > CGROUP_MAX_DEVICES)
                return error_set(err, E2BIG, "too many devices for the device program");
        struct prog p;
        build(&p, allow, n);
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
                return error_hint(err, "a real-root container (one without a user namespace) gets "
                                       "one wherever cgroup v2 is there; one with a user "
                                       "namespace runs without it");
        }
        if (t && t->on) {
                char line[1024], one[40];
                size_t used = (size_t)snprintf(line, sizeof line,
                                               "  device program (%d instructions): mknod of "
                                               "any node; open of",
                                               p.n);
                for (size_t i = 0; i < n && used < sizeof line; i++) {
                        cgroup_device_format(&allow[i], one, sizeof one);
                        used += (size_t)snprintf(line + used, sizeof line - used, "%s %s",
                                                 i ? "," : "", one);
                }
                trace_line(t, "%s", line);
        }
        return 0;
}
