#!/bin/sh
# check-layers.sh: the layer rules of docs/architecture.md, checked over the
# '#include "..."' lines of src/ and include/.  Fails, naming file and line, on
#   - an include of a header of a layer the file may not use (an arrow back up, or
#     sideways: coll including transport.h, api including a transport, ...);
#   - a private header (one inside src/DIR/) included from outside src/DIR/ (one
#     transport including another's internal header);
#   - a header of include/ that the table below does not place in a layer;
#   - an include cycle between files of different roles.
# usage: scripts/check-layers.sh [TOP_SRCDIR]     (default: the tree holding this script)
#        scripts/check-layers.sh --self-test      (shows that each rule can fail)
# Exit status: 0 clean, 1 a rule is broken, 2 usage.
set -u

# The layers, bottom first, and which layers each may include (itself included).
# A transport (src/transport/NAME/) has the role "transport" for this table.
rules='
util       util
runtime    util runtime
heap       util runtime heap
transport  util runtime heap transport
comm       util runtime heap transport comm
coll       util runtime heap comm coll
msg        util runtime heap comm msg
api        util runtime heap comm coll msg api
tools      util
'

# The headers of include/ (and generated ones) and the layer each belongs to.
headers='
ofs.h          util
ofs_config.h   util
ofs_env_defs.h util
ofs_handle.h   util
ofs_backoff.h  util
ofs_stats.h    util
ofs_fabric.h   util
rt.h           runtime
heap.h         heap
comm_types.h   transport
transport.h    transport
comm.h         comm
coll.h         coll
msg.h          msg
ofs_check.h    api
ofs_api.h      api
shmem.h        api
pshmem.h       api
shmemx.h       api
'

# Known arrows in files this change does not own: "FILE HEADER  # why".  Each is an
# error to remove, not a rule; an entry that no longer matches is reported.
allow='
'

self_test() {
    t=$(mktemp -d) || exit 2
    trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/include" "$t/src/util" "$t/src/heap" "$t/src/coll" \
        "$t/src/transport/shm" "$t/src/transport/ofi"
    for h in ofs.h heap.h comm.h coll.h transport.h rt.h; do echo '' > "$t/include/$h"; done
    echo '#include "ofs.h"' > "$t/src/util/ok.c"
    echo '#include "ofi_internal.h"' > "$t/src/transport/ofi/ok.c"
    echo '#include "transport.h"' > "$t/src/transport/ofi/ofi_internal.h"
    fails=0
    want() { # expected-text file content
        printf '%s\n' "$3" > "$t/$2"
        out=$(sh "$0" "$t" 2>/dev/null)
        rc=$?
        rm -f "$t/$2"
        case "$rc:$out" in
            1:*"$1"*) echo "ok: $1" ;;
            *) echo "FAIL: expected '$1' (exit 1), got exit $rc:"; echo "$out"; fails=1 ;;
        esac
    }
    [ "$(sh "$0" "$t" 2>/dev/null)" = "check-layers: ok ($t)" ] || {
        echo "FAIL: the clean fixture did not pass:"
        sh "$0" "$t"
        fails=1
    }
    want 'src/util/bad.c:2: includes "rt.h"' src/util/bad.c '/* x */
#include "rt.h"'
    want 'src/heap/bad.c:1: includes "comm.h"' src/heap/bad.c '#include "comm.h"'
    want 'src/coll/bad.c:1: includes "transport.h"' src/coll/bad.c '#include "transport.h"'
    want 'src/coll/bad.c:1: includes "ofi_internal.h"' src/coll/bad.c '#include "ofi_internal.h"'
    want 'src/transport/shm/bad.c:1: includes "../ofi/ofi_internal.h"' src/transport/shm/bad.c \
        '#include "../ofi/ofi_internal.h"'
    want 'src/transport/ofi/bad.c:1: includes "coll.h"' src/transport/ofi/bad.c '#include "coll.h"'
    want 'include/new.h: a header of include/ that no layer owns' include/new.h ''
    # heap.h -> rt.h is allowed; rt.h -> heap.h (an arrow up) closes a cycle
    printf '#include "heap.h"\n' > "$t/include/rt.h"
    want 'include cycle between roles: include/heap.h (heap) -> include/rt.h (runtime) -> include/heap.h' \
        include/heap.h '#include "rt.h"'
    exit $fails
}

case "${1:-}" in
    --self-test) self_test ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "check-layers: unknown option $1" >&2; exit 2 ;;
esac
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -d "$top/src" ] || [ ! -d "$top/include" ]; then
    echo "check-layers: no src/ and include/ under $top" >&2
    exit 2
fi
cd "$top" || exit 2

files=$(find src include -type f \( -name '*.c' -o -name '*.h' -o -name '*.c.m4' -o -name '*.inl' \) \
    | LC_ALL=C sort)
# shellcheck disable=SC2086
awk -v rules="$rules" -v headers="$headers" -v allow="$allow" -v top="$top" '
function dir_of(p) { sub(/\/[^\/]*$/, "", p); return p }
function base_of(p) { sub(/.*\//, "", p); return p }
function role_of(p,    n) {
    if (p ~ /^src\/transport\//) return "transport"
    if (p ~ /^src\//) { n = p; sub(/^src\//, "", n); sub(/\/.*/, "", n); return n }
    n = base_of(p)
    return (n in hrole) ? hrole[n] : ""
}
# "../x/y.h" from dir d, normalised; "" when it leaves the tree
function join_path(d, name,    parts, n, i, out, k) {
    n = split(d "/" name, parts, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".") continue
        if (parts[i] == "..") { if (k > 0) k--; continue }
        out[++k] = parts[i]
    }
    name = ""
    for (i = 1; i <= k; i++) name = name (i > 1 ? "/" : "") out[i]
    return name
}
BEGIN {
    n = split(rules, L, "\n")
    for (i = 1; i <= n; i++) if (split(L[i], w, " ") > 1) { layer[w[1]] = 1; for (j = 2; j in w; j++) may[w[1], w[j]] = 1 }
    n = split(headers, L, "\n")
    for (i = 1; i <= n; i++) if (split(L[i], w, " ") == 2) hrole[w[1]] = w[2]
    n = split(allow, L, "\n")
    for (i = 1; i <= n; i++) { sub(/#.*/, "", L[i]); if (split(L[i], w, " ") == 2) { allowed[w[1], w[2]] = 1; allow_used[w[1], w[2]] = 0 } }
    bad = 0
}
FNR == 1 {
    known[FILENAME] = 1
    order[++nfiles] = FILENAME
    if (!(base_of(FILENAME) in byname))
        byname[base_of(FILENAME)] = FILENAME
    if (FILENAME ~ /^include\// && !(base_of(FILENAME) in hrole)) {
        printf "%s: a header of include/ that no layer owns: add it to the table of scripts/check-layers.sh and to docs/architecture.md\n", FILENAME
        bad = 1
    }
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    name = $0
    sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
    inc_file[FILENAME, ++ninc[FILENAME]] = name
    inc_line[FILENAME, ninc[FILENAME]] = FNR
}
END {
    # resolve each include: the includer folder first (as the compiler does), then include/
    for (fi = 1; fi <= nfiles; fi++) for (i = 1; i <= ninc[f = order[fi]]; i++) {
        name = inc_file[f, i]
        p = join_path(dir_of(f), name)
        if (!(p in known)) p = join_path("include", name)
        # elsewhere in the tree: reachable with another -I, and still that file
        if (!(p in known)) p = (base_of(name) in byname) ? byname[base_of(name)] : ""
        from = role_of(f)
        # what the included file is: a file of the tree, else a generated header by name
        if (p != "") { to = role_of(p); hdr = p } else { to = hrole[base_of(name)]; hdr = base_of(name) }
        if (to == "" || from == "") continue
        if (p != "")
            succ[f] = succ[f] SUBSEP p
        private_bad = p ~ /^src\// && dir_of(p) != dir_of(f)
        if (!private_bad && (from, to) in may) continue
        key_b = base_of(p != "" ? p : name)
        if ((f, key_b) in allowed) { allow_used[f, key_b] = 1; continue }
        if (private_bad)
            why = "a header private to " dir_of(p) "/, included from outside it"
        else if (!(from in layer))
            why = "folder " dir_of(f) "/ is not in the layer table of scripts/check-layers.sh"
        else
            why = "layer " from " may not include layer " to
        printf "%s:%d: includes \"%s\" (%s): %s; see docs/architecture.md\n", f, inc_line[f, i], name, hdr, why
        bad = 1
    }
    # include cycles whose files have different roles (depth-first, iterative)
    for (si = 1; si <= nfiles; si++) {
        s = order[si]
        if (s in done) continue
        sp = 1; stack[1] = s; idx[1] = 0; onst[s] = 1
        while (sp > 0) {
            v = stack[sp]
            m = split(substr(succ[v], 2), nx, SUBSEP)
            if (idx[sp] < m) {
                u = nx[++idx[sp]]
                if (u in onst) {
                    # the cycle is stack[k..sp] -> u
                    for (k = sp; k > 0 && stack[k] != u; k--) ;
                    mixed = 0; path = ""
                    for (q = k; q <= sp; q++) {
                        if (role_of(stack[q]) != role_of(u)) mixed = 1
                        path = path stack[q] " (" role_of(stack[q]) ") -> "
                    }
                    if (mixed && !(path in seen_cycle)) {
                        seen_cycle[path] = 1
                        printf "include cycle between roles: %s%s\n", path, u
                        bad = 1
                    }
                } else if (!(u in done)) {
                    sp++; stack[sp] = u; idx[sp] = 0; onst[u] = 1
                }
            } else {
                delete onst[v]; done[v] = 1; sp--
            }
        }
    }
    for (k in allow_used) if (!allow_used[k]) {
        split(k, w, SUBSEP)
        printf "check-layers: note: allow-list entry \"%s %s\" matches nothing any more: remove it\n", w[1], w[2] > "/dev/stderr"
    }
    if (!bad) printf "check-layers: ok (%s)\n", top
    exit bad
}' $files
