/* test_imgstore.c - runtime/image/imgstore.c, the image store's reading side, on a store the
 * test writes by hand as docs/store.md lays it out: where ROOT is, ROOT refused when others can
 * reach or change it, names and their escaped files, short names completed, ids and unique id
 * prefixes found, every image listed, an image.json that is not crib's refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "image/imgstore.h"

#define HEX1 "1111111111111111111111111111111111111111111111111111111111111111"
#define HEX2 "1111222222222222222222222222222222222222222222222222222222222222"
#define DIFF "abababababababababababababababababababababababababababababababab"

static char dir[64];

static void put(const char *path, const char *text)
{
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, path);
        FILE *f = fopen(p, "w");
        fputs(text, f);
        fclose(f);
}

static void mk(const char *path)
{
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, path);
        mkdir(p, 0700);
}

static void test_root_path(void)
{
        char buf[256];
        struct error err;
        struct store_env e = {.crib_store = "/x/s", .home = "/home/u", .euid = 1000};
        store_root_path(&e, buf, sizeof buf, &err);
        is_str(buf, "/x/s", "CRIB_STORE wins");
        e.crib_store = NULL;
        store_root_path(&e, buf, sizeof buf, &err);
        is_str(buf, "/home/u/.local/share/crib", "a user without XDG_DATA_HOME: HOME's");
        e.xdg_data_home = "/d";
        store_root_path(&e, buf, sizeof buf, &err);
        is_str(buf, "/d/crib", "XDG_DATA_HOME");
        e.euid = 0;
        store_root_path(&e, buf, sizeof buf, &err);
        is_str(buf, "/var/lib/crib", "root: /var/lib/crib");
        e = (struct store_env){.xdg_data_home = "rel", .euid = 1};
        ok(store_root_path(&e, buf, sizeof buf, &err) < 0, "no absolute place: refused");
        contains(err.hint, "CRIB_STORE", "the hint names CRIB_STORE");
}

static void test_names(void)
{
        char buf[300];
        struct error err;
        store_name_complete("busybox", buf, sizeof buf, &err);
        is_str(buf, "docker.io/library/busybox:latest", "a short name");
        store_name_complete("me/app:1", buf, sizeof buf, &err);
        is_str(buf, "docker.io/me/app:1", "a user's repository with a tag");
        store_name_complete("localhost:5000/a/b", buf, sizeof buf, &err);
        is_str(buf, "localhost:5000/a/b:latest", "a registry with a port");
        store_name_complete("ghcr.io/x/y@sha256:" DIFF, buf, sizeof buf, &err);
        is_str(buf, "ghcr.io/x/y@sha256:" DIFF, "a digest gets no tag");
        store_name_file("docker.io/library/busybox:latest", buf, sizeof buf, &err);
        is_str(buf, "docker.io+library+busybox:latest", "'/' written as '+'");
        const char *bad[] = {"../x", "a/../b", "/a", "a/", "a+b", "a b", "a\nb", ".x", "a//b", ""};
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
                ok(!store_name_ok(bad[i]) && store_name_file(bad[i], buf, sizeof buf, &err) < 0,
                   "name %zu refused", i);
        ok(store_id_ok("sha256:" HEX1), "an id");
        ok(!store_id_ok("sha256:" HEX1 "1") && !store_id_ok("sha512:" HEX1) &&
                   !store_id_ok("sha256:ABAB" HEX1 + 4),
           "not ids");
}

static void make_store(void)
{
        snprintf(dir, sizeof dir, "/tmp/test_imgstore.XXXXXX");
        if (!mkdtemp(dir))
                exit(1);
        mk("images");
        mk("names");
        mk("images/" HEX1);
        mk("images/" HEX2);
        mk("images/not-an-id");
        put("images/" HEX1 "/image.json",
            "{\"id\":\"sha256:" HEX1 "\",\"manifest\":\"\",\"platform\":\"linux/amd64\","
            "\"layers\":[\"sha256:" DIFF "\"],\"names\":[\"docker.io/library/busybox:latest\"],"
            "\"created\":1700000000,\"size\":12345}");
        put("images/" HEX1 "/crib.ini", "[process]\ncommand = sh\n");
        put("images/" HEX2 "/image.json",
            "{\"id\":\"sha256:" HEX2 "\",\"layers\":[\"../../etc\"],\"names\":[]}");
        put("names/docker.io+library+busybox:latest", "sha256:" HEX1 "\n");
        put("names/ghcr.io+x+broken:1", "sha256:../../etc/passwd\n");
}

static int count(void *ctx, const struct store_image *img)
{
        (void)img;
        ++*(int *)ctx;
        return 0;
}

static void test_find(void)
{
        struct error err;
        struct store_image *img = calloc(1, sizeof *img);
        int root = store_open_root(dir, false, &err);
        ok(root >= 0, "the store opens: %s", root < 0 ? err.msg : "");
        ok(store_find_image(root, "busybox", img, &err) == 0, "a short name is found");
        is_str(img->id, "sha256:" HEX1, "its id");
        ok(img->nlayers == 1 && img->size == 12345 && img->created == 1700000000,
           "its layers, size, date");
        is_str(img->names[0], "docker.io/library/busybox:latest", "its name");
        ok(store_find_image(root, "docker.io/library/busybox:latest", img, &err) == 0,
           "the full name");
        ok(store_find_image(root, "sha256:" HEX1, img, &err) == 0, "the full id");
        ok(store_find_image(root, "11111", img, &err) == 0, "a unique prefix of the id");
        ok(store_find_image(root, "111", img, &err) < 0 && err.errnum == ENOENT,
           "three digits are not enough");
        ok(store_find_image(root, "1111", img, &err) < 0 && strstr(err.msg, "2 images"),
           "an ambiguous prefix refused: %s", err.msg);
        ok(store_find_image(root, "11112", img, &err) < 0 && strstr(err.msg, "not what crib"),
           "an image.json with a layer that is not a digest refused: %s", err.msg);
        ok(store_find_image(root, "alpine", img, &err) < 0 && err.errnum == ENOENT,
           "a missing image: ENOENT");
        contains(err.hint, "crib pull alpine", "the hint says what to pull");
        ok(store_find_image(root, "ghcr.io/x/broken:1", img, &err) < 0,
           "a name file that is not an id refused");
        /* what crib run takes: the image without its names, into a struct that held another
         * (nothing is cleared but what the image fills) */
        memset(img, 0x5a, sizeof *img);
        ok(store_find_image_bare(root, "busybox", img, &err) == 0, "found without its names");
        is_str(img->id, "sha256:" HEX1, "its id");
        is_str(img->layers[0], "sha256:" DIFF, "its layer");
        ok(img->nlayers == 1 && img->nnames == 0 && img->size == 12345 &&
                   !strcmp(img->manifest, "") && !strcmp(img->platform, "linux/amd64"),
           "its fields, and no names");
        ok(store_find_image_bare(root, "11112", img, &err) < 0 && strstr(err.msg, "not what crib"),
           "the same checks: %s", err.msg);
        ok(store_find_image_bare(root, "alpine", img, &err) < 0 && err.errnum == ENOENT,
           "the same errors");
        int fd = store_open_spec(root, (store_find_image(root, "busybox", img, &err), img), &err);
        char buf[64] = "";
        ok(fd >= 0 && read(fd, buf, sizeof buf - 1) > 0 && strstr(buf, "command = sh"),
           "its spec opens");
        close(fd);
        int n = 0;
        ok(store_each_image(root, count, &n, &err) < 0, "listing stops at the broken image");
        char p[512];
        snprintf(p, sizeof p, "%s/images/" HEX2 "/image.json", dir);
        unlink(p);
        snprintf(p, sizeof p, "%s/images/" HEX2, dir);
        rmdir(p);
        n = 0;
        ok(store_each_image(root, count, &n, &err) == 0 && n == 1, "one image listed (%d)", n);
        close(root);
        free(img);
}

static void test_open(void)
{
        struct error err;
        char sub[128];
        snprintf(sub, sizeof sub, "%s/new/store", dir);
        ok(store_open_root(sub, false, &err) < 0 && err.errnum == ENOENT,
           "a missing store: ENOENT");
        int fd = store_open_root(sub, true, &err);
        struct stat st;
        ok(fd >= 0 && stat(sub, &st) == 0 && (st.st_mode & 07777) == 0700,
           "made 0700 with its parents: %s", fd < 0 ? err.msg : "");
        close(fd);
        chmod(sub, 0755);
        chmod(dir, 0755);
        ok(store_open_root(sub, false, &err) < 0 && strstr(err.msg, "other users can reach"),
           "a store others can reach is refused: %s", err.msg);
        chmod(sub, 0770);
        ok(store_open_root(sub, false, &err) < 0, "one its group can write is refused");
        chmod(sub, 0700);
        chmod(dir, 0700);
        snprintf(sub, sizeof sub, "%s/open", dir);
        mkdir(sub, 0777);
        chmod(sub, 0777);
        snprintf(sub, sizeof sub, "%s/open/store", dir);
        ok(store_open_root(sub, true, &err) < 0 && strstr(err.msg, "other users may write"),
           "a store below a directory others may write is refused: %s", err.msg);
}

int main(void)
{
        test_root_path();
        test_names();
        make_store();
        test_find();
        test_open();
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
                return 1;
        return tap_done();
}
