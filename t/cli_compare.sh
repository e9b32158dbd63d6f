#!/bin/sh
# SPDX-License-Identifier: MIT
# reprobench compare end to end: two runs of one small Givens sweep with the
# same seed show no regression; a third run with a longer RB_INJECT_DELAY on
# one variant is flagged slower for that variant alone and fails --fail-above;
# synthetic records from one distribution compare "same" under the default
# noise floor; failed records and cases of one run are shown, not dropped;
# bad input exits 2 with one line naming file:line.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The sweep: 3 variants x 2 sizes x 2 precisions, microseconds per case,
# each sample held to BASE ms by an injected delay.  Bare, runs of one build
# on a two-core machine running the other tests beside them differed by
# more than 2x in single cases, which a test of compare must not hinge on.
# The delay spins to a deadline, so load moves a sample only by where the
# scheduler next gives the process a core: with four busy loops on two
# cores, 5 ms samples came out as 8 and 12 ms; BASE is well above that step.
BASE=20
sweep() {
    "$RB_BIN" run --paper givens --backend serial --n 16,32 --min-samples 8 \
        --min-time 0.05 --max-samples 300 --seed 11 --no-plot --quiet --out "$1" \
        2>>"$tmp/run.err"
}
cmp_ok() {   # cmp_ok DESCRIPTION WANT_STATUS ARGS...: compare exits WANT_STATUS
    what=$1 want=$2; shift 2
    "$RB_BIN" compare "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
    tap_ok $([ $st -eq "$want" ]; echo $?) "$what"
    [ $st -eq "$want" ] || tap_diag "status $st" "$(cat "$tmp/out" "$tmp/err")"
}

tap_plan 25
export RB_INJECT_DELAY="givens/*/*:$BASE"
sweep "$tmp/a" && sweep "$tmp/b" \
    && RB_INJECT_DELAY="$RB_INJECT_DELAY,givens/forward/sequential:$((10 * BASE))" \
       sweep "$tmp/slow"
