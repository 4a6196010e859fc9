build-aarch64-linux-gnu-static/runtime/bpf.o: runtime/bpf.c runtime/bpf.h
runtime/bpf.h:
