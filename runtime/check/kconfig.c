/* kconfig.c - what the kernel config says about a feature, next to what the attempt found.
 *
 * The config is /proc/config.gz (CONFIG_IKCONFIG_PROC; a module, `configs`, on some kernels)
 * or /boot/config-RELEASE, read once with zlib (gzread reads plain files too). It only explains
 * an attempt: on a Raspberry Pi the config can say a feature is built while a sysctl or the boot
 * command line switches it off, and /proc/config.gz only exists after `modprobe configs`.
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "base/cleanup.h"

/* Read the config into kc, the first time a row asks. */
static void load_config(struct kconfig *kc)
{
        struct utsname u;
        char path[128];
        if (kc->loaded)
                return;
        kc->loaded = true;
        uname(&u);
        snprintf(path, sizeof path, "/boot/config-%s", u.release);
        const char *tries[] = {"/proc/config.gz", path};
        for (size_t i = 0; i < 2 && !kc->text; i++) {
                gzFile g = access(tries[i], R_OK) == 0 ? gzopen(tries[i], "rb") : NULL;
                if (!g)
                        continue;
                size_t cap = 1 << 20, n = 0;
                kc->text = malloc(cap + 1);
                int r;
                while (kc->text && n < cap &&
                       (r = gzread(g, kc->text + n, (unsigned)(cap - n))) > 0)
                        n += (size_t)r;
                gzclose(g);
                if (kc->text) {
                        kc->text[n] = '\0';
                        snprintf(kc->src, sizeof kc->src, "%s", tries[i]);
                }
        }
}

/* Whether the running kernel has a `configs` module (CONFIG_IKCONFIG=m), which makes
 * /proc/config.gz appear when loaded: Raspberry Pi OS's kernels do, Debian's rpi kernel not. */
static bool configs_module(void)
{
        struct utsname u;
        char path[192], line[512];
        if (uname(&u) < 0)
                return false;
        snprintf(path, sizeof path, "/lib/modules/%s/modules.dep", u.release);
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        while (f && fgets(line, sizeof line, f)) {
                char *colon = strchr(line, ':');
                if (colon)
                        *colon = '\0';
                const char *base = strrchr(line, '/');
                base = base ? base + 1 : line;
                if (!strncmp(base, "configs.ko", 10))
                        return true;
        }
        return false;
}

void kconfig_free(struct kconfig *kc)
{
        free(kc->text);
        *kc = (struct kconfig){0};
}

/* "CONFIG_X=y", "CONFIG_X is not set", or how to get a config; and which wins. */
void kconfig_set(struct kconfig *kc, struct check_row *r, const char *key, bool works)
{
        char line[96];
        load_config(kc);
        if (!kc->text) {
                snprintf(r->config, sizeof r->config,
                         "no kernel config here (/proc/config.gz, /boot/config-*)%s",
                         configs_module() ? "; 'sudo modprobe configs' makes /proc/config.gz "
                                            "appear"
                                          : "");
                return;
        }
        snprintf(line, sizeof line, "\n%s=", key);
        const char *at = strstr(kc->text, line);
        char val[8] = "";
        if (at)
                sscanf(at + strlen(line), "%7[^\n]", val);
        bool built = val[0] == 'y' || val[0] == 'm';
        snprintf(r->config, sizeof r->config, "%s%s%s%s", key, at ? "=" : " is not set",
                 at ? val : "",
                 built && !works   ? " (built, yet the attempt fails: the attempt wins)"
                 : !built && works ? " (the attempt works: it wins)"
                                   : "");
}

const char *kconfig_value(struct kconfig *kc, const char *key, char *buf, size_t len)
{
        char line[96];
        load_config(kc);
        if (!kc->text)
                return NULL;
        snprintf(line, sizeof line, "\n%s=", key);
        const char *at = strstr(kc->text, line);
        snprintf(buf, len, "%s", "is not set");
        if (at) {
                at += strlen(line);
                snprintf(buf, len, "%.*s", (int)strcspn(at, "\n"), at);
        }
        return kc->src;
}
