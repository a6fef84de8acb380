"""A tiny Python binding of ofishmem built the way binding projects build theirs:
cffi in API mode, compiled by oshcc with OSHCC set to oshcc itself (as their build
systems do), then run on several PEs: put, get, an atomic and a barrier.

usage: cffi_smoke.py build BUILDDIR OUTDIR | run OUTDIR
"""
import os
import sys


def build(builddir, outdir):
    import cffi

    ffi = cffi.FFI()
    ffi.cdef("""
        void shmem_init(void);
        void shmem_finalize(void);
        int shmem_my_pe(void);
        int shmem_n_pes(void);
        void shmem_barrier_all(void);
        void *shmem_malloc(size_t size);
        void shmem_free(void *ptr);
        void shmem_long_put(long *dest, const long *source, size_t nelems, int pe);
        void shmem_long_get(long *dest, const long *source, size_t nelems, int pe);
        long shmem_long_atomic_fetch_add(long *dest, long value, int pe);
        int ofs_vendor_numversion(void);
    """)
    ffi.set_source(
        "_ofs_smoke",
        """
        #include <shmem.h>
        #ifndef OFISHMEM_NUMVERSION
        #error shmem.h does not say it is ofishmem
        #endif
        static int ofs_vendor_numversion(void) { return OFISHMEM_NUMVERSION; }
        """,
        include_dirs=[os.path.join(builddir, "mpp")],
        library_dirs=[os.path.join(builddir, ".libs")],
        libraries=["sma"],
        extra_link_args=["-Wl,-rpath," + os.path.join(builddir, ".libs")],
    )
    ffi.compile(tmpdir=outdir, verbose=False)


def run():
    from _ofs_smoke import ffi, lib

    lib.shmem_init()
    me, n = lib.shmem_my_pe(), lib.shmem_n_pes()
    errors = 0
    if lib.ofs_vendor_numversion() <= 0:
        errors += 1
    count = 64
    buf = ffi.cast("long *", lib.shmem_malloc(count * ffi.sizeof("long")))
    counter = ffi.cast("long *", lib.shmem_malloc(ffi.sizeof("long")))
    counter[0] = 0
    src = ffi.new("long[]", [me * 1000 + i for i in range(count)])
    lib.shmem_barrier_all()
    right = (me + 1) % n
    lib.shmem_long_put(buf, src, count, right)
    lib.shmem_long_atomic_fetch_add(counter, me + 1, 0)
    lib.shmem_barrier_all()
    left = (me - 1) % n
    if [buf[i] for i in range(count)] != [left * 1000 + i for i in range(count)]:
        errors += 1
        print(f"PE {me}: put data wrong", file=sys.stderr)
    got = ffi.new("long[]", count)
    lib.shmem_long_get(got, buf, count, right)
    if list(got) != [me * 1000 + i for i in range(count)]:
        errors += 1
        print(f"PE {me}: get data wrong", file=sys.stderr)
    if me == 0 and counter[0] != n * (n + 1) // 2:
        errors += 1
        print(f"PE 0: counter {counter[0]}, expected {n * (n + 1) // 2}", file=sys.stderr)
    lib.shmem_barrier_all()
    lib.shmem_free(buf)
    lib.shmem_free(counter)
    if me == 0:
        print(f"cffi binding on {n} PEs: {'ok' if not errors else 'FAILED'}")
    lib.shmem_finalize()
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "build":
        build(os.path.abspath(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "run":
        sys.path.insert(0, sys.argv[2])
        sys.exit(run())
    else:
        sys.exit(__doc__)
