/* tracesvg.c - crib run --trace=svg FILE: the container's start as a picture, for a class.
 *
 * The trace lines a run makes (the same as --trace prints) are collected here instead of
 * printed, each with the time crib received it, and drawn as one SVG file: a lane a process
 * (crib; the setup process, which stays as crib's init, pid 1 inside; the workload's process,
 * pid 2 inside; a network helper when there is one), each step a box on a shared time line, as
 * long as it took (the setup's steps measure themselves: "done in N us"), a skipped step a thin
 * grey mark, the namespaces the clone made beside the setup's lane, and below, for comparison,
 * the time `unshare -Urmpf --mount-proc true` takes here (the kernel's work for the same
 * namespaces, nothing of crib's). Hovering a box shows its lines of the trace.
 *
 * Every text that reaches the file is escaped for XML (&, <, >, " and '), and control
 * characters are dropped: a trace line can quote a path of the spec's. */
#define _GNU_SOURCE
#include "tracesvg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/trace.h"

#define SVG_MAX_STEPS 96
#define SVG_LANES     4

enum lane { LANE_CRIB, LANE_SETUP, LANE_WORKLOAD, LANE_HELPER };

struct svg_step {
        enum lane lane;
        char name[96];
        uint64_t start, us; /* received at, microseconds since the first line; its length */
        bool skipped, measured;
        char lines[640]; /* its trace lines, for the hover text */
};

struct svg_trace {
        uint64_t t0, end;
        struct svg_step steps[SVG_MAX_STEPS];
        size_t n;
        char clone[256]; /* the clone flags of the setup's clone */
        bool helper;
};

static struct svg_trace collected;

/* A line of the trace: a step starts, one ends, or more of the current step */
void tracesvg_line(void *ctx, const char *line)
{
        (void)ctx;
        struct svg_trace *s = &collected;
        uint64_t now = trace_now_us();
        if (!s->t0)
                s->t0 = now;
        now -= s->t0;
        s->end = now;
        unsigned a, b;
        char name[96] = "";
        int pid = 0;
        bool parent = sscanf(line, "parent: step %u/%u %95[^\n]", &a, &b, name) == 3;
        bool child = !parent && sscanf(line, "step %u/%u %95[^(](pid %d)", &a, &b, name, &pid) == 4;
        if ((parent || child) && s->n < SVG_MAX_STEPS) {
                struct svg_step *st = &s->steps[s->n++];
                size_t len = strlen(name);
                while (len && name[len - 1] == ' ')
                        name[--len] = '\0';
                snprintf(st->name, sizeof st->name, "%u. %s", a, name + strspn(name, " "));
                st->lane = parent ? LANE_CRIB : pid == 1 ? LANE_SETUP : LANE_WORKLOAD;
                st->start = now;
                return;
        }
        const char *clone = strstr(line, "clone(CLONE_NEW");
        if (clone && !s->clone[0])
                snprintf(s->clone, sizeof s->clone, "%.*s", (int)strcspn(clone + 6, ")"),
                         clone + 6);
        if (!s->n)
                return;
        struct svg_step *st = &s->steps[s->n - 1];
        if (strstr(st->name, "start the network helper") && strncmp(line, "  skipped:", 10))
                s->helper = true;
        unsigned long long us;
        if (sscanf(line, "  done in %llu us", &us) == 1)
                st->us = us, st->measured = true;
        else if (!strncmp(line, "  skipped:", 10))
                st->skipped = true;
        size_t used = strlen(st->lines);
        snprintf(st->lines + used, sizeof st->lines - used, "%s%s", used ? "\n" : "", line);
}

/* `s` as XML text: & < > " ' escaped, control characters but the newline dropped */
static void xml(FILE *f, const char *s)
{
        for (; *s; s++) {
                switch (*s) {
                case '&':
                        fputs("&amp;", f);
                        break;
                case '<':
                        fputs("&lt;", f);
                        break;
                case '>':
                        fputs("&gt;", f);
                        break;
                case '"':
                        fputs("&quot;", f);
                        break;
                case '\'':
                        fputs("&apos;", f);
                        break;
                default:
                        if ((unsigned char)*s >= 0x20 || *s == '\n')
                                fputc(*s, f);
                }
        }
}

/* The length of each step: measured inside, or until the next step of its lane (crib's own),
 * or of anyone's (the last of a lane), or the end. The container's steps run one after the
 * other, across its two processes: each starts when crib heard of it, or when the one before
 * ended, whichever is later (their lines arrive in bursts) */
static void lengths(struct svg_trace *s)
{
        uint64_t prev_end = 0;
        for (size_t i = 0; i < s->n; i++) {
                struct svg_step *st = &s->steps[i];
                if (st->lane != LANE_CRIB) {
                        if (st->start < prev_end)
                                st->start = prev_end;
                        if (st->measured)
                                prev_end = st->start + st->us;
                }
                if (st->measured)
                        continue;
                if (st->skipped && st->lane != LANE_CRIB) {
                        st->us = 0; /* it did nothing: a mark, not the wait for the next line */
                        continue;
                }
                uint64_t next = s->end;
                for (size_t j = i + 1; j < s->n; j++)
                        if (s->steps[j].lane == st->lane || st->lane != LANE_CRIB) {
                                next = s->steps[j].start;
                                break;
                        }
                st->us = next > st->start ? next - st->start : 0;
        }
}

/* The wall time of `unshare -Urmpf --mount-proc true` here, in microseconds; 0 when it cannot
 * be run */
