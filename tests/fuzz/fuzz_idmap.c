/* fuzz_idmap - libFuzzer target: id-map parsing (runtime/spec/idmap.c).
 *
 * The input is a subuid(5) file, a NUL byte, and a crib.ini(5) spec (no NUL: the whole input is
 * the spec, with a fixed subuid file). The subordinate ranges are read for user "alice" (uid
 * 1001), then the spec's uid and gid maps are resolved the way plan.c does, unprivileged and as
 * root, formatted as the kernel's uid_map text, and looked up. Nothing may crash or leak, and a
 * resolved map must fit the kernel's limits: the checks below abort when it does not.
 * Seeds: tests/data/invalid/idmap-*.ini and cmd/example.ini behind a sample subuid file.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/idmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char default_subuid[] = "alice:100000:65536\n1001:300000:1000\n";

static void resolve(const struct spec *s, const struct spec_idmap *m, const char *kind, uint32_t id,
                    bool privileged, const struct idmap_range *sub, size_t nsub)
{
        struct idmap map;
        struct error err;
        char buf[SPEC_MAX_RANGES * 40 + 64];
        if (idmap_resolve(s, m, kind, id, privileged, sub, nsub, &map, &err) < 0)
                return;
        if (map.n == 0 || map.n > SPEC_MAX_RANGES + 1)
                abort();
        uint64_t total = 0;
        for (size_t i = 0; i < map.n; i++) {
                /* the kernel refuses a zero count or a range past 2^32-1 */
                if (map.r[i].count == 0 ||
                    (uint64_t)map.r[i].inside + map.r[i].count > UINT32_MAX + 1ULL ||
                    (uint64_t)map.r[i].outside + map.r[i].count > UINT32_MAX + 1ULL)
                        abort();
                total += map.r[i].count;
        }
        idmap_format(&map, buf, sizeof buf);
        (void)idmap_outside(&map, 0);
        (void)idmap_outside(&map, id);
        (void)idmap_outside(&map, (uint32_t)total);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const uint8_t *nul = memchr(data, 0, size);
        const char *subtext = default_subuid;
        size_t sublen = sizeof default_subuid - 1;
        const uint8_t *spec = data;
        size_t speclen = size;
        if (nul) {
                subtext = (const char *)data;
                sublen = (size_t)(nul - data);
                spec = nul + 1;
                speclen = size - sublen - 1;
        }

        struct idmap_range sub[IDMAP_MAX_SUBIDS];
        size_t nsub = 0;
        struct error err;
        if (sublen) {
                FILE *f = fmemopen((void *)subtext, sublen, "r");
                if (!f)
                        return 0;
                int r = idmap_read_subids(f, "alice", 1001, sub, &nsub, &err);
                fclose(f);
                if (r < 0 || nsub > IDMAP_MAX_SUBIDS)
                        abort(); /* reading memory cannot fail, and the count is bounded */
                for (size_t i = 0; i < nsub; i++)
                        if (sub[i].count == 0 ||
                            (uint64_t)sub[i].outside + sub[i].count > UINT32_MAX)
                                abort(); /* such lines are skipped, as newuidmap does */
        }
        if (speclen == 0)
                return 0;

        struct spec s;
        FILE *f = fmemopen((void *)spec, speclen, "r");
        if (!f)
                return 0;
        int r = spec_load("fuzz.ini", f, true, &s, &err);
        fclose(f);
        if (r < 0)
                return 0;
        resolve(&s, &s.uidmap, "uid", 1001, false, sub, nsub);
        resolve(&s, &s.gidmap, "gid", 1001, false, sub, nsub);
        resolve(&s, &s.uidmap, "uid", 0, true, sub, nsub);
        resolve(&s, &s.gidmap, "gid", 0, true, sub, nsub);
        spec_free(&s);
        return 0;
}
