#!/bin/sh
# SPDX-License-Identifier: MIT
# --resume continues a run's stored plan: alone it runs exactly the cases
# the run planned, with the run's seed; an option that differs from the
# plan is exit 2 naming it, an equal one is accepted; the hint printed on
# an interrupt works as typed; meta.json lists one seed per session; a run
# recorded before plans were stored is re-planned from its command; another
# build or another machine than the run's is refused.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

args="--paper givens --backend serial --n 16,20 --m 0 --prec f32 --min-samples 2
      --min-time 0.001 --no-plot --no-ceilings --quiet"
keys() { grep -o '"key":"[^"]*"' "$1" | sort; }
seed_of() { grep "\"key\":\"$2\"" "$1" | sed 's/.*"seed":\([0-9]*\).*/\1/'; }
# refused WHAT OPTION ARGS...: exit 2, one line naming OPTION, no record added.
refused() {
    what=$1 opt=$2; shift 2
    before=$(wc -l < "$run/records.jsonl")
    "$RB_BIN" run --resume "$run" "$@" >/dev/null 2>"$tmp/err"; st=$?
    after=$(wc -l < "$run/records.jsonl")
    tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
             && grep -q -- "^reprobench: .*$opt" "$tmp/err" && [ "$before" -eq "$after" ]; \
             echo $?) "$what: exit $st, one line naming $opt, nothing recorded"
    [ $st -eq 2 ] || tap_diag "$(cat "$tmp/err")"
}

tap_plan 17
# shellcheck disable=SC2086
"$RB_BIN" run $args --seed 77 --out "$tmp/res" 2>"$tmp/err"
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
run=${run%/}
tap_ok $([ "$(wc -l < "$run/records.jsonl")" -eq 6 ]; echo $?) "a run of 6 cases"
keys "$run/records.jsonl" > "$tmp/keys"
cp "$run/records.jsonl" "$tmp/all"

refused "another paper" --paper --paper sammon
refused "another size" --n --n 32
refused "an axis the run left to its preset" --threads --threads 1
refused "another precision" --prec --prec f64
refused "another seed" --seed --seed 78
refused "another measurement policy" --min-samples --min-samples 3

# Three records lost: --resume alone runs exactly those, with their seeds.
head -n 3 "$tmp/all" > "$run/records.jsonl"
"$RB_BIN" run --resume "$run" --quiet --no-plot 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 0 ] && keys "$run/records.jsonl" | cmp -s - "$tmp/keys"; echo $?) \
    "--resume alone: exit $st, the run's 6 cases and no other"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
k=$(sed -n 5p "$tmp/all" | sed 's/.*"key":"\([^"]*\)".*/\1/')
tap_ok $([ "$(seed_of "$tmp/all" "$k")" = "$(seed_of "$run/records.jsonl" "$k")" ]; echo $?) \
    "a resumed record carries its own seed, the one the plan gives it"
# shellcheck disable=SC2086
"$RB_BIN" run --resume "$run" $args --seed 77 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 0 ] && [ "$(wc -l < "$run/records.jsonl")" -eq 6 ]; echo $?) \
    "the same options again are accepted (exit $st) and add nothing"
seeds=$(tr -d ' \n' < "$run/meta.json" | sed -n 's/.*"seeds":\[\([0-9,]*\)\].*/\1/p')
tap_ok $([ "$seeds" = "77,77,77" ] && tr -d ' \n' < "$run/meta.json" | grep -q '"plan":{'; \
         echo $?) "meta.json keeps the plan and one seed per session ($seeds)"

# A run goes on with the build and on the machine that made it (the store's
# fingerprint of hardware.json): another of either is exit 2, one line, and
# the run left as it was.
# other WHAT FILE SED-SCRIPT: a copy of the run with FILE edited is refused.
other() {
    rm -rf "$tmp/other" && cp -r "$run" "$tmp/other" && : > "$tmp/other/records.jsonl"
    sed -i "$3" "$tmp/other/$2" && cp "$tmp/other/meta.json" "$tmp/other.meta"
    "$RB_BIN" run --resume "$tmp/other" --quiet --no-plot 2>"$tmp/err"; st=$?
    tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
             && grep -q "^reprobench: --resume $tmp/other: made $1" "$tmp/err" \
             && [ ! -s "$tmp/other/records.jsonl" ] \
             && cmp -s "$tmp/other/meta.json" "$tmp/other.meta"; echo $?) \
        "a run made $1: exit $st, one line, nothing recorded, meta.json as it was"
    [ $st -eq 2 ] || tap_diag "$(cat "$tmp/err")"
}
other "by another build" meta.json 's/^  "git": ".*",$/  "git": "0000000",/'
grep -q "(git '0000000', this one's '" "$tmp/err"; tap_ok $? "the line names what differs"
other "on another machine" hardware.json '0,/"model": /s/"model": "[^"]*"/"model": "Other CPU"/'
# A machine's name: its CPU, cores, then " + " each device that is not the CPU.
grep -q "(Other CPU, [0-9]* cores\?\( + [^;]*\)\?, machine [0-9a-f]*; this is .*, machine [0-9a-f]*)" \
    "$tmp/err"; st=$?
tap_ok $st "the line names both machines"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"

# The interrupt's hint, typed as printed.
# shellcheck disable=SC2086
RB_INJECT_DELAY='givens/*/*:200' "$RB_BIN" run $args --out "$tmp/sig" 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 200 ] && ! [ -s "$(ls "$tmp"/sig/*/records.jsonl 2>/dev/null | head -n 1)" ]; do
    sleep 0.05; i=$((i + 1))
done
kill -INT $pid
wait $pid; st=$?
hint=$(sed -n 's/.*Continue with: reprobench \(run --resume [^ ]*\)$/\1/p' "$tmp/err")
sig=$(ls -d "$tmp"/sig/*/ | head -n 1)
# shellcheck disable=SC2086
"$RB_BIN" $hint --quiet --no-plot 2>"$tmp/err2"; st2=$?
tap_ok $([ $st -eq 130 ] && [ -n "$hint" ] && [ $st2 -eq 0 ] \
         && [ "$(wc -l < "$sig/records.jsonl")" -eq 6 ]; echo $?) \
    "SIGINT (exit $st) prints '$hint', which continues the same 6 cases (exit $st2)"

# A run recorded before plans were stored: its command is planned again.
mkdir "$tmp/old"
cp -r "$run" "$tmp/old/run"
awk '/^  "plan": \{/ { skip = 1 } !skip { print } skip && /^  \}/ { skip = 0 }' \
    "$run/meta.json" > "$tmp/old/run/meta.json"
head -n 2 "$tmp/all" > "$tmp/old/run/records.jsonl"
"$RB_BIN" run --resume "$tmp/old/run" --quiet --no-plot 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 0 ] && ! grep -q '"plan"' "$tmp/old/run/meta.json" \
         && keys "$tmp/old/run/records.jsonl" | cmp -s - "$tmp/keys"; echo $?) \
    "a run without a stored plan resumes from its command (exit $st)"
