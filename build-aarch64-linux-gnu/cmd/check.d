build-aarch64-linux-gnu/cmd/check.o: cmd/check.c cmd/../runtime/check.h \
 cmd/../runtime/spec.h cmd/../runtime/error.h cmd/../runtime/cleanup.h \
 cmd/../runtime/plan.h cmd/../runtime/idmap.h cmd/../runtime/seccomp.h \
 cmd/../runtime/seccomp_profile.h cmd/../runtime/spec.h cmd/output.h \
 cmd/../runtime/error.h
cmd/../runtime/check.h:
cmd/../runtime/spec.h:
cmd/../runtime/error.h:
cmd/../runtime/cleanup.h:
cmd/../runtime/plan.h:
cmd/../runtime/idmap.h:
cmd/../runtime/seccomp.h:
cmd/../runtime/seccomp_profile.h:
cmd/../runtime/spec.h:
cmd/output.h:
cmd/../runtime/error.h:
