/* keys.h - inside the INI front end (private to runtime/spec/): what a key of the table is, and
 * the parsers the table names, one file per INI section.
 *
 *   keys.c        the key table (spec_keys[], by enum spec_key), origins
 *   load.c        levels applied, entries through the table, checks, unknown keys
 *   values.c      the generic parsers: string, path, yes/no, number, require/prefer
 *   process.c     [container] hostname, [process], [namespaces] mount
 *   idmap.c       [idmap]
 *   usermounts.c  [mounts]
 *   security.c    [security]
 *   limits.c      [limits], [resources]
 *   network.c     [network]
 *   service.c     [service]
 *
 * A parser reads one entry of the tokenized file (ini.h) into the spec; the generic ones write
 * the field at the key's offset. Every error about a value names the file, the line and the key.
 */
#ifndef CRIB_SPEC_KEYS_H
#define CRIB_SPEC_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/ini.h"
#include "spec.h"

struct key;
typedef int (*key_parser)(struct spec *s, const struct key *k, const struct ini_entry *e,
                          struct error *err);

enum { KEY_REPEAT = 1 }; /* may appear more than once */

struct key {
        const char *section;
        const char *name;
        key_parser parse;
        size_t offset; /* of the field in struct spec, for the generic parsers */
        unsigned flags;
};

#define FIELD(s, k, type) ((type *)((char *)(s) + (k)->offset))

/* Every error about a value names the file, the line and the key. */
#define bad_value(err, s, e, ...) error_at(err, (s)->path, (e)->line, __VA_ARGS__)

/* keys.c: the table, by enum spec_key, and the sections it knows */
extern const struct key spec_keys[];
extern const char *const spec_sections[];
extern const size_t spec_nsections;
#define NKEYS     SPEC_NKEYS
#define NSECTIONS spec_nsections

/* values.c */
int parse_string(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_abs_path(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
int parse_bool(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_mode(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
/* yes, true, on, 1 / no, false, off, 0; -1 for any other word */
int bool_word(const char *v, bool *ret);
/* A decimal number in [0, max]; the whole string must be the number. */
int parse_u32(const char *v, uint32_t max, uint32_t *ret);
/* An absolute path with no '..' component. */

/* process.c */
int parse_hostname(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
int parse_terminal(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
int parse_mount_ns(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
int parse_args(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_env(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_user(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_groups(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_umask(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_fds(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);

/* idmap.c */
int parse_idmap(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);

/* usermounts.c */
int parse_bind(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_tmpfs(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_cgroup_mount(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err);

/* security.c */
int parse_level(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_caps(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_paths(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_seccomp(struct spec *s, const struct key *k, const struct ini_entry *e,
                  struct error *err);
int parse_apparmor(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
void paths_clear(struct spec_paths *l);

/* limits.c */
int parse_limit(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_res_bytes(struct spec *s, const struct key *k, const struct ini_entry *e,
                    struct error *err);
int parse_cpus(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_weight(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_pids(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
int parse_cpuset(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);

/* network.c */
int parse_net_mode(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
int parse_publish(struct spec *s, const struct key *k, const struct ini_entry *e,
                  struct error *err);
int parse_dns(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);
/* service.c */
int parse_restart(struct spec *s, const struct key *k, const struct ini_entry *e,
                  struct error *err);
int parse_healthcheck(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err);
int parse_duration(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err);
int parse_retries(struct spec *s, const struct key *k, const struct ini_entry *e,
                  struct error *err);
int parse_on_unhealthy(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err);
int parse_notify(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err);

/* The network keys against each other and [namespaces] net, and against the capabilities. */
int validate_network(struct spec *s, struct error *err);

#endif
