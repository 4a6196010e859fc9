/* trace.c - trace lines and flag names; see trace.h. */
#define _GNU_SOURCE
#include "trace.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>

void trace_line(const struct trace *t, const char *fmt, ...)
{
        char buf[1024];
        va_list ap;
        if (!t || !t->on || !t->emit)
                return;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        t->emit(t->ctx, buf);
}

int trace_skip(const struct trace *t, const char *fmt, ...)
{
        char buf[1024];
        va_list ap;
        if (!t || !t->on || !t->emit)
                return 0;
        int n = snprintf(buf, sizeof buf, "  skipped: ");
        va_start(ap, fmt);
        vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
        va_end(ap);
        t->emit(t->ctx, buf);
        return 0;
}

uint64_t trace_now_us(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

struct flag_name {
        unsigned long flag;
        const char *name;
};

static const char *flag_names(unsigned long flags, const struct flag_name *names, size_t n,
                              char *buf, size_t len)
{
        size_t used = 0;
        buf[0] = '\0';
        for (size_t i = 0; i < n; i++) {
                if ((flags & names[i].flag) != names[i].flag || !names[i].flag)
                        continue;
                used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                         used ? "|" : "", names[i].name);
                flags &= ~names[i].flag;
        }
        if (flags)
                snprintf(buf + used, used < len ? len - used : 0, "%s%#lx", used ? "|" : "", flags);
        else if (!used)
                snprintf(buf, len, "0");
        return buf;
}

#define N(f)                                                                                       \
        {                                                                                          \
                f, #f                                                                              \
        }
const char *trace_mount_flags(unsigned long flags, char *buf, size_t len)
{
        static const struct flag_name names[] = {
                N(MS_RDONLY), N(MS_NOSUID),  N(MS_NODEV),    N(MS_NOEXEC),      N(MS_REMOUNT),
                N(MS_BIND),   N(MS_MOVE),    N(MS_REC),      N(MS_PRIVATE),     N(MS_SLAVE),
                N(MS_SHARED), N(MS_NOATIME), N(MS_RELATIME), N(MS_STRICTATIME), N(MS_NODIRATIME),
        };
        return flag_names(flags, names, sizeof names / sizeof names[0], buf, len);
}

const char *trace_clone_flags(unsigned long flags, char *buf, size_t len)
{
        static const struct flag_name names[] = {
                N(CLONE_NEWUSER), N(CLONE_NEWNS),  N(CLONE_NEWPID),    N(CLONE_NEWIPC),
                N(CLONE_NEWUTS),  N(CLONE_NEWNET), N(CLONE_NEWCGROUP), N(SIGCHLD),
        };
        return flag_names(flags, names, sizeof names / sizeof names[0], buf, len);
}
#undef N

const char *trace_errno_name(int e, char *buf, size_t len)
{
        const char *name = strerrorname_np(e);
        if (name)
                return name;
        snprintf(buf, len, "errno %d", e);
        return buf;
}
