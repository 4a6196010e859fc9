# process: args (one with a space), env and cwd reach the program as the config gives them
. "$(dirname "$0")/../lib.sh"
C_ARGS='["/bin/sh","/r/w.sh","one two","three"]'
C_ENV='["PATH=/bin","CONF_A=a value","CONF_B="]'
C_CWD=/root
cfg
workload 'printf "%s|" "$0" "$@" >/r/args; pwd >/r/cwd; echo "$CONF_A" >/r/a; env | grep -c "^CONF_B=$" >/r/b'
ct_run c || exit 0
check "$(res args)" "/r/w.sh|one two|three|" "args"
check "$(res a)" "a value" "env: a value with a space"
check "$(res b)" 1 "env: an empty value"
check "$(res cwd)" /root "cwd"
