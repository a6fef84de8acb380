#!/bin/sh
# gen-env-man.sh: fill a man page template from the parameter table.
# usage: gen-env-man.sh OFISHMEM_INFO [NAME_REGEX] < page.in > page
# Every line "@ENV_PARAMETERS@" of the template becomes one .TP entry per variable
# printed by `ofishmem_info --params` (name, type, default, help and the values
# accepted), under one .SS per category of the table, or restricted to the names
# matching NAME_REGEX when given (then without the .SS).  The table
# (include/ofs_env_defs.h) is the only source: the page cannot drift from it.
info=$1
filter=${2:-.}
params=$("$info" --params) || { echo "gen-env-man: $info --params failed" >&2; exit 1; }
[ -n "$params" ] || { echo "gen-env-man: $info --params printed nothing" >&2; exit 1; }
printf '%s\n' "$params" > "${TMPDIR:-/tmp}/gen-env-man.$$"
awk -v pfile="${TMPDIR:-/tmp}/gen-env-man.$$" -v filter="$filter" '
function roff(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    if (s ~ /^[.\047]/) s = "\\&" s
    return s
}
function emit(   line, name, type, def, help, n, range, k, title, pending) {
    n = 0
    while ((getline line < pfile) > 0) {
        # a category: "core: start-up, ..." starts a subsection of the whole list
        if (line ~ /^[a-z]+: /) {
            title = substr(line, index(line, ": ") + 2)
            pending = filter == "." ? toupper(substr(title, 1, 1)) substr(title, 2) : ""
            continue
        }
        # "  SHMEM_NAME  TYPE  DEFAULT  HELP", the columns apart by two spaces at least
        if (line !~ /^  SHMEM_[A-Z0-9_]+  +(SIZE|LONG|BOOL|STRING|ENUM)  /) continue
        help = substr(line, 3)
        for (k = 1; k <= 3; k++) {
            match(help, /  +/)
            f[k] = substr(help, 1, RSTART - 1)
            help = substr(help, RSTART + RLENGTH)
        }
        name = f[1]; type = f[2]; def = f[3] == "\"\"" ? "" : f[3]
        # the accepted values end the help: "; range [MIN, MAX]", "; auto or range
        # [MIN, MAX]", "; one of a, b", "; not empty", "; an absolute path"
        range = ""
        if (match(help, /; ((auto or )?range \[[^]]*\]|one of [^;]*|not empty|an absolute path)$/)) {
            range = ", " roff(substr(help, RSTART + 2))
            help = substr(help, 1, RSTART - 1)
        }
        if (substr(name, 7) !~ filter) continue
        if (pending != "") {
            printf ".SS %s\n", roff(pending)
            pending = ""
        }
        print ".TP"
        printf ".B %s\n", roff(name)
        printf "%s, default %s%s.\n", tolower(type) == "enum" ? "word" : tolower(type), def == "" ? "empty" : "\\fB" roff(def) "\\fR", range
        print roff(help) "."
        n++
    }
    close(pfile)
    if (n == 0) { print "gen-env-man: no parameters matched" > "/dev/stderr"; exit 1 }
}
$0 == "@ENV_PARAMETERS@" { emit(); next }
{ print }' 
rc=$?
rm -f "${TMPDIR:-/tmp}/gen-env-man.$$"
exit $rc
