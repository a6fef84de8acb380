#!/bin/bash
# Stale-object cleanup takes only this user's own files.  Run as root (as in a
# container), a job once removed any file of /dev/shm named like a heap object or a
# shm provider region of a dead pid, whoever owned it, and removed links of such names.
# Planted here, with the pid of a process that has exited: files owned by 'nobody' and
# a link (to a file of ours) must survive a job; our own (root's) must be removed.
# Skipped when not root (no other user's file can be made).
. "$(dirname "$0")/../reliability/lib.sh"
oshrun=${OSHRUN:-scripts/oshrun}
if [ "$(id -u)" != 0 ]; then
    echo "not root: cannot plant another user's file"
    exit 77
fi
# In a pid namespace of its own where possible: jobs of other builds on the machine
# (of a library without the owner check, run as root) would take the planted files of
# a dead pid of ours for theirs to sweep; files of another namespace they leave alone.
if [ -z "$OFS_STALE_OWNER_NS" ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
    OFS_STALE_OWNER_NS=1 exec unshare --pid --fork --mount-proc bash "$0" "$@"
fi
ns=$(stat -L -c %i /proc/self/ns/pid)
dead=$(sh -c 'echo $$')
tag=$$
other_heap="/dev/shm/ofishmem-planted$tag-0-h-0123456789abcdef-$dead-$ns"
other_region="/dev/shm/${dead}_ofs${ns}:65534:$tag"
link_heap="/dev/shm/ofishmem-planted$tag-0-d-0123456789abcdef-$dead-$ns"
link_region="/dev/shm/${dead}_ofs${ns}_c$tag:0:0"
target="/dev/shm/ofs-conf-target-$tag"
own_heap="/dev/shm/ofishmem-planted$tag-1-h-0123456789abcdef-$dead-$ns"
own_region="/dev/shm/${dead}_ofs${ns}:0:$tag"
all="$other_heap $other_region $link_heap $link_region $target $own_heap $own_region"
trap 'rm -f $all' EXIT
: >"$other_heap"; : >"$other_region"; : >"$target"; : >"$own_heap"; : >"$own_region"
chown 65534:65534 "$other_heap" "$other_region" || { echo "chown failed"; exit 77; }
ln -s "$target" "$link_heap"
ln -s "$target" "$link_region"
fail=0
timeout -k 2 30 "$oshrun" -n 2 test/reliability/rel_prog ok || { echo "the job failed"; fail=1; }
for f in "$other_heap" "$other_region"; do
    [ -e "$f" ] || { echo "another user's file removed: $f"; fail=1; }
done
for f in "$link_heap" "$link_region"; do
    [ -L "$f" ] || { echo "link removed: $f"; fail=1; }
done
[ -e "$target" ] || { echo "the links' target removed: $target"; fail=1; }
for f in "$own_heap" "$own_region"; do
    [ ! -e "$f" ] || { echo "our own stale file not removed: $f"; fail=1; }
done
[ $fail = 0 ] && echo "others' files and links kept, our own removed"
exit $fail
