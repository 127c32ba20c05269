#!/usr/bin/env bash
# The reference cannot drift: cmd/REFERENCE.md is what the binary prints
# (collscope help --markdown); every option that it, --help or README.md
# documents next to a command exists for that command; every option the
# parser of a command takes is documented, with a text; every man page is
# valid roff; help refuses what it does not know with exit 2. REFERENCE_MD
# and README_MD name other files to check (to see this suite fail).
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REF=${REFERENCE_MD:-$ROOT/cmd/REFERENCE.md}
README=${README_MD:-$ROOT/README.md}

# --- help itself -----------------------------------------------------------------
expect_exit 0 "help --names" "$BIN" help --names
COMMANDS=$(cat "$TMP/out")
if [ -n "$COMMANDS" ]; then pass "help --names lists the commands"; else fail "help --names lists nothing"; fi
expect_exit 0 "--help" "$BIN" --help
expect_output "'collscope help <command>'" "--help mentions collscope help COMMAND"
expect_output "man collscope" "--help mentions the man pages"
"$BIN" help >"$TMP/help.out" 2>&1
if cmp -s "$TMP/help.out" "$TMP/out"; then pass "help prints what --help does"; else fail "help differs from --help" "$TMP/help.out"; fi
for c in $COMMANDS; do
	grep -Eq "^  $c +[^ ]" "$TMP/out" || fail "--help does not list the command $c" "$TMP/out"
	"$BIN" help "$c" >"$TMP/a" 2>&1
	"$BIN" "$c" --help >"$TMP/b" 2>&1
	if cmp -s "$TMP/a" "$TMP/b"; then pass "help $c prints what $c --help does"; else fail "help $c differs from $c --help" "$TMP/a"; fi
done
expect_exit 2 "help nosuch exits 2" "$BIN" help nosuch
expect_output "unknown command 'nosuch'" "help nosuch names the command"
expect_exit 2 "help --bogus exits 2" "$BIN" help --bogus
expect_output "unknown option '--bogus'" "help --bogus names the option"
expect_exit 2 "help -Z exits 2" "$BIN" help -Z
expect_output "'-Z'" "help -Z names the option"
expect_exit 2 "help --markdown --man exits 2" "$BIN" help list --markdown --man
expect_output "give one" "help says to give one format"
expect_exit 2 "help with two commands exits 2" "$BIN" help list extra
expect_output "unexpected argument 'extra'" "help names the extra argument"
expect_exit 2 "help --names with a command exits 2" "$BIN" help --names list
expect_output "'list'" "help --names names the command it does not take"

# --- cmd/REFERENCE.md is what the binary prints ------------------------------------
if "$BIN" help --markdown >"$TMP/reference.md" 2>"$TMP/reference.err" &&
	diff -u "$REF" "$TMP/reference.md" >"$TMP/reference.diff" 2>&1; then
	pass "cmd/REFERENCE.md is collscope help --markdown"
else
	cat "$TMP/reference.err" >>"$TMP/reference.diff"
	fail "cmd/REFERENCE.md is not collscope help --markdown (run make reference)" "$TMP/reference.diff"
fi
for c in $COMMANDS; do
	"$BIN" help "$c" --markdown >"$TMP/section.md" 2>&1
	awk -v h="## collscope $c" '$0 == h { p = 1 } p && /^## / && $0 != h { exit } p' "$TMP/reference.md" |
		sed '${/^$/d}' >"$TMP/section.ref"
	if [ -s "$TMP/section.md" ] && cmp -s "$TMP/section.md" "$TMP/section.ref"; then
		pass "help $c --markdown is its section of the reference"
	else
		diff -u "$TMP/section.ref" "$TMP/section.md" >"$TMP/section.diff" 2>&1
		fail "help $c --markdown is not its section of the reference" "$TMP/section.diff"
	fi
done

