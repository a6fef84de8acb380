# Checks shared by the failure tests (sourced by the bash scripts of this directory).

# ofishmem objects in /dev/shm, sorted
shm_objects() { ls /dev/shm | grep '^ofishmem-' | sort; }

# Objects that appeared since $1 (an earlier shm_objects) and stayed: looked at twice,
# a second apart, so that another job's objects (named only for the moment of its
# start-up) are not counted; and only objects whose creator (the pid in the name,
# ofishmem-JOB-PE-KIND-KEY-PID-PIDNS) has ended, since a live PE of another job running
# beside the tests (a long one keeps its objects) owns what it holds.
shm_objects_added() {
    local added obj pid
    added=$(comm -13 <(echo "$1") <(shm_objects))
    if [ -n "$added" ]; then
        sleep 1
        added=$(comm -12 <(echo "$added") <(shm_objects))
    fi
    for obj in $added; do
        pid=$(echo "$obj" | awk -F- '{print $(NF-1)}')
        case "$pid" in
            '' | *[!0-9]*) echo "$obj" ;;
            *) kill -0 "$pid" 2>/dev/null || echo "$obj" ;;
        esac
    done
}

# The processes named $1 still alive after the job: looked at at once and, while there
# are some, again every 0.1 s until 0.3 s have passed (a PE on its way out); prints
# the pids left then.
stray_procs() {
    local left i
    for i in 1 2 3 4; do
        left=$(live_procs "$1")
        [ -z "$left" ] && return 0
        [ $i = 4 ] || sleep 0.1
    done
    echo $left
}

# Bytes written into the pipe $1 (/proc/PID/fd/N) and not read yet; 0 when it cannot
# tell (not a pipe, no python3).  Opening a pipe's /proc entry for reading and asking
# FIONREAD takes nothing out of it.
pipe_pending() {
    python3 -c 'import fcntl, os, struct, sys, termios
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
print(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0])' "$1" 2>/dev/null || echo 0
}

# Live (non-zombie) processes named $1 of this build and this test: other builds on
# the machine may be running their own tests, told apart by the executable's own path
# (the launcher may have started it by a relative one); tests of this run beside this
# one (TEST_JOBS), by the OFS_TEST_ID the runner gave each test, which PEs inherit.
live_procs() {
    local p s
    ps -C "$1" -o pid=,stat= 2>/dev/null | while read -r p s; do
        case $s in Z*) continue ;; esac
        case $(readlink "/proc/$p/exe" 2>/dev/null) in "$PWD"/*) ;; *) continue ;; esac
        if [ -n "${OFS_TEST_ID:-}" ]; then
            tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OFS_TEST_ID=$OFS_TEST_ID" || continue
        fi
        echo "$p"
    done
}
