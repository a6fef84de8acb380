/*
 * The one table of runtime parameters.  Each row is
 *   OFS_ENV(NAME, CATEGORY, TYPE, DEFAULT, RANGE, HELP)
 * where the environment variable is SHMEM_<NAME> (the params field is NAME),
 * CATEGORY is CORE, SHM, OFI, COLL or DEBUG (the listings group by it; a parameter
 * only the OFI route reads is OFI and has OFI in its name), and TYPE is one of
 * SIZE (bytes, K/M/G/T suffixes), LONG, BOOL (0/1/yes/no/true/false/on/off), STRING,
 * ENUM (one word of a list; the field holds its index as OFS_<NAME>_<WORD>).
 * RANGE is what the parser accepts, a value outside it stops shmem_init with a
 * message naming the variable:
 *   SIZE, LONG  "MIN..MAX" (both included; SIZE bounds may carry suffixes), or
 *               "auto|MIN..MAX": also the word auto (or -1, its old spelling), stored
 *               as OFS_PARAM_AUTO, for a value the transport chooses; the DEFAULT of such
 *               a row is "auto (RULE)", RULE saying what auto becomes, and the
 *               transport reports what it chose with ofs_param_resolved()
 *   BOOL        ""
 *   STRING      "" (anything, empty included), "<nonempty>" or "<abspath>" (a path
 *               starting with '/')
 *   ENUM        OFS_WORDS_<NAME>, a list of the words: W(r, CONSTANT, "word") each
 * It generates struct ofs_params, the constants, the parser, the SHMEM_INFO listing,
 * the info tool's listing and the environment section of man page ofishmem(7).
 * A renamed parameter keeps its old name as OFS_ENV_ALIAS(OLD, NEW) at the end: the
 * old name is still read, with a deprecation warning.
 * Add rows at the end of the block for your layer; keep HELP to one sentence.
 */
#ifndef OFS_ENV_ALIAS
#define OFS_ENV_ALIAS(old, new)
#define OFS_ENV_ALIAS_UNUSED
#endif

/* the words of the ENUM rows, in order (redefined identically at each inclusion) */
#define OFS_WORDS_LOCAL_TRANSPORT(W, r) W(r, SHM, "shm") W(r, OFI, "ofi")
#define OFS_WORDS_OFI_AM_EP(W, r) W(r, AUTO, "auto") W(r, TARGET, "target") W(r, CONTEXT, "context")
#define OFS_WORDS_BARRIER_ALGORITHM(W, r) \
    W(r, AUTO, "auto")                    \
    W(r, DISSEMINATION, "dissemination") W(r, TREE, "tree") W(r, SHM, "shm") W(r, HIER, "hier")
#define OFS_WORDS_BCAST_ALGORITHM(W, r)          \
    W(r, AUTO, "auto")                           \
    W(r, BINOMIAL, "binomial")                   \
    W(r, SCATTER_ALLGATHER, "scatter_allgather") \
    W(r, LINEAR, "linear") W(r, SHM, "shm") W(r, HIER, "hier") W(r, INLINE, "inline")
#define OFS_WORDS_REDUCE_ALGORITHM(W, r)           \
    W(r, AUTO, "auto")                             \
    W(r, RECURSIVE_DOUBLING, "recursive_doubling") \
    W(r, RABENSEIFNER, "rabenseifner")             \
    W(r, LINEAR, "linear")                         \
    W(r, SHM, "shm") W(r, HIER, "hier") W(r, INLINE, "inline") W(r, SLICES, "slices")
#define OFS_WORDS_COLLECT_ALGORITHM(W, r) \
    W(r, AUTO, "auto")                    \
    W(r, RING, "ring")                    \
    W(r, BRUCK, "bruck") W(r, LINEAR, "linear") W(r, HIER, "hier") W(r, INLINE, "inline")
#define OFS_WORDS_MSG_CMA(W, r) W(r, AUTO, "auto") W(r, OFF, "0") W(r, ON, "1") W(r, REST, "rest")
#define OFS_WORDS_ALLTOALL_ALGORITHM(W, r) \
    W(r, AUTO, "auto") W(r, PAIRWISE, "pairwise") W(r, LINEAR, "linear") W(r, HIER, "hier")

/* setup and symmetric memory (spec variables first) */
OFS_ENV(SYMMETRIC_SIZE, CORE, SIZE, "512M", "1..65536T",
        "Bytes of symmetric heap per PE (K/M/G/T suffixes); shmem_malloc returns NULL beyond it; "
        "unset, the default is lowered (with a warning) where SHMEM_SHM_DIR cannot hold it")
