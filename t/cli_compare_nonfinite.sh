#!/bin/sh
# SPDX-License-Identifier: MIT
# reprobench compare on a ratio that is not a finite number (a sample of
# 1e308 ms against ones of a quarter millisecond): its own verdict in every format,
# a regression for --fail-above, and JSON that is still written.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# record N SAMPLE: a Givens serial record at n = N, three samples of SAMPLE ms.
record() {
    printf '{"schema":1,"key":"givens/forward/sequential/serial/f32/n=%s/m=0",' "$1"
    printf '"paper":"givens","algo":"forward","variant":"sequential","backend":"serial",'
    printf '"prec":"f32","device":"cpu","baseline":true,"sizes":{"n":%s,"m":0},' "$1"
    printf '"tunables":{},"seed":1,"status":"ok","stage":null,"message":"",'
    printf '"timer":"host-monotonic","samples_ms":[%s,%s,%s],' "$2" "$2" "$2"
    printf '"stats":{"n":3,"min":%s,"median":%s,"mean":%s,"stddev":0,"p10":%s,"p90":%s},' \
        "$2" "$2" "$2" "$2" "$2"
    printf '"truncated":false,"time":"2026-01-01T00:00:00Z"}\n'
}
mkdir "$tmp/a" "$tmp/b"
for n in 16 32 64; do record $n 0.25; done > "$tmp/a/records.jsonl"
{ record 16 0.25; record 32 1e308; record 64 0.25; } > "$tmp/b/records.jsonl"

tap_plan 8
"$RB_BIN" compare --no-plot "$tmp/a" "$tmp/b" > "$tmp/out" 2> "$tmp/err"
st=$?
tap_ok $([ $st -eq 0 ] && grep 'n=32' "$tmp/out" | grep -q ' inf .*non-finite$'; echo $?) \
    "text: the case's B/A is inf and its verdict non-finite (exit $st)"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/out" "$tmp/err")"
tap_ok $(grep -q '^3 compared: 0 slower, 0 faster, 2 same, 1 non-finite; 0 not compared$' \
         "$tmp/out"; echo $?) "the summary counts it apart"

"$RB_BIN" compare --no-plot --fail-above 1.1 "$tmp/a" "$tmp/b" > "$tmp/out" 2> "$tmp/err"
st=$?
tap_ok $([ $st -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
         && grep -q 'not a finite number:.*n=32' "$tmp/err"; echo $?) \
    "--fail-above 1.1: a regression, exit 1 (got $st), one line naming the case"
[ $st -eq 1 ] || tap_diag "$(cat "$tmp/err")"

"$RB_BIN" compare --no-plot --format json "$tmp/a" "$tmp/b" > "$tmp/out.json" 2> "$tmp/err"
st=$?
tap_ok $st "--format json exits 0"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
tap_ok $(tr -d ' \n' < "$tmp/out.json" | grep -q '"ratio":"inf".*"verdict":"non-finite"' \
         && tr -d ' \n' < "$tmp/out.json" | grep -q '"non_finite":1'; echo $?) \
    "and writes the ratio as \"inf\", the verdict and the count"
"$RB_BIN" compare --no-plot --format tsv "$tmp/a" "$tmp/b" > "$tmp/out.tsv" 2> "$tmp/err"
st=$?
tap_ok $([ $st -eq 0 ] && awk -F'\t' '$2 ~ /n=32/ && $7 == "inf" && $10 == "non-finite"' \
         "$tmp/out.tsv" | grep -q .; echo $?) "--format tsv: inf and non-finite"
"$RB_BIN" compare --no-plot --format md "$tmp/a" "$tmp/b" > "$tmp/out.md" 2> "$tmp/err"
st=$?
row='| givens/forward/sequential serial f32 n=32 m=0 |.*| inf |.*non-finite |'
tap_ok $([ $st -eq 0 ] && grep -q "$row" "$tmp/out.md"; echo $?) "--format md: inf and non-finite"
"$RB_BIN" compare --no-plot --fail-above 1.1 "$tmp/a" "$tmp/a" > /dev/null 2>&1
tap_ok $? "A against itself still passes --fail-above"
