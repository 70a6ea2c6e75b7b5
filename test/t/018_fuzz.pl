# Fuzzing the SQL surface: every function of benchstore and
# benchstore_cluster called with generated arguments (NULL in each
# position, bounds and just past them, wrong units and spellings, every
# relkind, a relation created or dropped earlier in the same transaction,
# another session's temporary table, huge, empty, non-ASCII and quote-laden
# text, arrays with NULLs and several dimensions, negative and huge
# intervals, query texts for bench_query that try every way to write), as a
# superuser, a plain role, a member of pg_write_server_files and a member
# of pg_checkpoint; then sqlsmith's random queries as the plain role.
#
# It passes when the server never crashed, no call ended in XX000 (or any
# XX class) or a lost connection, every error had a SQLSTATE of an expected
# class, no temporary file survived, the history is whole (every run has
# its result rows, numbered from 1), and each role is still itself.
#
# Deterministic (a fixed seed) and bounded: BS_FUZZ_CALLS calls per role
# (default 600), BS_SQLSMITH_QUERIES sqlsmith queries (default 5000),
# BS_FUZZ_SEED (default 1).  A long run:
#   BS_FUZZ_CALLS=5000 BS_SQLSMITH_QUERIES=100000 make installcheck PROVE_TESTS=test/t/018_fuzz.pl
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $calls_per_role = $ENV{BS_FUZZ_CALLS} // 600;
my $sqlsmith_queries = $ENV{BS_SQLSMITH_QUERIES} // 5000;
my $seed = $ENV{BS_FUZZ_SEED} // 1;

my $node = bs_node('fuzz', 'shared_buffers = 32MB', 'max_worker_processes = 16',
	'max_parallel_workers = 8', 'temp_file_limit = 512MB');
my $tsdir = PostgreSQL::Test::Utils::tempdir;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION benchstore_cluster CASCADE;
	SET client_min_messages = warning;
	SELECT count(*) FROM bench_generate_tpch(0.002);
	CREATE TABLESPACE fz_ts LOCATION '$tsdir';
	CREATE TABLE fz_t (id int PRIMARY KEY, pad text);
	INSERT INTO fz_t SELECT g, repeat('p', 300) FROM generate_series(1, 3000) g;
	CREATE TABLE fz_toasty (id int, big text);
	INSERT INTO fz_toasty SELECT g, repeat(md5(g::text), 400) FROM generate_series(1, 50) g;
	CREATE UNLOGGED TABLE fz_unlogged AS SELECT g FROM generate_series(1, 1000) g;
	CREATE TABLE fz_empty (a int);
	CREATE SEQUENCE fz_seq;
	CREATE VIEW fz_view AS SELECT * FROM fz_t;
	CREATE MATERIALIZED VIEW fz_mv AS SELECT id FROM fz_t;
	CREATE MATERIALIZED VIEW fz_mv_empty AS SELECT id FROM fz_t WITH NO DATA;
	CREATE TABLE fz_part (id int, pad text) PARTITION BY RANGE (id);
	CREATE TABLE fz_part_1 PARTITION OF fz_part FOR VALUES FROM (0) TO (1000);
	CREATE TABLE fz_part_2 PARTITION OF fz_part FOR VALUES FROM (1000) TO (2000) TABLESPACE fz_ts;
	INSERT INTO fz_part SELECT g, 'x' FROM generate_series(0, 1999) g;
	CREATE TABLE fz_in_ts (a int) TABLESPACE fz_ts;
	INSERT INTO fz_in_ts SELECT generate_series(1, 1000);
	CREATE TYPE fz_composite AS (a int);
	CREATE FUNCTION fz_writer() RETURNS int LANGUAGE sql AS 'INSERT INTO fz_t VALUES (-1, ''w'') RETURNING id';
	VACUUM ANALYZE;
	CHECKPOINT;
	CREATE ROLE fz_plain LOGIN;
	CREATE ROLE fz_files LOGIN IN ROLE pg_write_server_files;
	CREATE ROLE fz_ckpt LOGIN IN ROLE pg_checkpoint;
	GRANT SELECT ON ALL TABLES IN SCHEMA public, tpch TO fz_plain, fz_files, fz_ckpt;
	GRANT USAGE ON SCHEMA tpch TO fz_plain, fz_files, fz_ckpt;
	GRANT CREATE ON TABLESPACE fz_ts TO fz_files;
});

# Another session's temporary table, kept open while the calls run.
my $other = $node->background_psql('postgres');
$other->query_safe('CREATE TEMP TABLE fz_other_tmp AS SELECT generate_series(1, 100) AS g');
my $other_tmp = $other->query_safe(
	"SELECT quote_ident(n.nspname) || '.fz_other_tmp' FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'fz_other_tmp'");