# The reference's rows are read with this separator: a field may be empty (a tab,
# being white space to read, would merge two empty fields).
S=$'\037'
# doc_rows CMD FILE: the options table of CMD's section, a line
# "name S letter S metavar S default S text" per row (the default only when it is
# a value, in code; an escaped | unescaped).
doc_rows() {
	awk -v c="$1" -v S="$S" '
		function cell_of(s) { gsub(/^ +| +$/, "", s); gsub(/\001/, "|", s); return s }
		function code_of(s) { s = cell_of(s); return s ~ /^`.*`$/ ? substr(s, 2, length(s) - 2) : "" }
		/^## / { sect = ($0 == "## collscope " c); next }
		sect && /^\| `--/ {
			line = $0; gsub(/\\\|/, "\001", line)
			split(line, cell, "|")
			print substr(code_of(cell[2]), 3) S substr(code_of(cell[3]), 2) S code_of(cell[4]) S \
				code_of(cell[5]) S cell_of(cell[7])
		}' "$2"
}
# doc_names CMD: the long names CMD documents; doc_letters CMD: its letters.
doc_names() { cut -d"$S" -f1 "$TMP/doc.$1"; }
doc_letters() { cut -d"$S" -f2 "$TMP/doc.$1" | grep .; }

# --- every documented option exists, every option the parser takes is documented --
# Each command parses all its documented options at once, each with its default
# (or 1), then an option that no command has: the parse ends there, and nothing
# runs. An option the message names before that one is either unknown (it does
# not exist: a failure) or took its value badly (it exists); it leaves the list
# and the rest is parsed again.
NOBODY=--zz-no-command-has-this
# culprit CMD FORM...: the index of the first FORM whose option the last message
# names, as given ('-x', '--name') or by its long name (a bad value's message).
culprit() {
	local c=$1 i=0 form opt long
	shift
	for form in "$@"; do
		opt=${form%%=*} long=${form%%=*}
		case $form in
		--*) ;;
		*)
			opt=${form:0:2}
			long=--$(awk -F"$S" -v l="${form:1:1}" '$2 == l { print $1 }' "$TMP/doc.$c")
			;;
		esac
		if grep -Eq -- "'$opt'|$long([^a-z0-9-]|\$)" "$TMP/batch.out"; then
			echo "$i"
			return
		fi
		i=$((i + 1))
	done
	echo -1
}
# parse_all CMD FORM...: every FORM is an option of CMD; failures name those that are not.
parse_all() {
	local c=$1 i
	shift
	local -a left=("$@")
	while [ ${#left[@]} -gt 0 ]; do
		"$BIN" "$c" "${left[@]}" "$NOBODY" </dev/null >"$TMP/batch.out" 2>&1
		if grep -q "unknown option '$NOBODY'" "$TMP/batch.out"; then
			ACCEPTED=$((ACCEPTED + ${#left[@]}))
			return
		fi
		i=$(culprit "$c" "${left[@]}")
		if [ "$i" -lt 0 ]; then
			fail "$c ${left[*]}: a message that names none of its options" "$TMP/batch.out"
			return
		fi
		if grep -q "unknown option '${left[$i]%%=*}'" "$TMP/batch.out" ||
			grep -q "unknown option '${left[$i]:0:2}' in '${left[$i]}'" "$TMP/batch.out"; then
			fail "$c ${left[$i]%%=*} is in the reference and does not exist" "$TMP/batch.out"
		else
			ACCEPTED=$((ACCEPTED + 1))
		fi
		left=("${left[@]:0:$i}" "${left[@]:$((i + 1))}")
	done
}
# refused CMD FORM: the parser of CMD does not know FORM's option.
refused() {
	local opt=${2%%=*}
	case $2 in --*) ;; *) opt=${2:0:2} ;; esac
	"$BIN" "$1" "$2" "$NOBODY" </dev/null >"$TMP/refused.out" 2>&1
	grep -q "unknown option '$opt'" "$TMP/refused.out"
}
# Names the parser of a command might take without its reference saying so: every
# long name and letter of the option tables in the source, and every option that
# README.md or the reference mentions; a sample of them, different each run, is
# tried on each command (the unit tests try every table's on every renderer).
CANDIDATES=$( { grep -ho '\.name = "[a-z0-9-]*"' "$ROOT"/cmd/*.c | cut -d'"' -f2 | sed 's/^/--/'
	grep -ho "\.letter = '[a-zA-Z]'" "$ROOT"/cmd/*.c | cut -d"'" -f2 | sed 's/^/-/'
	grep -ohE -- '--[a-z][a-z0-9-]*' "$REF" "$README"; } | sort -u)
SAMPLE=${REFERENCE_SAMPLE:-4}
ACCEPTED=0
for c in $COMMANDS; do
	doc_rows "$c" "$REF" >"$TMP/doc.$c"
	[ -s "$TMP/doc.$c" ] || fail "the reference has no options table for $c"
	forms=() letters=()
	while IFS=$S read -r name letter metavar deflt text; do
		[ -n "$text" ] || fail "$c --$name has no text in the reference"
		[ "$name" = help ] && continue
		value=
		[ -n "$metavar" ] && value=${deflt:-1}
		forms+=("--$name${metavar:+=$value}")
		[ -n "$letter" ] && letters+=("-$letter$value")
	done <"$TMP/doc.$c"
	parse_all "$c" "${forms[@]}"
	[ ${#letters[@]} = 0 ] || parse_all "$c" "${letters[@]}"
	# what --help lists, the reference lists too, with the same letter
	"$BIN" "$c" --help | sed -nE "s/^  (-([a-zA-Z]), |    )--([a-z0-9-]+).*/\3$S\2/p" | sort >"$TMP/help.$c"
	cut -d"$S" -f1,2 "$TMP/doc.$c" | sort | comm -23 "$TMP/help.$c" - | tr "$S" ' ' >"$TMP/undoc.$c"
	while read -r name letter; do
		fail "$c --help lists --$name${letter:+ (-$letter)}, the reference does not"
	done <"$TMP/undoc.$c"
	[ -s "$TMP/help.$c" ] || fail "$c --help lists no option: is the check reading it?"
	tried=""
	{ doc_names "$c" | sed 's/^/--/'; doc_letters "$c" | sed 's/^/-/'; } | sort >"$TMP/forms.$c"
	for cand in $(echo "$CANDIDATES" | comm -23 - "$TMP/forms.$c" | shuf -n "$SAMPLE"); do
		tried="$tried $cand"
		case $cand in --*) form=$cand=1 ;; *) form=${cand}1 ;; esac
		refused "$c" "$form" || fail "$c takes $cand, which its reference does not document" "$TMP/refused.out"
	done
	pass "$c refuses what its reference does not document:$tried"
done
pass "$ACCEPTED documented options (long and short) exist"

# --- README.md: options next to a command ----------------------------------------
# On a line, "collscope CMD ..." up to the end of its command line (a backtick,
# pipe, ;, & or #): every --name and -x there. In a section whose heading names
# `collscope CMD`, every --name in the first cell of a table row.
readme_mentions() {
	awk -v cmds=" $(echo "$COMMANDS" | tr '\n' ' ') " '
		function emit(c, s,   t) {
			while (match(s, /(^|[ `,\/(])--?[a-zA-Z][a-z0-9-]*/)) {
				t = substr(s, RSTART, RLENGTH); sub(/^[ `,\/(]/, "", t)
				if (t !~ /^-[a-zA-Z][a-z0-9-]+$/) print c "\t" t "\t" NR
				s = substr(s, RSTART + RLENGTH)
			}
		}
		/^```/ { code = !code }
		# a heading of a command starts its section; another heading of level 1
		# or 2 ends it
		!code && /^#+ / {
			if (/^##? /) sect = ""
			if (match($0, /collscope [a-z]+/)) {
				w = substr($0, RSTART + 10, RLENGTH - 10)
				if (index(cmds, " " w " ")) sect = w
			}
		}
		!code && sect != "" && /^\| *`-/ { split($0, cell, "|"); emit(sect, cell[2]) }
		{
			s = $0
			while (match(s, /collscope [a-z]+[^`|;&#]*/)) {
				frag = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
				split(frag, word, " ")
				if (index(cmds, " " word[2] " ")) emit(word[2], substr(frag, 11 + length(word[2])))
			}
		}' "$README"
}
readme_mentions | sort -u >"$TMP/readme.mentions"
for c in $COMMANDS; do
	awk -F"$S" -v c="$c" '{ print c "\t--" $1; if ($2 != "") print c "\t-" $2 }' "$TMP/doc.$c"
done >"$TMP/documented"
awk -F'\t' 'NR == FNR { ok[$0]; next } !(($1 "\t" $2) in ok) { print "line " $3 ": collscope " $1 " " $2 }' \
	"$TMP/documented" "$TMP/readme.mentions" >"$TMP/readme.bad"
while read -r bad; do fail "README.md $bad is not an option of the command in the reference"; done <"$TMP/readme.bad"
seen=$(wc -l <"$TMP/readme.mentions")
[ "$seen" -gt 0 ] || fail "README.md mentions no option next to a command: is the check reading it?"
[ -s "$TMP/readme.bad" ] || pass "README.md: $seen options next to a command, each exists"

# --- README.md's command table: the commands of main.c's table, no more, no fewer -------
grep -oE '^\| `[a-z]+` \|' "$README" | sed -E 's/^\| `([a-z]+)` \|/\1/' | sort -u >"$TMP/readme.commands"
"$BIN" help --names | sort -u >"$TMP/commands"
if cmp -s "$TMP/readme.commands" "$TMP/commands"; then
	pass "README.md's command table names every command, and only those"
else
	fail "README.md's command table differs from collscope help --names (< README, > binary)"
	diff "$TMP/readme.commands" "$TMP/commands" | grep '^[<>]' | sed 's/^/        | /'
fi

# --- README.md's system packages: every one tests/provision.sh base installs ------------
pkgs=$(sed -n 's/^BASE_PKGS="\(.*\)"$/\1/p' "$ROOT/tests/provision.sh")
missing=$(for p in $pkgs; do grep -qw -- "$p" "$README" || echo "$p"; done)
if [ -n "$pkgs" ] && [ -z "$missing" ]; then
	pass "README.md names every package of tests/provision.sh base ($(echo "$pkgs" | wc -w))"
else
	fail "README.md does not name the packages '${missing//$'\n'/ }' of tests/provision.sh base$([ -n "$pkgs" ] || echo ': no BASE_PKGS found')"
fi

# --- the man pages ------------------------------------------------------------------
# valid roff: groff's warnings (all of them) or man's; neither installed: not checked
for c in "" $COMMANDS; do
	page=collscope${c:+-$c}
	# shellcheck disable=SC2086 # no word for collscope(1)
	if ! "$BIN" help $c --man >"$TMP/$page.1" 2>"$TMP/man.err"; then
		fail "help $c --man" "$TMP/man.err"
		continue
	fi
	if command -v groff >/dev/null 2>&1; then
		groff -man -Tutf8 -ww -z "$TMP/$page.1" >"$TMP/man.err" 2>&1
	elif command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man --warnings -l "$TMP/$page.1" 2>&1 >/dev/null | grep -v '^$' >"$TMP/man.err"
	else
		echo "  note  neither groff nor man: $page.1 is not checked as roff"
		continue
	fi
	if [ -s "$TMP/man.err" ]; then fail "$page.1 is not clean roff" "$TMP/man.err"; else pass "$page.1 is valid roff"; fi
	[ -n "$c" ] || continue
	# every option's term, as help_man.c writes it: \fB\-\-name\fR, each - as \-
	cut -d"$S" -f1 "$TMP/doc.$c" | sed -e 's/-/\\-/g' -e 's/^/\\fB\\-\\-/' -e 's/$/\\fR/' | sort -u >"$TMP/terms"
	missing=$(grep -oF -f "$TMP/terms" "$TMP/$page.1" | sort -u | comm -13 - "$TMP/terms" | tr '\n' ' ')
	if [ -z "$missing" ]; then pass "$page.1 lists every option"; else fail "$page.1 lacks $missing"; fi
done

finish
