#!/bin/bash
# Every PE on libfabric's shm provider: each endpoint is a region in /dev/shm named
# after the endpoint.  1) Names once predictable ("<pid>_ofs<pidns>:<uid>:0"), planted
# beforehand by another user for the PE's pid (a wrapper that execs the PE plants them
# for its own pid), made the PE die of SIGBUS in shmem_init: now the job runs.  2) A name found taken all the same (getrandom made
# predictable with a preloaded library, the name planted) stops shmem_init with a line
# naming the file and its owner.  Skipped when not root (no other user's file).
here=$(cd "$(dirname "$0")" && pwd)
export SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=shm
if [ "$(id -u)" != 0 ]; then
    echo "not root: cannot plant another user's file"
    exit 77
fi
ns=$(stat -L -c %i /proc/self/ns/pid)
uid=$(id -u)
tmp=$(mktemp -d /tmp/ofs-shm-names.XXXXXX)
trap 'rm -f $(cat "$tmp/planted" 2>/dev/null); rm -rf "$tmp"' EXIT
fail=0

# 1) the predictable names of the PE's endpoints, planted by 'nobody', mode 0666
cat >"$tmp/plant_old" <<EOS
#!/bin/bash
for s in ":$uid:0" ":$uid:1" "_c1:$uid:1" "_c1:$uid:2"; do
    f="/dev/shm/\$\$_ofs${ns}\$s"
    : >"\$f"; chmod 666 "\$f"; chown 65534:65534 "\$f"
    echo "\$f" >>"$tmp/planted"
done
exec "\$@"
EOS
chmod +x "$tmp/plant_old"
bash "$here/../reliability/expect_fail.sh" 2 0 20 '' -- "$tmp/plant_old" test/reliability/rel_prog ok || {
    echo "1) the job did not run with the old predictable names planted"; fail=1; }
# (that they are left alone is stale_owner.sh's part: here, seconds after the job, any
# other job on the node, of an older library, may have taken them as stale)

# 2) getrandom fixed, the name it gives planted
cat >"$tmp/fixrand.c" <<'EOS'
#include <string.h>
#include <sys/types.h>
ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    (void)flags;
    memset(buf, 0x11, len);
    return (ssize_t)len;
}
EOS
${CC:-cc} -shared -fPIC -o "$tmp/fixrand.so" "$tmp/fixrand.c" || { echo "cannot build the preload"; exit 1; }
preload=$tmp/fixrand.so
# under AddressSanitizer its runtime must come first
asan=$(${CC:-cc} -print-file-name=libasan.so 2>/dev/null)
[ -n "$OFS_SANITIZED" ] && [ -f "$asan" ] && preload="$asan $preload"
cat >"$tmp/plant_new" <<EOS
#!/bin/bash
f="/dev/shm/\$\$_ofs${ns}_r1111111111111111:$uid:0"
: >"\$f"; chmod 666 "\$f"; chown 65534:65534 "\$f"
echo "\$f" >>"$tmp/planted"
LD_PRELOAD="$preload" exec "\$@"
EOS
chmod +x "$tmp/plant_new"
bash "$here/../reliability/expect_fail.sh" 2 nonzero 20 \
    "ofi: the shm provider's region for this PE's endpoint, /dev/shm/[0-9]+_ofs${ns}_r1111111111111111:$uid:0, exists already \(owner uid 65534, this PE runs as $uid\)" \
    -- "$tmp/plant_new" test/reliability/rel_prog ok || { echo "2) no clear failure for a taken name"; fail=1; }
exit $fail
