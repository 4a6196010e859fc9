#!/bin/sh
# Run by the guest's /init in stage2, before the tests: the cgroup hierarchy a system's init would
# have set up, so that crib meets in the guest what it meets on a host.
#   cgroup v2 (every guest but cgroupv1): cgroup2 at /sys/fs/cgroup as systemd mounts it, every
#   controller enabled below the root, and what systemd does for a user who logs in: a subtree
#   delegated to uid 1000 (user@1000.service, Delegate=yes) with a leaf, session.scope, that
#   guest-tests.sh starts each of the user's tests in.
#   crib.cgroupv1 on the command line: no cgroup2 at all, but a read-only tmpfs holding cgroup v1
#   hierarchies, every controller crib uses among them, as a system booted with
#   systemd.unified_cgroup_hierarchy=0 and systemd.legacy_systemd_cgroup_controller=1 has. A
#   cgroup2 that was never mounted leaves no "0::" line in /proc/PID/cgroup, as on such a
#   system. guest-tests.sh later adds cgroup2 at unified/, without a controller: systemd's hybrid
#   setup, what unified_cgroup_hierarchy=0 alone gives.
cg=/sys/fs/cgroup

if grep -q crib.cgroupv1 /proc/cmdline; then
	mount -t tmpfs -o mode=755,size=64k,nosuid,nodev,noexec tmpfs $cg
	for h in memory pids cpu,cpuacct blkio cpuset; do
		mkdir $cg/$h && mount -t cgroup -o nosuid,nodev,noexec,$h cgroup $cg/$h
	done
	ln -s cpu,cpuacct $cg/cpu
	ln -s cpu,cpuacct $cg/cpuacct
	# systemd's own hierarchy, with no controller: it tracks services by it
	mkdir $cg/systemd && mount -t cgroup -o nosuid,nodev,noexec,none,name=systemd cgroup $cg/systemd
	mount -o remount,ro $cg
	exit 0
fi

grep -q " $cg cgroup2 " /proc/mounts ||
	mount -t cgroup2 -o nosuid,nodev,noexec,nsdelegate,memory_recursiveprot cgroup2 $cg ||
	mount -t cgroup2 cgroup2 $cg || exit 1

# enable_all DIR: turn on below DIR every controller DIR has, one by one so one refusal spares the rest
enable_all() {
	for c in $(cat "$1/cgroup.controllers"); do
		echo "+$c" >"$1/cgroup.subtree_control" || echo "VMTEST # cannot enable $c in $1"
	done
}

# The delegated directory and the three files the kernel's delegation model names
# (Documentation/admin-guide/cgroup-v2.rst, "Model of Delegation") go to the user; the
# controllers are on in every ancestor, so they are there to enable inside. Which ones the user
# turns on below user@1000.service is theirs to say: its cgroup.subtree_control stays empty.
user=$cg/user.slice/user-1000.slice/user@1000.service
mkdir -p $user/session.scope
enable_all $cg
enable_all $cg/user.slice
enable_all $cg/user.slice/user-1000.slice
chown 1000:1000 $user $user/cgroup.procs $user/cgroup.subtree_control $user/cgroup.threads
chown 1000:1000 $user/session.scope $user/session.scope/cgroup.procs \
	$user/session.scope/cgroup.subtree_control $user/session.scope/cgroup.threads
