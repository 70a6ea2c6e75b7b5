#!/usr/bin/perl
# test/check-meta.pl: META.json against the PGXN Meta Spec 1.0.0 and the
# repository it describes.  Run from the top directory; exits non-zero and
# names each problem.
#
# Checked: valid JSON; the spec's required keys (name, abstract,
# maintainer, license, provides, meta-spec, version) and their forms
# (a term, a SemVer, a known license, prereq phases and relationships,
# tags); one "provides" entry per *.control file, whose file exists and is
# the install script of the control file's default_version (or the older
# one its update scripts start from), and whose
# version is that default_version as SemVer (1.0 -> 1.0.0); the
# distribution's version equal to the Debian package's upstream version;
# PostgreSQL 15 or later and PL/Proxy among the prerequisites.
use strict;
use warnings;
use JSON::PP;

my @problems;
sub problem { push @problems, join('', @_); }

sub slurp
{
	my ($path) = @_;
	open(my $fh, '<', $path) or die "cannot open $path: $!\n";
	local $/;
	my $text = <$fh>;
	close($fh);
	return $text;
}

my $meta = eval { JSON::PP->new->relaxed(0)->decode(slurp('META.json')) };
die "META.json is not valid JSON: $@" unless $meta;
die "META.json is not a JSON object\n" unless ref($meta) eq 'HASH';

my $semver = qr/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
my $term = qr/^[^\/\\\s[:cntrl:]]{2,}$/;
my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1
  artistic_2 bsd freebsd gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1
  lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5 postgresql qpl_1_0
  ssleay sun zlib open_source restricted unrestricted unknown);

for my $key (qw(name abstract maintainer license provides meta-spec version))
{
	problem("required key \"$key\" is missing") unless exists $meta->{$key};
}

problem("name \"$meta->{name}\" is not a term (2+ characters, no space, slash or backslash)")
  if defined $meta->{name} && $meta->{name} !~ $term;
problem("abstract is empty")
  if defined $meta->{abstract} && (ref($meta->{abstract}) || $meta->{abstract} eq '');
problem("version \"$meta->{version}\" is not a SemVer")
  if defined $meta->{version} && $meta->{version} !~ $semver;

if (defined(my $m = $meta->{maintainer}))
{
	my @m = ref($m) eq 'ARRAY' ? @$m : ($m);
	problem("maintainer is empty") unless @m && !grep { ref($_) || $_ eq '' } @m;
}

if (defined(my $l = $meta->{license}))
{
	if (ref($l) eq 'HASH')
	{
		problem("license object is empty") unless %$l;
	}
	else
	{
		for my $name (ref($l) eq 'ARRAY' ? @$l : ($l))
		{
			problem("license \"$name\" is not one the spec knows") unless $licenses{$name};
		}
	}
}

my $spec = $meta->{'meta-spec'};
problem("meta-spec.version is not 1.0.0")
  unless ref($spec) eq 'HASH' && ($spec->{version} // '') eq '1.0.0';

# provides: one entry per control file, in step with it.
my %controls;
for my $control (glob('*.control'))
{
	(my $ext = $control) =~ s/\.control$//;
	my ($default) = slurp($control) =~ /^\s*default_version\s*=\s*'([^']+)'/m;
	problem("$control has no default_version") unless defined $default;
	$controls{$ext} = $default;
}
problem("no *.control file found: run from the top directory") unless %controls;

