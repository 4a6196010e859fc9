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

#include "cleanup.h"

static char *config;
static char config_src[128];

static void load_config(void)
{
        struct utsname u;
        char path[128];
        static bool done;
        if (done)
                return;
        done = true;
        uname(&u);
        snprintf(path, sizeof path, "/boot/config-%s", u.release);
        const char *tries[] = {"/proc/config.gz", path};
        for (size_t i = 0; i < 2 && !config; i++) {
                gzFile g = access(tries[i], R_OK) == 0 ? gzopen(tries[i], "rb") : NULL;
                if (!g)
                        continue;
                size_t cap = 1 << 20, n = 0;
                config = malloc(cap + 1);
                int r;
                while (config && n < cap && (r = gzread(g, config + n, (unsigned)(cap - n))) > 0)
                        n += (size_t)r;
                gzclose(g);
                if (config) {
                        config[n] = '\0';
                        snprintf(config_src, sizeof config_src, "%s", tries[i]);
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

/* "CONFIG_X=y", "CONFIG_X is not set", or how to get a config; and which wins. */
void set_config(struct check_row *r, const char *key, bool works)
{
        char line[96];
        load_config();
        if (!config) {
                snprintf(r->config, sizeof r->config,
                         "no kernel config here (/proc/config.gz, /boot/config-*)%s",
                         configs_module() ? "; 'sudo modprobe configs' makes /proc/config.gz "
                                            "appear"
                                          : "");
                return;
        }
        snprintf(line, sizeof line, "\n%s=", key);
        const char *at = strstr(config, line);
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
