# process_no_new_privileges: noNewPrivileges true sets the no_new_privs bit, false leaves it off
. "$(dirname "$0")/../lib.sh"
workload 'grep ^NoNewPrivs: /proc/self/status | tr -d "\t " >/r/nnp'
C_NNP=true
cfg
ct_run on && check "$(res nnp)" NoNewPrivs:1 "true: NoNewPrivs 1"
C_NNP=false
cfg
ct_run off && check "$(res nnp)" NoNewPrivs:0 "false: NoNewPrivs 0"
