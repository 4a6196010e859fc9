# process_umask: process.user.umask is the program's umask, and the mode of the files it makes
. "$(dirname "$0")/../lib.sh"
C_USER='{"uid":0,"gid":0,"umask":23}'
cfg
workload 'umask >/r/umask; : >/r/file; stat -c %a /r/file >/r/mode'
ct_run c || exit 0
check "$(res umask)" 0027 "umask 027 (23)"
check "$(res mode)" 640 "a file made with 0666 is 0640"
