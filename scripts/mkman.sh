#!/bin/sh
# Writes the man page oomlens.1 to stdout from the program's own help
# texts, so that the page and `--help` cannot drift apart: the overview
# from `oomlens --help`, then one section per subcommand from
# `oomlens help CMD` (the command list from `oomlens --list-commands`).
# usage: scripts/mkman.sh ./oomlens > oomlens.1
set -eu
bin=${1:?usage: mkman.sh OOMLENS-BINARY}
version=$("$bin" --version | sed 's/^oomlens //')

# Help text as troff: literal backslashes and leading dots or quotes
# escaped, every line kept as written (no filling) in a .nf block.
as_troff() {
	sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" -e 's/-/\\-/g'
}

cat <<HEAD
.TH OOMLENS 1 "" "oomlens $version" "User Commands"
.SH NAME
oomlens \\- analyze Linux OOM\\-killer incidents in kernel logs and kdump vmcores
.SH SYNOPSIS
.B oomlens
.I command
.RI [ options ]
.RI [ file ...]
.br
.B oomlens help
.RI [ command ]
.br
.B oomlens \\-\\-version
.SH DESCRIPTION
oomlens reads the reports the Linux OOM killer prints (kernels 2.6 to 6.x,
in dmesg, syslog, journal exports, sosreports and archives) and kdump
vmcores, stores every incident in an SQLite database, reruns the victim
selection (badness) of every kernel era on it, and says whether each
would have chosen another victim, and how sure that is.
.SH COMMANDS
HEAD
for cmd in $("$bin" --list-commands); do
	printf '.SS "oomlens %s"\n.nf\n' "$cmd"
	"$bin" help "$cmd" | as_troff
	printf '.fi\n'
done
cat <<'TAIL'
.SH ENVIRONMENT
.TP
.B OOMLENS_DB
the database used when no \-\-db is given (else ./oomlens.db).
.TP
.B NO_COLOR
when set, the text output has no colour (it has none on a pipe either).
.SH EXIT STATUS
0 when incidents were found or the command succeeded, 1 when it ran fine
and found none, 2 on a usage, I/O or database error.
.SH FILES
.TP
.I oomlens.db
the default database, in the current directory.
.SH SEE ALSO
.BR dmesg (1),
.BR journalctl (1),
.BR makedumpfile (8),
.BR crash (8)
TAIL
