# Sourced by the SHMEM_INFO checks (check_ofi_rxm_env.sh, check_ofi_am_ep.sh).
# info_expect NPES REGEX [VAR=VALUE...]: runs the seed program on the OFI route with
# SHMEM_INFO=1, provider $prov and the variables given, without a launcher when NPES
# is 0, else on NPES PEs through $OSHRUN (scripts/oshrun); sets fail=1 and shows the
# program's OFI lines when it fails or prints no line matching REGEX.
info_expect() {
    np=$1 re=$2
    shift 2
    if [ "$np" = 0 ]; then
        out=$(env SHMEM_INFO=1 SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER="$prov" "$@" \
            test/functional/hello 2>&1)
    else
        out=$(env SHMEM_INFO=1 SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER="$prov" "$@" \
            "${OSHRUN:-scripts/oshrun}" -np "$np" test/functional/hello 2>&1)
    fi
    rc=$?
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q "$re"; then
        echo "FAIL: $prov, $np PEs, with '$*' (exit $rc): no line matching: $re"
        echo "$out" | grep 'ofishmem ofi'
        fail=1
    fi
}