static uint64_t unshare_us(void)
{
        if (access("/usr/bin/unshare", X_OK) < 0)
                return 0;
        uint64_t t0 = trace_now_us();
        pid_t pid = fork();
        if (pid == 0) {
                int null = open("/dev/null", O_RDWR);
                dup2(null, 1), dup2(null, 2);
                execl("/usr/bin/unshare", "unshare", "-Urmpf", "--mount-proc", "true", NULL);
                _exit(127);
        }
        int st = 0;
        while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
        return pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? trace_now_us() - t0 : 0;
}

static const char *const lane_names[SVG_LANES] = {
        "crib (the parent)", "setup, then crib's init (pid 1 inside)",
        "workload's process (pid 2 inside)", "network helper"};

static void draw_steps(FILE *f, const struct svg_trace *s, double scale)
{
        for (size_t i = 0; i < s->n; i++) {
                const struct svg_step *st = &s->steps[i];
                double x = 260 + (double)st->start * scale, w = (double)st->us * scale;
                int y = 60 + (int)st->lane * 70 + (int)(i % 2) * 14;
                if (w < 1.5)
                        w = 1.5;
                fprintf(f, "<g class=\"step\"><title>");
                xml(f, st->name);
                fprintf(f, " (%llu us%s)\n", (unsigned long long)st->us,
                        st->skipped ? ", skipped" : "");
                xml(f, st->lines);
                fprintf(f,
                        "</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" "
                        "fill=\"%s\"/>",
                        x, y, w,
                        st->skipped             ? "#ccc"
                        : st->lane == LANE_CRIB ? "#4a7"
                                                : "#47a");
                if (w > 60) {
                        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#fff\">",
                                x + 2, y + 10);
                        xml(f, st->name);
                        fprintf(f, "</text>");
                }
                fprintf(f, "</g>\n");
        }
}

int tracesvg_check(const char *path, struct error *err)
{
        struct stat st;
        if (lstat(path, &st) < 0 || S_ISREG(st.st_mode))
                return 0;
        error_set(err, 0,
                  "'%s' is not a regular file: --trace=svg writes a picture of its own "
                  "there, never through a link or to a device",
                  path);
        return error_hint(err, "name a new file, or remove '%s' first", path);
}

int tracesvg_write(const char *path, int status, struct error *err)
{
        if (tracesvg_check(path, err) < 0)
                return -1;
        struct svg_trace *s = &collected;
        lengths(s);
        uint64_t unshare = unshare_us();
        uint64_t span = s->end > unshare ? s->end : unshare;
        double scale = 700.0 / (double)(span ? span : 1);
        /* as crib writes an engine's pid file: a file of its own beside PATH (O_EXCL, never
         * through a symbolic link), then renamed over PATH, so that a hard link another user
         * planted there loses its name, not its file. fopen(3) followed a symbolic link planted
         * at PATH in a shared directory and wrote the caller's file, root's too */
        char tmp[4200];
        int n = snprintf(tmp, sizeof tmp, "%s.crib-%d", path, (int)getpid());
        if (n < 0 || (size_t)n >= sizeof tmp)
                return error_set(err, ENAMETOOLONG, "the picture '%s'", path);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
        if (!f) {
                int e = errno;
                if (fd >= 0)
                        close(fd), unlink(tmp);
                return error_set(err, e, "cannot write the picture '%s'", path);
        }
        fprintf(f,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"420\" "
                "font-family=\"sans-serif\" font-size=\"12\">\n"
                "<title>crib run: the container's start, step by step</title>\n"
                "<rect width=\"1000\" height=\"420\" fill=\"#fff\"/>\n"
                "<text x=\"10\" y=\"24\" font-size=\"16\">crib run: %zu steps in %.1f ms, "
                "exit status %d</text>\n",
                s->n, (double)s->end / 1000.0, status);
        for (int l = 0; l < SVG_LANES; l++) {
                if (l == LANE_HELPER && !s->helper)
                        continue;
                fprintf(f, "<text class=\"lane\" x=\"10\" y=\"%d\">%s</text>\n", 72 + l * 70,
                        lane_names[l]);
        }
        if (s->clone[0]) {
                fprintf(f, "<text x=\"10\" y=\"42\" font-size=\"10\">the setup process was "
                           "cloned with ");
                xml(f, s->clone);
                fprintf(f, "</text>\n");
        }
        draw_steps(f, s, scale);
        int y = 60 + SVG_LANES * 70 + 10;
        fprintf(f, "<line x1=\"260\" y1=\"%d\" x2=\"960\" y2=\"%d\" stroke=\"#888\"/>\n", y, y);
        fprintf(f,
                "<text x=\"260\" y=\"%d\" font-size=\"10\">0</text><text x=\"900\" y=\"%d\" "
                "font-size=\"10\">%.1f ms</text>\n",
                y + 14, y + 14, (double)span / 1000.0);
        if (unshare)
                fprintf(f,
                        "<g class=\"compare\"><text x=\"10\" y=\"%d\">unshare -Urmpf "
                        "--mount-proc true</text><rect x=\"260\" y=\"%d\" width=\"%.1f\" "
                        "height=\"12\" fill=\"#a74\"/><text x=\"%.1f\" y=\"%d\" "
                        "font-size=\"10\">%.1f ms</text></g>\n",
                        y + 36, y + 26, (double)unshare * scale, 266 + (double)unshare * scale,
                        y + 36, (double)unshare / 1000.0);
        fprintf(f, "</svg>\n");
        if (fclose(f) != 0 || rename(tmp, path) < 0) {
                int e = errno;
                unlink(tmp);
                return error_set(err, e, "cannot write the picture '%s'", path);
        }
        return 0;
}
