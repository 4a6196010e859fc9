build-aarch64-linux-gnu/runtime/seccomp_profile.o: \
 runtime/seccomp_profile.c runtime/seccomp_profile.h runtime/error.h \
 runtime/cleanup.h runtime/words.h build-aarch64-linux-gnu/seccomp-data.h
runtime/seccomp_profile.h:
runtime/error.h:
runtime/cleanup.h:
runtime/words.h:
build-aarch64-linux-gnu/seccomp-data.h:
