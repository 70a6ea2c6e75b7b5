-- src/sql/benchstore_cluster/objects.sql: benchstore_cluster's composite
-- types (CREATE OR REPLACE cannot replace them), by the version that created
-- them: a fresh install runs every "@version V" section, the V-1--V update
-- only V's.  1.1 dropped and re-created the io types, so they are 1.1's.

-- @version 1.0

-- benchstore's benchmarks on every node of a cluster at once.
--
-- The nodes run benchstore's own functions (bench_seqscan,
-- bench_tablespace_io, bench_cache_evict), called unqualified: install
-- benchstore on each node in a schema on the connecting role's search_path
-- (public by default).  This extension only sends the calls and gathers the
-- rows, through an existing engine:
--
--   PL/Proxy  the cluster is a foreign server of the plproxy wrapper, its
--             nodes the partitions p0, p1, ... (one PL/Proxy call runs on
--             all of them at once);
--   Citus     cluster => 'citus' (when no PL/Proxy server has that name):
--             Citus's run_command_on_workers, each worker scanning the
--             shards of the relation it holds.
--
-- MB means 2^20 bytes throughout, as in benchstore.

--
-- Row types of one node's result, as the fan-out returns them: the node's
-- own columns, with the relation as text (a regclass is an OID of the node)
-- and, first, the node's partition number (or, for Citus, its position in
-- the list of workers).  Internal.
--
CREATE TYPE _bench_cluster_seqscan_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	run integer,					-- 1 (each node runs once per fan-out)
	relation text,					-- the relation as the node names it
	tablespace name,				-- its tablespace on the node
	mode text,						-- heap, buffer or raw
	cache text,						-- warm or cold
	pages bigint,					-- blocks scanned
	size_mb float8,					-- MB (2^20 bytes)
	tuples bigint,					-- as bench_seqscan
	elapsed_ms float8,				-- the node's own scan time, ms
	mb_per_s float8,				-- MB per second
	tuples_per_s float8,			-- tuples per second
	blks_hit bigint,				-- blocks found in shared buffers
	blks_read bigint,				-- blocks read from the OS
	read_ms float8,					-- time in those reads, ms
	os_read_mb float8,				-- MB the kernel read from storage
	workers_requested integer,		-- parallel workers asked for
	workers_launched integer		-- parallel workers that ran
);

--
-- Row types of the public functions' results (their OUT columns, documented
-- there), returned by the internal functions that build them.  Internal.
--
CREATE TYPE _bench_cluster_seqscan_result AS (
	node text,
	run integer,
	relation text,
	tablespace name,
	mode text,
	cache text,
	pages bigint,
	size_mb float8,
	tuples bigint,
	elapsed_ms float8,
	mb_per_s float8,
	tuples_per_s float8,
	blks_hit bigint,
	blks_read bigint,
	read_ms float8,
	os_read_mb float8,
	workers_requested integer,
	workers_launched integer,
	min_mb_per_s float8,
	max_mb_per_s float8,
	skew float8
);

-- @version 1.1

CREATE TYPE _bench_cluster_io_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	tablespace name,				-- the tablespace
	test text,						-- seqwrite, seqread, randread, randwrite or sync
	block_size text,				-- bytes per operation, e.g. '8kB'
	streams integer,				-- streams that ran
	direct boolean,					-- O_DIRECT used
	iodepth integer,				-- operations in flight per stream
	bytes bigint,					-- bytes read or written
	elapsed_ms float8,				-- first start to last end, ms
	mb_per_s float8,				-- MB per second
	iops float8,					-- operations per second
	lat_avg_us float8,				-- latency: mean, microseconds
	lat_p50_us float8,				-- median, microseconds
	lat_p95_us float8,				-- 95th percentile, microseconds
	lat_p99_us float8,				-- 99th percentile, microseconds
	lat_p999_us float8,				-- 99.9th percentile, microseconds
	lat_max_us float8				-- maximum, microseconds
);

CREATE TYPE _bench_cluster_io_result AS (
	node text,
	tablespace name,
	test text,
	block_size text,
	streams integer,
	direct boolean,
	iodepth integer,
	bytes bigint,
	elapsed_ms float8,
	mb_per_s float8,
	iops float8,
	lat_avg_us float8,
	lat_p50_us float8,
	lat_p95_us float8,
	lat_p99_us float8,
	lat_p999_us float8,
	lat_max_us float8,
	min_mb_per_s float8,
	max_mb_per_s float8,
	skew float8
);

-- @version 1.2

