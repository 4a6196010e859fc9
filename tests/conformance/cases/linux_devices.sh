# linux_devices: device nodes the config asks for are made with their type, numbers, mode and
# owner (the null device, 1:3, under other names, one owned by 1000:2000 in a subdirectory)
. "$(dirname "$0")/../lib.sh"
C_LINUX_EXTRA='"devices":[{"path":"/dev/conf-null","type":"c","major":1,"minor":3,"fileMode":438,"uid":0,"gid":0},
 {"path":"/dev/conf/sub-null","type":"c","major":1,"minor":3,"fileMode":416,"uid":1000,"gid":2000}]'
cfg
workload 'for d in /dev/conf-null /dev/conf/sub-null; do stat -c "%F %t:%T %a %u:%g" $d; done >/r/stat
if echo x >/dev/conf-null; then echo yes; else echo no; fi >/r/write'
ct_run c || exit 0
check "$(sed -n 1p "$R/stat")" "character special file 1:3 666 0:0" "/dev/conf-null: char 1:3, 0666, 0:0"
check "$(sed -n 2p "$R/stat")" "character special file 1:3 640 1000:2000" "/dev/conf/sub-null: char 1:3, 0640, 1000:2000"
check "$(res write)" yes "the device can be written"
