#!/bin/sh
# gen-env-man.sh: fill a man page template from the parameter table.
# usage: gen-env-man.sh OFISHMEM_INFO [NAME_REGEX] < page.in > page
# Every line "@ENV_PARAMETERS@" of the template becomes one .TP entry per variable
# printed by `ofishmem_info --params` (name, type, default, help and the values
# accepted), restricted to the names matching NAME_REGEX when given.  The table (include/ofs_env_defs.h) is the
# only source: the page cannot drift from it.
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
function emit(   line, name, type, rest, def, help, n, range) {
    n = 0
    while ((getline line < pfile) > 0) {
        # "  SHMEM_NAME<sp>TYPE<sp>DEFAULT(12 wide)<sp>HELP"
        if (line !~ /^  SHMEM_[A-Z0-9_]+ +(SIZE|LONG|BOOL|STRING) /) continue
        split(substr(line, 3), f, / +/)
        name = f[1]; type = f[2]
        match(line, /^  SHMEM_[A-Z0-9_]+ +/)
        rest = substr(line, RLENGTH + 9) # the type column is 7 wide, then a space
        if (substr(rest, 13, 1) == " " && substr(rest, 1, 12) ~ /^ *$/) {
            def = ""; help = substr(rest, 14)
        } else if (substr(rest, 13, 1) == " ") {
            def = substr(rest, 1, 12); sub(/ +$/, "", def); help = substr(rest, 14)
        } else {
            def = rest; sub(/ .*/, "", def); help = substr(rest, length(def) + 2)
        }
        sub(/^ +/, "", help)
        # the accepted values end the help: "; range [MIN, MAX]", "; one of a, b",
        # "; not empty", "; an absolute path"
        range = ""
        if (match(help, /; (range \[[^]]*\]|one of [^;]*|not empty|an absolute path)$/)) {
            range = ", " roff(substr(help, RSTART + 2))
            help = substr(help, 1, RSTART - 1)
        }
        if (substr(name, 7) !~ filter) continue
        print ".TP"
        printf ".B %s\n", roff(name)
        printf "%s, default %s%s.\n", tolower(type), def == "" ? "empty" : "\\fB" roff(def) "\\fR", range
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
