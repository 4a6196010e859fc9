/* ociexec.h - crib oci exec: a new process in a running container, as an engine asks for it
 * (ociexec.c), through crib exec's mechanism (runtime/launch/enter.c). */
#ifndef CRIB_OCIEXEC_H
#define CRIB_OCIEXEC_H

#include "launch/enter.h"
#include "base/error.h"
#include "ocistate.h"

struct ociexec {
        const char *id;
        /* --process FILE: its process.json, read by the OCI front end as config.json's
         * .process is; what it names replaces the options' fields of `rq` */
        const char *process;
        const char *pid_file;    /* the exec'd process's pid, for a detached exec, or NULL */
        const char *console;     /* the engine's console socket, for a terminal, or NULL */
        struct enter_request rq; /* what the command line's options ask for */
};

/* Run the process in container x->id, which must be running. The request is checked against
 * the container's plan (container_enter): an exec gets at most the workload's capabilities,
 * its AppArmor profile, its seccomp filter, and no_new_privs when the workload has it (a
 * process.json that says false does not lift it); anything beyond that is an error naming
 * what was asked. On success *ret_status is its wait status, or 0 for a detached exec once it
 * runs (left to the engine, a subreaper, as runc exec --detach does). */
int ociexec_run(const struct oci_runtime *rt, struct ociexec *x, int *ret_status,
                struct error *err);

#endif
