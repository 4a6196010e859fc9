build-aarch64-linux-gnu-static/cmd/output.o: cmd/output.c cmd/output.h \
 cmd/../runtime/error.h
cmd/output.h:
cmd/../runtime/error.h:
