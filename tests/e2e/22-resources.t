#!/bin/sh
# [resources]: cgroup v2 limits (issue 14). Bad values are refused with FILE:LINE and 125
# everywhere; the limits themselves are checked where this host's cgroup v2 has the controllers
# (as root, and as a user in a delegated subtree: the VM guests set both up), read from inside
# (/proc/self/cgroup) and from outside (the cgroup's files), and nothing is left behind.
. "$(dirname "$0")/../lib/libtest.sh"

# --- bad values: refused before anything is made
for bad in "memory = 12Q" "memory = -5" "cpus = 0" "cpus = lots" "pids = 0" "cpu_weight = 20000" \
	"io_weight = x" "resources_mode = maybe" "cpuset_cpus = 1-0" "cpuset_mems = x" "memory_low = 1Q"; do
	spec "$T/bad.ini" <<EOF2
[process]
args = /bin/true
[resources]
$bad
EOF2
	run_crib run "$T/bad.ini"
	assert_eq "$rc:$(echo "$err" | head -n 1 | grep -c "bad.ini:6: ")" "125:1" "'$bad': 125, and the error names FILE:LINE"
done
spec "$T/typo.ini" <<'EOF2'
[process]
args = /bin/true
[resources]
memroy = 64M
EOF2
run_crib run "$T/typo.ini"
assert_eq "$rc:$(echo "$err" | grep -c 'memory')" "125:1" "a misspelt key is refused, not dropped (and the right one suggested)"

