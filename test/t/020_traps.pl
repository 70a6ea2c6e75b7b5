# Roles that plant traps (the CVE-2018-1058 pattern): benchstore and
# benchstore_cluster installed in public, on which an untrusted role has
# CREATE (as in a database created before PostgreSQL 15).  That role
# plants, before the extensions are created and after, functions,
# operators and aggregates with better-matching signatures than the
# built-in ones (and than benchstore's own) that benchstore's SQL,
# PL/pgSQL and C call, each writing to a log when it runs.  A superuser
# then runs every benchstore function, on one node and through a PL/Proxy
# cluster of that node: none of the planted objects may run.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = PostgreSQL::Test::Cluster->new('traps');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\n");
$node->start;
my $tsdir = PostgreSQL::Test::Utils::tempdir;

$node->safe_psql('postgres', qq{
	CREATE ROLE trapper LOGIN;
	GRANT CREATE ON SCHEMA public TO PUBLIC;
	CREATE TABLESPACE trap_ts LOCATION '$tsdir';
	CREATE TABLE public.trap_log (what text, who name DEFAULT current_user, at timestamptz DEFAULT now());
	GRANT INSERT ON public.trap_log TO PUBLIC;
});

# Each plant logs that it ran, then behaves like what it stands in for
# (so that a call it captured goes on and shows nothing wrong).
my $plants = q{
	SET ROLE trapper;
	CREATE FUNCTION public.trap(what text) RETURNS boolean LANGUAGE sql
		AS $$ INSERT INTO public.trap_log (what) VALUES (what) RETURNING true $$;
	CREATE FUNCTION public.cardinality(a bigint[]) RETURNS int LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('cardinality(bigint[])') THEN pg_catalog.cardinality(a) END $$;
	CREATE FUNCTION public.cardinality(a text[]) RETURNS int LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('cardinality(text[])') THEN pg_catalog.cardinality(a) END $$;
	CREATE FUNCTION public.unnest(a text[]) RETURNS SETOF text LANGUAGE sql
		AS $$ SELECT x FROM pg_catalog.unnest(a) x WHERE public.trap('unnest(text[])') $$;
	CREATE FUNCTION public.format(f text, a name, b text) RETURNS text LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('format(text,name,text)') THEN pg_catalog.format(f, a, b) END $$;
	CREATE FUNCTION public.format(f text, a text) RETURNS text LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('format(text,text)') THEN pg_catalog.format(f, a) END $$;
	CREATE FUNCTION public.nextval(s text) RETURNS bigint LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('nextval(text)') THEN pg_catalog.nextval(s::regclass) END $$;
	CREATE FUNCTION public.to_jsonb(a text[]) RETURNS jsonb LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('to_jsonb(text[])') THEN pg_catalog.to_jsonb(a) END $$;
	CREATE FUNCTION public.trap_cat(a text, b bigint) RETURNS text LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('||(text,bigint)') THEN a || b::text END $$;
	CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = bigint, FUNCTION = public.trap_cat);
	CREATE FUNCTION public.trap_cat(a text, b integer) RETURNS text LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('||(text,int)') THEN a || b::text END $$;
	CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = integer, FUNCTION = public.trap_cat);
	CREATE FUNCTION public.trap_cat(a bigint, b text) RETURNS text LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('||(bigint,text)') THEN a::text || b END $$;
	CREATE OPERATOR public.|| (LEFTARG = bigint, RIGHTARG = text, FUNCTION = public.trap_cat);
	CREATE FUNCTION public.trap_ge(a float8, b integer) RETURNS boolean LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('>=(float8,int)') THEN a >= b::float8 END $$;
	CREATE OPERATOR public.>= (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.trap_ge);
	CREATE FUNCTION public.trap_eq(a float8, b integer) RETURNS boolean LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('=(float8,int)') THEN a = b::float8 END $$;
	CREATE OPERATOR public.= (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.trap_eq);
	CREATE FUNCTION public.trap_count(n bigint, x text) RETURNS bigint LANGUAGE sql
		AS $$ SELECT CASE WHEN public.trap('count(text)') THEN n + 1 END $$;
	CREATE AGGREGATE public.count(text) (SFUNC = public.trap_count, STYPE = bigint, INITCOND = '0');
	RESET ROLE;
};
# before the extensions exist (what their scripts bind when installed)
$node->safe_psql('postgres', $plants);
$node->safe_psql('postgres', q{
	CREATE EXTENSION benchstore;
	CREATE EXTENSION benchstore_cluster CASCADE;
});
# and after, against benchstore's own functions too
$node->safe_psql('postgres', q{
	SET ROLE trapper;
	CREATE FUNCTION public.bench_record(b text, t name, m jsonb, l text, a jsonb) RETURNS bigint
		LANGUAGE sql AS $$ SELECT CASE WHEN public.trap('bench_record(text,name,...)') THEN 0::bigint END $$;
	CREATE FUNCTION public.bench_cache_evict(r text) RETURNS int
		LANGUAGE sql AS $$ SELECT CASE WHEN public.trap('bench_cache_evict(text)') THEN 0 END $$;
	CREATE FUNCTION public._bench_cluster_conninfo_value(v name) RETURNS text
		LANGUAGE sql AS $$ SELECT CASE WHEN public.trap('_bench_cluster_conninfo_value(name)') THEN v::text END $$;
	RESET ROLE;
});
is($node->safe_psql('postgres', 'SELECT count(*) FROM public.trap_log'), 0, 'nothing ran while installing');

