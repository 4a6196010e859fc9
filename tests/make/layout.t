#!/bin/sh
# The house rules of docs/architecture.md, checked on every make check: tools/check-layers (an
# #include that runs against the layer order), tools/check-sizes (a file over 700 lines, a
# function over 80), tools/check-layout-doc (the layout table against the tree) and
# tools/check-steps (each step's row names the file of its function, which --trace=explain prints). Each must
# pass on the checkout, and each must fail, naming the place, on a copy of the tree with one
# deliberate break - or a check that cannot fail would pass here forever. TOP is the checkout.
. "$(dirname "$0")/../lib/libtest.sh"

: "${TOP:?set by tests/run-all}"
for t in check-layers check-sizes check-layout-doc check-steps; do
	out=$("$TOP/tools/$t" "$TOP" 2>&1)
	assert_eq "$?:$out" "0:" "$t passes on the checkout"
done

copy=$T
fresh() {
	rm -rf "$copy/t"
	mkdir "$copy/t"
	(cd "$TOP" && cp -r runtime cmd docs "$copy/t/")
}

# a back edge: base/, the lowest layer, names plan/'s header
fresh
f=runtime/base/error.c
n=$(($(wc -l <"$copy/t/$f") + 1))
echo '#include "plan/plan.h"' >>"$copy/t/$f"
out=$("$TOP/tools/check-layers" "$copy/t" 2>&1)
assert_eq "$?" 1 "check-layers fails on base/ including plan/"
assert_contains "$out" "$f:$n: includes plan/plan.h (plan/): plan sits above base/" \
	"... and names the file, the line and the rule"

# two folders of one rank: seccomp/ and cgroup/ may not include each other
fresh
echo '#include "seccomp/seccomp.h"' >>"$copy/t/runtime/cgroup/tree.c"
out=$("$TOP/tools/check-layers" "$copy/t" 2>&1)
assert_eq "$?" 1 "check-layers fails on cgroup/ including seccomp/ (one rank)"
assert_contains "$out" "seccomp sits beside cgroup/" "... and says they share a rank"

# a front end named below plan/: host/ including oci/'s header (rule 3)
fresh
echo '#include "oci/oci.h"' >>"$copy/t/runtime/host/account.c"
out=$("$TOP/tools/check-layers" "$copy/t" 2>&1)
assert_eq "$?" 1 "check-layers fails on host/ naming the oci/ front end"
assert_contains "$out" "only container/, cmd/ may name the oci/ front end" "... and names the rule"

# a function of 81 lines
fresh
f=runtime/base/words.c
{
	printf 'int\nlong_one(void)\n{\n'
	i=0
	while [ $i -lt 81 ]; do
		echo "	(void)0;"
		i=$((i + 1))
	done
	printf '}\n'
} >>"$copy/t/$f"
out=$("$TOP/tools/check-sizes" "$copy/t" 2>&1)
assert_eq "$?" 1 "check-sizes fails on a function of 81 lines"
assert_contains "$out" "$f: long_one() has 81 lines (at most 80)" "... and names it"

# a new file the layout table does not name
fresh
: >"$copy/t/runtime/base/newfile.c"
out=$("$TOP/tools/check-layout-doc" "$copy/t" 2>&1)
assert_eq "$?" 1 "check-layout-doc fails on a file the table leaves out"
assert_contains "$out" "runtime/base/newfile.c is not named in runtime/base/'s row" "... and names it"

# a step's row that names the wrong file for its function, and one that says no why
fresh
sed -i 's|step_close_inherited, "runtime/steps/fds.c"|step_close_inherited, "runtime/steps/oom.c"|' "$copy/t/runtime/launch/child.c"
out=$("$TOP/tools/check-steps" "$copy/t" 2>&1)
assert_eq "$?" 1 "check-steps fails on a row that names another file"
assert_contains "$out" "step_close_inherited's row names runtime/steps/oom.c, which does not define step_close_inherited" "... and names it"
fresh
sed -i 's|"runtime/steps/uts.c", "in the new uts namespace"|"runtime/steps/uts.c", ""|' "$copy/t/runtime/launch/child.c"
out=$("$TOP/tools/check-steps" "$copy/t" 2>&1)
assert_eq "$?:$(echo "$out" | grep -c "step_hostname's row says no why")" "1:1" "check-steps fails on a row without its why" || echo "$out" | sed 's/^/#   /'

done_testing
