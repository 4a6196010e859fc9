build-arm-linux-gnueabihf-static/cmd/bench.o: cmd/bench.c \
 cmd/../runtime/cleanup.h cmd/../runtime/seccomp.h cmd/../runtime/error.h \
 cmd/../runtime/seccomp_profile.h cmd/../runtime/spec.h \
 cmd/../runtime/trace.h cmd/output.h cmd/../runtime/error.h
cmd/../runtime/cleanup.h:
cmd/../runtime/seccomp.h:
cmd/../runtime/error.h:
cmd/../runtime/seccomp_profile.h:
cmd/../runtime/spec.h:
cmd/../runtime/trace.h:
cmd/output.h:
cmd/../runtime/error.h:
