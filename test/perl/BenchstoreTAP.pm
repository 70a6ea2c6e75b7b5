# BenchstoreTAP.pm: helpers shared by benchstore's TAP tests (test/t/*.pl).
#
# bs_node($name, @conf_lines)  a started cluster with benchstore created
# bs_rows($node, $sql)         the query's rows as a list of hashes
# bs_row($node, $sql)          its single row as a hash
# bs_have_proc_io()            whether the kernel reports per-process I/O
# bs_fs_type($dir)             the filesystem type under a directory
# bs_temp_files($dir)          PostgreSQL temporary files under a directory
# bs_wait_for_files($dir, $n)  wait until $n temporary files are there
# bs_backend_pid($node, $sql_prefix)
#                              the pid of the client backend running a
#                              statement that starts so (waits for it)
# bs_crash_backend($node, $pid)
#                              kill -9 a backend and wait until the server
#                              has restarted after the crash
# bs_plproxy_cluster($coordinator, $name, \@nodes, %opts)
#                              a PL/Proxy cluster (foreign server) on the
#                              coordinator whose partitions p0, p1, ... are
#                              the nodes; modular_mapping => 1 for any count
# bs_plant_traps($node, $db, $role, $schema, $kinds, $before)
#                              the trap layer (test/sql/plant_traps.sql),
#                              planted by $role in $schema: 'catalog',
#                              'extensions' or 'all', after the SQL
#                              $before if given; returns kind => count
# bs_warm_run($node, $sql, $relation)
#                              the single row of a warm run ($sql, a SELECT
#                              of one), and how many MB of $relation's main
#                              fork were not in the OS page cache just
#                              before it, read in the same session
# bs_traps_fired($node, $offset)
#                              the trap warnings in the server log since
#                              $offset (a byte offset, -s of the log file)
package BenchstoreTAP;

use strict;
use warnings;
use Exporter 'import';
use File::Find;
use FindBin ();
use IPC::Run ();
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

our @EXPORT = qw(bs_node bs_rows bs_row bs_have_proc_io bs_fs_type bs_temp_files
  bs_wait_for_files bs_backend_pid bs_crash_backend bs_plproxy_cluster bs_broken_runs
  bs_plant_traps bs_traps_fired bs_warm_run);

# PostgreSQL 16.2's BackgroundPsql::query() returns the query's output with
# its trailing newline (18's, and Debian's 15.20, remove it): remove it on
# 16 too, so that the tests read background sessions alike on every
# version.
if (`pg_config --version` =~ /^PostgreSQL 16\./)
{
	require PostgreSQL::Test::BackgroundPsql;
	no warnings 'redefine';
	my $query = \&PostgreSQL::Test::BackgroundPsql::query;
	*PostgreSQL::Test::BackgroundPsql::query = sub {
		my @r = $query->(@_);
		$r[0] =~ s/\n\z// if defined $r[0];
		return wantarray ? @r : $r[0];
	};
}

sub bs_node
{
	my ($name, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf', join("\n", @conf) . "\n") if @conf;
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION benchstore');
	return $node;
}

sub bs_rows
{
	my ($node, $sql, $db) = @_;
	my $out = $node->safe_psql($db // 'postgres',
		"SELECT coalesce(json_agg(q), '[]') FROM ($sql) q");
	return @{ decode_json($out) };
}

sub bs_row
{
	my ($node, $sql, $db) = @_;
	my @rows = bs_rows($node, $sql, $db);
	die "expected one row, got " . scalar(@rows) . " from: $sql"
	  unless @rows == 1;
	return $rows[0];
}

# This project's machine, a virtual machine, loses clean pages of a file
# just read within seconds, with most of its memory free (a reclaim below
# the guest's choice: about 1 MB a second of a 200 MB file read once, seen
# with fincore).  A warm run right after a cold one therefore finds most of
# the table in the page cache, not all of it: what it may read from storage
# is what was missing when it began, which is measured here just before it.
sub bs_warm_run
{
	my ($node, $sql, $relation) = @_;
	my $out = $node->safe_psql('postgres', qq{
SELECT (mb - os_cached_mb)::text FROM bench_cache_status('$relation'::regclass);
SELECT coalesce(json_agg(q), '[]') FROM ($sql) q;});
	my ($missing, $json) = split /\n/, $out, 2;
	my @rows = @{ decode_json($json) };
	die "expected one row, got " . scalar(@rows) . " from: $sql"
	  unless @rows == 1;
	return ($rows[0], $missing);
}

sub bs_have_proc_io
{
	open(my $fh, '<', '/proc/self/io') or return 0;
	my $found = grep { /^read_bytes:/ } <$fh>;
	close($fh);
	return $found ? 1 : 0;
}

sub bs_fs_type
{
	my ($dir) = @_;
	my $type = `stat -f -c %T '$dir' 2>/dev/null`;
	chomp $type;
	return $type;
}

# PostgreSQL temporary files (pgsql_tmp*) under a directory.
sub bs_temp_files
{
	my ($dir) = @_;
	my @files;
	return @files unless -d $dir;
	find(sub { push @files, $File::Find::name if -f $_ && /^pgsql_tmp/ }, $dir);
	return @files;
}

sub bs_wait_for_files
{
	my ($dir, $n) = @_;
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		return 1 if scalar(bs_temp_files($dir)) >= $n;
		Time::HiRes::usleep(100_000);
	}
	return 0;
}

