# hooks_poststop_fail: a poststop hook that fails is a warning: the next poststop hook runs and
# the container is deleted all the same
. "$(dirname "$0")/../lib.sh"
C_TOP_EXTRA="\"hooks\":{\"poststop\":[$(hook failing 1),$(hook after)]}"
cfg
workload 'true'
id=$(id_of c)
ct_create c || exit 0
rt start "$id"
wait_status "$id" stopped
rt delete "$id"
echo "#   delete exited $rc"
check "$(tr '\n' ' ' <"$R/order" 2>/dev/null)" "failing after " "both poststop hooks ran"
rt state "$id"
check "$([ "$rc" != 0 ] && echo gone)" gone "the container is deleted"
