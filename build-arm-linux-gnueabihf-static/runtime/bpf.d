build-arm-linux-gnueabihf-static/runtime/bpf.o: runtime/bpf.c \
 runtime/bpf.h
runtime/bpf.h:
