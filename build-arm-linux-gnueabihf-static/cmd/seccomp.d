build-arm-linux-gnueabihf-static/cmd/seccomp.o: cmd/seccomp.c \
 cmd/../runtime/bpf.h cmd/../runtime/cleanup.h cmd/../runtime/seccomp.h \
 cmd/../runtime/error.h cmd/../runtime/seccomp_profile.h \
 cmd/../runtime/seccomp_profile.h cmd/../runtime/spec.h cmd/output.h \
 cmd/../runtime/error.h
cmd/../runtime/bpf.h:
cmd/../runtime/cleanup.h:
cmd/../runtime/seccomp.h:
cmd/../runtime/error.h:
cmd/../runtime/seccomp_profile.h:
cmd/../runtime/seccomp_profile.h:
cmd/../runtime/spec.h:
cmd/output.h:
cmd/../runtime/error.h:
