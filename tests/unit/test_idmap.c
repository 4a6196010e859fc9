/* Unit tests of id-map resolution (runtime/spec/idmap.c). */
#define _GNU_SOURCE
#include "host/account.h"
#include "spec/idmap.h"
#include "../lib/tap.h"

static struct spec load(const char *text)
{
        struct spec s;
        struct error err;
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        if (spec_load("t.ini", f, false, &s, &err) < 0) {
                printf("# spec failed: %s\n", err.msg);
                memset(&s, 0, sizeof s);
        }
        fclose(f);
        return s;
}

#define HEAD "[container]\nrootfs = r\n[process]\nargs = x\n"

int main(void)
{
        struct idmap_range sub[IDMAP_MAX_SUBIDS];
        size_t nsub;
        struct error err;
        struct idmap m;
        char buf[512];

        const char subuid[] = "# comment\nalice:100000:65536\n1001:300000:1000\nbob:200000:65536\n"
                              "alice:bad:line\n";
        FILE *f = fmemopen((void *)subuid, strlen(subuid), "r");
        ok(idmap_read_subids(f, "alice", 1001, sub, &nsub, &err) == 0, "reads /etc/subuid");
        fclose(f);
        ok(nsub == 2, "by name and by number, bad lines skipped (%zu)", nsub);
        ok(sub[0].outside == 100000 && sub[0].count == 65536, "first range");
        ok(sub[1].outside == 300000 && sub[1].count == 1000, "second range (numeric owner)");

        /* the host account that finds those lines, from passwd(5) without NSS */
        const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
                              "alice:x:1001:1001:Alice,,,:/home/alice:/bin/sh\n"
                              "bob:x:1002:1002::/srv/bob:/bin/sh\n";
        struct account a;
        f = fmemopen((void *)passwd, strlen(passwd), "r");
        ok(account_read(f, 1001, &a) && !strcmp(a.name, "alice") && !strcmp(a.home, "/home/alice"),
           "passwd: uid 1001 is alice, home /home/alice (%s, %s)", a.name, a.home);
        rewind(f);
        ok(!account_read(f, 1003, &a) && !a.name[0] && !a.home[0], "passwd: no line for uid 1003");
        fclose(f);

        struct spec s = load(HEAD);
        ok(idmap_resolve(&s, &s.uidmap, "uid", 1001, false, sub, nsub, &m, &err) == 0,
           "no [idmap]: default");
        idmap_format(&m, buf, sizeof buf);
        is_str(buf, "0 1001 1\n", "default maps the invoking uid to 0");
        ok(!m.use_helper, "default needs no helper");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 0, true, sub, nsub, &m, &err) == 0,
           "root, no [idmap]: default");
        idmap_format(&m, buf, sizeof buf);
        is_str(buf, "0 100000 65536\n", "root's default is its first range, never host root");
        ok(!idmap_maps_host_root(&m), "idmap_maps_host_root: no");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 0, true, sub, 0, &m, &err) < 0,
           "root without a range: an error, not host root");
        contains(err.hint, "usermod --add-subuids", "hint names usermod");
        spec_free(&s);

        const char subu[] = "alice:100000:65536\nbob:300000:1000\n";
        const char subg[] = "alice:100000:65536\ncarol:200000:65537\n";
        FILE *fu = fmemopen((void *)subu, strlen(subu), "r");
        FILE *fg = fmemopen((void *)subg, strlen(subg), "r");
        ok(idmap_free_start(fu, fg, 65536) == 327680,
           "a free range for root: above every range of both files, aligned");
        fclose(fu);
        fclose(fg);
        ok(idmap_free_start(NULL, NULL, 65536) == 131072, "empty files: from 100000, aligned");

        s = load(HEAD "[idmap]\nuid = auto\ngid = auto\n");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 1001, false, sub, nsub, &m, &err) == 0, "auto");
        idmap_format(&m, buf, sizeof buf);
        is_str(buf, "0 1001 1\n1 100000 65536\n65537 300000 1000\n",
               "auto: self then subuid ranges");
        ok(m.use_helper, "auto needs newuidmap when unprivileged");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 0, true, sub, nsub, &m, &err) == 0 && !m.use_helper,
           "root writes auto maps itself");
        idmap_format(&m, buf, sizeof buf);
        is_str(buf, "0 100000 65536\n", "root's auto: its first range from 0, not itself");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 1001, false, sub, 0, &m, &err) < 0,
           "auto without subuid ranges fails");
        is_str(err.msg,
               "t.ini:6: 'uid = auto' needs a range in /etc/subuid for uid 1001, and there is none",
               "message");
        contains(err.hint, "usermod --add-subuids", "hint names usermod");
        spec_free(&s);

        s = load(HEAD "[idmap]\nuid = 0 1001 1\nuid = 1 100000 10\ngid = 0 1001 1\n");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 1001, false, sub, nsub, &m, &err) == 0,
           "explicit ranges inside subuid");
        ok(m.use_helper, "more than one's own id needs the helper");
        ok(idmap_resolve(&s, &s.gidmap, "gid", 1001, false, sub, nsub, &m, &err) == 0 &&
                   !m.use_helper,
           "own gid only: written directly");
        ok(idmap_outside(&m, 0) == 1001 && idmap_outside(&m, 1) == -1, "idmap_outside");
        spec_free(&s);

        s = load(HEAD "[idmap]\nuid = 0 5000 10\ngid = 0 1001 1\n");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 1001, false, sub, nsub, &m, &err) < 0,
           "a range not granted fails");
        is_str(err.msg,
               "t.ini:6: uid range '0 5000 10' is not yours to map: uid 1001 may map itself and "
               "its "
               "/etc/subuid ranges (100000-165535, 300000-300999)",
               "message lists what may be mapped");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 0, true, sub, nsub, &m, &err) == 0,
           "root may map anything");
        spec_free(&s);
        s = load(HEAD "[idmap]\nuid = 0 0 65536\ngid = 0 0 65536\n");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 0, true, sub, nsub, &m, &err) == 0 &&
                   idmap_maps_host_root(&m),
           "a map of host root, asked for plainly: allowed, and seen (the plan warns)");
        spec_free(&s);

        s = load(HEAD "[idmap]\nuid = 0 165000 1000\ngid = 0 1001 1\n");
        ok(idmap_resolve(&s, &s.uidmap, "uid", 1001, false, sub, nsub, &m, &err) < 0,
           "a range running past the end of a subuid range fails");
        spec_free(&s);
        struct idmap_range own_r[IDMAP_MAX_SUBIDS];
        size_t nown;
        /* the ids mapped in crib's own user namespace (/proc/self/uid_map), as root of a
         * nested one may map them: the inside column */
        const char own[] = "         0       1001          1\n         1     196608      65536\n";
        f = fmemopen((void *)own, strlen(own), "r");
        ok(idmap_read_own(f, own_r, &nown, &err) == 0 && nown == 2 && own_r[0].outside == 0 &&
                   own_r[0].count == 1 && own_r[1].outside == 1 && own_r[1].count == 65536,
           "idmap_read_own: each line's inside column and count");
        fclose(f);
        const char bad[] = "0 1001\n";
        f = fmemopen((void *)bad, strlen(bad), "r");
        ok(idmap_read_own(f, own_r, &nown, &err) < 0, "idmap_read_own: a short line is an error");
        fclose(f);
        const char wraps[] = "4294967295 0 2\n";
        f = fmemopen((void *)wraps, strlen(wraps), "r");
        ok(idmap_read_own(f, own_r, &nown, &err) < 0,
           "idmap_read_own: a range past the last id is an error");
        fclose(f);

        return tap_done();
}
