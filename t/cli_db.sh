#!/bin/sh
# SPDX-License-Identifier: MIT
# The results store from the command line, on real runs: run imports at its
# end (not with --no-db), db import is idempotent, history, compare --db and
# report --db read the store; a corrupt, locked or newer store, a run cut
# short or holding a case twice, a run being written and an unknown query
# field each give one clear line, the exit status of bad input (2) or I/O
# (1), and leave the store's bytes as they were; the store's options follow
# the one rule for options (each at most once).
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
lockpid= busypid=
trap 'for p in $lockpid $busypid; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

if ! "$RB_BIN" db info --db "$tmp/none.db" 2>"$tmp/err" \
    && grep -q 'store was not built' "$tmp/err"; then
    tap_plan 1
    expect_usage_error "without libsqlite3, db says the store was not built" db info
    exit 0
fi
TOOL=$(dirname "$0")/db_tool
[ -x "$TOOL" ] || TOOL=./t/db_tool

store=$tmp/results/reprobench.db
sweep() {   # sweep OUT [ARGS...]: a small sweep, its stderr in $tmp/run.err
    out=$1; shift
    "$RB_BIN" run --paper givens --backend serial --n 16,32 --prec f32 --min-samples 5 \
        --min-time 0.01 --no-plot --no-ceilings --out "$out" "$@" 2>"$tmp/run.err"
}
# ok_status WANT DESCRIPTION COMMAND...: COMMAND exits WANT with one line on
# stderr starting "reprobench: ".
ok_status() {
    want=$1 what=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
    if [ "$st" -eq "$want" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
        && grep -q '^reprobench: ' "$tmp/err"; then
        tap_ok 0 "$what"
    else
        tap_ok 1 "$what"
        tap_diag "status $st, stderr:" "$(cat "$tmp/err")"
    fi
}
same_bytes() {   # same_bytes FILE COPY DESCRIPTION
    cmp -s "$1" "$2"; tap_ok $? "$3"
}

tap_plan 48

sweep "$tmp/results"; st1=$?
grep -q "records into the store $store" "$tmp/run.err"; st2=$?
sweep "$tmp/results" --quiet && sweep "$tmp/other" --quiet --no-db
tap_ok $((st1 + st2 + $?)) "three runs, the first says it imported into the store"
[ -f "$tmp/other/reprobench.db" ]; tap_ok $((! $?)) "--no-db writes no store"
"$RB_BIN" db info --db "$store" >"$tmp/info"
grep -q '(schema 2): 2 runs, 12 records, 1 machine$' "$tmp/info"
ok=$?; tap_ok $ok "the store has both runs, their 12 records and one machine"
[ $ok -eq 0 ] || tap_diag "$(cat "$tmp/info")"
runs=$(ls -d "$tmp"/results/2*)
r1=$(basename "$(echo "$runs" | head -n 1)")
r2=$(basename "$(echo "$runs" | tail -n 1)")

cp "$store" "$tmp/before.db"
"$RB_BIN" db import --db "$store" $runs >"$tmp/out"
[ "$(grep -c ': known run, 0 records added, 0 replaced, 6 already there' "$tmp/out")" = 2 ]
tap_ok $? "importing both again adds nothing"
same_bytes "$store" "$tmp/before.db" "and leaves the file as it was"
"$RB_BIN" db import --db "$store" "$tmp/other/"2* >"$tmp/out"
grep -q ': new run, 6 records added' "$tmp/out"; tap_ok $? "db import adds the --no-db run"

# A run is known by its making and its nonce: two runs of one command begun
# in the same second differ by the nonce alone; a run made before runs had
# a nonce is known by the rest, as it was.
twins=$tmp/twins.db
grep -q '^  "nonce": "[0-9a-f]\{16\}",$' "$tmp/results/$r1/meta.json"
tap_ok $? "meta.json has the run's nonce"
for d in twin old; do
    mkdir "$tmp/$d" && cp "$tmp/results/$r1"/*.json "$tmp/results/$r1/records.jsonl" "$tmp/$d/"
done
sed -i 's/^  "nonce": "[0-9a-f]*",$/  "nonce": "0123456789abcdef",/' "$tmp/twin/meta.json"
sed -i '/^  "nonce": /d' "$tmp/old/meta.json"
"$RB_BIN" db import --db "$twins" "$tmp/results/$r1" "$tmp/twin" "$tmp/old" >"$tmp/out" \
    && "$RB_BIN" db import --db "$twins" "$tmp/old" >>"$tmp/out"
[ "$(grep -c ': new run, 6 records added' "$tmp/out")" = 3 ] \
    && grep -q '^old: known run, 0 records added' "$tmp/out"
ok=$?; tap_ok $ok "a run differing by its nonce alone is a run of its own; one without is known"
[ $ok -eq 0 ] || tap_diag "$(cat "$tmp/out")"

# history: the n=16 sequential case in all three runs, oldest first.
"$RB_BIN" history --db "$store" --variant sequential --n 16 --plot "$tmp/h.png" \
    >"$tmp/out" 2>"$tmp/err"
tap_ok $? "history of one case"
[ "$(grep -c '^  20[0-9-]*T' "$tmp/out")" = 3 ]; ok=$?
tap_ok $ok "one row for each of the three runs"
[ $ok -eq 0 ] || tap_diag "$(cat "$tmp/out")"
head -n 1 "$tmp/out" | grep -q '^givens/forward/sequential serial f32 n=16 m=0$'
tap_ok $? "under the series' name"
# The figure needs gnuplot (configure's, $GNUPLOT or one on PATH); the table
# is written either way.
drawn=no
[ -s "$tmp/h.png" ] && drawn=yes
if [ $drawn = yes ] || command -v gnuplot >/dev/null 2>&1; then
    [ -s "$tmp/h.png" ] && [ -s "$tmp/h.tsv" ]; tap_ok $? "its figure and table are written"
else
    [ -s "$tmp/h.tsv" ] && grep -q 'gnuplot not found' "$tmp/err"
    tap_ok $? "no gnuplot: its table is written, and the reason it is not drawn"
fi
"$RB_BIN" history --db "$store" --backend serial --format tsv --no-plot >"$tmp/out"
[ "$(tail -n +2 "$tmp/out" | wc -l)" = 18 ] && head -n 1 "$tmp/out" | grep -q '^series	start'
tap_ok $? "--format tsv: a header and 18 rows"
"$RB_BIN" history --db "$store" --best --variant roundrobin --no-plot >"$tmp/out"
grep -q '(best tunables)' "$tmp/out"; tap_ok $? "--best names its series by size"
ok_status 2 "an unknown history option" "$RB_BIN" history --db "$store" --colour red
ok_status 2 "a date that is none" "$RB_BIN" history --db "$store" --since yesterday
ok_status 2 "a selection of nothing" "$RB_BIN" history --db "$store" --paper nosuch

# compare --db: two runs of the store by name, and bad queries.
"$RB_BIN" compare --db "$store" --a "run=$r1" --b "run=$r2" >"$tmp/out" 2>"$tmp/err"
tap_ok $? "compare --db of two runs"
grep -q '^6 compared' "$tmp/out"; ok=$?; tap_ok $ok "compares their six cases"
[ $ok -eq 0 ] || tap_diag "$(cat "$tmp/out" "$tmp/err")"
"$RB_BIN" compare --db "$store" --a "machine=1 run=$r1" --b "machine=1" >"$tmp/out" 2>&1
grep -q '^B: .*\[machine=1\], the newest of each case in 3 runs (6 records)$' "$tmp/out"
st=$?; tap_ok $st "a side of several runs takes each case's newest"
[ $st -eq 0 ] || tap_diag "$(head -n 3 "$tmp/out")"
ok_status 2 "a query naming an unknown field" "$RB_BIN" compare --db "$store" --a colour=red \
    --b "run=$r2"
grep -q "unknown field 'colour'" "$tmp/err"; tap_ok $? "is named"
ok_status 2 "a side that selects nothing" "$RB_BIN" compare --db "$store" --a git=nosuch \
    --b "run=$r2"

# report --db: the cross-machine report.
"$RB_BIN" report --db "$store" --out "$tmp/rep" >"$tmp/out" 2>"$tmp/err"
tap_ok $? "report --db"
grep -q 'Machine 1: ' "$tmp/rep/README.md" && grep -q 'Best configuration of every variant' \
    "$tmp/rep/README.md"
tap_ok $? "with its machines and best configurations"
if [ $drawn = yes ]; then
    grep -q 'givens-history.png' "$tmp/rep/index.html" && [ -s "$tmp/rep/givens-history.png" ]
    tap_ok $? "and its history figure, drawn"
else
    tap_skip "the history figure: no gnuplot here"
fi

# Bad stores and bad runs: one line, the right status, the bytes kept.
printf 'not a database, only text, long enough to be read as a header...\n' >"$tmp/junk.db"
cp "$tmp/junk.db" "$tmp/junk.copy"
ok_status 2 "db import into a file that is no store" "$RB_BIN" db import --db "$tmp/junk.db" \
    "$tmp/results/$r1"
same_bytes "$tmp/junk.db" "$tmp/junk.copy" "which is left as it was"
cp "$store" "$tmp/before.db"
mkdir "$tmp/cut" && cp "$tmp/results/$r1"/*.json "$tmp/results/$r1/records.jsonl" "$tmp/cut/"
printf '{"schema":1,"key":"givens/forward/x' >>"$tmp/cut/records.jsonl"
ok_status 2 "a run whose last record is cut short" "$RB_BIN" db import --db "$store" "$tmp/cut"
same_bytes "$store" "$tmp/before.db" "is not imported at all"
cp "$store" "$tmp/newer.db"
"$TOOL" version "$tmp/newer.db" 9 && cp "$tmp/newer.db" "$tmp/newer.copy"
ok_status 2 "a store of a newer schema" "$RB_BIN" history --db "$tmp/newer.db"
same_bytes "$tmp/newer.db" "$tmp/newer.copy" "is left as it was"

"$TOOL" lock "$store" 30 >"$tmp/lock.out" &
lockpid=$!
for _ in $(seq 100); do grep -q locked "$tmp/lock.out" 2>/dev/null && break; sleep 0.1; done
export RB_DB_BUSY_MS=200
ok_status 1 "db import into a store another process has locked" "$RB_BIN" db import \
    --db "$store" "$tmp/other/"2*
sweep "$tmp/results" --quiet; st=$?
[ "$(grep -c 'warning: the run is not in the store: .*locked' "$tmp/run.err")" -eq 1 ]
tap_ok $((st + $?)) "a run beside the lock ends well, with one warning"
kill "$lockpid" 2>/dev/null; wait "$lockpid" 2>/dev/null; lockpid=
unset RB_DB_BUSY_MS
# The run's own last line names its directory (a listing's order would not).
last=$(sed -n 's/.*; results in //p' "$tmp/run.err")
"$RB_BIN" db import --db "$store" "$last" >"$tmp/out" 2>"$tmp/err" \
    && grep -q 'new run, 6 records' "$tmp/out"
ok=$?; tap_ok $ok "its run is complete and imports once the lock is gone"
[ $ok -eq 0 ] || tap_diag "run: $last" "$(cat "$tmp/run.err" "$tmp/out" "$tmp/err")"

# The store's options, one rule for all: each at most once.
twice() {   # twice WHAT ARGS...: exit 2, one line saying the option is given twice
    what=$1; shift
    ok_status 2 "$what: given twice" "$RB_BIN" "$@"
    grep -q 'given twice' "$tmp/err" || tap_diag "$(cat "$tmp/err")"
}
twice "run --db" run --db "$tmp/a.db" --db "$tmp/b.db" --dry-run
twice "compare --a" compare --db "$store" --a "run=$r1" --a "run=$r2" --b "run=$r2"
twice "report --db" report --db "$store" --db "$store"
twice "history --paper" history --db "$store" --paper givens --paper sbo
twice "db import --db" db import --db "$store" --db "$store" "$tmp/results/$r1"
ok_status 2 "run --db and --no-db exclude each other" "$RB_BIN" run --paper givens \
    --backend serial --dry-run --db "$store" --no-db

# A run holding a case twice (two writers before it had a lock) is refused
# whole, as report and compare refuse it.
cp "$store" "$tmp/before.db"
mkdir "$tmp/twice" && cp "$tmp/results/$r1"/*.json "$tmp/results/$r1/records.jsonl" "$tmp/twice/"
sed -n 2p "$tmp/twice/records.jsonl" >>"$tmp/twice/records.jsonl"
ok_status 2 "a run with a case recorded twice" "$RB_BIN" db import --db "$store" "$tmp/twice"
grep -q 'records.jsonl:7: case .* is recorded twice (first at line 2)' "$tmp/err"
tap_ok $? "is named, line by line"
same_bytes "$store" "$tmp/before.db" "and not imported at all"

# While a run writes, db import of it and a report into it are refused
# (the run's own import at its end holds its lock already).
RB_INJECT_DELAY='givens/*/*:40' "$RB_BIN" run --paper givens --backend serial --n 16,32 \
    --prec f32 --min-samples 5 --min-time 0.01 --no-plot --no-ceilings --quiet \
    --out "$tmp/busy" 2>"$tmp/busy.err" & busypid=$!
i=0
while [ $i -lt 200 ] && ! grep -q . "$tmp"/busy/*/.lock 2>/dev/null; do
    sleep 0.05; i=$((i + 1))
done
busy=$(ls -d "$tmp"/busy/2*)
ok_status 2 "db import of a run being written" "$RB_BIN" db import --db "$store" "$busy"
grep -q "is in use by pid $busypid" "$tmp/err"; tap_ok $? "names the run's pid"
ok_status 2 "report --db into a run being written" "$RB_BIN" report --db "$store" --out "$busy"
wait "$busypid"; st=$?; busypid=
"$RB_BIN" db info --db "$tmp/busy/reprobench.db" >"$tmp/info" 2>&1
[ $st -eq 0 ] && grep -q '(schema 2): 1 runs, 6 records, 1 machine$' "$tmp/info"
ok=$?; tap_ok $ok "the run itself ends well and imports under its own lock"
[ $ok -eq 0 ] || tap_diag "status $st" "$(cat "$tmp/busy.err" "$tmp/info")"
