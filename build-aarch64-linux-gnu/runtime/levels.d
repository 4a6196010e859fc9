build-aarch64-linux-gnu/runtime/levels.o: runtime/levels.c \
 runtime/levels.h build-aarch64-linux-gnu/levels-data.h
runtime/levels.h:
build-aarch64-linux-gnu/levels-data.h:
