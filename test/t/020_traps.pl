# The trap layer (CVE-2018-1058): benchstore and benchstore_cluster
# installed in public, on which an untrusted role has CREATE (as in a
# database created before PostgreSQL 15).  That role, trapper, plants in
# public what test/sql/plant_traps.sql generates from the catalogue: an
# operator of exactly the types for every operator name of pg_catalog
# and every pair of common types (and the extensions' own) that
# pg_catalog resolves only through a cast or an unknown literal; the same
# for every function and aggregate of pg_catalog that benchstore's
# scripts and C statements name; and, once the extensions exist, a
# variant of each of their functions that an unknown literal prefers.
# Each plant writes a WARNING to the server log when it runs.
#
# Then, as a superuser with the default search_path ("$user", public):
#  - a database holding benchstore 1.1 and benchstore_cluster 1.1 is
#    updated to 1.2 with the plants there;
#  - every public function of both extensions, listed from the catalogue
#    (not by hand: a function added later is called without anyone
#    listing it), is called with arguments from the table below by name,
#    its defaults for the rest, each given with its exact type; also on a
#    PL/Proxy cluster of this node (its connections use the node's
#    search_path), and the cluster's error paths (a relation or a
#    tablespace missing on the node);
#  - bench_commit's and bench_tpcb's background sessions run among them.
# No planted object may run at any point.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = PostgreSQL::Test::Cluster->new('traps');
$node->init;
$node->append_conf('postgresql.conf',
	"shared_buffers = 32MB\nmax_worker_processes = 16\n");
$node->start;
my $tsdir = PostgreSQL::Test::Utils::tempdir;

