build-aarch64-linux-gnu-static/runtime/levels.o: runtime/levels.c \
 runtime/levels.h build-aarch64-linux-gnu-static/levels-data.h
runtime/levels.h:
build-aarch64-linux-gnu-static/levels-data.h:
