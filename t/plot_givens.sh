#!/bin/sh
# SPDX-License-Identifier: MIT
# reprobench plot on a fixed set of Givens records: records.tsv regenerated,
# both figures drawn as non-empty PNG and PDF; a run with no successful
# record draws nothing and still succeeds; a failing script is named.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
command -v gnuplot >/dev/null 2>&1 || tap_skip_all "gnuplot not found"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# One record line: ALGO VARIANT BACKEND BASELINE N THREADS MEDIAN_MS STATUS
records() {
    awk -v OFS= '{
        key = "givens/" $1 "/" $2 "/" $3 "/f32/n=" $5 "/m=0"
        tun = "{}"
        if ($6 > 0) { key = key "/threads=" $6; tun = "{\"threads\":" $6 "}" }
        ok = $8 == "ok"
        lo = 0.9 * $7; hi = 1.1 * $7
        stats = "null"
        if (ok) stats = sprintf("{\"n\":3,\"min\":%g,\"median\":%g,\"mean\":%g," \
                                "\"stddev\":0.1,\"p10\":%g,\"p90\":%g}", lo, $7, $7, lo, hi)
        samples = ok ? sprintf("[%g,%g,%g]", lo, $7, hi) : "[]"
        print "{\"schema\":1,\"key\":\"" key "\",\"paper\":\"givens\",\"algo\":\"" $1 "\",", \
              "\"variant\":\"" $2 "\",\"backend\":\"" $3 "\",", \
              "\"prec\":\"f32\",\"device\":\"cpu\",", \
              "\"baseline\":" $4 ",\"sizes\":{\"n\":" $5 ",\"m\":0},\"tunables\":" tun ",", \
              "\"seed\":1,\"status\":\"" $8 "\",\"stage\":null,\"message\":\"\",", \
              "\"timer\":\"host-monotonic\",\"samples_ms\":" samples ",\"stats\":" stats ",", \
              "\"truncated\":false,\"transfer_ms\":null,\"build_ms\":null,", \
              "\"occupancy\":{\"available\":false,\"reason\":\"cpu\"},\"verify\":null,", \
              "\"time\":\"2024-01-01T00:00:00Z\"}"
    }'
}

mkdir "$tmp/run" "$tmp/empty" "$tmp/scripts"
for n in 16 64 256 1024; do
    t=$(awk -v n=$n 'BEGIN { print n * n / 1000 }')
    echo "forward sequential serial true $n 0 $(awk -v t=$t 'BEGIN { print 3 * t }') ok"
    echo "forward roundrobin serial false $n 0 $(awk -v t=$t 'BEGIN { print 2 * t }') ok"
    echo "forward roundrobin omp false $n 2 $t ok"
    echo "forward roundrobin omp false $n 4 $(awk -v t=$t 'BEGIN { print t / 2 }') ok"
    echo "backward roundrobin serial true $n 0 $(awk -v t=$t 'BEGIN { print 4 * t }') ok"
    echo "backward roundrobin omp false $n 4 $t ok"
done | records > "$tmp/run/records.jsonl"
echo "backward roundrobin omp false 4096 8 1 failed" | records >> "$tmp/run/records.jsonl"
echo "forward sequential serial true 16 0 1 failed" | records > "$tmp/empty/records.jsonl"

tap_plan 11
"$RB_BIN" plot "$tmp/run" > "$tmp/out" 2> "$tmp/err"
st=$?
tap_ok $st "reprobench plot succeeds"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
tab=$(printf '\t')
tail_cols="${tab}speedup${tab}gflops${tab}gbps${tab}intensity${tab}energy_j${tab}power_w"
tail_cols="${tail_cols}${tab}gflops_per_j${tab}throttled"
head -n 1 "$tmp/run/records.tsv" | grep -q "${tab}threads$tab.*$tail_cols\$"
tap_ok $? \
    "records.tsv regenerated with the threads and speedup columns"
for f in givens_fig2.png givens_fig2.pdf givens_speedup.png givens_speedup.pdf; do
    tap_ok $([ -s "$tmp/run/plots/$f" ]; echo $?) "$f written and not empty"
done
tap_ok $(head -c 4 "$tmp/run/plots/givens_fig2.png" | grep -q PNG; echo $?) "a real PNG"
tap_ok $(grep -q "wrote .*/plots/givens_speedup.png" "$tmp/out"; echo $?) "each file reported"

"$RB_BIN" plot "$tmp/empty" > "$tmp/out" 2> "$tmp/err"
tap_ok $? "no successful record: still succeeds"
tap_ok $([ ! -e "$tmp/empty/plots/givens_fig2.png" ]; echo $?) "and draws nothing"

echo "this is not gnuplot" > "$tmp/scripts/givens_broken.gp"
RB_PLOTS_DIR="$tmp/scripts" "$RB_BIN" plot "$tmp/run" > "$tmp/out" 2> "$tmp/err"
st=$?
tap_ok $([ $st -ne 0 ] && grep -q "givens_broken.gp" "$tmp/err"; echo $?) \
    "a failing script fails the command and is named"
