#!/bin/sh
# The rxm variables ofishmem sets before loading libfabric unless the user did
# (ofi_getinfo), as SHMEM_INFO reports them: the eager size that holds 16 KiB of
# put-with-signal data and its header (16384 with SHMEM_OFI_AM_SIZE=0), and 1024
# receive buffers per endpoint in rxm's shared receive context (4096 by default:
# 100 MB more per PE); a user's FI_OFI_RXM_MSG_RX_SIZE wins, and with
# FI_OFI_RXM_USE_SRX set either way the size is left to rxm.  Singleton runs, then 9
# PEs: with every PE on this node and more than 4 per CPU (2 CPUs or fewer), a crowded
# node, where the eager size is 1056 unless the user set it; with more CPUs, 9 PEs are
# not crowded and keep the default.  Connection events are read every 100 us of polls
# (rxm's 10000 made every first message to a peer wait), a user's own value winning.
. "$(dirname "$0")/ofi_info.sh"
fail=0
prov='tcp;ofi_rxm'
expect() { info_expect 0 "$@"; }
q="FI_OFI_RXM_USE_SRX=(rxm's default)"
expect "rxm: eager size 16416 B (FI_OFI_RXM_BUFFER_SIZE), receive buffers FI_OFI_RXM_MSG_RX_SIZE=1024 $q"
expect "rxm: eager size 16384 B .* FI_OFI_RXM_MSG_RX_SIZE=1024 " SHMEM_OFI_AM_SIZE=0
expect "rxm: eager size 8224 B .* FI_OFI_RXM_MSG_RX_SIZE=300 $q" FI_OFI_RXM_MSG_RX_SIZE=300 \
    FI_OFI_RXM_BUFFER_SIZE=8224
expect "FI_OFI_RXM_MSG_RX_SIZE=(rxm's default) FI_OFI_RXM_USE_SRX=0" FI_OFI_RXM_USE_SRX=0
expect "FI_OFI_RXM_MSG_RX_SIZE=(rxm's default) FI_OFI_RXM_USE_SRX=1" FI_OFI_RXM_USE_SRX=1
expect "connection events every FI_OFI_RXM_CM_PROGRESS_INTERVAL=100 us"
expect "connection events every FI_OFI_RXM_CM_PROGRESS_INTERVAL=5000 us" \
    FI_OFI_RXM_CM_PROGRESS_INTERVAL=5000
ncpu=$(getconf _NPROCESSORS_ONLN)
if [ "$ncpu" -le 2 ]; then
    info_expect 9 "rxm: eager size 1056 B (FI_OFI_RXM_BUFFER_SIZE)"
else
    info_expect 9 "rxm: eager size 16416 B (FI_OFI_RXM_BUFFER_SIZE)"
fi
info_expect 9 "rxm: eager size 8224 B" FI_OFI_RXM_BUFFER_SIZE=8224
[ $fail -eq 0 ] && echo "ok"
exit $fail