# --- can this host apply them at all?
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo 2>/dev/null)
[ -z "$mnt" ] && mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ "$ROLE" = root ]; then base=$mnt/crib; else base=$mnt${own%/*}; fi
spec "$T/probe.ini" <<'EOF2'
[process]
args = /bin/true
[resources]
memory = 64M
pids = 100
cpus = 0.5
EOF2
run_crib run "$T/probe.ini"
chk=$("$CRIB" check 2>/dev/null | awk '/^cgroup v2 (memory|cpu|pids) controller/ { print $5 }' | tr '\n' ' ')
echo "# crib check: $("$CRIB" check 2>/dev/null | grep '^cgroup v2 ' | tr -s ' ' | tr '\n' ';')"
assert_eq "$([ "$rc" = 0 ] && echo ok || echo no):$chk" "$([ "$rc" = 0 ] && echo "ok:ok ok ok " || echo "no:$(echo "$chk" | grep -v 'ok ok ok')")" \
	"crib check's controller rows agree with what crib run can do"
if [ "$rc" != 0 ]; then
	why=$(echo "$err" | head -n 1 | sed 's/^crib: [^ ]*: //')
	echo "# here: $why"
	# the refusal itself is what a host without them must give: 125, the reason, the remedy
	assert_eq "$rc:$(echo "$err" | grep -c '^crib: hint: ')" "125:1" "without the controllers: 125, the reason and a remedy"
	sed -i 's/^cpus = 0.5/cpus = 0.5\nresources_mode = prefer/' "$T/probe.ini"
	run_crib run "$T/probe.ini"
	assert_eq "$rc:$(echo "$err" | grep -c 'skipped')" "0:$(echo "$err" | grep -c '^crib: warning:')" "resources_mode = prefer: it runs, and says what it skipped"
	# a Raspberry Pi without the memory controller still gets the limits it has: pids here
	if [ "$(echo "$chk" | awk '{ print $1 ":" $3 }')" = "disabled:ok" ]; then
		spec "$T/pref.ini" <<'EOF2'
[process]
args = /bin/sh -c "(while :; do sleep 10 & done) 2>/dev/null & wait; n=0; for p in /proc/[0-9]*; do n=$((n + 1)); done; echo $n"
[resources]
memory = 64M
pids = 20
resources_mode = prefer
EOF2
		run_crib run "$T/pref.ini"
		assert_eq "$rc:$([ "${out:-0}" -le 20 ] && [ "${out:-0}" -ge 15 ] && echo "at the limit"):$(echo "$err" | grep -c 'memory limits are skipped')" "0:at the limit:1" \
			"memory off at boot, prefer: the memory limit is skipped and said so, pids.max = 20 still holds a fork bomb ($out processes)"
	else
		skip "the pids-without-memory case needs the memory controller disabled at boot and pids available (the nomemcg guest)"
	fi
	skips 22 "this host's cgroup v2 cannot take the limits ($why); the VM guests test them"
	done_testing
	exit
fi
ok 0 "this host applies [resources] ($base)"
assert_eq "$(ls "$base" 2>/dev/null | grep -c "^\(crib-\)\{0,1\}run-")" 0 "and a container that ended left no cgroup behind"

# start_limited NAME: crib runs $T/NAME.ini in the background (its pid in c, its cgroup in cg)
# until the workload's first line is in $T/NAME.out
start_limited() {
	"$CRIB" run "$T/$1.ini" >"$T/$1.out" 2>"$T/$1.err" &
	c=$!
	if [ "$ROLE" = root ]; then cg=$base/run-$c; else cg=$base/crib-run-$c; fi
	i=0
	while [ ! -s "$T/$1.out" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}

# --- from inside and outside: its own cgroup namespace, the limits in the files
spec "$T/lim.ini" <<'EOF2'
[process]
args = /bin/sh -c "cat /proc/self/cgroup; sleep 30"
[resources]
memory = 64M
memory_high = 48M
pids = 50
cpus = 0.5
cpu_weight = 50
EOF2
start_limited lim
assert_eq "$(cat "$T/lim.out")" "0::/" "inside, the container's cgroup is its root: 0::/"
assert_eq "$(cat "$cg/memory.max" "$cg/memory.high" "$cg/pids.max" "$cg/cpu.max" "$cg/cpu.weight" 2>&1 | tr '\n' ' ')" \
	"67108864 50331648 50 50000 100000 50 " "outside, its cgroup ($cg) holds the limits"
w=$(children_of "$c" | head -n 1)
assert_eq "$(sed -n 's/^0:://p' "/proc/$w/cgroup" 2>/dev/null)" "${cg#"$mnt"}/container" "its first process is in its container cgroup below it (seen from the host)"
assert_eq "$(cat "$cg/container/memory.max" "$cg/container/pids.max" 2>&1 | tr '\n' ' ')" "67108864 50 " "which has a copy of the limits, to be read from inside"
kill -TERM "$c"
wait "$c"
assert_eq "$([ -d "$cg" ] && echo left || echo gone)" gone "the cgroup is removed when the container ends"

# --- cpuset.cpus, cpuset.mems and memory.low, where the cpuset controller is here (it is not among
# what systemd delegates to a user by default): the workload's own view of the CPUs it may use
# (Cpus_allowed_list) and the files from outside; a CPU the machine lacks is the kernel's EINVAL,
# said with the CPUs there are
if [ "$("$CRIB" check 2>/dev/null | awk '/^cgroup v2 cpuset controller/ { print $5 }')" = ok ]; then
	spec "$T/set.ini" <<'EOF2'
[process]
args = /bin/sh -c "grep Cpus_allowed_list /proc/self/status; sleep 30"
[resources]
cpuset_cpus = 0
cpuset_mems = 0
memory_low = 16M
EOF2
	start_limited set
	assert_eq "$(tr -d ' \t' <"$T/set.out")" "Cpus_allowed_list:0" "cpuset_cpus = 0: inside, the workload may run on CPU 0 alone"
	assert_eq "$(cat "$cg/cpuset.cpus" "$cg/cpuset.mems" "$cg/memory.low" 2>&1 | tr '\n' ' ')" "0 0 16777216 " \
		"outside, its cgroup holds cpuset.cpus, cpuset.mems and memory.low"
	kill -TERM "$c"
	wait "$c"
	sed -i 's/^cpuset_cpus = 0$/cpuset_cpus = 4000/' "$T/set.ini"
	run_crib run "$T/set.ini"
	assert_eq "$rc:$(echo "$err" | grep -c "the CPUs this machine offers the container are [0-9]")" "125:1" \
		"a CPU the machine lacks: 125, saying which CPUs there are"
else
	skip "cpuset_cpus, cpuset_mems, memory_low: no cpuset controller for $ROLE's containers here ($("$CRIB" check 2>/dev/null | awk '/^cgroup v2 cpuset controller/' | tr -s ' ' | cut -c1-160))"
fi

# --- a memory hog: killed by the kernel, and said so
spec "$T/oom.ini" <<'EOF2'
[process]
args = /bin/sh -c "x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done"
[resources]
memory = 32M
memory_swap = 0
EOF2
run_crib run "$T/oom.ini"
assert_eq "$rc" 137 "a memory hog over memory.max = 32M: exit 137"
assert_eq "$(echo "$err" | grep -c 'killed by the kernel: out of memory, memory.max = 32M')" 1 "and crib says the kernel killed it for memory.max = 32M"

# --- a fork bomb stops at pids.max: a subshell forks sleeps until the kernel says no (ash then
# exits); the shell waits for it and counts the processes with builtins (no fork is left)
spec "$T/pids.ini" <<'EOF2'
[process]
args = /bin/sh -c "(while :; do sleep 10 & done) 2>/dev/null & wait; n=0; for p in /proc/[0-9]*; do n=$((n + 1)); done; echo $n"
[resources]
pids = 20
EOF2
run_crib run "$T/pids.ini"
assert_eq "$rc:$([ "${out:-0}" -le 20 ] && [ "${out:-0}" -ge 15 ] && echo "at the limit")" "0:at the limit" "a fork bomb under pids.max = 20 reaches it and stops there ($out processes)"

# --- a workload that may mount cgroup2 (SYS_ADMIN in its user namespace) finds the root of its
# cgroup namespace, which a rootless container's root owns: it raises what it can there, then
# forks 30 sleeps. The limits crib set hold on the cgroup above, which it cannot see.
spec "$T/raise.ini" <<'EOF2'
[process]
args = /bin/sh -c "mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg || exit 9; for f in pids.max memory.max; do echo max >/tmp/cg/$f 2>/dev/null && echo raised $f; done; (i=0; while [ $i -lt 30 ]; do sleep 10 & i=$((i + 1)); done) 2>/dev/null & wait; n=0; for p in /proc/[0-9]*; do n=$((n + 1)); done; echo $n"
[resources]
pids = 10
memory = 64M
[security]
capabilities = default +SYS_ADMIN
EOF2
run_crib run "$T/raise.ini"
n=$(echo "$out" | tail -n 1)
echo "# $(echo "$out" | head -n 2 | tr '\n' ' ')"
assert_eq "$rc:$([ "${n:-99}" -le 10 ] && echo held)" "0:held" \
	"a workload that mounts cgroup2 and writes max to what it sees cannot lift pids.max = 10 ($n processes of 31)"

# --- cpu.max throttles: a busy loop at cpus = 0.1
spec "$T/cpu.ini" <<'EOF2'
[process]
args = /bin/sh -c "while :; do :; done"
[resources]
cpus = 0.1
EOF2
"$CRIB" run "$T/cpu.ini" >/dev/null 2>&1 &
c=$!
if [ "$ROLE" = root ]; then cg=$base/run-$c; else cg=$base/crib-run-$c; fi
sleep 1
thr=$(sed -n 's/^nr_throttled //p' "$cg/cpu.stat" 2>/dev/null)
kill -KILL "$c"
wait "$c" 2>/dev/null
assert_eq "$([ "${thr:-0}" -gt 0 ] && echo throttled)" throttled "a busy loop at cpus = 0.1 is throttled (cpu.stat nr_throttled = ${thr:-none})"
# crib killed with SIGKILL had no time to remove it: the next container's crib does
i=0
while grep -q '^populated 1' "$cg/cgroup.events" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
run_crib run "$T/probe.ini"
assert_eq "$rc:$([ -d "$cg" ] && echo left || echo gone)" "0:gone" "crib killed with SIGKILL: its container dies with it, and the next run removes its cgroup"

# --- a detached service: crib ps shows what its cgroup uses, crib exec joins that cgroup, an
# OOM kill is in its log and its exit status, and nothing is left after crib rm (even when its
# monitor was killed and could not remove the cgroup itself)
S="$T/state"
C() { "$CRIB" --root "$S" "$@"; }
leaf() { if [ "$ROLE" = root ]; then echo "$base/$1"; else echo "$base/crib-$1"; fi; }
spec "$T/svc.ini" <<'EOF2'
[process]
args = /bin/sleep 60
[resources]
memory = 64M
pids = 50
EOF2
C run -d --name svc "$T/svc.ini" >/dev/null 2>&1
use=$(C ps | awk '$1 == "svc" { print $8, $9, $10 }')
echo "# crib ps: $(C ps | head -n 1)"
echo "# crib ps: $(C ps | awk '$1 == "svc"')"
assert_eq "$(echo "$use" | awk '$1 != "-" && $2 ~ /s$/ && $3 >= 2 { print "counted" }')" counted "crib ps shows the service's memory, CPU time and pids ($use)"
run_crib --root "$S" exec svc -- /bin/sh -c 'cat /proc/self/cgroup; cat /proc/self/status | grep -c "^Pid:"'
assert_eq "$rc:$(echo $out)" "0:0::/ 1" "crib exec runs in the service's cgroup (0::/ inside)"
assert_eq "$(cat "$(leaf svc)/memory.max")" 67108864 "its cgroup is named after it: $(leaf svc)"
C rm -f svc >/dev/null 2>&1
assert_eq "$([ -d "$(leaf svc)" ] && echo left || echo gone)" gone "crib rm -f: its cgroup is gone"

C run -d --name hog "$T/oom.ini" >/dev/null 2>&1
run_crib --root "$S" wait hog
assert_eq "$rc" 137 "a detached memory hog: crib wait says 137"
assert_eq "$(C logs hog 2>&1 | grep -c 'killed by the kernel: out of memory, memory.max = 32M')" 1 "and its log says the kernel killed it"
C rm hog >/dev/null 2>&1
assert_eq "$([ -d "$(leaf hog)" ] && echo left || echo gone)" gone "its cgroup is gone"

C run -d --name orphan "$T/svc.ini" >/dev/null 2>&1
kill -KILL "$(sed -n 's/^pid=//p' "$S/orphan/monitor")"
i=0
while grep -q '^populated 1' "$(leaf orphan)/cgroup.events" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
assert_eq "$([ -d "$(leaf orphan)" ] && echo left)" left "its monitor killed, the container dies and its empty cgroup stays"
C rm orphan >/dev/null 2>&1
assert_eq "$([ -d "$(leaf orphan)" ] && echo left || echo gone)" gone "until crib rm removes it"

done_testing
