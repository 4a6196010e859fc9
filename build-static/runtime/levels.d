build-static/runtime/levels.o: runtime/levels.c runtime/levels.h \
 build-static/levels-data.h
runtime/levels.h:
build-static/levels-data.h:
