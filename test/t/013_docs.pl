# The documentation cannot rot.
#
# 1. Every SQL example of README.md, doc/ and doc/walkthroughs/ fenced as
#    ```sql runnable runs, in file order, each block in a psql session of
#    its own (ON_ERROR_STOP),
#    against the demo's data set: bench_generate_tpch(0.05) in schema tpch,
#    VACUUM FREEZE ANALYZE'd, and a second tablespace spc_b.  When the
#    example's output is shown (the next ```text block, with no other
#    fenced block between), the column headers of each result table in it
#    must be the ones psql prints now, in order and count.  Figures are not
#    compared: they are timings.
# 2. The reference (doc/reference/*.md) documents every SQL function, table
#    and view of both extensions whose name does not start with "_": a
#    "## name" section, the object's COMMENT ON text as a "> " line, a row
#    for every argument under "### Arguments" and for every result column
#    under "### Columns".  Its index (doc/reference/README.md) links every
#    documented object to its page and lists every SQLSTATE of an Errors
#    table.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use IPC::Run;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $top = "$FindBin::RealBin/../..";

sub slurp_lines
{
	my ($path) = @_;
	open(my $fh, '<', $path) or die "cannot open $path: $!";
	my @lines = <$fh>;
	close($fh);
	chomp(@lines);
	return @lines;
}

# The fenced blocks of a Markdown file: info string, first line, text.
sub fenced_blocks
{
	my ($path) = @_;
	my @lines = slurp_lines($path);
	my (@blocks, $cur);
	for my $i (0 .. $#lines)
	{
		my $line = $lines[$i];
		if (!$cur && $line =~ /^\s*```\s*(.*?)\s*$/)
		{
			$cur = { info => $1, line => $i + 1, text => '' };
		}
		elsif ($cur && $line =~ /^\s*```\s*$/)
		{
			push @blocks, $cur;
			undef $cur;
		}
		elsif ($cur)
		{
			$cur->{text} .= "$line\n";
		}
	}
	die "$path: a fenced block opened at line $cur->{line} is never closed" if $cur;
	return @blocks;
}

# The header lines of psql's aligned result tables in a text: the line
# before each separator line (dashes, joined by +).
sub result_headers
{
	my ($text) = @_;
	my @lines = split /\n/, $text;
	my @headers;
	for my $i (1 .. $#lines)
	{
		next unless $lines[$i] =~ /^-+(?:\+-+)*\s*$/;
		my @cols = map { s/^\s+|\s+$//gr } split /\|/, $lines[$i - 1], -1;
		push @headers, join(' | ', @cols);
	}
	return @headers;
}

my @files = ('README.md', map { s/^\Q$top\E\///r } sort(glob("$top/doc/*.md")),
	sort(glob("$top/doc/reference/*.md")), sort(glob("$top/doc/walkthroughs/*.md")));
ok(-d "$top/doc/reference", 'doc/reference exists');

# shared_buffers = 32MB: doc/first-steps.md makes a table three times as
# large, and 96 MB keeps the test short.
my $node = bs_node('docs', 'track_io_timing = on', 'fsync = on', 'shared_buffers = 32MB');
my $spc = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', qq{
	SET client_min_messages = warning;
	CREATE TABLESPACE spc_b LOCATION '$spc';
	SELECT count(*) FROM bench_generate_tpch(0.05);
});
$node->safe_psql('postgres', 'VACUUM (FREEZE, ANALYZE)');

my $scratch = PostgreSQL::Test::Utils::tempdir();
my $runnable = 0;
for my $file (@files)
{
	my @blocks = fenced_blocks("$top/$file");
	for my $i (0 .. $#blocks)
	{
		my $b = $blocks[$i];
		next unless $b->{info} eq 'sql runnable';
		$runnable++;
		my $where = "$file:$b->{line}";
		my $sqlfile = "$scratch/example.sql";
		open(my $fh, '>', $sqlfile) or die;
		print $fh $b->{text};
		close($fh);
		my ($out, $err) = ('', '');
		my $ok = IPC::Run::run(
			[ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
			  '-f', $sqlfile ],
			'>', \$out, '2>', \$err);
		ok($ok, "$where runs") or diag("$where:\n$b->{text}\n$err");
		next unless $ok;

		my $next = $blocks[$i + 1];
		next unless $next && $next->{info} eq 'text';
		my @shown = result_headers($next->{text});
		my @got = result_headers($out);
		is(join("\n", @got), join("\n", @shown),
			"$where: the columns shown at $file:$next->{line} are psql's");
	}
}
cmp_ok($runnable, '>=', 20, "$runnable runnable examples found in README.md and doc/");

# The reference against the catalog.
$node->safe_psql('postgres', 'CREATE EXTENSION plproxy; CREATE EXTENSION benchstore_cluster');

my %sections;    # name -> { quotes => [...], args => {...}, cols => {...}, file }
for my $path (sort glob("$top/doc/reference/*.md"))
{
	my ($cur, $sub);
	for my $line (slurp_lines($path))
	{
		if ($line =~ /^## +`?([A-Za-z_][A-Za-z0-9_]*)`?\s*$/)
		{
			$cur = $sections{$1} //= { quotes => [], args => {}, cols => {}, file => $path };
			$sub = '';
		}
		elsif ($line =~ /^#{1,2} /)
		{
			undef $cur;
		}
		elsif ($cur && $line =~ /^### +(.*?)\s*$/)
		{
			$sub = lc $1;
		}
		elsif ($cur && $line =~ /^> ?(.*?)\s*$/)
		{
			push @{ $cur->{quotes} }, $1;
		}
		elsif ($cur && $line =~ /^\|\s*`([^`]+)`/)
		{
			$cur->{args}{$1} = 1 if $sub eq 'arguments';
			$cur->{cols}{$1} = 1 if $sub eq 'columns';
		}
	}
}

my $objects = $node->safe_psql('postgres', q{
	WITH ext AS (
		SELECT d.classid, d.objid
		FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
		  AND e.extname IN ('benchstore', 'benchstore_cluster'))
	SELECT 'f', p.proname, coalesce(obj_description(p.oid, 'pg_proc'), ''),
	       coalesce((SELECT string_agg(n, ',' ORDER BY o)
	                 FROM unnest(p.proargnames, coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[coalesce(cardinality(p.proargnames), 0)])))
	                      WITH ORDINALITY AS a(n, m, o)
	                 WHERE m IN ('i', 'b', 'v') AND n <> ''), ''),
	       coalesce((SELECT string_agg(n, ',' ORDER BY o)
	                 FROM unnest(p.proargnames, p.proargmodes) WITH ORDINALITY AS a(n, m, o)
	                 WHERE m IN ('o', 'b', 't')),
	                (SELECT string_agg(attname, ',' ORDER BY attnum)
	                 FROM pg_type t JOIN pg_attribute ON attrelid = t.typrelid
	                 WHERE t.oid = p.prorettype AND attnum > 0 AND NOT attisdropped), '')
	FROM ext JOIN pg_proc p ON ext.classid = 'pg_proc'::regclass AND p.oid = ext.objid
	WHERE p.proname !~ '^_'
	UNION ALL
	SELECT 'r', c.relname, coalesce(obj_description(c.oid, 'pg_class'), ''), '',
	       (SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute
	        WHERE attrelid = c.oid AND attnum > 0 AND NOT attisdropped)
	FROM ext JOIN pg_class c ON ext.classid = 'pg_class'::regclass AND c.oid = ext.objid
	WHERE c.relkind IN ('r', 'v') AND c.relname !~ '^_'
	ORDER BY 2, 4});

my $documented = 0;
my %objects_documented;
for my $row (split /\n/, $objects)
{
	my ($kind, $name, $comment, $args, $cols) = split /\|/, $row, -1;
	my $s = $sections{$name};
	ok($s, "doc/reference has a section ## $name") or next;
	$documented++;
	$objects_documented{$name} = 1;
	if ($comment ne '')
	{
		ok((grep { $_ eq $comment } @{ $s->{quotes} }),
			"$name: its COMMENT ON text is quoted in its section")
		  or diag("COMMENT: $comment\nquoted: " . join("\n        ", @{ $s->{quotes} }));
	}
	else
	{
		is($kind, 'r', "$name has a COMMENT ON (functions must)");
	}
	for my $arg (grep { $_ ne '' } split /,/, $args)
	{
		ok($s->{args}{$arg}, "$name: argument $arg is in its Arguments table");
	}
	for my $col (grep { $_ ne '' } split /,/, $cols)
	{
		ok($s->{cols}{$col}, "$name: column $col is in its Columns table");
	}
}
cmp_ok($documented, '>=', 20, "$documented SQL objects checked against the reference");

# The reference's index names every documented object, linked to the page
# that documents it, and every SQLSTATE of an Errors table.
my $index = join("\n", slurp_lines("$top/doc/reference/README.md"));
for my $name (sort keys %objects_documented)
{
	my $page = $sections{$name}{file} =~ s{^.*/}{}r;
	next if $page eq 'README.md';
	like($index, qr/\[`\Q$name\E`\]\(\Q$page\E(?:#[^)]*)?\)/,
		"doc/reference/README.md links `$name` to $page");
}
my %codes;
for my $path (sort glob("$top/doc/reference/*.md"))
{
	next if $path =~ m{/README\.md$};
	my $sub = '';
	for my $line (slurp_lines($path))
	{
		$sub = lc $1 if $line =~ /^#{2,3} +(.*?)\s*$/;
		$codes{$1} = 1 if $sub eq 'errors' && $line =~ /^\|\s*`([0-9A-Z]{5})`/;
	}
}
cmp_ok(scalar(keys %codes), '>=', 10, scalar(keys %codes) . ' SQLSTATEs found in the Errors tables');
for my $code (sort keys %codes)
{
	like($index, qr/^\|\s*`\Q$code\E`/m,
		"doc/reference/README.md's SQLSTATE index has $code");
}

$node->stop;
done_testing();