OFS_ENV(DEBUG, DEBUG, BOOL, "0", "",
        "Print debugging messages and turn on the costlier argument checks, among them the "
        "check of mismatched collectives: members of a team or active set calling different "
        "collectives (or roots, counts, operators, types) as the same collective of the group "
        "end the job with a line naming both calls instead of hanging")
OFS_ENV(INFO, CORE, BOOL, "0", "", "Print every parameter with its value and help at init (PE 0)")
OFS_ENV(VERSION, CORE, BOOL, "0", "", "Print the library version at init (PE 0)")
OFS_ENV(EXIT_TIMEOUT, CORE, LONG, "60", "0..86400",
        "Seconds the shmem_finalize run at exit, for a program that ends with status 0 without "
        "calling it, "
        "waits for the other PEs to end theirs before it ends the job (0: no limit)")
OFS_ENV(ORPHAN_GRACE, CORE, LONG, "30", "0..86400",
        "Seconds a PE whose launcher died has to end after the SIGTERM it sends itself (its "
        "handlers run) before it exits regardless")

/* routing between transports */
OFS_ENV(LOCAL_TRANSPORT, CORE, ENUM, "shm", OFS_WORDS_LOCAL_TRANSPORT,
        "How same-node PEs are reached: shm (load/store on mapped memory) or ofi (libfabric)")
OFS_ENV(SIM_PES_PER_NODE, DEBUG, LONG, "0", "0..1048576",
        "Testing: treat each block of N consecutive PEs as one node (0: real locality)")

/* two-sided messages (shmemx_send; docs/messages.md) */
OFS_ENV(MSG_RING_SIZE, CORE, SIZE, "auto (2M / PEs, 256 to 128K + 256)", "auto|0..1G",
        "Bytes of symmetric memory each PE keeps for the messages of each source PE (0: "
        "messages off)")
OFS_ENV(MSG_EAGER_SIZE, CORE, SIZE, "auto (32K, at most a quarter of the ring less 64)",
        "auto|0..1M",
        "Messages up to this many bytes travel inside the ring; longer ones by rendezvous")
OFS_ENV(MSG_STAGE_SIZE, CORE, SIZE, "1M", "4K..1G",
        "Symmetric bytes per PE that long messages from private buffers are staged through")
OFS_ENV(MSG_PIECE_SIZE, CORE, SIZE, "32K", "4K..1G",
        "Long messages from private buffers are staged and pulled in pieces of at most this "
        "size (and a quarter of the stage), so that copying in and pulling out overlap")
OFS_ENV(MSG_CMA, CORE, ENUM, "auto", OFS_WORDS_MSG_CMA,
        "Long messages from private buffers to PEs of the same node: 1: read by the receiver "
        "straight from the sender's memory (process_vm_readv: one copy) where the kernel "
        "allows it; 0: through the stage (two copies, pipelined); rest: through the stage while "
        "it has room, the rest of a message by CMA once it has stayed full for 50 us (the "
        "receiver lags); auto: 1 where the node has more PEs than CPUs, else rest")

/* shared-memory transport */
OFS_ENV(SHM_DIR, SHM, STRING, "/dev/shm", "<abspath>",
        "Directory (a tmpfs) holding the shared-memory objects of heaps and static data")

/* OFI transport */
OFS_ENV(OFI_PROVIDER, OFI, STRING, "", "",
        "libfabric provider to use (e.g. 'tcp;ofi_rxm', shm); empty: FI_PROVIDER or the first "
        "suitable one")
OFS_ENV(OFI_FABRIC, OFI, STRING, "", "",
        "libfabric fabric to use (a name from fi_info, e.g. an IP subnet for tcp); empty: any")
OFS_ENV(OFI_DOMAIN, OFI, STRING, "", "",
        "libfabric domain to use, which chooses the NIC (a name from fi_info, e.g. eth0 or "
        "mlx5_0); empty: the provider's first")
OFS_ENV(OFI_INJECT_SIZE, OFI, SIZE, "auto (the provider's inject size)", "auto|0..1G",
        "Largest put sent by inject (auto: the provider's inject size, which this can only lower; "
        "0 disables inject)")
OFS_ENV(OFI_BOUNCE_SIZE, OFI, SIZE, "auto (8K with shm, else 32K)", "auto|0..1G",
        "Largest put copied into a registered bounce buffer (0 disables; auto: 8K with the shm "
        "provider, whose zero-copy writes are CMA copies, else 32K); larger puts are zero-copy")
