build-arm-linux-gnueabihf-static/cmd/levels.o: cmd/levels.c \
 cmd/../runtime/spec.h cmd/../runtime/error.h cmd/output.h \
 cmd/../runtime/error.h
cmd/../runtime/spec.h:
cmd/../runtime/error.h:
cmd/output.h:
cmd/../runtime/error.h:
