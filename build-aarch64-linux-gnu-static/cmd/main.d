build-aarch64-linux-gnu-static/cmd/main.o: cmd/main.c \
 cmd/../runtime/cleanup.h cmd/../runtime/container.h \
 cmd/../runtime/error.h cmd/../runtime/plan.h cmd/../runtime/idmap.h \
 cmd/../runtime/spec.h cmd/../runtime/seccomp.h \
 cmd/../runtime/seccomp_profile.h cmd/../runtime/plan.h \
 cmd/../runtime/spec.h cmd/../runtime/trace.h cmd/output.h \
 cmd/../runtime/error.h build-aarch64-linux-gnu-static/example.h
cmd/../runtime/cleanup.h:
cmd/../runtime/container.h:
cmd/../runtime/error.h:
cmd/../runtime/plan.h:
cmd/../runtime/idmap.h:
cmd/../runtime/spec.h:
cmd/../runtime/seccomp.h:
cmd/../runtime/seccomp_profile.h:
cmd/../runtime/plan.h:
cmd/../runtime/spec.h:
cmd/../runtime/trace.h:
cmd/output.h:
cmd/../runtime/error.h:
build-aarch64-linux-gnu-static/example.h:
