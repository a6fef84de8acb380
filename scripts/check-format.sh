#!/bin/sh
# check-format.sh: report C sources that differ from the style in .clang-format.
# usage: scripts/check-format.sh [-d] [--fix] [FILE...]
#   no FILE: every tracked *.c and *.h of the tree (git ls-files), generated ones excluded
#   -d      show the diff for each differing file
#   --fix   rewrite the named files in place (refuses to run on the whole tree:
#           name the files you own)
# Environment: CLANG_FORMAT (default: clang-format-14, then clang-format).
# Exit status: 0 all formatted, 1 some differ, 2 usage or tool missing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
diff_out=0
fix=0
while [ $# -gt 0 ]; do
    case "$1" in
        -d) diff_out=1 ;;
        --fix) fix=1 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) echo "check-format: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
    shift
done
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
    for c in clang-format-14 clang-format; do
        command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }
    done
fi
[ -n "$cf" ] || { echo "check-format: clang-format not found (Debian: clang-format-14)" >&2; exit 2; }
cd "$top" || exit 2
if [ $# -eq 0 ]; then
    [ $fix = 0 ] || { echo "check-format: --fix needs the files to rewrite" >&2; exit 2; }
    set -- $(git ls-files '*.c' '*.h' | grep -v -e '^_build' -e '/generated/')
fi
bad=0
# one clang-format for all the files tells which differ (--dry-run warns per change):
# one process per file took half a minute on a loaded machine
if [ $fix = 0 ] && [ $diff_out = 0 ] && [ $# -gt 1 ]; then
    for f in "$@"; do [ -f "$f" ] || { echo "check-format: $f: no such file" >&2; bad=1; }; done
    differ=$(for f in "$@"; do [ -f "$f" ] && printf '%s\n' "$f"; done |
        xargs "$cf" --style=file --dry-run 2>&1 | sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: .*/\1/p' | sort -u)
    set -- $differ
fi
for f in "$@"; do
    [ -f "$f" ] || { echo "check-format: $f: no such file" >&2; bad=1; continue; }
    if [ $fix = 1 ]; then
        "$cf" --style=file -i "$f" || bad=1
        continue
    fi
    n=$("$cf" --style=file "$f" | diff "$f" - | grep -c '^>')
    if [ "$n" -gt 0 ]; then
        echo "$f: $n lines differ"
        [ $diff_out = 1 ] && "$cf" --style=file "$f" | diff -u "$f" - | sed 1,2d
        bad=1
    fi
done
exit $bad
