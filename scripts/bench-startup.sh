#!/bin/sh
# bench-startup.sh: wall time of shmem_init + shmem_finalize (a program that does
# nothing else) under scripts/oshrun, on the shared-memory route and with every PE on
# libfabric (SHMEM_LOCAL_TRANSPORT=ofi over tcp;ofi_rxm and over shm), at several job
# sizes; with the floors under it: the launcher alone (`true`), a program that only
# loads libfabric, and one that only makes libfabric's first fi_getinfo (its
# providers load there; 1.17's verbs provider reads all of /proc/kallsyms, which
# libsma.so hides from it in ofishmem's own first call).  Prints a Markdown
# table (docs/performance.md, "Start-up"): every figure is the best of the rounds, in
# seconds; with -B the same programs built against a second build tree take turns
# with the first, so that both see the same machine load.
#
# usage: scripts/bench-startup.sh [-b BUILD_DIR] [-B BASE_BUILD_DIR] [-n "16 32 64"] [-r 3] [-F]
#   BUILD_DIR       a built ofishmem tree (default: _build next to this script's tree)
#   BASE_BUILD_DIR  another one to compare with (a build of an earlier commit)
#   -F              without the floors (their columns show "-")
# Environment: BENCH_TIMEOUT seconds per run (default 180; a run past it shows as
#   "t/o"; `true` gets 20 s), CC (default cc).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
base=
sizes="16 32 64"
rounds=3
floors=1
. "$top/scripts/bench-lib.sh"
bench_args bench-startup 18 "-b:build -B:base -n:sizes -r:rounds -F+floors=0" "$@"
tmo=${BENCH_TIMEOUT:-180}
cc=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-startup.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# the programs: one per build tree, and the two libfabric floors
cat >"$work/init_fini.c" <<'EOF'
#include <shmem.h>
int main(void)
{
    shmem_init();
    shmem_finalize();
    return 0;
}
EOF
cat >"$work/fab_load.c" <<'EOF'
#include <rdma/fabric.h>
int main(void)
{
    return fi_version() == 0; /* libfabric loaded (its constructors ran), nothing asked */
}
EOF
cat >"$work/fab_getinfo.c" <<'EOF'
#include <rdma/fabric.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    struct fi_info *h = fi_allocinfo(), *r = NULL;
    const char *p = getenv("SHMEM_OFI_PROVIDER");

    if (!h)
        return 1;
    h->fabric_attr->prov_name = strdup(p && *p ? p : "tcp;ofi_rxm");
    (void)fi_getinfo(FI_VERSION(1, 5), NULL, NULL, 0, h, &r);
    if (r)
        fi_freeinfo(r);
    fi_freeinfo(h);
    return 0;
}
EOF
prog() { # build tree -> program path
    b=$(cd "$1" && pwd) || return 1
    src=$(sed -n 's/^abs_top_srcdir = //p' "$b/Makefile")
    out=$work/init_fini.$(echo "$b" | tr '/' '_')
    [ -x "$out" ] || $cc -O2 -I"$b/mpp" -I"$src/mpp" -o "$out" "$work/init_fini.c" \
        -L"$b/.libs" -lsma -Wl,-rpath,"$b/.libs" || return 1
    echo "$out"
}
new=$(prog "$build") || { echo "bench-startup: cannot build against $build (built there?)" >&2; exit 1; }
old=
if [ -n "$base" ]; then
    old=$(prog "$base") || { echo "bench-startup: cannot build against $base" >&2; exit 1; }
fi
$cc -O2 -o "$work/fab_load" "$work/fab_load.c" -lfabric &&
    $cc -O2 -o "$work/fab_getinfo" "$work/fab_getinfo.c" -lfabric ||
    { echo "bench-startup: cannot build the libfabric floors (libfabric-dev?)" >&2; exit 1; }
oshrun=$build/scripts/oshrun

# one timed run: seconds, or t/o; env settings first, then the program
run1() {
    t0=$(date +%s.%N)
    env "$@" >/dev/null 2>&1 </dev/null
    rc=$?
    t1=$(date +%s.%N)
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo t/o; return; fi
    [ $rc -eq 0 ] || { echo "fail($rc)"; return; }
    echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}
best() { # keep the smaller number (t/o and failures lose to any number)
    case "$1" in ''|t/o|fail*) echo "$2"; return ;; esac
    case "$2" in ''|t/o|fail*) echo "$1"; return ;; esac
    echo "$1 $2" | awk '{ print ($1 < $2) ? $1 : $2 }'
}

tcp="SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=tcp;ofi_rxm"
oshm="SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=shm"
echo "| PEs | launcher (true) | + libfabric loaded | + fi_getinfo | shm route | OFI tcp;ofi_rxm | OFI shm |"
echo "|----:|----:|----:|----:|----:|----:|----:|"
for n in $sizes; do
    r_true= r_load= r_info= s_new= s_old= t_new= t_old= h_new= h_old=
    i=0
    while [ $i -lt "$rounds" ]; do
        i=$((i + 1))
        R="timeout -k 5 $tmo $oshrun -n $n"
        # Open MPI's mpiexec 4.1 can miss the exit of processes that end within
        # milliseconds and wait forever (32 and 64 PEs of `true` here): a short timeout
        if [ "$floors" = 1 ]; then
            r_true=$(best "$r_true" "$(run1 timeout -k 2 20 $oshrun -n $n true)")
            r_load=$(best "$r_load" "$(run1 $R "$work/fab_load")")
            r_info=$(best "$r_info" "$(run1 SHMEM_OFI_PROVIDER='tcp;ofi_rxm' $R "$work/fab_getinfo")")
        else
            r_true=- r_load=- r_info=-
        fi
        s_new=$(best "$s_new" "$(run1 SHMEM_LOCAL_TRANSPORT=shm $R "$new")")
        t_new=$(best "$t_new" "$(run1 $tcp $R "$new")")
        h_new=$(best "$h_new" "$(run1 $oshm $R "$new")")
        [ -n "$old" ] || continue
        s_old=$(best "$s_old" "$(run1 SHMEM_LOCAL_TRANSPORT=shm $R "$old")")
        t_old=$(best "$t_old" "$(run1 $tcp $R "$old")")
        h_old=$(best "$h_old" "$(run1 $oshm $R "$old")")
    done
    if [ -n "$old" ]; then
        echo "| $n | $r_true | $r_load | $r_info | $s_old -> $s_new | $t_old -> $t_new | $h_old -> $h_new |"
    else
        echo "| $n | $r_true | $r_load | $r_info | $s_new | $t_new | $h_new |"
    fi
done
[ -z "$old" ] || echo "(base -> this build: best of $rounds alternating rounds, seconds)"
