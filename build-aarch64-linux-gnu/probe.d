build-aarch64-linux-gnu/probe: tests/probe/probe.c