# The test's own statements run with a safe search_path: they are not
# what is tested, and the plants would capture them.
my $safe = "SET search_path = pg_catalog, pg_temp;\n";
sub harness
{
	my ($sql, $db) = @_;
	return $node->safe_psql($db // 'postgres', $safe . $sql);
}

harness(qq{
	CREATE ROLE trapper LOGIN;
	GRANT CREATE ON SCHEMA public TO PUBLIC;
	CREATE TABLESPACE trap_ts LOCATION '$tsdir';
	CREATE DATABASE upd;});
harness(q{GRANT CREATE ON SCHEMA public TO PUBLIC;}, 'upd');
# The extensions, installed before any plant; in another database, 1.1,
# updated to 1.2 once the plants are there; and in a third, installed
# fresh once the plants are there (one script, benchstore--1.2.sql): the
# scripts must bind nothing planted.  CREATE and ALTER EXTENSION are run
# as they are: they create in the first schema of the search_path, public,
# where the plants are.
$node->safe_psql('postgres', q{CREATE EXTENSION benchstore; CREATE EXTENSION plproxy; CREATE EXTENSION benchstore_cluster;});
$node->safe_psql('upd', q{CREATE EXTENSION benchstore VERSION '1.1';
	CREATE EXTENSION plproxy;
	CREATE EXTENSION benchstore_cluster VERSION '1.1';});
harness(q{CREATE DATABASE freshinst;});
harness(q{GRANT CREATE ON SCHEMA public TO PUBLIC;}, 'freshinst');
$node->safe_psql('freshinst', q{CREATE EXTENSION plproxy;});

# 1. The catalogue's operators and functions.
for my $db ('postgres', 'upd', 'freshinst')
{
	my $made = bs_plant_traps($node, $db, 'trapper', 'public', 'catalog');
	cmp_ok($made->{operator} // 0, '>', 1000, "$db: operators planted ($made->{operator})");
	cmp_ok($made->{function} // 0, '>', 500, "$db: functions planted ($made->{function})");
	cmp_ok($made->{aggregate} // 0, '>', 10, "$db: aggregates planted ($made->{aggregate})");
}
my $offset = -s $node->logfile;
$node->safe_psql('upd', q{ALTER EXTENSION benchstore UPDATE; ALTER EXTENSION benchstore_cluster UPDATE;});
is(harness(q{SELECT pg_catalog.string_agg(extname || ' ' || extversion, ', ' ORDER BY extname)
	FROM pg_extension WHERE extname LIKE 'benchstore%'}, 'upd'),
	'benchstore 1.2, benchstore_cluster 1.2', 'the update reached 1.2');
is(join(', ', sort keys %{ bs_traps_fired($node, $offset) }), '',
	'nothing planted ran while the extensions were updated from 1.1 to 1.2');
$offset = -s $node->logfile;
$node->safe_psql('freshinst', q{CREATE EXTENSION benchstore; CREATE EXTENSION benchstore_cluster;});
is(harness(q{SELECT pg_catalog.string_agg(extname || ' ' || extversion, ', ' ORDER BY extname)
	FROM pg_extension WHERE extname LIKE 'benchstore%'}, 'freshinst'),
	'benchstore 1.2, benchstore_cluster 1.2', 'the fresh install is 1.2');
is(join(', ', sort keys %{ bs_traps_fired($node, $offset) }), '',
	'nothing planted ran while the extensions were installed fresh');
$node->safe_psql('postgres', 'DROP DATABASE freshinst');

# 2. Variants of the extensions' own functions.
my $made = bs_plant_traps($node, 'postgres', 'trapper', 'public', 'extensions');
cmp_ok($made->{'benchstore function'} // 0, '>', 100,
	"variants of benchstore's functions planted ($made->{'benchstore function'})");

# The data, and a PL/Proxy cluster of this one node.
harness(q{
	CREATE TABLE public.trap_t AS
		SELECT g AS k, pg_catalog.repeat('t', 100) AS pad FROM pg_catalog.generate_series(1, 5000) g;
	CREATE INDEX ON public.trap_t (k);
	CREATE TABLE public.trap_t2 AS SELECT * FROM public.trap_t;
	ANALYZE public.trap_t, public.trap_t2;
	CHECKPOINT;});
bs_plproxy_cluster($node, 'trapc', [$node]);

# Argument values by name ("function.argument" first): SQL, cast to the
# argument's type where it is called.  An argument with none here takes its
# default; one with no default either fails the test, naming it: add it.
my $max_run = '(SELECT pg_catalog.max(r.run_id) FROM public.bench_run r)';
my %value = (
	relation => q{'public.trap_t'},
	'bench_plan_crossover.relation' => q{'public.trap_rr'},
	'bench_tablespace_advice.relation' => 'NULL',
	column_name => q{'id'},
	selectivities => q{'{0.01,0.1}'},
	a => q{'public.trap_t'},
	b => q{'public.trap_t2'},
	'bench_compare_tablespaces.a' => q{'trap_ts'},
	'bench_compare_tablespaces.b' => q{'pg_default'},
	tablespace => q{'trap_ts'},
	tablespaces => q{'{trap_ts,pg_default}'},
	cluster => q{'trapc'},
	size => q{'1MB'},
	max_size => q{'32MB'},
	min_size => q{'16MB'},
	duration => q{'200ms'},
	direct => 'false',
	repeat => '1',
	rounds => '2',
	reads => '100',
	depths => q{'{1,2}'},
	sessions => '1',
	clients => '1',
	'bench_generate_tpch.scale' => '0.001',
	'bench_generate_tpch.schema' => q{'trap_tpch'},
	'bench_generate_tpcb.scale' => '1',
	table_name => q{'trap_rr'},
	replace => 'true',
	query => q{'SELECT pg_catalog.count(*) FROM public.trap_t'},
	metric => q{'mb_per_s'},
	label_like => q{'trap-%'},
	'bench_compare.metrics' => 'NULL',
	metrics => q{'{"tps": 1}'},
	name => q{'tps'},
	'bench_record.benchmark' => q{'outside'},
	'bench_record.target' => q{'trap'},
	ref => q{'trap-bench_seqscan'},
	'bench_forget.ref' => q{'trap-bench_record'},
	baseline => q{'trap-bench_seqscan'},
	candidate => q{'trap-bench_seqscan'},
	run_id => $max_run,
	'bench_forget.run_id' => '(SELECT pg_catalog.min(r.run_id) FROM public.bench_run r)',
	run_ids => "ARRAY[$max_run]",
	'bench_apply_advice.label' => q{'trap-bench_tablespace_advice'},
);
# More than one call of a function: each a set of values over the table's.
my %variants = (
	bench_seqscan => [ {}, { mode => q{'raw'}, cache => q{'cold'}, workers => '1' } ],
	bench_randread => [ {}, { cache => q{'cold'} } ],
	bench_query => [ {}, { cache => q{'cold'} } ],
);
# Calls that cannot succeed here, and why.
my %refused = (
	citus_shard_names => qr/Citus/,
);
# The order a call needs what an earlier one made: the generators first,
# what reads the history after the benchmarks, bench_forget last.
sub rank
{
	my ($f) = @_;
	return 0 if $f =~ /^bench_generate_/;
	return 2 if $f =~ /^bench_(compare|chart|svg|samples|run_json|run_ids|metric)$/;
	return 3 if $f eq 'bench_tablespace_advice';
	return 4 if $f eq 'bench_apply_advice';
	return 5 if $f eq 'bench_undo_advice';
	return 6 if $f =~ /^(bench_cluster_|citus_)/;
	return 7 if $f eq 'bench_forget';
	return 1;
}

my @functions = map { @{ decode_json($_) } } harness(q{
	SELECT pg_catalog.json_agg(f ORDER BY f.name, f.sig) FROM (
		SELECT p.proname AS name, n.nspname AS schema, p.oid::regprocedure::text AS sig,
			   (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
						'name', p.proargnames[a.o],
						'type', pg_catalog.format_type(a.t, NULL),
						'default', pg_catalog.pg_get_function_arg_default(p.oid, a.o::int4)) ORDER BY a.o)
				FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]),
									   coalesce(p.proargmodes, pg_catalog.array_fill('i'::"char", ARRAY[p.pronargs::int4])))
						 WITH ORDINALITY AS a(t, m, o)
				WHERE a.m IN ('i', 'b', 'v')) AS args
		FROM pg_proc p
		JOIN pg_namespace n ON n.oid = p.pronamespace
		JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
		JOIN pg_extension e ON e.oid = d.refobjid
		WHERE e.extname IN ('benchstore', 'benchstore_cluster') AND p.proname !~ '^_'
		  AND p.prokind = 'f') f});