OFS_ENV(OFI_AM_SIZE, OFI, SIZE, "auto (16K with tcp;ofi_rxm, else 4K)", "auto|0..1G",
        "Largest put-with-signal over the OFI route sent as messages that the target PE "
        "applies (auto: 16K with tcp;ofi_rxm, else 4K; 0: every put-with-signal is a write and an "
        "atomic); larger ones write their data, then send the signal by message")
OFS_ENV(OFI_AM_PART, OFI, SIZE, "auto (what its fastest protocol carries)", "auto|0..1G",
        "Largest data in one put-with-signal message; more goes in several (auto: what the "
        "provider sends by its fastest protocol with the 32-byte header: shm's inject size, "
        "tcp;ofi_rxm's eager size, else what a bounce buffer holds)")
OFS_ENV(OFI_AM_EP, OFI, ENUM, "auto", OFS_WORDS_OFI_AM_EP,
        "Endpoint put-with-signal messages leave from: context (each context's own), target "
        "(the PE's target endpoint, so that messages between two PEs share one connection, "
        "but a signal after plain puts to its PE waits for them; SHMEM_CTX_PRIVATE contexts "
        "and messages to the PE itself: their context's) or auto (default: target unless the "
        "node has more PEs than CPUs)")
OFS_ENV(OFI_BOUNCE_BUFFERS, OFI, LONG, "64", "0..65536",
        "Number of bounce buffers per OFI context (0 disables the bounce path)")
OFS_ENV(OFI_MAX_CHUNK, OFI, SIZE, "0", "0..1T",
        "Largest single fi_write/fi_read; longer transfers are chunked (0: the provider's "
        "max_msg_size)")
OFS_ENV(
    OFI_PROGRESS_INTERVAL, OFI, LONG, "1000", "0..1000000000000",
    "Longest sleep of the passive-target progress thread in microseconds (0 disables the thread)")
OFS_ENV(OFI_PROGRESS_HOT, OFI, LONG, "0", "0..1000000000",
        "Microseconds the OFI progress thread polls, yielding the CPU between polls, after the "
        "last remote access aimed at this PE (for PEs with a core each; 0: it only sleeps, "
        "briefly right after remote accesses)")
OFS_ENV(OFI_PUT_FLUSH, DEBUG, BOOL, "0", "",
        "Testing: quiet flushes puts with an atomic read even where the provider writes them "
        "in place (shm by CMA)")
OFS_ENV(OFI_PUT_DELIVERY, DEBUG, BOOL, "0", "",
        "Testing: blocking zero-copy puts wait for delivery too, where they would wait only "
        "until their source is reusable and leave quiet a read to flush (providers with delivery "
        "completion that order reads after writes: tcp;ofi_rxm, sockets, udp;ofi_rxd)")
OFS_ENV(OFI_AMO_CASLOOP, DEBUG, BOOL, "0", "",
        "Testing: run every OFI atomic but compare-swap as a compare-swap loop (the fallback path)")
OFS_ENV(OFI_CTX_SHARE, OFI, BOOL, "1", "",
        "Below SHMEM_THREAD_MULTIPLE, the contexts of shmem_ctx_create use the default "
        "context's OFI endpoint and connections (a quiet on one of them then also completes "
        "the others' operations), and under SHMEM_THREAD_MULTIPLE those that are not private "
        "share SHMEM_OFI_CTX_ENDPOINTS endpoints; 0: each opens its own")
OFS_ENV(OFI_CTX_ENDPOINTS, OFI, LONG, "0", "0..1048576",
        "Under SHMEM_THREAD_MULTIPLE, the most endpoints the contexts of shmem_ctx_create that "
        "are not SHMEM_CTX_PRIVATE open; a context created past it shares the least used one "
        "(default 0: one per CPU the PE may run on, at least 4)")
OFS_ENV(OFI_CQ_SIZE, OFI, LONG, "256", "1..1048576",
        "Entries of each context's completion queue (bounce-buffer completions and errors)")
OFS_ENV(OFI_RAISE_NOFILE, OFI, BOOL, "1", "",
        "Raise the soft open-file limit (ulimit -n) to the hard one at init when the OFI route "
        "is used (over tcp;ofi_rxm each context holds about 8 descriptors and a socket per PE "
        "it reaches)")
OFS_ENV(OFI_MR_MODE, OFI, STRING, "auto", "<nonempty>",
        "Memory registration: auto, basic or scalable (mode asked of the provider), then +local "
        "and/or +endpoint to act as if the provider required FI_MR_LOCAL/FI_MR_ENDPOINT")
OFS_ENV(OFI_LIBRARY, OFI, STRING, "", "",
        "The libfabric shared library (a path, or a name dlopen searches for) loaded when the "
        "job needs the OFI route, which is the only time it is loaded; empty: the one "
        "ofishmem was built against (ofishmem_info names it)")
OFS_ENV(OFI_KERNEL_SYMBOLS, OFI, BOOL, "0", "",
        "Let libfabric's providers read /proc/kallsyms when they load in the first fi_getinfo "
        "(libfabric 1.17's verbs provider scans all of it for peer-memory and dma-buf support, "
        "about 0.1 s of CPU per PE; ofishmem never registers device memory).  0: that file "
        "looks absent to them then (the shared library only)")

/* collectives and teams */
OFS_ENV(TEAMS_MAX, COLL, LONG, "64", "2..65536",
        "Most teams that can exist at once (each reserves synchronization space in the heap)")
OFS_ENV(BARRIER_ALGORITHM, COLL, ENUM, "auto", OFS_WORDS_BARRIER_ALGORITHM,
        "Barrier algorithm (shm: for same-node teams; hier: for teams spanning "
        "nodes, the node part through shared memory and one leader per node over the fabric, "
        "what auto picks there; on a one-node team hier runs as auto; auto takes the tree "
        "for 3 or more PEs of one host that talk over the fabric, else dissemination)")
OFS_ENV(BCAST_ALGORITHM, COLL, ENUM, "auto", OFS_WORDS_BCAST_ALGORITHM,
        "Broadcast algorithm (shm: for same-node teams, through the root's ring of slots; "
        "inline: a same-node team's broadcast of up to 120 bytes carried in the root's "
        "counters, what auto picks there; hier: for teams spanning "
        "nodes, the node part through shared memory and one leader per node over the fabric, "
        "what auto picks there; on a one-node team hier runs as auto; over the fabric auto "
        "takes linear for up to 8 members of one host and 64 KiB, else binomial, "
        "scatter_allgather from 1 MiB at 16 or more members)")
OFS_ENV(REDUCE_ALGORITHM, COLL, ENUM, "auto", OFS_WORDS_REDUCE_ALGORITHM,
        "Reduction algorithm (shm: for same-node teams; inline: a same-node team's reduction "
        "of up to 120 bytes of elements of up to 8 bytes through the members' counters, what "
        "auto picks there; hier: for teams spanning "
        "nodes, the node part through shared memory and one leader per node over the fabric, "
        "what auto picks there; on a one-node team hier runs as auto; slices: each member "
        "gets its slice of every source and puts the result into every dest, what auto picks "
        "over a fabric for vectors of three or more of the team's scratch chunks)")
OFS_ENV(COLLECT_ALGORITHM, COLL, ENUM, "auto", OFS_WORDS_COLLECT_ALGORITHM,
        "Collect/fcollect algorithm (inline: a same-node team's blocks of up to 120 bytes "
        "through the members' counters, what auto picks there; hier: for teams spanning nodes, "
        "blocks gathered on each "
        "node's leader, exchanged between leaders over the fabric and handed out on each node, "
        "what auto picks there; on a one-node team hier runs as auto)")
OFS_ENV(ALLTOALL_ALGORITHM, COLL, ENUM, "auto", OFS_WORDS_ALLTOALL_ALGORITHM,
        "Alltoall algorithm (hier: for teams spanning nodes, each node's leader sends its "
        "node's blocks for a member of another node as one transfer, the blocks within a "
        "node copied through shared memory; what auto picks there for blocks of up to 16 KiB; "
        "on a one-node team hier runs as auto)")
OFS_ENV(COLL_SHM, COLL, BOOL, "1", "",
        "Collectives use shared memory directly for same-node PEs (0: only comm puts and AMOs)")
OFS_ENV(NBC_REQS_MAX, COLL, LONG, "1024", "1..1048576",
        "Most non-blocking collective requests (shmemx_*_nb) posted and not yet completed by "
        "shmemx_req_wait/shmemx_req_test at once on a PE")
OFS_ENV(NBC_MEM_MAX, COLL, SIZE, "256M", "64K..1T",
        "Most host memory the schedules of outstanding non-blocking collectives may hold at once "
        "on a PE (operations and the private buffers of reductions and scans)")
OFS_ENV(NBC_THREAD, COLL, BOOL, "1", "",
        "Non-blocking collectives progress in an engine thread while the program computes (0: "
        "only from calls into the library)")
OFS_ENV(BARRIER_RELEASE_YIELD, COLL, BOOL, "1", "",
        "When a node's PEs outnumber its CPUs, the member that completes a same-node barrier "
        "called by the program (barrier_all, sync_all, team_sync, active-set barrier/sync) "
        "yields the CPU once before it leaves, so that the members that waited leave first "
        "(0: it leaves at once)")
