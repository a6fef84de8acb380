#!/bin/sh
# Every man page of the same-node transport and tools part renders without warnings.
# usage: check_man.sh SRCDIR   (generated pages are looked for in the build tree too)
src=${1:-.}
command -v man >/dev/null 2>&1 || { echo "check_man: man not installed: skipped"; exit 77; }
fail=0
n=0
for p in "$src"/man/man1/*.1 "$src"/man/man7/ofishmem_shm.7 man/man7/ofishmem.7; do
    [ -f "$p" ] || continue
    # .so links are rendered from the source directory
    out=$(cd "$src/man" && MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)
    if [ -n "$out" ]; then
        echo "check_man: $p: $out"
        fail=1
    fi
    n=$((n + 1))
done
[ $n -ge 5 ] || { echo "check_man: only $n pages found"; fail=1; }
[ $fail = 0 ] && echo "check_man: $n pages render cleanly"
exit $fail
