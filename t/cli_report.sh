#!/bin/sh
# SPDX-License-Identifier: MIT
# A small real sweep of both papers in one run directory, then reprobench
# report: index.html and README.md hold the hardware table, every paper's
# section and its claims with numbers; every figure the page names exists;
# a record's text reaches the page escaped; a bad run directory is refused.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

backends=serial,omp
"$RB_BIN" list --paper sammon --backend omp 2>/dev/null | grep -q " yes" || backends=serial
tap_plan 17
"$RB_BIN" run --paper givens,sammon --backend $backends --n 16,32 --points 33,64 --dim 4 \
    --threads 1,2 --prec f32 --min-samples 2 --min-time 0.01 --quiet --no-plot \
    --out "$tmp/res" > "$tmp/out" 2> "$tmp/err"
st=$?
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
run=${run%/}
tap_ok $st "a small givens and sammon ($backends) sweep in one run directory"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"

# A failed record whose message is markup: the page must show it as text.
rec='{"schema":1,"key":"givens/forward/evil/serial/f32/n=16/m=0","paper":"givens",'
rec=$rec'"algo":"forward","variant":"evil","backend":"serial","prec":"f32","device":"cpu",'
rec=$rec'"baseline":false,"sizes":{"n":16,"m":0},"tunables":{},"seed":1,"status":"failed",'
rec=$rec'"stage":"run","message":"<script>alert(1)</script> & \"q\"",'
rec=$rec'"timer":"host-monotonic","samples_ms":[],"stats":null,"truncated":false,'
rec=$rec'"transfer_ms":null,"build_ms":null,"occupancy":{"available":false,"reason":"x"},'
rec=$rec'"verify":null,"metrics":null,"time":"2026-01-01T00:00:00Z"}'
printf '%s\n' "$rec" >> "$run/records.jsonl"

"$RB_BIN" report "$run" > "$tmp/out" 2> "$tmp/err"
st=$?
tap_ok $st "reprobench report succeeds"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
html=$run/report/index.html
md=$run/report/README.md
tap_ok $([ "$(tail -n 1 "$tmp/out")" = "$html" ]; echo $?) "it prints the page's path last"
tap_ok $([ -s "$html" ] && [ -s "$md" ]; echo $?) "index.html and README.md exist"

ncores=$(sed -n 's/.*"cores": *\([0-9]*\).*/\1/p' "$run/hardware.json" | head -n 1)
grep -q "<td>topology</td><td>[0-9]* packages, $ncores cores" "$html" \
    && grep -q "| topology | [0-9]* packages, $ncores cores" "$md"
tap_ok $? "both hold the hardware table, with hardware.json's core count ($ncores)"
grep -q '<h2>Build and run</h2>' "$html" && grep -q '<td>git describe</td>' "$html"
tap_ok $? "the page holds the build table"
for p in givens sammon sbo; do
    grep -q "<h2>$p: " "$html" && grep -q "^## $p: " "$md"
    tap_ok $? "both have the $p section"
done

# The claims: Sammon's rows name a measured ratio where a GPU backend ran,
# else say why; SBO is not in this run.
grep -q '<td>~6x</td><td>gd</td>' "$html" && grep -q '<td>~60x</td><td>gd</td>' "$html"
tap_ok $? "the claims table has Sammon's two claims"
grep -q '<td>hundreds</td><td>forward</td>' "$html" \
    && grep -q '<td>hundreds</td><td>backward</td>' "$html"
tap_ok $? "and Givens' claim for forward and backward"
grep -q '<td>GPU &gt; CPU</td>.*<td>not in this run</td>' "$html"
tap_ok $? "SBO's claim reads 'not in this run'"
# The baseline rows of the best-configuration table carry the records' median.
med=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["variant"] == "sequential" && $c["n"] == 32 { print $c["median_ms"] }' "$run/best.tsv")
# The page shows 4 digits of the median, best.tsv 10: compared as numbers,
# since rounding best.tsv's digits again can move the fourth.
row="<td>sequential (baseline)</td><td>serial</td><td>f32</td><td>n=32 m=0</td><td>-</td>"
got=$(grep -o "$row<td>[^<]*</td>" "$html" | head -n 1 | sed 's|.*<td>\([^<]*\)</td>$|\1|')
awk -v g="$got" -v m="$med" 'BEGIN { d = g - m; if (d < 0) d = -d
    exit !(g != "" && m > 0 && d <= 0.0006 * m) }'
tap_ok $? "the best-configuration table shows best.tsv's median ($got ms for $med)"

# Every image the page names is there, and is a PNG.
missing=0; count=0
for src in $(sed -n 's/.*<img src="\([^"]*\)".*/\1/p' "$html"); do
    count=$((count + 1))
    head -c 4 "$run/report/$src" 2>/dev/null | grep -q PNG \
        || { missing=1; tap_diag "missing $src"; }
done
if command -v gnuplot >/dev/null 2>&1; then
    tap_ok $([ $missing -eq 0 ] && [ $count -ge 4 ]; echo $?) "every <img> file exists ($count)"
else
    tap_ok $([ $missing -eq 0 ]; echo $?) "every <img> file exists ($count; no gnuplot)"
fi
! grep -Eq '(src|href)="(https?:)?//' "$html"
tap_ok $? "the page loads nothing from elsewhere"

grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;' "$html" \
    && ! grep -q '<script>alert' "$html" && grep -q '\\<script\\>alert(1)\\</script\\>' "$md"
tap_ok $? "a record's markup is escaped in both"

expect_usage_error "a missing run directory exits 2" report "$tmp/nothing-here"
