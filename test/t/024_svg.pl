# bench_svg's pictures render: each kind (a run's time series, a block
# size × depth sweep, a comparison with its intervals, a cache probe's
# knees) is written to a file as psql writes it, opened in headless
# Chromium (Debian's chromium) and rendered to PNG.  Each must parse
# without an error (Chromium shows an XML parse error as a parsererror
# element), show the text it should (title, axis labels, legend), and
# paint a picture that is not blank: many pixels that are not the
# background, in several colours.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Compress::Zlib;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $chromium;
foreach my $c (qw(chromium chromium-browser google-chrome))
{
	foreach my $dir (split /:/, $ENV{PATH})
	{
		if (-x "$dir/$c")
		{
			$chromium = "$dir/$c";
			last;
		}
	}
	last if $chromium;
}
plan skip_all => 'chromium is not installed' unless $chromium;

my $node = bs_node('svg');
my $dir = PostgreSQL::Test::Utils::tempdir;

# A run with a time series, and recorded rows with known numbers for the
# other kinds (a sweep, two labels to compare, a probe with a knee).
$node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_tablespace_io(size => '8MB', block_size => '4kB',
		tests => '{seqwrite,randread}', direct => false, duration => '300ms',
		sample_interval => '20ms', label => 'svg-series');

	CREATE FUNCTION fake(lbl text, bench text, rows jsonb) RETURNS bigint LANGUAGE sql AS $$
		WITH r AS (
			INSERT INTO bench_run (started_at, finished_at, recorded_by, label, benchmark,
								   target_kind, target, arguments, settings)
			VALUES (now(), now(), current_user, lbl, bench, 'tablespace', 'pg_default', '{}', '{}')
			RETURNING run_id),
		x AS (
			INSERT INTO bench_result (run_id, row_no, metrics)
			SELECT r.run_id, e.n, e.m FROM r, jsonb_array_elements(rows) WITH ORDINALITY e(m, n))
		SELECT run_id FROM r
	$$;
	SELECT fake('svg-sweep', 'tablespace_io', jsonb_agg(jsonb_build_object(
		'tablespace', 'pg_default', 'test', 'randread', 'block_size', bs, 'iodepth', d,
		'streams', 1, 'direct', true, 'iops', 5000 * d / (1 + d / 8.0) / (pg_size_bytes(bs) / 4096.0))))
	FROM unnest('{4kB,64kB}'::text[]) bs, unnest('{1,2,4,8,16,32}'::int[]) d;
	SELECT fake('svg-a', 'tablespace_io', jsonb_agg(jsonb_build_object(
		'tablespace', 'pg_default', 'test', t, 'block_size', '8kB', 'iodepth', 1, 'streams', 1,
		'direct', true, 'run', k, 'mb_per_s', m + k, 'iops', (m + k) * 128, 'lat_p99_us', 300 - k)))
	FROM (VALUES ('seqread', 100), ('randread', 40)) v(t, m), generate_series(1, 3) k;
	SELECT fake('svg-b', 'tablespace_io', jsonb_agg(jsonb_build_object(
		'tablespace', 'pg_default', 'test', t, 'block_size', '8kB', 'iodepth', 1, 'streams', 1,
		'direct', true, 'run', k, 'mb_per_s', m + 2 * k, 'iops', (m + 2 * k) * 128, 'lat_p99_us', 200 - k)))
	FROM (VALUES ('seqread', 130), ('randread', 38)) v(t, m), generate_series(1, 3) k;
	SELECT fake('svg-probe', 'tablespace_cache_probe', jsonb_agg(jsonb_build_object(
		'tablespace', 'pg_default', 'test', 'randread', 'block_size', '8kB', 'iodepth', 1,
		'streams', 1, 'direct', true, 'size_mb', s, 'lat_p50_us', CASE WHEN s <= 256 THEN 20 ELSE 120 END,
		'iops', CASE WHEN s <= 256 THEN 50000 ELSE 8000 END)
		|| CASE WHEN s = 512 THEN jsonb_build_object('knee', 'a cache ends', 'cache_mb', 256) ELSE '{}' END))
	FROM unnest('{16,32,64,128,256,512,1024}'::int[]) s;
});

my %run = map { my ($l, $id) = split /\|/; ($l => $id) } split /\n/,
  $node->safe_psql('postgres',
	"SELECT label, max(run_id) FROM bench_run WHERE label LIKE 'svg-%' GROUP BY label");

my @pictures = (
	[ 'series', "ARRAY[$run{'svg-series'}]", 'series',
		[ 'mb_per_s over time', 'time since the test began, s', 'seqwrite 4kB', 'randread 4kB' ] ],
	[ 'sweep', "ARRAY[$run{'svg-sweep'}]", 'sweep',
		[ 'iops against queue depth, per block size', 'iodepth (operations in flight per stream)', 'randread 4kB', 'randread 64kB' ] ],
	[ 'compare', "ARRAY[$run{'svg-a'}, $run{'svg-b'}]", 'compare',
		[ 'candidate / baseline', 'seqread 8kB pg_default mb_per_s', 'better' ] ],
	[ 'probe', "ARRAY[$run{'svg-probe'}]", 'probe',
		[ 'lat_p50_us of random direct reads', 'file read at random, MB', 'knee: cache of about 256 MB' ] ],
);

foreach my $p (@pictures)
{
	my ($name, $ids, $kind, $texts) = @$p;
	my $file = "$dir/$name.svg";

	# as a DBA writes it from psql
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\pset format unaligned\n\\pset tuples_only on\n"
		  . "SELECT bench_svg($ids, '$kind') \\g $file\n");
	is($ret, 0, "$name: psql wrote the picture") or diag($err);
	like(slurp_file($file), qr{^<svg xmlns="http://www.w3.org/2000/svg".*</svg>\s*$}s,
		"$name: one SVG document");

	# the DOM as Chromium parsed it
	my $dom = `timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir=$dir/profile --dump-dom "file://$file" 2>/dev/null`;
	unlike($dom, qr/parsererror/i, "$name: Chromium parses it without an error");
	foreach my $t (@$texts)
	{
		ok(index($dom, $t) >= 0, "$name: shows \"$t\"");
	}

	# the picture, rendered
	my $png = "$dir/$name.png";
	system("timeout 120 \"$chromium\" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage "
		  . "--user-data-dir=$dir/profile --hide-scrollbars --window-size=800,600 --screenshot=\"$png\" \"file://$file\" >/dev/null 2>&1");
	ok(-s $png, "$name: Chromium rendered it to PNG");
	my ($painted, $colours) = png_ink($png);
	cmp_ok($painted, '>', 2000, "$name: the picture is not blank ($painted pixels painted)");
	cmp_ok($colours, '>=', 3, "$name: in several colours ($colours)");
}

# Inked pixels (not white) and distinct colours of an 8-bit RGB or RGBA
# PNG, as Chromium writes its screenshots.
sub png_ink
{
	my ($path) = @_;
	open(my $fh, '<:raw', $path) or return (0, 0);
	local $/;
	my $data = <$fh>;
	close $fh;
	return (0, 0) unless substr($data, 0, 8) eq "\x89PNG\r\n\x1a\n";
	my ($w, $h, $depth, $ctype, $idat) = (0, 0, 0, 0, '');
	my $pos = 8;
	while ($pos < length $data)
	{
		my ($len, $type) = unpack('N a4', substr($data, $pos, 8));
		my $body = substr($data, $pos + 8, $len);
		($w, $h, $depth, $ctype) = unpack('N N C C', $body) if $type eq 'IHDR';
		$idat .= $body if $type eq 'IDAT';
		$pos += 12 + $len;
	}
	return (0, 0) unless $depth == 8 && ($ctype == 2 || $ctype == 6);
	my $bpp = $ctype == 6 ? 4 : 3;
	my $raw = uncompress($idat);
	return (0, 0) unless defined $raw;
	my $stride = $w * $bpp;
	my @prev = (0) x $stride;
	my ($ink, %colour) = (0);
	for my $y (0 .. $h - 1)
	{
		my $f = ord(substr($raw, $y * ($stride + 1), 1));
		my @cur = unpack('C*', substr($raw, $y * ($stride + 1) + 1, $stride));
		for my $i (0 .. $stride - 1)
		{
			my $a = $i >= $bpp ? $cur[ $i - $bpp ] : 0;
			my $b = $prev[$i];
			my $c = $i >= $bpp ? $prev[ $i - $bpp ] : 0;
			my $v = $cur[$i];
			if ($f == 1) { $v += $a; }
			elsif ($f == 2) { $v += $b; }
			elsif ($f == 3) { $v += int(($a + $b) / 2); }
			elsif ($f == 4)
			{
				my $pa = abs($b - $c);
				my $pb = abs($a - $c);
				my $pc = abs($a + $b - 2 * $c);
				$v += ($pa <= $pb && $pa <= $pc) ? $a : ($pb <= $pc ? $b : $c);
			}
			$cur[$i] = $v & 0xff;
		}
		for (my $i = 0; $i < $stride; $i += $bpp)
		{
			my $rgb = join(',', @cur[ $i .. $i + 2 ]);
			next if $rgb eq '255,255,255';
			$ink++;
			$colour{$rgb} = 1;
		}
		@prev = @cur;
	}
	return ($ink, scalar keys %colour);
}

$node->stop;
done_testing();