my $toast = $node->safe_psql('postgres',
	"SELECT reltoastrelid::regclass FROM pg_class WHERE oid = 'fz_toasty'::regclass");

# Every function of the two extensions, with its input argument types.
my @functions = map { [ split /\|/, $_, -1 ] } split /\n/, $node->safe_psql('postgres', q{
	SELECT quote_ident(n.nspname) || '.' || quote_ident(p.proname),
		   array_to_string(ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t), ';'),
		   array_to_string(p.proargnames[1:p.pronargs], ';'), p.pronargdefaults
	FROM pg_proc p
	JOIN pg_namespace n ON n.oid = p.pronamespace
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('benchstore', 'benchstore_cluster')
	WHERE p.prokind = 'f' AND p.prorettype <> 'trigger'::regtype
	ORDER BY 1, 2});
ok(scalar(@functions) >= 20, scalar(@functions) . ' functions to call');

sub lit { my $s = shift; $s =~ s/'/''/g; return "'$s'"; }

my @queries = (
	'SELECT count(*) FROM fz_t', 'SELECT * FROM tpch.lineitem LIMIT 5', 'TABLE fz_t', 'VALUES (1)',
	'WITH d AS (DELETE FROM fz_t RETURNING *) SELECT count(*) FROM d',
	'WITH u AS (UPDATE fz_t SET pad = pad RETURNING 1) SELECT count(*) FROM u',
	'SELECT * INTO fz_into FROM fz_t', 'CREATE TABLE fz_made AS SELECT 1',
	'COPY fz_t TO STDOUT', 'COPY fz_t FROM STDIN', 'INSERT INTO fz_t VALUES (-2, $$i$$)',
	'SET ROLE fz_plain', 'RESET ROLE', 'SET SESSION AUTHORIZATION fz_plain',
	q{SELECT set_config('role', 'fz_plain', false)}, q{SELECT set_config('search_path', 'evil', false)},
	q{SELECT set_config('statement_timeout', '1ms', false)}, "SELECT nextval('fz_seq')",
	'SELECT pg_sleep(0.01)', 'SELECT * FROM fz_t FOR UPDATE', 'SELECT * FROM fz_t FOR SHARE SKIP LOCKED',
	'SELECT fz_writer()', 'SELECT txid_current()', 'SELECT pg_advisory_lock(42)',
	'SELECT 1; DROP TABLE fz_t', 'DROP TABLE fz_t', 'VACUUM fz_t', 'LOCK fz_t',
	q{SELECT lo_import('/etc/hostname')}, q{SELECT pg_read_file('/etc/hostname')},
	'EXPLAIN SELECT 1', 'SELECT', '', ';', ' ', 'SELECT * FROM no_such_table', 'SELECT 1/0',
	q{DO $$BEGIN PERFORM 1; END$$}, 'BEGIN', 'COMMIT', 'PREPARE p AS SELECT 1', 'LISTEN x',
	q{SELECT pg_notify('x', 'y')}, 'SELECT * FROM fz_view', 'SELECT * FROM fz_mv_empty',
	"SELECT * FROM $other_tmp", 'SELECT generate_series(1, 100000000)',
	'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r');

my %pool = (
	'regclass' => [ map { lit($_) } 'fz_t', 'fz_t_pkey', 'fz_seq', 'fz_view', 'fz_mv', 'fz_mv_empty',
		'fz_part', 'fz_part_1', 'fz_part_2', 'fz_unlogged', 'fz_empty', 'fz_in_ts', 'fz_toasty', $toast,
		'fz_composite', 'pg_class', 'pg_class_oid_index', 'pg_toast.pg_toast_1262', 'tpch.lineitem',
		'tpch.orders', 'bench_run', $other_tmp, '0', '4294967295', '999999', 'CREATED', 'DROPPED' ],
	'text' => [ map { lit($_) } '', 'warm', 'cold', 'heap', 'raw', 'buffer', 'HEAP', ' warm', 'warm ',
		'1MB', '1 MB', '1mb', '1MiB', '8kB', '8KB', '3kB', '512', '511', '16MB', '17MB', '0', '-1MB',
		'1TB', '99999999999999PB', '1.5MB', 'abc', 'NaN', 'ñandú€', q{quo'te"--;\\}, 'fz-label', '123',
		'latest', 'previous', '1', 'mb_per_s', 'elapsed_ms', 'seqscan', 'tablespace_io', 'citus',
		'no_such_server', 'lineitem', 'fz%', '%', '_', "\x01", 'x' x 3000 ],
	'integer' => [ qw(0 1 -1 2 3 8 64 65 256 257 1000 1001 2147483647 -2147483648) ],
	'bigint' => [ qw(0 1 -1 2 9223372036854775807 -9223372036854775808), '(SELECT max(run_id) FROM bench_run)' ],
	'boolean' => [ qw(true false) ],
	'double precision' => [ qw(0 -1 0.0001 0.001 1 100 1e308), q{'NaN'}, q{'Infinity'}, q{'-Infinity'} ],
	'interval' => [ map { lit($_) } '0', '1ms', '10ms', '1s', '-1s', '-1 year', '1 year',
		'100000 years', '1 microsecond', '2 days 3 hours' ],
	'name' => [ map { lit($_) } 'pg_default', 'pg_global', 'fz_ts', 'no_such', '', 'public', 'tpch',
		'pg_catalog', 'citus', 'n' x 100 ],
	'name[]' => [ map { lit($_) } '{pg_default}', '{}', '{NULL}', '{pg_default,pg_default}',
		'{{pg_default},{fz_ts}}', '{pg_default,fz_ts}', '{pg_global}', '{no_such}',
		'{' . join(',', ('pg_default') x 70) . '}' ],
	'text[]' => [ map { lit($_) } '{seqwrite}', '{seqread}', '{randread}', '{sync}',
		'{seqwrite,seqread,randread,randwrite,sync}', '{}', '{NULL}', '{{seqwrite},{seqread}}',
		'{SEQWRITE}', '{seqwrite,seqwrite}', '{mb_per_s}', '{mb_per_s,elapsed_ms}', '{bogus}', '{""}' ],
	'jsonb' => [ map { lit($_) } '{}', '[]', 'null', '{"mb_per_s": 1}', '{"a": {"b": [1, 2]}}',
		'"str"', '{"x": 1e308}', '{"mb_per_s": "fast"}', '{"elapsed_ms": -1}' ],
);

srand($seed);
my $fuzz_dir = PostgreSQL::Test::Utils::tempdir;

# One call's SQL: a SELECT of the function with generated arguments,
# wrapped in a transaction when a relation is created or dropped in it.
sub one_call
{
	my ($fn, $types, $names, $ndefaults) = @_;
	my @types = $types eq '' ? () : split /;/, $types;
	my @names = split /;/, $names // '', -1;
	my (@args, $pre, $post) = ();
	my $null_at = int(rand(@types + 3));		# NULL in one position now and then
	# Half the calls give the required arguments and a few named ones,
	# the others left to their defaults: these get past the argument
	# checks and run.
	my $plausible = rand() < 0.5;
	$null_at = -1 if $plausible;
	for my $i (0 .. $#types)
	{
		my $named = $plausible && $i >= @types - $ndefaults;
		next if $named && (rand() < 0.85 || !$names[$i]);
		my $t = $types[$i];
		my $v;
		if ($i == $null_at || !$pool{$t})
		{
			$v = 'NULL';
		}
		elsif ($fn =~ /bench_query$/ && $i == 0)
		{
			$v = lit($queries[ int(rand(@queries)) ]);
		}
		else
		{
			$v = $pool{$t}[ int(rand(@{ $pool{$t} })) ];
		}
		if ($v eq q{'CREATED'})
		{
			$pre = "BEGIN;\nCREATE TABLE fz_new AS SELECT g FROM generate_series(1, 500) g;\n";
			$v = q{'fz_new'};
		}
		elsif ($v eq q{'DROPPED'})
		{
			$pre = "BEGIN;\nCREATE TABLE fz_gone (a int);\nSELECT 'fz_gone'::regclass::oid AS gone \\gset\nDROP TABLE fz_gone;\n";
			$v = q{:'gone'};
		}
		$v = "$v\::$t";
		$v = "$names[$i] => $v" if $named;
		push @args, $v;
	}
	# (the I/O functions' default size is 1GB: small enough to run)
	if ($plausible && $fn =~ /tablespaces?_io$|tablespace_advice$/)
	{
		push @args, q{size => '1MB'} unless grep { /^size =>/ } @args;
		push @args, q{duration => '10ms'} unless grep { /^duration =>/ } @args;
	}
	my $sql = "SELECT count(*) FROM $fn(" . join(', ', @args) . ");\n";
	return $pre ? $pre . $sql . "ROLLBACK;\n" : $sql;
}

my %by_state;
my $bad = 0;
my %allowed_class = map { $_ => 1 } qw(22 42 0A 53 54 55 57 58 25 3F 3D 2B 23);
for my $role ('postgres', 'fz_plain', 'fz_files', 'fz_ckpt')
{
	my $script = "\\set VERBOSITY verbose\nSET statement_timeout = '1s';\nSET client_min_messages = error;\n";
	my @calls;
	for my $n (1 .. $calls_per_role)
	{
		# each function in turn, so that all are called with few calls
		my ($fn, $types, $names, $ndefaults) = @{ $functions[ ($n - 1) % @functions ] };
		my $call = one_call($fn, $types, $names, $ndefaults);
		push @calls, [ $fn, $call ];
		$script .= "\\echo \@\@\@ $n\n$call";
	}
	$script .= "\\echo \@\@\@ end\nSELECT current_user || ' ' || session_user || ' ' || current_setting('search_path') || ' ' || current_setting('statement_timeout') AS who;\n";
	my $file = "$fuzz_dir/$role.sql";
	PostgreSQL::Test::Utils::append_to_file($file, $script);
	my $stdout;
	IPC::Run::run([ 'psql', '-X', '-A', '-t', '-d', $node->connstr('postgres'), '-U', $role, '-f', $file ],
		'>&', \$stdout);
	my $out = $stdout;
	my @chunks = split /^\@\@\@ /m, $out;
	shift @chunks;
	my $lost = ($out =~ /server closed the connection|connection to server was lost|terminating connection/);
	ok(!$lost, "$role: the connection was never lost");
	like($out, qr/\@\@\@ end\n$role $role "\$user", public 1s\n/,
		"$role: all calls ran; the role, search_path and statement_timeout are as they were (bench_query's SET ROLE and set_config left nothing)")
	  or diag(substr($out, -2000));
	for my $chunk (@chunks)
	{
		my ($n) = $chunk =~ /^(\d+)/;
		next unless defined $n;
		my $fn = $calls[ $n - 1 ][0];
		my @errors = $chunk =~ /(?:ERROR|FATAL):  ([0-9A-Z]{5}: [^\n]*)/g;
		push @errors, 'ok' unless @errors;
		for my $error (@errors)
		{
			my ($st, $message) = split /: /, $error, 2;
			$by_state{"$fn $st"}++;
			next if $st eq 'ok';
			my $class = substr($st, 0, 2);
			my $cluster_fn = $fn =~ /_cluster|citus/;
			next if $allowed_class{$class};
			next if $cluster_fn && ($class eq 'P0' || $class eq '08' || $class eq '38' || $class eq '28');
			# The internal PL/Proxy functions called directly with a name
			# that is no PL/Proxy cluster: PL/Proxy's own error, XX000.
			# The public functions check the cluster first; the internal
			# ones stay executable because those run as the caller.
			next if $fn =~ /_plproxy$/ && $message =~ m{^(?:Pl|PL)/Proxy};
			$bad++;
			diag("$role, call $n: $st\n$calls[$n - 1][1]$chunk");
		}
	}
}
is($bad, 0, 'every error had a SQLSTATE of an expected class (none in XX)');
note(join("\n", 'calls by function and outcome:', map { "  $_: $by_state{$_}" } sort keys %by_state));
my $functions_ok = scalar(grep { /ok$/ } keys %by_state);
cmp_ok($functions_ok, '>=', 10, "$functions_ok functions ran to a result at least once");

# sqlsmith's random queries as the plain role (its errors are its own
# business: the server must live through them).
SKIP:
{
	skip 'sqlsmith is not installed', 1
	  unless grep { -x "$_/sqlsmith" } split /:/, $ENV{PATH};
	my ($out, $err);
	IPC::Run::run([ 'sqlsmith', '--target=' . $node->connstr('postgres') . ' user=fz_plain',
			"--seed=$seed", "--max-queries=$sqlsmith_queries", '--exclude-catalog', '--verbose' ],
		'>', \$out, '2>', \$err);
	like($out . $err, qr/error rate: [0-9.]+/, "sqlsmith ran its $sqlsmith_queries queries to the end");
	my @benchstore_errors = grep { /bench|citus_shard/ } split /\n/, $out . $err;
	note("sqlsmith's errors naming benchstore:\n" . join("\n", @benchstore_errors));
}

# The session's timer runs from its start, through all the fuzzing: restart
# it with a query, so that quitting is not timed out on a slow machine.
$other->set_query_timer_restart;
$other->query_safe('SELECT 1');
$other->quit;
is($node->safe_psql('postgres', 'SELECT 1'), 1, 'the server answers after the fuzzing');
unlike(slurp_file($node->logfile), qr/terminated by signal|was terminated by exception|PANIC/,
	'no backend crashed');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_ls_tmpdir()'), 0, 'no temporary file left in pg_default');
is(scalar(bs_temp_files($tsdir)), 0, 'no temporary file left in fz_ts');
is(bs_broken_runs($node), 0, 'the history is whole: every run has its result rows, numbered from 1');
$node->stop;
done_testing();
