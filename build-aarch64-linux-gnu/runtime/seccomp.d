build-aarch64-linux-gnu/runtime/seccomp.o: runtime/seccomp.c \
 runtime/seccomp.h runtime/error.h runtime/seccomp_profile.h \
 runtime/bpf.h runtime/cleanup.h runtime/trace.h
runtime/seccomp.h:
runtime/error.h:
runtime/seccomp_profile.h:
runtime/bpf.h:
runtime/cleanup.h:
runtime/trace.h:
