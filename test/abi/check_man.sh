#!/bin/sh
# Man pages: "make install-data" into a temporary DESTDIR, then for EVERY routine name of
# the OpenSHMEM 1.5 list ($1), and with "--exports REGEX" of every name that libsma exports
# and REGEX matches ('^shmemx_': the extensions, each typed shmemx_*_nb included):
#   - man -w finds a page for it, under that DESTDIR (never a system page);
#   - the page found (after .so stubs) is its family page: the name is in the page's
#     NAME or SYNOPSIS, literally or as a pattern (shmem_TYPENAME_broadcast,
#     shmem_TYPENAME_OP_reduce: TYPENAME any type name, OP any reduction operator);
# every installed page that is not a .so stub renders without a groff warning
# (man --warnings, and groff -ww; not with --no-render: for a second list over the same
# pages, whose rendering api/man-pages checks), every stub points at an installed page
# that is not a stub itself, and "make uninstall" leaves no page behind.
# Run from the build directory (the test runner does).
set -e
usage="usage: check_man.sh ROUTINE_LIST [--exports REGEX] [--no-render]"
list=${1:?$usage}
shift
exports= render=1
while [ $# -gt 0 ]; do
    case "$1" in
        --exports) exports=${2:?$usage}; shift ;;
        --no-render) render=0 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
command -v man >/dev/null && command -v groff >/dev/null || { echo "SKIP: man or groff missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/inst
make -s install-data DESTDIR="$dest" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
man3=$(find "$dest" -type d -name man3 | head -n 1)
[ -n "$man3" ] || { echo "FAIL: no man3 directory installed"; exit 1; }
mandir=${man3%/man3}
fail=0

# every stub (a one-line ".so man3/PAGE.3") resolves to an installed page that is not a stub
(cd "$man3" && grep -l '^\.so ' -- *.3 || true) > "$tmp/stubs"
(cd "$man3" && grep -L '^\.so ' -- *.3 || true) > "$tmp/pages"
nstub=$(wc -l < "$tmp/stubs")
(cd "$man3" && xargs awk 'FNR == 1 && /^\.so / { t = $2; sub(/^man3\//, "", t); print FILENAME, t } FNR == 2 { print FILENAME, "MORE" }' < "$tmp/stubs") > "$tmp/stubmap"
awk 'FNR == NR { page[$1] = 1; next } $2 == "MORE" { print "FAIL: stub " $1 " has more than one line"; bad = 1; next }
     !($2 in page) { print "FAIL: " $1 " points at " $2 ", which is not an installed page (or is a stub)"; bad = 1 }
     END { exit bad }' "$tmp/pages" "$tmp/stubmap" || fail=1
while read -r p; do
    f=$man3/$p
    [ -s "$f" ] || { echo "FAIL: $p is empty"; fail=1; continue; }
    w= w2=
    if [ $render = 1 ]; then
        w=$(cd "$tmp" && LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null) || true
        w2=$(groff -man -ww -z "$f" 2>&1) || true
    fi
    if [ -n "$w$w2" ]; then
        echo "FAIL: $p renders with warnings:"; echo "$w"; echo "$w2"; fail=1
    fi
    # the names this page documents: tokens of NAME and SYNOPSIS (font escapes removed)
    sed -n '/^\.SH NAME/,/^\.SH DESCRIPTION/p' "$f" | sed 's/\\f[BIRP]//g' |
        grep -o '[A-Za-z_][A-Za-z0-9_]*' | sort -u | sed "s|^|${p%.3} |" >> "$tmp/tokens"
done < "$tmp/pages"
[ "$(wc -l < "$tmp/pages")" -gt 0 ] || { echo "FAIL: no page installed"; fail=1; }

# one man -w for all names (in order; a missing name makes man complain on stderr)
names=$(grep -v '^#' "$list" | grep .)
if [ -n "$exports" ]; then
    x=$(nm -D --defined-only .libs/libsma.so | awk '{print $3}' | grep -E "$exports" | sort -u)
    [ -n "$x" ] || { echo "FAIL: libsma exports no name matching $exports"; exit 1; }
    names=$(printf '%s\n%s\n' "$names" "$x" | sort -u)
    list="$list and the $(echo "$x" | wc -l) exports matching $exports"
fi
n=$(echo "$names" | wc -l)
(cd "$tmp" && MANPATH="$mandir" man -w 3 $names) > "$tmp/where" 2> "$tmp/missing" || true
if [ -s "$tmp/missing" ]; then
    echo "FAIL: names without a page:"; sed 's/^/  /' "$tmp/missing"; fail=1
elif [ "$(wc -l < "$tmp/where")" -ne "$n" ]; then
    echo "FAIL: man -w gave $(wc -l < "$tmp/where") paths for $n names"; fail=1
else
    echo "$names" | paste -d ' ' - "$tmp/where" > "$tmp/pairs"
    awk -v man3="$man3" '
        FNR == NR {
            tok = $2
            if (tok ~ /TYPENAME/) {
                gsub(/TYPENAME/, "[a-z0-9]+", tok)
                gsub(/_OP_/, "_(and|or|xor|max|min|sum|prod)_", tok)
                pat[$1] = pat[$1] " ^" tok "$"
            } else
                lit[$1 " " tok] = 1
            next
        }
        {
            name = $1; path = $2
            if (index(path, man3 "/") != 1) { print "FAIL: " name " resolves outside DESTDIR: " path; bad = 1; next }
            page = path; sub(/.*\//, "", page); sub(/\.3(\.gz)?$/, "", page)
            if ((page " " name) in lit) { ok++; next }
            np = split(pat[page], p, " ")
            for (i = 1; i <= np; i++) if (name ~ p[i]) { ok++; next }
            print "FAIL: " name " resolves to " page ".3, which does not document it"; bad = 1
        }
        END { exit bad }' "$tmp/tokens" "$tmp/pairs" || fail=1
fi

# uninstall removes every page (the man part of "make uninstall": the rest was not installed)
make -s uninstall-man uninstall-hook DESTDIR="$dest" >"$tmp/uninstall.log" 2>&1 || { cat "$tmp/uninstall.log"; fail=1; }
left=$(find "$dest" -name '*.3' | wc -l)
[ "$left" -eq 0 ] || { echo "FAIL: $left man pages left after make uninstall"; fail=1; }

[ $fail -eq 0 ] || exit 1
rendered="pages render without warnings"
[ $render = 1 ] || rendered="rendering not checked (--no-render)"
echo "ok: $n names of $list resolve to their family page ($nstub stubs); $rendered; uninstall removes them"