cmp_ok(scalar(@functions), '>', 30, 'the public functions listed from the catalogue (' . scalar(@functions) . ')');

my @calls;
for my $f (sort { rank($a->{name}) <=> rank($b->{name}) || $a->{sig} cmp $b->{sig} } @functions)
{
	for my $variant (@{ $variants{ $f->{name} } // [ {} ] })
	{
		my @given;
		for my $arg (@{ $f->{args} // [] })
		{
			my $n = $arg->{name};
			my $v = $variant->{$n} // $value{"$f->{name}.$n"} // $value{$n};
			$v = "'trap-$f->{name}'" if !defined $v && $n eq 'label';
			$v = $arg->{default} if !defined $v;
			die "no value for argument $n ($arg->{type}) of $f->{sig}: add one to %value in $0"
			  unless defined $v;
			# every argument given with its exact type: the call's own
			# resolution prefers no plant
			push @given, sprintf('%s => (%s)::%s', $n, $v, $arg->{type});
		}
		push @calls, [ $f->{name},
			sprintf('SELECT pg_catalog.count(*) FROM %s.%s(%s)', $f->{schema}, $f->{name}, join(', ', @given)) ];
	}
}
# the cluster's error paths: a node's check of what is missing (the probe)
push @calls, [ 'bench_cluster_seqscan', q{SELECT pg_catalog.count(*) FROM public.bench_cluster_seqscan(cluster => 'trapc'::name, relation => 'no_such_table'::text)}, qr/no_such_table/ ];
push @calls, [ 'bench_cluster_tablespace_io', q{SELECT pg_catalog.count(*) FROM public.bench_cluster_tablespace_io(cluster => 'trapc'::name, tablespace => 'no_such_ts'::name, size => '1MB'::text)}, qr/no_such_ts/ ];

$offset = -s $node->logfile;
my %called;
for my $c (@calls)
{
	my ($name, $sql, $error) = @$c;
	$error //= $refused{$name};
	$called{$name} = 1;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	if ($error)
	{
		like($err, $error, "$name: refused as it must be here") or diag($sql);
	}
	else
	{
		is($ret, 0, "$name: ran") or diag("$sql\n$err");
	}
}
ok($called{bench_commit} && $called{bench_tpcb} && $called{bench_cluster_tpcb},
	'the background sessions ran among the calls');
my $fired = bs_traps_fired($node, $offset);
is(join(', ', map { "$_ ($fired->{$_} times)" } sort keys %$fired), '',
	'no planted object ran in any call');
is(harness(q{SELECT rolsuper FROM pg_roles WHERE rolname = 'trapper'}), 'f', 'trapper is no superuser');

$node->stop;
done_testing();