my $provides = ref($meta->{provides}) eq 'HASH' ? $meta->{provides} : {};
for my $ext (sort keys %controls)
{
	my $p = $provides->{$ext};
	unless (ref($p) eq 'HASH')
	{
		problem("provides has no entry for the extension $ext ($ext.control)");
		next;
	}
	my $default = $controls{$ext};
	my $want = $default =~ /^\d+\.\d+$/ ? "$default.0" : $default;
	problem("provides.$ext.version is \"", $p->{version} // '', "\", $ext.control says '$default' (as SemVer: $want)")
	  unless ($p->{version} // '') eq $want;
	problem("provides.$ext.file is missing") unless defined $p->{file};
	if (defined $p->{file})
	{
		problem("provides.$ext.file $p->{file} does not exist") unless -f $p->{file};
		# The script CREATE EXTENSION starts from: $ext--$default.sql; when
		# make builds it from the SQL sources (src/sql/$ext/, not in the
		# archive as a file), the list of those sources; where there is none,
		# the install script of an older version from which update scripts
		# lead to $default (as PostgreSQL finds it).
		my $install = "$ext--$default.sql";
		if (-f "src/sql/$ext/order")
		{
			$install = "src/sql/$ext/order";
		}
		elsif (!-f $install)
		{
			my %next;
			for (glob("$ext--*--*.sql"))
			{
				$next{$1} = $2 if /^\Q$ext\E--([^-]+)--([^-]+)\.sql$/;
			}
			for my $base (map { /^\Q$ext\E--([^-]+)\.sql$/ ? $1 : () } glob("$ext--*.sql"))
			{
				my ($v, $n) = ($base, 0);
				$v = $next{$v} while $v ne $default && defined $next{$v} && $n++ < 100;
				$install = "$ext--$base.sql" if $v eq $default;
			}
		}
		problem("provides.$ext.file is $p->{file}, the install script of $ext $default is $install")
		  unless $p->{file} eq $install;
	}
	problem("provides.$ext.docfile $p->{docfile} does not exist")
	  if defined $p->{docfile} && !-f $p->{docfile};
	problem("provides.$ext.abstract is empty")
	  if exists $p->{abstract} && ($p->{abstract} // '') eq '';
}
for my $ext (sort keys %$provides)
{
	problem("provides.$ext names no extension of this repository (no $ext.control)")
	  unless exists $controls{$ext};
}

# prereqs: phases and relationships the spec knows; PostgreSQL >= 15.
my %phases = map { $_ => 1 } qw(configure build test runtime develop);
my %relations = map { $_ => 1 } qw(requires recommends suggests conflicts);
my $prereqs = $meta->{prereqs} // {};
for my $phase (sort keys %$prereqs)
{
	problem("prereqs.$phase is not a phase of the spec") unless $phases{$phase};
	for my $rel (sort keys %{ $prereqs->{$phase} })
	{
		problem("prereqs.$phase.$rel is not a relationship of the spec") unless $relations{$rel};
	}
}
my $pg = $prereqs->{runtime}{requires}{PostgreSQL};
if (!defined $pg)
{
	problem("prereqs.runtime.requires.PostgreSQL is missing");
}
else
{
	my ($major) = $pg =~ /^(?:>=\s*)?(\d+)\./;
	problem("prereqs.runtime.requires.PostgreSQL is \"$pg\", benchstore needs 15 or later")
	  unless defined $major && $major == 15;
}
my $plproxy = $prereqs->{runtime}{recommends}{plproxy} // $prereqs->{runtime}{requires}{plproxy};
problem("PL/Proxy (plproxy), which benchstore_cluster needs, is not among the prerequisites")
  unless defined $plproxy;

if (exists $meta->{tags})
{
	my $tags = $meta->{tags};
	if (ref($tags) ne 'ARRAY' || !@$tags)
	{
		problem("tags is not a non-empty list");
	}
	else
	{
		for my $tag (@$tags)
		{
			problem("tag \"$tag\" has a slash, backslash or control character, or is shorter than 2 or longer than 255 characters")
			  if $tag !~ /^[^\/\\[:cntrl:]]{2,255}$/;
		}
	}
}

problem("release_status \"$meta->{release_status}\" is not stable, testing or unstable")
  if exists $meta->{release_status} && $meta->{release_status} !~ /^(stable|testing|unstable)$/;

# The Debian package's upstream version is the distribution's.
if (-f 'debian/changelog')
{
	my ($deb) = slurp('debian/changelog') =~ /^\S+ \(([^)]+)\)/;
	(my $upstream = $deb // '') =~ s/^\d+://;
	$upstream =~ s/-[^-]+$//;
	problem("debian/changelog's version $deb is not META.json's version $meta->{version}")
	  unless defined $meta->{version} && $upstream eq $meta->{version};
}

if (@problems)
{
	print STDERR "META.json: $_\n" for @problems;
	exit 1;
}
print "META.json: valid (PGXN Meta Spec 1.0.0), $meta->{name} $meta->{version}, provides ",
  join(', ', map { "$_ $provides->{$_}{version}" } sort keys %$provides), "\n";
