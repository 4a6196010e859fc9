# misc_spec: `spec` writes a config.json in the bundle (--bundle), which the runtime then runs
# (with its terminal off and our program); `spec --rootless` asks for a user namespace
. "$(dirname "$0")/../lib.sh"
mkdir -p "$W/s"
rt_ok "spec exits 0" spec --bundle "$W/s" || exit 0
check "$(jq -e .ociVersion "$W/s/config.json" >/dev/null 2>&1 && echo json)" json "config.json is there, with an ociVersion"
check "$(jq -r .root.path "$W/s/config.json" 2>/dev/null)" rootfs "its root is rootfs"
rt_fails "spec refuses to overwrite it" spec --bundle "$W/s"
# run the runtime's own config: our program and result directory, no terminal
jq --arg r "$R" '.process.terminal = false | .process.args = ["/bin/sh", "/r/w.sh"]
	| .mounts += [{"destination": "/r", "type": "bind", "source": $r, "options": ["rbind", "rw"]}]' \
	"$W/s/config.json" >"$B/config.json"
workload 'echo ran >/r/ran'
ct_run c && check "$(res ran)" ran "the runtime runs the config it wrote"
mkdir -p "$W/u"
rt_ok "spec --rootless exits 0" spec --rootless --bundle "$W/u" || exit 0
check "$(jq -r '[.linux.namespaces[].type] | index("user") != null' "$W/u/config.json" 2>/dev/null)" true "with a user namespace"
check "$(jq -r '.linux.uidMappings | length > 0' "$W/u/config.json" 2>/dev/null)" true "and uid mappings"
