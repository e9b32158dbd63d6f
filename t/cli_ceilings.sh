#!/bin/sh
# SPDX-License-Identifier: MIT
# A run probes the ceilings of the backends it uses into meta.json and
# ceilings.tsv, --no-ceilings leaves them out, and records carry "work".
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# meta.json's ceilings of one backend as "copy fp32 fp64" (or "missing").
rates() {
    python3 -c 'import json,sys
c = json.load(open(sys.argv[1])).get("ceilings", {}).get(sys.argv[2])
print("missing" if c is None else "%s %s %s" % (c["copy_gbytes_per_s"], c["fp32_gflops"],
      c["fp64_gflops"]))' "$1" "$2"
}
command -v python3 >/dev/null || tap_skip_all "python3 not found"
tap_plan 11

backends=serial
"$RB_BIN" list 2>/dev/null | grep -q ' omp ' && backends=serial,omp
"$RB_BIN" run --paper givens --backend $backends --n 16 --m 0 --prec f32 --threads 1 \
    --min-samples 2 --min-time 0.01 --no-plot --out "$tmp/res" 2>"$tmp/err"
tap_ok $? "a sweep of $backends succeeds"
run=$(ls -d "$tmp"/res/*/ | head -n 1)
lines=$(grep -c '^reprobench: ceilings of ' "$tmp/err")
n=$(echo $backends | tr ',' '\n' | wc -l)
tap_ok $([ "$lines" -eq "$n" ]; echo $?) "one progress line per backend ($lines)"
for b in $(echo $backends | tr ',' ' '); do
    r=$(rates "$run/meta.json" $b)
    echo "$r" | awk '{ exit !($1 > 0 && $2 > 0 && $3 > 0) }'
    tap_ok $? "meta.json: $b ceilings are positive numbers ($r)"
done
[ "$backends" = serial ] && tap_skip "no OpenMP backend in this build"
tap_ok $([ "$(rates "$run/meta.json" opencl)" = missing ]; echo $?) \
    "no ceilings for a backend the sweep does not use"
rows=$(($(wc -l < "$run/ceilings.tsv") - 1))
head -n 1 "$run/ceilings.tsv" | grep -q "^backend	device	copy_gbps	fp32_gflops	fp64_gflops$" \
    && [ "$rows" -eq "$n" ]
tap_ok $? "ceilings.tsv: named columns, one row per backend ($rows)"
python3 -c 'import json,sys
for line in open(sys.argv[1]):
    w = json.loads(line)["work"]
    assert w["flops"] > 0 and w["bytes"] > 0 and w["gflops"] > 0
    assert abs(w["intensity"] - w["flops"] / w["bytes"]) <= 1e-9 * w["intensity"]' \
    "$run/records.jsonl"
tap_ok $? "every record carries its work, rates and intensity"
head -n 1 "$run/records.tsv" | grep -q "	gflops	gbps	intensity	energy_j	power_w	gflops_per_j	throttled$"
tap_ok $? "records.tsv ends with the gflops, gbps and intensity columns, then the energy's"

# The roofline script reads the run's ceilings.tsv for the backend named.
if command -v gnuplot >/dev/null; then
    gnuplot -e "in='$run/records.tsv'; outdir='$tmp'; backend='serial'" \
        "$RB_PLOTS_DIR/roofline.gp" 2>"$tmp/gp" && [ -s "$tmp/roofline-serial.png" ] \
        && [ -s "$tmp/roofline-serial.pdf" ]
    tap_ok $? "roofline.gp draws the serial roofline from the run"
    [ -s "$tmp/gp" ] && tap_diag "$(cat "$tmp/gp")"
else
    tap_skip "gnuplot not found"
fi

"$RB_BIN" run --paper givens --backend serial --n 16 --m 0 --prec f32 --min-samples 2 \
    --min-time 0.01 --no-plot --no-ceilings --out "$tmp/res2" 2>"$tmp/err2"
run2=$(ls -d "$tmp"/res2/*/ | head -n 1)
tap_ok $([ "$(rates "$run2/meta.json" serial)" = missing ] && [ ! -e "$run2/ceilings.tsv" ] \
    && ! grep -q 'ceilings of' "$tmp/err2"; echo $?) "--no-ceilings: no probe, no ceilings"

# OpenCL where a device answers (PoCL here): its ceilings, or null and why.
if "$RB_BIN" info 2>/dev/null | grep -Eq "opencl [0-9]+\.[0-9]+ " \
   && "$RB_BIN" run --paper sammon --backend opencl --variant tiled --points 64 --dim 4 \
        --prec f32 --min-samples 2 --min-time 0.01 --no-plot --quiet --out "$tmp/res3" \
        2>/dev/null; then
    run3=$(ls -d "$tmp"/res3/*/ | head -n 1)
    r=$(rates "$run3/meta.json" opencl)
    echo "$r" | awk '{ exit !($1 > 0 && $2 > 0) }'
    tap_ok $? "meta.json: opencl ceilings measured ($r)"
else
    tap_skip "no OpenCL device runs here"
fi
