/* capname.c - see capname.h. */
#include "capname.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/capability.h>

int capname_parse(const char *word)
{
        char name[64];
        if (!strncasecmp(word, "CAP_", 4))
                word += 4;
        if (!isalpha((unsigned char)*word) || strlen(word) > 40)
                return -1;
        snprintf(name, sizeof name, "cap_%s", word);
        for (char *p = name; *p; p++)
                *p = (char)tolower((unsigned char)*p);
        cap_value_t v;
        if (cap_from_name(name, &v) < 0 || v < 0 || v > 63)
                return -1;
        return (int)v;
}

const char *capname_of(int cap)
{
        static char names[64][32];
        if (cap < 0 || cap >= 64)
                return NULL;
        if (!names[cap][0]) {
                char *n = cap_to_name((cap_value_t)cap);
                if (!n)
                        return NULL;
                const char *src = strncmp(n, "cap_", 4) ? n : n + 4;
                size_t i = 0;
                for (; src[i] && i < sizeof names[cap] - 1; i++)
                        names[cap][i] = (char)toupper((unsigned char)src[i]);
                names[cap][i] = '\0';
                cap_free(n);
        }
        return names[cap];
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
