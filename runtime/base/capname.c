/* capname.c - see capname.h.
 *
 * The names are capabilities(7)'s, in a table of crib's own: libcap's cap_from_name() did the
 * same lookup, but linking libcap also runs its constructor at every start of crib (a binary
 * search of the bounding set with prctl(2), before main), and nothing else of libcap is used. */
#include "capname.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* capabilities(7), by number (linux/capability.h); a number without a name here is one this
 * table is older than, named by its number */
static const char *const cap_names[] = {
        "CHOWN",              /* 0 */
        "DAC_OVERRIDE",       /* 1 */
        "DAC_READ_SEARCH",    /* 2 */
        "FOWNER",             /* 3 */
        "FSETID",             /* 4 */
        "KILL",               /* 5 */
        "SETGID",             /* 6 */
        "SETUID",             /* 7 */
        "SETPCAP",            /* 8 */
        "LINUX_IMMUTABLE",    /* 9 */
        "NET_BIND_SERVICE",   /* 10 */
        "NET_BROADCAST",      /* 11 */
        "NET_ADMIN",          /* 12 */
        "NET_RAW",            /* 13 */
        "IPC_LOCK",           /* 14 */
        "IPC_OWNER",          /* 15 */
        "SYS_MODULE",         /* 16 */
        "SYS_RAWIO",          /* 17 */
        "SYS_CHROOT",         /* 18 */
        "SYS_PTRACE",         /* 19 */
        "SYS_PACCT",          /* 20 */
        "SYS_ADMIN",          /* 21 */
        "SYS_BOOT",           /* 22 */
        "SYS_NICE",           /* 23 */
        "SYS_RESOURCE",       /* 24 */
        "SYS_TIME",           /* 25 */
        "SYS_TTY_CONFIG",     /* 26 */
        "MKNOD",              /* 27 */
        "LEASE",              /* 28 */
        "AUDIT_WRITE",        /* 29 */
        "AUDIT_CONTROL",      /* 30 */
        "SETFCAP",            /* 31 */
        "MAC_OVERRIDE",       /* 32 */
        "MAC_ADMIN",          /* 33 */
        "SYSLOG",             /* 34 */
        "WAKE_ALARM",         /* 35 */
        "BLOCK_SUSPEND",      /* 36 */
        "AUDIT_READ",         /* 37 */
        "PERFMON",            /* 38 */
        "BPF",                /* 39 */
        "CHECKPOINT_RESTORE", /* 40 */
};
#define N_CAP_NAMES (int)(sizeof cap_names / sizeof cap_names[0])

int capname_parse(const char *word)
{
        if (!strncasecmp(word, "CAP_", 4))
                word += 4;
        if (!isalpha((unsigned char)*word) || strlen(word) > 40)
                return -1;
        /* the first letter first: a level's list is 14 names, looked up at every start */
        int first = toupper((unsigned char)*word);
        for (int cap = 0; cap < N_CAP_NAMES; cap++)
                if (cap_names[cap][0] == first && !strcasecmp(word, cap_names[cap]))
                        return cap;
        return -1;
}

const char *capname_of(int cap)
{
        static char numbers[64][4];
        if (cap < 0 || cap >= 64)
                return NULL;
        if (cap < N_CAP_NAMES)
                return cap_names[cap];
        if (!numbers[cap][0])
                snprintf(numbers[cap], sizeof numbers[cap], "%d", cap);
        return numbers[cap];
}

void capname_list(uint64_t caps, const char *sep, char *buf, size_t len)
{
        size_t used = 0;
        buf[0] = '\0';
        for (int c = 0; c < 64; c++) {
                if (!(caps & (1ULL << c)))
                        continue;
                const char *n = capname_of(c);
                int w = snprintf(buf + used, len - used, "%s%s", used ? sep : "", n ? n : "?");
                if (w < 0 || (size_t)w >= len - used) {
                        buf[used] = '\0';
                        break;
                }
                used += (size_t)w;
        }
        if (!used)
                snprintf(buf, len, "none");
}