OFS_ENV(NBC_EAGER, COLL, SIZE, "4K", "0..64K",
        "Eager non-blocking broadcast, fcollect, alltoall and reduction: a block of up to this "
        "many bytes goes with its signal into a landing area of the receiver at the post, one "
        "message per pair, instead of by get after a handshake (rounded down to 64 bytes and "
        "to 8 KiB / n_pes: each team slot reserves 4 landing slots per PE for broadcasts, at "
        "most 32 KiB, and 2 per PE for the others, at most 16 KiB; through shared memory at "
        "most 1 KiB, where a get is one copy; 0: always by get)")
OFS_ENV(COLL_SEGMENT, COLL, SIZE, "16K", "0..1G",
        "Blocking broadcast, collect, fcollect and the reductions' exchanges over the fabric "
        "send their data in pieces of at most this many bytes, each with its own signal, and "
        "forward (or fold) a piece as soon as it arrived (pipelined; over the OFI route a "
        "piece of up to SHMEM_OFI_AM_SIZE goes as messages, with no round trip; 0: whole "
        "blocks; see also SHMEM_COLL_WHOLE)")
OFS_ENV(COLL_WHOLE, COLL, SIZE, "256K", "0..1T",
        "Blocking broadcast, collect, fcollect, alltoall and the reductions' exchanges send a "
        "block of at least this many bytes whole, as one put-with-signal (over the OFI route a "
        "write and its signal), not in SHMEM_COLL_SEGMENT pieces: at that size the pieces' "
        "messages cost more than their pipelining saves (0: always in pieces)")
OFS_ENV(NBC_SHM, COLL, SIZE, "4K", "0..16K",
        "Same-node fast path of the non-blocking collectives: on a team whose members are all "
        "on this node (signals by CPU atomics), a sync, broadcast, fcollect, alltoall(s), "
        "reduction or scan whose contribution per PE (an alltoall's n_pes blocks) is at most "
        "this many bytes goes through the team's ring of 16 entries per PE in shared memory "
        "(64 for SHMEM_TEAM_WORLD), a sequence word and a quarter of this many bytes each, "
        "with no handshake (this many bytes when the node's PEs outnumber its CPUs, up to a "
        "32nd of it when each has one); each team slot reserves the ring, 16 x (this / 4 + "
        "64) bytes per PE of the symmetric heap, 4 times that for the world team's (0: every "
        "request through the schedule engine)")
OFS_ENV(NBC_DIRECT, COLL, BOOL, "1", "",
        "Same-node non-blocking fcollect, alltoall and reductions too large for the ring of "
        "SHMEM_NBC_SHM, on a team of up to 64 PEs all on this node: each pair's blocks are "
        "copied between the members' own buffers by whichever of the two posts later (or "
        "waits first), a reduction's slices folded by whoever claims them once every member "
        "posted, so a member that posted and computes needs no thread of its own to finish "
        "(0: through the schedule engine, a handshake per pair)")
OFS_ENV(FINALIZE_WATCH, COLL, BOOL, "1", "",
        "A PE that calls shmem_finalize (or ends its program) says so in its own memory and "
        "adds one to a count at PE 0, and a PE whose collective has waited a while for a "
        "member that finalized without calling it ends the job naming both "
        "(docs/reliability.md; 0: no count, and such a collective waits until the job is "
        "ended)")

/* statistics (docs/stats.md) */
OFS_ENV(STATS, DEBUG, BOOL, "0", "",
        "Count operations, bytes, protocols, waiting time and target PEs per PE; PE 0 prints the "
        "table at shmem_finalize and at each shmemx_stats_dump")
OFS_ENV(STATS_FILE, DEBUG, STRING, "", "",
        "With SHMEM_STATS: PE 0 also writes the statistics, per PE and aggregated, to this file "
        "as one JSON document (each dump rewrites it)")

/* old names, still read (with a deprecation warning at init) */
OFS_ENV_ALIAS(BOUNCE_SIZE, OFI_BOUNCE_SIZE)
OFS_ENV_ALIAS(BOUNCE_BUFFERS, OFI_BOUNCE_BUFFERS)
OFS_ENV_ALIAS(PROGRESS_INTERVAL, OFI_PROGRESS_INTERVAL)
OFS_ENV_ALIAS(PROGRESS_HOT, OFI_PROGRESS_HOT)

#ifdef OFS_ENV_ALIAS_UNUSED
#undef OFS_ENV_ALIAS
#undef OFS_ENV_ALIAS_UNUSED
#endif
