#!/bin/sh
# A hybrid cgroup host (issue 32, bug 6): systemd booted with unified_cgroup_hierarchy=0 mounts
# cgroup2 at /sys/fs/cgroup/unified without a controller, the controllers being on cgroup v1.
# A container's limits cannot hold there, delegated or not: crib run with [resources] says so,
# blaming cgroup v1 with the boot line that fixes it (as root and as a user: never "no cgroup
# is delegated" and a systemd-run hint, which gives a scope without controllers), prefer runs
# without them saying why, and crib check does not say "ok" for containers' cgroups. Elsewhere
# (a cgroup v2 host, the VM's default guests) it skips; the VM's cgroupv1 guest is made hybrid
# for it.
. "$(dirname "$0")/../lib/libtest.sh"

N=13
# the cgroup2 mount (field 5 of mountinfo; the VM guests have no findmnt) and its controllers
cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
if [ -z "$cg2" ]; then
	skips $N "no cgroup2 is mounted here: not a hybrid host (the cgroupv1 guest tests both)"
	done_testing
	exit
fi
controllers=" $(cat "$cg2/cgroup.controllers" 2>/dev/null) "
case "$controllers" in *" memory "* | *" pids "*)
	skips $N "cgroup2 at $cg2 has controllers ($controllers): not a hybrid host (the VM's cgroupv1 guest is)"
	done_testing
	exit
	;;
esac
# /proc/cgroups: memory enabled, on a v1 hierarchy (hierarchy id > 0)
if ! awk '$1 == "memory" && $2 > 0 && $4 == 1 {f = 1} END {exit !f}' /proc/cgroups; then
	skips $N "memory is not on a cgroup v1 hierarchy here ($(grep '^memory' /proc/cgroups))"
	done_testing
	exit
fi
echo "# hybrid: cgroup2 at $cg2 without controllers; $(grep -c . /proc/cgroups) lines of /proc/cgroups, memory on v1"

spec "$T/m.ini" <<'EOF2'
readonly_rootfs = yes
[process]
args = /bin/echo ran
[resources]
memory = 64M
EOF2
run_crib run "$T/m.ini"
assert_eq "$rc:$(echo "$err" | head -n 1)" "125:crib: $T/m.ini:7: the memory limits cannot be applied: the memory controller is on a cgroup v1 hierarchy here" \
	"$ROLE: [resources] memory on a hybrid host: 125, blamed on cgroup v1"
assert_contains "$err" "hint: boot with systemd.unified_cgroup_hierarchy=1" "the remedy: boot with the unified hierarchy"
assert_not_contains "$err" "systemd-run" "no systemd-run hint (a delegated scope has no controller here either)"
assert_not_contains "$err" "delegated" "and no word of delegation"
assert_contains "$err" "or run without the memory limits: set resources_mode = prefer" "or run without them: crib.ini's key"

printf 'resources_mode = prefer\n' >>"$T/m.ini"
run_crib run "$T/m.ini"
assert_eq "$rc:$out" "0:ran" "resources_mode = prefer: it runs"
assert_contains "$err" "crib: warning: the memory limits are skipped: the memory controller is on a cgroup v1 hierarchy here" \
	"and says what it skipped, and why"

# crib check: where containers' cgroups go is not "ok" when no limit can hold there
"$CRIB" check --format=ini >"$T/check.ini" 2>&1
row() { # row ID: that section of crib check's INI
	sed -n "/^\[$1\]\$/,/^\$/p" "$T/check.ini"
}
d=$(row cgroup_delegation)
assert_contains "$d" 'status = "disabled"' "crib check: containers' cgroups disabled, not ok (the controllers are on cgroup v1)"
assert_contains "$d" "memory, cpu, pids, io, cpuset are on cgroup v1 hierarchies (a hybrid setup: cgroup v2 is mounted without them)" \
	"saying which controllers, and why"
assert_contains "$d" 'remedy = "boot with systemd.unified_cgroup_hierarchy=1' "with the boot line as its remedy"
assert_not_contains "$(row cgroup_memory)$(row cgroup_pids)" "systemd-run" "no controller's remedy is systemd-run"
assert_contains "$(row cgroup_memory)" "the memory controller is on a cgroup v1 hierarchy here" "the memory controller's row: on cgroup v1"
done_testing