--
-- 1.2: bench_cluster_randread, bench_randread on every node at once (issue
-- 26): random block reads through each node's buffer manager, as pgio's
-- sessions read, fanned out over PL/Proxy's partitions or Citus's workers.
--

-- One node's result, as the fan-out returns it (the relation as text: a
-- regclass is an OID of the node).  Internal.
CREATE TYPE _bench_cluster_randread_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	run integer,					-- 1 (each node runs once per fan-out)
	relation text,					-- the relation as the node names it
	tablespace name,				-- its tablespace on the node
	cache text,						-- warm or cold
	depth integer,					-- reads in flight per process
	workers_launched integer,		-- parallel workers that read beside the node's backend
	reads bigint,					-- blocks read
	blocks bigint,					-- blocks of the relation (Citus: of the node's shards)
	tuples bigint,					-- as bench_randread
	elapsed_ms float8,				-- the node's own reading time, ms
	reads_per_s float8,				-- reads per second
	lat_p50_us float8,				-- median time of one read, µs
	lat_p99_us float8,				-- 99th percentile, µs
	blks_hit bigint,				-- reads found in shared buffers
	blks_read bigint,				-- reads asked of the OS
	os_read_mb float8,				-- MB the kernel read from storage
	page_cache_reads bigint,		-- reads the OS page cache answered
	device_reads bigint,			-- reads the device served
	device_reads_per_s float8		-- device reads per second (RIOPS)
);

CREATE TYPE _bench_cluster_randread_result AS (
	node text,
	run integer,
	relation text,
	tablespace name,
	cache text,
	depth integer,
	workers_launched integer,
	reads bigint,
	blocks bigint,
	tuples bigint,
	elapsed_ms float8,
	reads_per_s float8,
	lat_p50_us float8,
	lat_p99_us float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	page_cache_reads bigint,
	device_reads bigint,
	device_reads_per_s float8,
	min_reads_per_s float8,
	max_reads_per_s float8,
	skew float8
);

--
-- 1.2: bench_cluster_tpcb, bench_tpcb on every node at once (issue 27):
-- pgbench's TPC-B-like transaction run by each node's own clients on the
-- node's own pgbench tables (bench_generate_tpcb on each node, or pgbench
-- -i), fanned out over PL/Proxy's partitions or Citus's workers, with a
-- total row: the seed's question, what this array does for OLTP, asked of
-- every node in one statement.
--

-- bench_tpcb's row as a node returns it.  Internal.
CREATE TYPE _bench_cluster_tpcb_out AS (
	clients integer,
	scale integer,
	schema name,
	tablespace name,
	index_tablespace name,
	elapsed_ms float8,
	connect_ms float8,
	transactions bigint,
	tps float8,
	tps_with_connect float8,
	lat_avg_ms float8,
	lat_p50_ms float8,
	lat_p95_ms float8,
	lat_p99_ms float8,
	lat_max_ms float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	wal_bytes bigint,
	wal_bytes_per_tx float8,
	wal_fpi bigint,
	wal_flushes bigint,
	checkpoints integer,
	steady_state boolean,
	steady_at_ms float8,
	steady_criterion text,
	histogram jsonb,
	notes text
);

-- One node's row, with its position.  Internal.
CREATE TYPE _bench_cluster_tpcb_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	clients integer,
	scale integer,
	schema name,
	tablespace name,
	index_tablespace name,
	elapsed_ms float8,
	connect_ms float8,
	transactions bigint,
	tps float8,
	tps_with_connect float8,
	lat_avg_ms float8,
	lat_p50_ms float8,
	lat_p95_ms float8,
	lat_p99_ms float8,
	lat_max_ms float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	wal_bytes bigint,
	wal_bytes_per_tx float8,
	wal_fpi bigint,
	wal_flushes bigint,
	checkpoints integer,
	steady_state boolean,
	steady_at_ms float8,
	steady_criterion text,
	histogram jsonb,
	notes text
);

CREATE TYPE _bench_cluster_tpcb_result AS (
	node text,
	clients integer,
	scale integer,
	schema name,
	tablespace name,
	elapsed_ms float8,
	connect_ms float8,
	transactions bigint,
	tps float8,
	tps_with_connect float8,
	lat_avg_ms float8,
	lat_p50_ms float8,
	lat_p95_ms float8,
	lat_p99_ms float8,
	lat_max_ms float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	wal_bytes bigint,
	wal_bytes_per_tx float8,
	wal_fpi bigint,
	wal_flushes bigint,
	checkpoints integer,
	notes text,
	min_tps float8,
	max_tps float8,
	skew float8
);
