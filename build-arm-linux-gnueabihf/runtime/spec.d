build-arm-linux-gnueabihf/runtime/spec.o: runtime/spec.c runtime/spec.h \
 runtime/error.h runtime/cleanup.h runtime/ini.h runtime/levels.h \
 runtime/seccomp_profile.h runtime/words.h
runtime/spec.h:
runtime/error.h:
runtime/cleanup.h:
runtime/ini.h:
runtime/levels.h:
runtime/seccomp_profile.h:
runtime/words.h:
