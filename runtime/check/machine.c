/* machine.c - what `crib check --report` says about the machine before its features: the
 * kernel (uname(2), without the host name), the board (the device tree's model: a Raspberry
 * Pi names itself there), the distribution (/etc/os-release), the kernel command line
 * (/proc/cmdline) and the kernel config options crib's features depend on (kconfig.c); and the
 * scrubbing that keeps a report free of who made it: the caller's user name and home directory
 * (and, under sudo, the user's: SUDO_UID), every /home/NAME, the host's name and the values of
 * the command line's hostname=, serial=, macaddr= and ip= (a Raspberry Pi's firmware puts the
 * board's serial and MAC there) are replaced before anything is shown. Pure reading; no
 * attempt. */
#define _GNU_SOURCE
#include "check_private.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "host/account.h"

/* The config options behind check's rows, in the order of its table */
static const char *const config_keys[] = {
        "CONFIG_USER_NS",
        "CONFIG_NAMESPACES",
        "CONFIG_PID_NS",
        "CONFIG_IPC_NS",
        "CONFIG_UTS_NS",
        "CONFIG_NET_NS",
        "CONFIG_TIME_NS",
        "CONFIG_SECCOMP",
        "CONFIG_SECCOMP_FILTER",
        "CONFIG_SECURITY_APPARMOR",
        "CONFIG_SECURITY_LANDLOCK",
        "CONFIG_CGROUPS",
        "CONFIG_MEMCG",
        "CONFIG_CGROUP_PIDS",
        "CONFIG_CGROUP_SCHED",
        "CONFIG_OVERLAY_FS",
        "CONFIG_TUN",
        "CONFIG_IKCONFIG_PROC",
};

/* The first line of `path` (at most len - 1 bytes, NULs as spaces), or "" */
static void first_line(const char *path, char *buf, size_t len)
{
        buf[0] = '\0';
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        if (!f)
                return;
        size_t n = fread(buf, 1, len - 1, f);
        buf[n] = '\0';
        for (size_t i = 0; i < n; i++)
                if (buf[i] == '\0')
                        buf[i] = ' ';
        buf[strcspn(buf, "\n")] = '\0';
        while (n && buf[0] && isspace((unsigned char)buf[strlen(buf) - 1]))
                buf[strlen(buf) - 1] = '\0';
}

/* /etc/os-release's PRETTY_NAME, unquoted */
static void distribution(char *buf, size_t len)
{
        char line[256];
        snprintf(buf, len, "unknown (no /etc/os-release)");
        _cleanup_fclose_ FILE *f = fopen("/etc/os-release", "re");
        while (f && fgets(line, sizeof line, f)) {
                if (strncmp(line, "PRETTY_NAME=", 12))
                        continue;
                char *v = line + 12;
                v[strcspn(v, "\n")] = '\0';
                size_t n = strlen(v);
                if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0])
                        v[n - 1] = '\0', v++;
                snprintf(buf, len, "%.*s", (int)(len - 1), v);
                return;
        }
}

void check_machine(struct check_machine *m)
{
        struct utsname u;
        memset(m, 0, sizeof *m);
        if (uname(&u) == 0) {
                snprintf(m->release, sizeof m->release, "%s", u.release);
                snprintf(m->arch, sizeof m->arch, "%s", u.machine);
                snprintf(m->kernel, sizeof m->kernel, "%s %s %s %s", u.sysname, u.release,
                         u.version, u.machine);
        }
        first_line("/proc/device-tree/model", m->board, sizeof m->board);
        if (!m->board[0])
                first_line("/sys/firmware/devicetree/base/model", m->board, sizeof m->board);
        distribution(m->distribution, sizeof m->distribution);
        first_line("/proc/cmdline", m->cmdline, sizeof m->cmdline);
        struct kconfig kc = {0};
        for (size_t i = 0; i < sizeof config_keys / sizeof config_keys[0]; i++) {
                if (m->nconfig == CHECK_MACHINE_CONFIG)
                        break;
                const char *src = kconfig_value(&kc, config_keys[i], m->config[m->nconfig].value,
                                                sizeof m->config[m->nconfig].value);
                if (!src)
                        break;
                snprintf(m->config_source, sizeof m->config_source, "%s", src);
                snprintf(m->config[m->nconfig].key, sizeof m->config[m->nconfig].key, "%s",
                         config_keys[i]);
                m->nconfig++;
        }
        kconfig_free(&kc);
        check_scrub(m->cmdline, sizeof m->cmdline);
}

/* Whether text[i..i+n) stands as a word of its own (a user name: not inside another word) */
static bool word_at(const char *text, size_t i, size_t n)
{
        const char *word = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
        return (i == 0 || !strchr(word, text[i - 1])) &&
               (!text[i + n] || !strchr(word, text[i + n]));
}

/* Every `what` in text (as a word when `word`) replaced by `with`, within len */
static void replace_all(char *text, size_t len, const char *what, const char *with, bool word)
{
        size_t n = strlen(what), w = strlen(with);
        if (!n)
                return;
        for (size_t i = 0; text[i];) {
                if (strncmp(text + i, what, n) || (word && !word_at(text, i, n))) {
                        i++;
                        continue;
                }
                size_t tail = strlen(text + i + n);
                if (i + w + tail + 1 > len)
                        tail = len > i + w + 1 ? len - i - w - 1 : 0;
                if (i + w >= len)
                        break;
                memmove(text + i + w, text + i + n, tail);
                memcpy(text + i, with, w);
                text[i + w + tail] = '\0';
                i += w;
        }
}

/* /home/NAME (any NAME) as /home/USER */
static void scrub_homes(char *text)
{
        for (char *at = text; (at = strstr(at, "/home/"));) {
                at += 6;
                size_t n = strcspn(at, "/ \t\"',;:)");
                if (n == 0 || (n == 4 && !strncmp(at, "USER", 4)))
                        continue;
                memmove(at + 4, at + n, strlen(at + n) + 1);
                memcpy(at, "USER", 4);
        }
}

/* The value of every `key` (ending a word: "macaddr=" in "smsc95xx.macaddr=...") on a command
 * line, up to a space, as X: what names this machine rather than its kind */
static void scrub_values(char *text, const char *key)
{
        size_t k = strlen(key);
        for (char *at = text; (at = strstr(at, key));) {
                at += k;
                size_t n = strcspn(at, " \t\n");
                if (n == 0 || (n == 1 && *at == 'X'))
                        continue;
                memmove(at + 1, at + n, strlen(at + n) + 1);
                *at = 'X';
        }
}

void check_scrub(char *text, size_t len)
{
        struct account who[2] = {{.name = ""}, {.name = ""}};
        if (getuid() != 0)
                account_of(getuid(), &who[0]);
        const char *sudo = getenv("SUDO_UID"); /* root's report, run with sudo by a user */
        char *end;
        unsigned long uid = sudo ? strtoul(sudo, &end, 10) : 0;
        if (sudo && !*end && uid != 0)
                account_of((uid_t)uid, &who[1]);
        /* the homes: the accounts', and a user's $HOME where it is elsewhere (a test's, a
         * session's); the longest first, so that one inside another goes whole */
        const char *env = getuid() != 0 ? getenv("HOME") : NULL;
        const char *homes[3] = {env ? env : "", who[0].home, who[1].home};
        for (size_t round = 0; round < 3; round++) {
                size_t best = 0, at = 3;
                for (size_t i = 0; i < 3; i++)
                        if (strlen(homes[i]) > best)
                                best = strlen(homes[i]), at = i;
                if (at == 3 || best < 2) /* (a home of "/" is no one's) */
                        break;
                replace_all(text, len, homes[at], "~", false);
                homes[at] = "";
        }
        scrub_homes(text);
        for (size_t i = 0; i < 2; i++)
                if (strlen(who[i].name) > 1 && strcmp(who[i].name, "root"))
                        replace_all(text, len, who[i].name, "USER", true);
        /* the machine's own name (3 letters or more: "vm" is a word of the text too), wherever
         * it shows (a path, systemd.hostname=), and what a Raspberry Pi's firmware puts on the
         * command line: the board's serial, its MAC */
        char host[256] = "";
        if (gethostname(host, sizeof host - 1) == 0 && strlen(host) > 2 &&
            strcmp(host, "localhost"))
                replace_all(text, len, host, "HOST", true);
        const char *keys[] = {"hostname=", "serial=", "macaddr=", "mac_addr=", "ip="};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
                scrub_values(text, keys[i]);
}
