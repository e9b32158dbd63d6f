#!/bin/sh
# SPDX-License-Identifier: MIT
# End to end: a small sweep writes a whole run directory with verified
# records; an interrupted run resumes without repeating recorded cases.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

tap_plan 14
"$RB_BIN" run --paper givens --backend serial --n 16,33 --m 0 --prec f32,f64 \
    --min-samples 2 --min-time 0.01 --no-plot --quiet --out "$tmp/res" 2>"$tmp/err"
tap_ok $? "a serial sweep succeeds"
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
tap_ok $([ -n "$run" ]; echo $?) "run directory created under --out"
for f in meta.json hw.xml hardware.json records.jsonl records.tsv best.tsv; do
    tap_ok $([ -s "$run/$f" ]; echo $?) "$f written"
done
n=$(wc -l < "$run/records.jsonl")
tap_ok $([ "$n" -eq 12 ]; echo $?) "12 records (3 variants x 2 sizes x 2 precisions), got $n"
bad=$(grep -c '"pass": *false\|"status": *"failed"' "$run/records.jsonl")
ok=$(grep -c '"status": *"ok"' "$run/records.jsonl")
tap_ok $([ "$bad" -eq 0 ] && [ "$ok" -eq 12 ]; echo $?) "every record ok and verified"
# No tunables here, so every record is its series' fastest: header + 12 rows.
rows=$(wc -l < "$run/best.tsv")
tap_ok $([ "$rows" -eq 13 ]; echo $?) "best.tsv: one row per series and size, got $((rows - 1))"

# Resume: drop the last two records, cut the next one mid-line, resume.
head -n 9 "$run/records.jsonl" > "$tmp/part"
sed -n 10p "$run/records.jsonl" | cut -c1-40 | tr -d '\n' >> "$tmp/part"
cp "$tmp/part" "$run/records.jsonl"
"$RB_BIN" run --resume "$run" --paper givens --backend serial --n 16,33 --m 0 \
    --prec f32,f64 --min-samples 2 --min-time 0.01 --no-plot --quiet 2>"$tmp/err2"
tap_ok $? "resume succeeds"
n=$(grep -c '"schema"' "$run/records.jsonl")
complete=$(grep -c '}$' "$run/records.jsonl")
tap_ok $([ "$complete" -eq 12 ]; echo $?) "resume recorded only the 3 missing cases ($complete whole records)"
keys=$(grep -o '"key": *"[^"]*"' "$run/records.jsonl" | sort | uniq -d | wc -l)
tap_ok $([ "$keys" -eq 0 ]; echo $?) "no case recorded twice"