# 10 x BASE: far above what a case takes in any build (a sanitized one runs
# the n = 32 cases in tenths of a millisecond).
tap_ok $? "three runs of the sweep, the third with forward/sequential's delay 10x"
unset RB_INJECT_DELAY
a=$(ls -d "$tmp"/a/*/) b=$(ls -d "$tmp"/b/*/) slow=$(ls -d "$tmp"/slow/*/)
n=$(grep -c '"timer":"host-monotonic+injected-delay"' "$slow/records.jsonl")
tap_ok $([ "$n" -eq 12 ]; echo $?) "every record says its time holds the injected delay ($n of 12)"

# The default floor follows the spread of the 12 cases' ratios.
cmp_ok "same seed, same build: exit 0 under --fail-above 2" 0 \
    --no-plot --fail-above 2 "$a" "$b"
# Load moves cases that run back to back together, which one pair of runs
# cannot tell from a change of theirs; what it must never do is call a case
# of the same build 2x slower or faster.
"$RB_BIN" compare --no-plot --format tsv "$a" "$b" > "$tmp/same.tsv" 2>/dev/null
far=$(awk -F'\t' 'NR > 1 && $10 != "same" && ($7 > 2 || $7 < 0.5)' "$tmp/same.tsv" | wc -l)
tap_ok $([ "$far" -eq 0 ]; echo $?) "and no case called slower or faster by 2x or more"
[ "$far" -eq 0 ] || tap_diag "$(cat "$tmp/same.tsv")"
tap_ok $(grep -q '^12 compared: [0-9]* slower, [0-9]* faster, [0-9]* same; 0 not compared$' \
         "$tmp/out"; echo $?) "all 12 cases compared and counted"
grep -q ' 0 slower, 0 faster' "$tmp/out" || tap_diag "verdicts of the same build: $(tail -n 1 "$tmp/out")"

# A floor of 2 (ratios beyond 3x): the delay makes forward/sequential's cases
# about 10 times slower and leaves the others as they were.
cmp_ok "injected delay: --fail-above 1.10 exits 1" 1 \
    --no-plot --noise 2 --fail-above 1.10 "$a" "$slow"
tap_ok $([ "$(grep -c 'slower$' "$tmp/out")" -eq 4 ] \
         && [ "$(grep 'slower$' "$tmp/out" | grep -c '^givens/forward/sequential ')" -eq 4 ] \
         && ! grep -q 'faster$' "$tmp/out"; echo $?) \
    "the 4 forward/sequential cases are slower, and no other case"
tap_ok $([ "$(wc -l < "$tmp/err")" -eq 1 ] \
         && grep -q '^reprobench: 4 cases slower than 1.1x.*forward/sequential' "$tmp/err"; \
         echo $?) "one line on stderr names them"
cmp_ok "with the default noise floor too" 0 --no-plot "$a" "$slow"
tap_ok $([ "$(grep '^givens/forward/sequential ' "$tmp/out" | grep -c 'slower$')" -eq 4 ]; \
         echo $?) "the 4 delayed cases are slower"

for f in tsv md json; do
    "$RB_BIN" compare --no-plot --noise 2 --format $f "$a" "$slow" > "$tmp/out.$f" 2>"$tmp/err"
done
head -n 1 "$tmp/out.tsv" | tr '\t' ' ' > "$tmp/head.tsv"
tap_ok $([ "$(grep -c "$(printf '\t')slower$(printf '\t')" "$tmp/out.tsv")" -eq 4 ] \
         && grep -qx 'key label a_status b_status a_ms b_ms ratio ci_lo ci_hi verdict a_energy_j b_energy_j a_throttled b_throttled' \
                 "$tmp/head.tsv" \
         && [ "$(wc -l < "$tmp/out.tsv")" -eq 13 ]; echo $?) "--format tsv: header and 12 rows"
tap_ok $(grep -q '^| case | A median ms | B median ms | B/A | 95% CI | verdict |$' \
             "$tmp/out.md" && [ "$(grep -c '| slower |$' "$tmp/out.md")" -eq 4 ]; echo $?) \
    "--format md: a table"
tap_ok $([ "$(grep -c '"verdict": "slower"' "$tmp/out.json")" -eq 4 ] \
         && grep -q '"only_in_b": \[\]' "$tmp/out.json"; echo $?) "--format json"

# A case of one run only, and a failed record.
mkdir "$tmp/part" "$tmp/fail"
head -n 11 "$a/records.jsonl" > "$tmp/part/records.jsonl"
sed '1s/"status":"ok"/"status":"failed"/' "$b/records.jsonl" > "$tmp/fail/records.jsonl"
last=$(tail -n 1 "$a/records.jsonl" | sed 's/.*"key":"\([^"]*\)".*/\1/' \
       | awk -F/ '{ l = $1 "/" $2 "/" $3; for (i = 4; i <= NF; i++) l = l " " $i; print l }')
cmp_ok "a case of one run only: exit 0" 0 --no-plot "$tmp/part" "$tmp/fail"
tap_ok $(grep -A1 '^only in B:$' "$tmp/out" | grep -qxF "  $last (ok)"; echo $?) \
    "listed under 'only in B:' ($last)"
tap_ok $(grep -q ' B failed$' "$tmp/out" \
         && grep -q '^10 compared: .*; 1 not compared$' "$tmp/out"; echo $?) \
    "a failed record is shown with its status, not compared"
cmp_ok "the other way round" 0 --no-plot "$tmp/fail" "$tmp/part"
tap_ok $(grep -A1 '^only in A:$' "$tmp/out" | grep -qxF "  $last (ok)"; echo $?) \
    "listed under 'only in A:'"

# Synthetic records, one distribution: "same" under the default floor.
synth() {   # synth SEED: 3 cases of 200 samples around 1 ms, 5% spread
    awk -v x="$1" 'BEGIN {
        for (c = 0; c < 3; c++) {
            s = ""
            for (i = 0; i < 200; i++) {
                x = (x * 16807) % 2147483647
                s = s (i ? "," : "") (0.95 + 0.1 * x / 2147483647)
            }
            printf "{\"schema\":1,\"key\":\"givens/forward/v%d/serial/f32/n=16\",", c
            printf "\"status\":\"ok\",\"sizes\":{\"n\":16},\"samples_ms\":[%s]}\n", s
        }
    }'
}
mkdir "$tmp/s1" "$tmp/s2"
synth 12345 > "$tmp/s1/records.jsonl"
synth 67890 > "$tmp/s2/records.jsonl"
cmp_ok "synthetic, one distribution: --fail-above 1.10 exits 0" 0 \
    --no-plot --fail-above 1.10 "$tmp/s1" "$tmp/s2"
tap_ok $(grep -q '^3 compared: 0 slower, 0 faster, 3 same' "$tmp/out"; echo $?) \
    "3 cases, all same under the default 2% floor"

if command -v gnuplot >/dev/null 2>&1; then
    "$RB_BIN" compare --quiet "$a" "$slow" >/dev/null 2>"$tmp/err"
    name=$(basename "$a")
    tap_ok $([ -s "$slow/compare-vs-$name.png" ] && [ -s "$slow/compare-vs-$name.tsv" ] \
             && head -c 4 "$slow/compare-vs-$name.png" | grep -q PNG; echo $?) \
        "default plot: RUN_B/compare-vs-$name.png and its table"
else
    tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP gnuplot not found"
fi

expect_usage_error "a missing run directory exits 2" compare "$a" "$tmp/nothere"
mkdir "$tmp/bad"
sed '3s/.*/{"schema":1, not json/' "$b/records.jsonl" > "$tmp/bad/records.jsonl"
expect_usage_error "a malformed records.jsonl exits 2" compare "$a" "$tmp/bad"
tap_ok $(grep -q 'records.jsonl:3: ' "$tmp/err"; echo $?) "naming file:line"
expect_usage_error "an unknown format exits 2" compare --format xml "$a" "$b"
