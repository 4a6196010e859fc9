# linux_cgroups_cpus: resources.cpu's shares, quota, period, cpus and mems, in the container's
# cgroup files read from outside
. "$(dirname "$0")/../lib.sh"
C_LINUX_EXTRA='"resources":{"cpu":{"shares":512,"quota":50000,"period":100000,"cpus":"0","mems":"0"}}'
cfg
workload 'sleep 30'
ct_create c || exit 0
pid=$(ct_pid c)
if [ -d /sys/fs/cgroup/cpu ]; then
	check "$(cat "$(cg_file "$pid" cpu cpu.shares)" 2>&1)" 512 "cpu.shares"
	check "$(cat "$(cg_file "$pid" cpu cpu.cfs_quota_us)" 2>&1)" 50000 "cpu.cfs_quota_us"
	check "$(cat "$(cg_file "$pid" cpu cpu.cfs_period_us)" 2>&1)" 100000 "cpu.cfs_period_us"
else
	check "$(cat "$(cg_file "$pid" cpu "" cpu.max)" 2>&1)" "50000 100000" "cpu.max"
fi
check "$(cat "$(cg_file "$pid" cpuset cpuset.cpus cpuset.cpus)" 2>&1)" 0 "cpuset.cpus"
check "$(cat "$(cg_file "$pid" cpuset cpuset.mems cpuset.mems)" 2>&1)" 0 "cpuset.mems"
