#!/bin/sh
# SPDX-License-Identifier: MIT
# Clocks, energy and throttling end to end under a fake NVML
# (t/libfake_nvml.so through RB_NVML_LIBRARY, its GPU named by
# RB_NVML_BUS_ID so that CPU cases are watched): every record carries the
# fields; throttled samples are marked and counted; a failing or absent
# library leaves the run whole; records.tsv, compare and the report show
# energy and throttled cases; schema 1 records still compare and report.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fake=$(dirname "$RB_BIN")/t/libfake_nvml.so
[ -f "$fake" ] || tap_skip_all "no $fake (built by make check)"

# 3 variants x 2 precisions at n = 16, exactly 4 samples each: every case
# reads 6 of the fake's steps (its start, a step after each sample, its
# end), so a counter moving 0.4 J a step gives 2 J, 0.5 J a sample: numbers
# the records print exactly.
sweep() {   # sweep OUT SCRIPT [ENV=VALUE...]
    out=$1 script=$2; shift 2
    env RB_NVML_LIBRARY="$fake" RB_NVML_BUS_ID=0000:01:00.0 RB_FAKE_NVML="$script" "$@" \
        "$RB_BIN" run --paper givens --backend serial --n 16 --min-samples 4 --max-samples 4 \
        --min-time 0.001 --no-ceilings --no-plot --quiet --seed 5 --out "$tmp/$out" \
        2>>"$tmp/run.err"
}
count() {   # count PATTERN FILE: lines matching
    grep -c -- "$1" "$2"
}
run_dir() { ls -d "$tmp/$1"/*/; }

tap_plan 24
sweep normal "sm=1980,mem=2619,temp=45,power=200,denergy=0.4" \
    && sweep capped "sm=1980,power=300,denergy=0.4,reasons=0x4" \
    && sweep clock "sm=1980,denergy=0.4;sm=1980;sm=1000;sm=1980"
tap_ok $? "three sweeps under the fake NVML succeed"
normal=$(run_dir normal) capped=$(run_dir capped) clock=$(run_dir clock)
rec=$normal/records.jsonl
tap_ok $([ "$(count '"gpu":{"available":true,"source":"nvml","pci_bus_id":"0000:01:00.0","name":"Fake GPU at 0000:01:00.0","sm_mhz":{"start":1980,"end":1980,"min":1980},"mem_mhz":{"start":2619,"end":2619},"temp_c":{"start":45,"end":45}' "$rec")" -eq 6 ]; echo $?) \
    "every record: the GPU at its bus id, clocks and temperature"
tap_ok $([ "$(count '"energy_j":2.0,' "$rec")" -eq 6 ] \
         && [ "$(count '"energy_per_run_j":0.5,"energy_method":"energy-counter"' "$rec")" -eq 6 ]
         echo $?) "energy from the counter: 5 steps of 0.4 J, 0.5 J a sample"
tap_ok $([ "$(count '"throttled_samples":\[\],' "$rec")" -eq 6 ] \
         && [ "$(count '"throttled":0},' "$rec")" -eq 6 ] \
         && [ "$(count '"throttled":false,"throttle_reasons":\[\],"throttle_reason":null' "$rec")" -eq 6 ]
         echo $?) "not throttled: no sample marked, none counted"
tap_ok $(grep -q '"cpu":{"governor":' "$rec" && grep -q '"energy":{"available":' "$rec"
         echo $?) "the CPU's governor and package energy, or why not"

rec=$capped/records.jsonl
tap_ok $([ "$(count '"throttled_samples":\[0,1,2,3\],' "$rec")" -eq 6 ] \
         && [ "$(count '"throttled":4},' "$rec")" -eq 6 ] \
         && [ "$(count '"throttled":true,"throttle_reasons":\["sw_power_cap"\],"throttle_reason":"sample 0: the driver reports sw_power_cap' "$rec")" -eq 6 ]
         echo $?) "a power cap reported: every sample marked and counted, the reason kept"
rec=$clock/records.jsonl
tap_ok $([ "$(count '"throttled_samples":\[1\],' "$rec")" -eq 1 ] \
         && [ "$(count '"throttled_samples":\[\],' "$rec")" -eq 5 ] \
         && grep -q '"sm_mhz":{"start":1980,"end":1980,"min":1000}.*"throttle_reason":"sample 1: SM clock 1000 MHz, below 90% of the 1980 MHz at the start"' "$rec"
         echo $?) "the SM clock low at one sample: that sample marked, with the clocks"
sweep clock80 "sm=1980;sm=1980;sm=1700;sm=1980" RB_THROTTLE_THRESHOLD=0.8
tap_ok $([ "$(count '"throttled_samples":\[\],' "$(run_dir clock80)/records.jsonl")" -eq 6 ]
         echo $?) "RB_THROTTLE_THRESHOLD=0.8: 1700 of 1980 MHz is not throttled"

# A counter that moves in steps too far apart for the window (the H200's
# moves about every 0.1 s): it moves once in the first case and never after,
# so every reading is coarse and the report shows none of them.
rec=$normal/records.jsonl
tap_ok $([ "$(count '"energy_method":"energy-counter","energy_steps":5,"energy_coarse":false,' "$rec")" -eq 6 ]
         echo $?) "the counter's steps over the window are recorded (5), not coarse"
sweep once "sm=1980,denergy=0;denergy=0;denergy=0.4;denergy=0"
once=$(run_dir once)
"$RB_BIN" report --no-plot "$once" > /dev/null 2>&1
tap_ok $([ "$(count '"energy_j":0\.40*[0-9]*,.*"energy_steps":1,"energy_coarse":true,' "$once/records.jsonl")" -eq 1 ] \
         && [ "$(count '"energy_method":"power-samples","energy_steps":0,"energy_coarse":true,' "$once/records.jsonl")" -eq 5 ] \
         && grep -q '^6 of these 6 records show no energy: the GPU.s energy counter moved fewer than 3 times' "$once/report/README.md" \
         && [ "$(grep -c '^| givens/.* | - | - | - | 1980 -\\> 1980 | no |$' "$once/report/README.md")" -eq 6 ]
         echo $?) "a counter that moved once or never: coarse, recorded, and not shown as energy"

# Failing and absent: the run is whole, each record says why.
sweep noinit "init=fail" && sweep lost "sm=1980;sm=lost" \
    && sweep absent "" RB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1
tap_ok $? "runs with a failing or absent NVML succeed"
tap_ok $([ "$(count '"gpu":{"available":false,"reason":"NVML not available: nvmlInit_v2: Driver Not Loaded"}' "$(run_dir noinit)/records.jsonl")" -eq 6 ]
         echo $?) "nvmlInit_v2 failing: every record says so"
tap_ok $(head -n 1 "$(run_dir lost)/records.jsonl" \
         | grep -q '"error":"nvmlDeviceGetClockInfo(SM) after sample 0: GPU is lost"'
         echo $?) "the GPU lost after sample 0: the record says where"
tap_ok $([ "$(count '"reason":"NVML not available: /nonexistent/libnvidia-ml.so.1' "$(run_dir absent)/records.jsonl")" -eq 6 ]
         echo $?) "the library absent: every record names it"
# A device name that is not UTF-8: the records are still written, the byte
# shown as '?'.
sweep latin1 "$(printf 'name=GPU \377')"
tap_ok $([ $? -eq 0 ] && [ "$(count '"name":"GPU ?"' "$(run_dir latin1)/records.jsonl")" -eq 6 ]
         echo $?) "a device name that is not UTF-8: every record written, the byte as '?'"
"$RB_BIN" run --paper givens --algo forward --variant sequential --backend serial --n 16 \
    --prec f32 --min-samples 2 --min-time 0.001 --no-ceilings --no-plot --quiet \
    --out "$tmp/plain" 2>>"$tmp/run.err"
tap_ok $(grep -q '"gpu":{"available":false,"reason":"not a GPU case (serial backend)"}' \
         "$(run_dir plain)/records.jsonl"; echo $?) "without RB_NVML_BUS_ID a CPU case is not watched"
RB_THROTTLE_THRESHOLD=abc expect_usage_error "a malformed RB_THROTTLE_THRESHOLD: exit 2" \
    run --paper givens --backend serial --n 16 --out "$tmp/bad"
tap_ok $(grep -q 'RB_THROTTLE_THRESHOLD' "$tmp/err" && [ ! -e "$tmp/bad" ]; echo $?) \
    "naming the variable, and no run directory"

# records.tsv: the energy columns last.
tab=$(printf '\t')
head -n 1 "$capped/records.tsv" | grep -q "${tab}energy_j${tab}power_w${tab}gflops_per_j${tab}throttled\$" \
    && awk -F'\t' 'NR > 1 && !($NF == 1 && $(NF - 1) > 0 && $(NF - 3) == 0.5) { bad = 1 }
                   END { exit bad }' "$capped/records.tsv"
tap_ok $? "records.tsv: joules a sample, GFLOP/J and the throttle flag"

# compare: the energy section, TSV columns and JSON fields.
"$RB_BIN" compare --no-plot "$normal" "$capped" > "$tmp/cmp" 2>&1
grep -q '^energy per timed sample' "$tmp/cmp" \
    && [ "$(grep -c '0\.5 .* B: sample 0: the driver reports sw_power_cap' "$tmp/cmp")" -eq 6 ] \
    && grep -q '^throttled: 0 cases in A, 6 in B' "$tmp/cmp"
st=$?
tap_ok $st "compare: joules per case and the throttled ones"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/cmp")"
"$RB_BIN" compare --no-plot --format tsv "$normal" "$capped" > "$tmp/cmp.tsv" 2>&1
"$RB_BIN" compare --no-plot --format json "$normal" "$capped" > "$tmp/cmp.json" 2>&1
tap_ok $(awk -F'\t' 'NR == 1 && $NF != "b_throttled" { bad = 1 }
                     NR > 1 && !($NF == 1 && $(NF - 1) == 0 && $(NF - 3) == 0.5) { bad = 1 }
                     END { exit bad || NR != 7 }' "$tmp/cmp.tsv" \
         && [ "$(grep -c '"throttled": true' "$tmp/cmp.json")" -eq 6 ] \
         && [ "$(grep -c '"energy_per_run_j": 0.5' "$tmp/cmp.json")" -eq 12 ]; echo $?) \
    "compare --format tsv and json carry them"

# The report: the energy table and the throttled cases.
"$RB_BIN" report --no-plot "$capped" > /dev/null 2>&1
md=$capped/report/README.md
tap_ok $(grep -q '^## Energy$' "$md" \
         && grep -q '^| case | backend | sizes | tunables | median ms | GFLOP/s | FLOP/byte | power W | J per sample | GFLOP/J | SM MHz | throttled |$' "$md" \
         && [ "$(grep -c '| 0\.5 | [0-9.e+-]* | 1980 -\\> 1980 | yes |$' "$md")" -eq 6 ] \
         && [ "$(grep -c '^- givens/.*: 4 of 4 samples; sample 0: the driver reports sw\\_power\\_cap' "$md")" -eq 6 ]
         echo $?) "report: GFLOP per joule for every case, the throttled ones listed"
grep -q 'GFLOP/J' "$capped/report/index.html"
tap_ok $? "and the HTML page has the table"

# Schema 1 records (before these fields): still read, energy said missing.
mkdir -p "$tmp/old"
sed 's/"schema":2/"schema":1/; s/,"throttled_samples":\[[0-9,]*\]//; s/,"gpu":.*,"time":/,"time":/' \
    "$normal/records.jsonl" > "$tmp/old/records.jsonl"
"$RB_BIN" compare --no-plot "$tmp/old" "$capped" > "$tmp/cmp" 2>&1 \
    && "$RB_BIN" report --no-plot "$tmp/old" > /dev/null 2>&1
tap_ok $([ $? -eq 0 ] && ! grep -q '"gpu"' "$tmp/old/records.jsonl" \
         && [ "$(grep -c '^givens/.* - .* 0\.5 ' "$tmp/cmp")" -eq 6 ] \
         && grep -q '^No successful record has an energy reading' "$tmp/old/report/README.md"
         echo $?) "schema 1 records: compared and reported, their energy shown missing"
exit 0
