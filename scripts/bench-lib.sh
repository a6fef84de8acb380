# The benchmark scripts' command line (sourced by scripts/bench-*.sh and ofi-compare.sh).
#
# bench_args NAME HELP_LAST SPEC ARGS...: parse the options ARGS by SPEC, whose words are
# "OPT:VAR" (OPT takes a value, stored in VAR) and "OPT+VAR=VALUE" (OPT alone sets VAR to
# VALUE).  -h or --help prints lines 2..HELP_LAST of the script (its header comment) and
# exits; any other argument is an error ("NAME: unknown argument ARG", status 2), unless
# it matches the case pattern in bench_stop (e.g. '*=*'), which ends the options.
# bench_used: how many arguments were options (the caller shifts them away).
bench_args() {
    _bname=$1 _bhelp=$2 _bspec=$3
    shift 3
    bench_used=0
    while [ $# -gt 0 ]; do
        case "$1" in -h | --help) sed -n "2,${_bhelp}p" "$0"; exit 0 ;; esac
        if [ -n "${bench_stop:-}" ]; then
            # shellcheck disable=SC2254 # a pattern
            case "$1" in $bench_stop) return 0 ;; esac
        fi
        _bn=0
        for _bw in $_bspec; do
            case "$_bw" in
                "$1:"*)
                    [ $# -ge 2 ] || { echo "$_bname: $1 needs a value" >&2; exit 2; }
                    eval "${_bw#*:}=\$2"; _bn=2; break ;;
                "$1+"*) eval "${_bw#*+}"; _bn=1; break ;;
            esac
        done
        [ $_bn -gt 0 ] || { echo "$_bname: unknown argument $1" >&2; exit 2; }
        shift $_bn
        bench_used=$((bench_used + _bn))
    done
}
