# Checks shared by the failure tests (sourced by the bash scripts of this directory).

# ofishmem objects in /dev/shm, sorted
shm_objects() { ls /dev/shm | grep '^ofishmem-' | sort; }

# Objects that appeared since $1 (an earlier shm_objects) and stayed: looked at twice,
# a second apart, so that another job's objects (named only for the moment of its
# start-up) are not counted.
shm_objects_added() {
    local added
    added=$(comm -13 <(echo "$1") <(shm_objects))
    if [ -n "$added" ]; then
        sleep 1
        added=$(comm -12 <(echo "$added") <(shm_objects))
    fi
    echo "$added"
}

# Live (non-zombie) processes named $1 of this build: other builds on the machine may
# be running their own tests.
live_procs() {
    ps -C "$1" -o pid=,stat=,args= 2>/dev/null |
        awk -v d="$PWD/" '$2 !~ /^Z/ && index($3, d) == 1 {print $1}'
}