# Recorded runs that are not whole: without result rows, or with rows not
# numbered 1 .. n.  0 when the history is consistent.
sub bs_broken_runs
{
	my ($node) = @_;
	return $node->safe_psql('postgres', q{
		SELECT count(*) FROM bench_run r
		WHERE NOT EXISTS (SELECT 1 FROM bench_result x WHERE x.run_id = r.run_id)
		   OR (SELECT max(row_no) FROM bench_result x WHERE x.run_id = r.run_id)
			  <> (SELECT count(*) FROM bench_result x WHERE x.run_id = r.run_id)});
}

sub bs_backend_pid
{
	my ($node, $pattern) = @_;
	$pattern =~ s/'/''/g;
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my $pid = $node->safe_psql('postgres', qq{
			SELECT pid FROM pg_stat_activity
			WHERE query LIKE '$pattern%' AND backend_type = 'client backend' AND state = 'active'});
		return $pid if $pid ne '';
		Time::HiRes::usleep(100_000);
	}
	die "no backend running $pattern";
}

# Kill -9 a backend, then wait until the postmaster has reset the cluster
# and accepts connections again: the checkpointer is a new process then.
# The queries go on psql's command line, not its standard input: while the
# server restarts psql exits before reading its input, and IPC::Run's write
# of it then fails with EPIPE and dies (poll_query_until does that, and a
# test died of it on 18).
sub bs_crash_backend
{
	my ($node, $pid) = @_;
	my $sql = "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'";
	my $before = $node->safe_psql('postgres', $sql);
	kill 'KILL', $pid or die "could not kill backend $pid: $!";
	my @cmd = ($node->installed_command('psql'), '-XAtq', '-d', $node->connstr('postgres'), '-c', $sql);
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my ($out, $err) = ('', '');
		eval { IPC::Run::run(\@cmd, '<', '/dev/null', '>', \$out, '2>', \$err); };
		chomp $out;
		return 1 if $out =~ /^\d+$/ && $out ne $before;
		Time::HiRes::usleep(100_000);
	}
	die "the server did not restart after backend $pid was killed";
}

# A PL/Proxy cluster named $name on the coordinator: one partition per
# node (p0 is the first), connecting over the nodes' Unix sockets, and a
# user mapping for PUBLIC (the same role on every node, no password).
sub bs_plproxy_cluster
{
	my ($coordinator, $name, $nodes, %opts) = @_;
	my @options;
	push @options, "modular_mapping '1'" if $opts{modular_mapping};
	for my $i (0 .. $#$nodes)
	{
		(my $connstr = $nodes->[$i]->connstr('postgres')) =~ s/'/''/g;
		push @options, "p$i '$connstr'";
	}
	$coordinator->safe_psql('postgres',
		    "CREATE SERVER $name FOREIGN DATA WRAPPER plproxy OPTIONS ("
		  . join(', ', @options) . ");\n"
		  . "CREATE USER MAPPING FOR PUBLIC SERVER $name;");
	return;
}

# The names of the functions benchstore's SQL calls: every identifier
# followed by "(" in its scripts and in its C code's statements (a
# superset: plant_traps.sql keeps those pg_catalog has).
sub trap_function_names
{
	my $root = "$FindBin::RealBin/../..";
	my %names;
	for my $f (glob("$root/*.sql"), glob("$root/src/*.c"))
	{
		my $text = PostgreSQL::Test::Utils::slurp_file($f);
		$names{ lc $1 } = 1 while $text =~ /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
	}
	die "no function names found under $root" unless %names;
	return sort keys %names;
}

sub bs_plant_traps
{
	my ($node, $db, $role, $schema, $kinds, $before) = @_;
	my $root = "$FindBin::RealBin/../..";
	my $names = join("\n", trap_function_names());
	$before //= '';
	my $out = $node->safe_psql($db, qq{
$before
SET ROLE "$role";
SET bs_trap.schema = '$schema';
SET bs_trap.kinds = '$kinds';
CREATE TEMP TABLE trap_names (name text);
INSERT INTO trap_names SELECT pg_catalog.unnest(pg_catalog.string_to_array(\$n\$$names\$n\$, E'\\n'));
\\i $root/test/sql/plant_traps.sql
});
	my %made = map { split /\|/ } grep { /\|/ } split /\n/, $out;
	return \%made;
}

sub bs_traps_fired
{
	my ($node, $offset) = @_;
	my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile, $offset);
	my %fired;
	$fired{$1}++ while $log =~ /benchstore trap fired: (.*?) ran as /g;
	return \%fired;
}

1;
