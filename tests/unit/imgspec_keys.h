/* imgspec_keys.h - the keys an image's crib.ini may hold (runtime/image/imgspec.c writes
 * them): what the unit test and the fuzz target of the importer hold its output to. A key not
 * here in what an image's config made is an injection. */
#ifndef CRIB_TESTS_IMGSPEC_KEYS_H
#define CRIB_TESTS_IMGSPEC_KEYS_H

static const char *const imgspec_allowed_keys[][2] = {
        {"container", "rootfs"},
        {"process", "args"},
        {"process", "env"},
        {"process", "cwd"},
        {"process", "user"},
        {"namespaces", "net"},
        {"idmap", "uid"},
        {"idmap", "gid"},
        {"service", "healthcheck"},
        {"service", "healthcheck_interval"},
        {"service", "healthcheck_timeout"},
        {"service", "healthcheck_start_period"},
        {"service", "healthcheck_retries"},
};

#endif
