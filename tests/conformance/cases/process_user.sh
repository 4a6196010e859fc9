# process_user: uid, gid and additionalGids, read from /proc/self/status
. "$(dirname "$0")/../lib.sh"
C_USER='{"uid":1000,"gid":1000,"additionalGids":[2000,65534]}'
cfg
workload 'grep -E "^(Uid|Gid|Groups):" /proc/self/status >/r/status'
ct_run c || exit 0
check "$(grep ^Uid: "$R/status" | tr -s '\t ' ' ')" "Uid: 1000 1000 1000 1000" "uid (real, effective, saved, fs)"
check "$(grep ^Gid: "$R/status" | tr -s '\t ' ' ')" "Gid: 1000 1000 1000 1000" "gid"
g=$(grep ^Groups: "$R/status" | tr -s '\t ' ' ')
check_contains "$g " " 2000 " "additionalGids has 2000"
check_contains "$g " " 65534 " "and 65534"
