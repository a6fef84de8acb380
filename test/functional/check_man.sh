#!/bin/sh
# The tools' and the overview/shm pages render without warnings, and the generated
# parameter lists are complete: every SHMEM_* variable `ofishmem_info --params`
# prints appears in ofishmem(7).  Run from the build tree: check_man.sh SRCDIR
src=$(cd "${1:-.}" && pwd)
build=$(pwd)
fail=0
n=0
if ! command -v man >/dev/null 2>&1; then
    echo "check_man: man not installed: rendering not checked"
else
    for p in "$src"/man/man1/*.1 "$build/man/man7/ofishmem.7" "$build/man/man7/ofishmem_shm.7"; do
        [ -f "$p" ] || continue
        # .so links resolve against the directory above man1/
        out=$(cd "$src/man" && MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)
        if [ -n "$out" ]; then
            echo "check_man: $p: $out"
            fail=1
        fi
        n=$((n + 1))
    done
    [ $n -ge 6 ] || { echo "check_man: only $n pages found"; fail=1; }
fi
for v in $(./ofishmem_info --params | awk '$1 ~ /^SHMEM_/ { print $1 }'); do
    grep -q "^\.B $(echo "$v" | sed 's/_/\\_/g; s/-/\\\\-/g')\$" man/man7/ofishmem.7 ||
        grep -qx ".B $v" man/man7/ofishmem.7 || { echo "check_man: $v missing from ofishmem.7"; fail=1; }
done
[ $fail = 0 ] && echo "check_man: $n pages render cleanly; every parameter is documented"
exit $fail
