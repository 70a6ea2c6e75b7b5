# bench_query against a real server: a cold run after a restart reads the
# query's table and index from storage (the kernel says so), a warm run
# right after finds them in the OS page cache, and cancel and
# statement_timeout stop a long query and leave the session usable.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# fsync on: with fsync off a checkpoint leaves pages dirty in the OS page
# cache, where eviction cannot drop them.  No parallel plans: the kernel's
# counters are the caller's own.
my $node = bs_node('query', 'fsync = on', 'shared_buffers = 16MB',
	'track_io_timing = on', 'max_parallel_workers_per_gather = 0');
$node->safe_psql('postgres', q{
	CREATE TABLE qt AS
		SELECT g AS id, g % 100 AS grp, repeat(md5(g::text), 4) AS pad
		FROM generate_series(1, 400000) g;
	CREATE INDEX qt_grp ON qt (grp);
	VACUUM (FREEZE, ANALYZE) qt;
	CHECKPOINT;
});

my $proc_io = bs_have_proc_io();
my $fs = bs_fs_type($node->data_dir);
my $evictable = $fs ne 'tmpfs' && $fs ne 'ramfs';
note "filesystem under the data directory: $fs; /proc/self/io: $proc_io";

$node->restart;

# sum(length(pad)) needs every heap page (count(*) could read the index).
my $cold = bs_row($node,
	"SELECT * FROM bench_query('SELECT sum(length(pad)) FROM qt', 'cold')");
is($cold->{rows}, 1, 'cold run: one row returned');
is_deeply($cold->{relations}, ['qt'], 'cold run: the table is what the plan reads');
my $pages = $node->safe_psql('postgres',
	"SELECT pg_relation_size('qt') / current_setting('block_size')::int");
cmp_ok($cold->{blks_read}, '>=', $pages * 0.9,
	'cold run: PostgreSQL read the blocks (shared buffers were empty)');
ok(defined $cold->{read_ms} && $cold->{read_ms} > 0, 'cold run: read_ms with track_io_timing');
my ($warm, $warm_missing) = bs_warm_run($node,
	"SELECT * FROM bench_query('SELECT sum(length(pad)) FROM qt')", 'qt');
SKIP:
{
	skip 'no per-process I/O accounting in this kernel', 2 unless $proc_io;
	skip "files on $fs cannot be evicted", 2 unless $evictable;
	cmp_ok($cold->{os_read_mb}, '>=', $cold->{size_mb} / 2,
		'cold run: the kernel read the table from storage (os_read_mb)');
	cmp_ok($warm->{os_read_mb}, '<', $warm_missing + $cold->{size_mb} / 10,
		"warm run right after: from the OS page cache (all but the $warm_missing MB it had lost: bs_warm_run)");
}

# An index scan, cold: the index is evicted and read too.
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off;
	SELECT relations::text || ' ' || rows FROM bench_query(
		'SELECT sum(length(pad)) FROM qt WHERE grp = 7', 'cold')}),
	'{qt,qt_grp} 1', 'index query: the table and the index its scan uses');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_history WHERE benchmark = 'query'}), 3,
	'each call recorded in the history');

# Cancel and statement_timeout stop a long query.
my ($ret, $out, $err) = $node->psql('postgres', q{
	SET statement_timeout = '300ms';
	SELECT * FROM bench_query('SELECT count(*) FROM qt a, qt b', record => false)});
isnt($ret, 0, 'statement_timeout stops a long query');
like($err, qr/canceling statement due to statement timeout/, 'with its message');

my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//,
	"SELECT * FROM bench_query('SELECT count(*) FROM qt a, qt b', record => false);\n");
my $pid;
for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
{
	$pid = $node->safe_psql('postgres', q{
		SELECT pid FROM pg_stat_activity
		WHERE query LIKE 'SELECT * FROM bench_query%' AND state = 'active'
		  AND backend_type = 'client backend'});
	last if $pid ne '';
	usleep(100_000);
}
ok($pid ne '', 'the long query runs');
$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
ok($node->poll_query_until('postgres',
	"SELECT state <> 'active' FROM pg_stat_activity WHERE pid = $pid"),
	'cancel is served');
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'the query was canceled');
$bg->quit;
# The server and a new session are fine.
is($node->safe_psql('postgres', q{
	SELECT rows FROM bench_query('SELECT 1', record => false);
	SHOW transaction_read_only}), "1\noff",
	'bench_query runs again, and leaves the session read-write');

$node->stop;
done_testing();