# A PL/Proxy cluster of this one node.
bs_plproxy_cluster($node, 'trapc', [$node]);

# Every benchstore function, as the superuser, with the default
# search_path ("$user", public).  The calls themselves use no built-in a
# plant could capture at the top level, and give arguments of the exact
# types where a plant for benchstore's own function would match an
# untyped literal better (bench_cache_evict('tt') would call the planted
# bench_cache_evict(text): that is the caller's own query, resolved on
# the caller's search_path, as PostgreSQL resolves any call).
my @calls = (
	q{CREATE TABLE tt AS SELECT g, repeat('t', 100) AS pad FROM generate_series(1, 5000) g},
	q{CHECKPOINT},
	q{SELECT * FROM bench_seqscan('tt', label => 'trap')},
	q{SELECT * FROM bench_seqscan('tt', 'raw', 'cold', 2, label => 'trap', workers => 1)},
	q{SELECT * FROM bench_query('SELECT * FROM tt', repeat => 2, label => 'trap')},
	q{SELECT * FROM bench_tablespace_io('trap_ts', size => '1MB', direct => false, duration => '20ms', label => 'trap')},
	q{SELECT * FROM bench_tablespaces_io('{trap_ts,pg_default}', size => '1MB', tests => '{seqwrite}', direct => false, label => 'trap2')},
	q{SELECT * FROM bench_record('outside', 'trap', '{"tps": 1}', 'trap')},
	q{SELECT * FROM bench_compare('trap', 'trap2')},
	q{SELECT * FROM bench_compare('trap', 'trap')},
	q{SELECT * FROM bench_chart('mb_per_s', 'trap%')},
	q{SELECT * FROM bench_run_ids('trap')},
	q{SELECT * FROM bench_run_json((SELECT min(run_id) FROM bench_run))},
	q{SELECT * FROM bench_history},
	q{SELECT * FROM bench_metric('{"a": 0}', 'a')},
	q{SELECT * FROM bench_relation_sizes()},
	q{SELECT * FROM bench_cache_status('tt'::regclass)},
	q{SELECT * FROM bench_cache_evict('tt'::regclass)},
	q{SELECT * FROM bench_tablespace_advice('trap_ts', size => '1MB', duration => '20ms', label => 'trapadv')},
	q{SELECT * FROM bench_apply_advice('trap_ts', 'trapadv')},
	q{SELECT * FROM bench_undo_advice('trap_ts')},
	q{SELECT * FROM bench_generate_tpch(0.001, schema => 'trap_tpch')},
	q{SELECT * FROM bench_forget('trap2')},
	q{SELECT * FROM bench_cluster_seqscan('trapc', 'tt', label => 'trapcl')},
	q{SELECT * FROM bench_cluster_seqscan('trapc', 'tt', cache => 'cold', record => false)},
	q{SELECT * FROM bench_cluster_tablespace_io('trapc', 'trap_ts', size => '1MB', direct => false, duration => '20ms', label => 'trapcl')},
	q{SELECT * FROM bench_cluster_seqscan('trapc', 'no_such_table')},
	q{SELECT * FROM bench_forget('trap')},
);
for my $sql (@calls)
{
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	my $short = substr($sql, 0, 70);
	if ($sql =~ /no_such_table/)
	{
		like($err, qr/ERROR/, "$short: refused");
	}
	else
	{
		is($ret, 0, "$short: ran") or diag($err);
	}
}
my $ran = $node->safe_psql('postgres',
	q{SELECT coalesce(string_agg(DISTINCT what, ', '), '') FROM public.trap_log});
is($ran, '', 'no planted object ran') or diag("planted objects that ran: $ran");
$node->stop;
done_testing();
