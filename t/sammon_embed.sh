#!/bin/sh
# SPDX-License-Identifier: MIT
# sammon-embed: duplicates refused with one line naming the rows (exit 2),
# --dedup maps the 149 unique iris rows to a TSV, bad options exit 2;
# distances that would overflow are refused with the reason, a map whose
# stress is not finite is never written (exit 1), and an unusable --out is
# refused before the work (exit 2); generated data, the backends, the
# progress and timing lines and the PNG; the device's start beside the
# input checks, whose errors still come first.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
bin=$(dirname "$RB_BIN")/sammon-embed
[ -x "$bin" ] || tap_skip_all "no sammon-embed next to $RB_BIN"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# expect_error DESCRIPTION ARGS...: exit 2, one line on stderr, no TSV.
expect_error() {
    what=$1; shift
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
    lines=$(wc -l < "$tmp/err")
    if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q '^sammon-embed: ' "$tmp/err" \
        && [ ! -s "$tmp/out" ]; then
        tap_ok 0 "$what"
    else
        tap_ok 1 "$what"
        tap_diag "status $st, stderr:" "$(cat "$tmp/err")"
    fi
}

tap_plan 46
tap_diag "no random data: iris with the PCA start"
expect_error "duplicates without --dedup" --data iris
want="sammon-embed: iris: rows 102 and 143 are the same point (5.8 2.7 5.1 1.9);"
want="$want --dedup keeps the first"
[ "$(cat "$tmp/err")" = "$want" ]
tap_ok $? "the line names the rows and the point"

# The default backend is a GPU's where one is built and present; Cawley's
# figures are double precision's, so these runs name omp.
"$bin" --data iris --dedup --backend omp --out "$tmp/iris.tsv" 2>"$tmp/log"
tap_ok $? "--dedup runs"
[ "$(head -n 1 "$tmp/iris.tsv")" = "$(printf 'x\ty\tlabel')" ]
tap_ok $? "TSV header x y label"
[ "$(tail -n +2 "$tmp/iris.tsv" | awk -F '\t' 'NF == 3' | wc -l)" -eq 149 ] \
    && [ "$(wc -l < "$tmp/iris.tsv")" -eq 150 ]
tap_ok $? "149 rows of three fields"
[ ! -e "$tmp/iris.tsv.tmp" ]
tap_ok $? "the temporary file is gone"
tail -n 1 "$tmp/log" | grep -q "^stress 0.0039598 after 93 iterations (textbook E"
tap_ok $? "last line: Cawley's 93 iterations, E = 0.0039598 and its definition"
grep -q "^iteration   10: stress" "$tmp/log"
tap_ok $? "progress every 10 iterations"

"$bin" --data iris --dedup --rule gd --outdim 3 --iters 20 --init random --seed 7 \
    >"$tmp/gd.tsv" 2>/dev/null && [ "$(head -n 1 "$tmp/gd.tsv")" = "$(printf 'x\ty\tz\tlabel')" ]
tap_ok $? "--rule gd --outdim 3 to stdout"

expect_error "no --data"
expect_error "unknown option" --data iris --frobnicate
expect_error "unknown rule" --data iris --rule sgd
expect_error "bad iteration count" --data iris --iters 0x
expect_error "option without value" --data iris --out
expect_error "missing file" --data "$tmp/none.csv"
printf '1,2,0\n3,x,1\n' > "$tmp/bad.csv"
expect_error "malformed CSV" --data "$tmp/bad.csv"

# Distances that overflow double precision: refused before any start is
# computed, whichever start is asked for, and nothing is written.
printf '1,2,3,0\n1e308,5,6,1\n7,8,9,1\n2,2,2,0\n' > "$tmp/huge.csv"
for init in random pca cmdscale; do
    expect_error "overflowing distances refused (--init $init)" --data "$tmp/huge.csv" \
        --init "$init" --out "$tmp/huge.tsv"
    grep -q 'overflow double precision' "$tmp/err" && [ ! -e "$tmp/huge.tsv" ] \
        && [ ! -e "$tmp/huge.tsv.tmp" ]
    tap_ok $? "the line says the distances overflow (--init $init); no TSV"
done

# Two distinct points whose distance underflows to 0: the stress is NaN, so
# exit 1 with the reason, nothing at --out or on stdout.
printf '0,0,0,0\n1e-200,0,0,1\n5,5,1,1\n3,1,1,0\n' > "$tmp/tiny.csv"
"$bin" --data "$tmp/tiny.csv" --backend omp --out "$tmp/tiny.tsv" >"$tmp/out" 2>"$tmp/err"; st=$?
[ "$st" -eq 1 ] && tail -n 1 "$tmp/err" | grep -q '^sammon-embed: .*stress is NaN.*nothing written' \
    && [ ! -e "$tmp/tiny.tsv" ] && [ ! -e "$tmp/tiny.tsv.tmp" ] && [ ! -s "$tmp/out" ]
tap_ok $? "a NaN stress: exit 1, the reason, nothing written"
tap_diag "status $st, last line: $(tail -n 1 "$tmp/err")"
"$bin" --data "$tmp/tiny.csv" --backend omp >"$tmp/out" 2>/dev/null; st=$?
[ "$st" -eq 1 ] && [ ! -s "$tmp/out" ]
tap_ok $? "a NaN stress without --out: exit 1, nothing on stdout"

# An unusable --out is found before the work: one line, no progress.
expect_error "--out in a missing folder, before the work" --data iris --dedup \
    --out "$tmp/none/iris.tsv"
expect_error "--out naming a folder, before the work" --data iris --dedup --out "$tmp"

# Generated data: seeded, repeatable, N rows; a bad spec is bad input.
"$bin" --data random:200x8 --seed 3 --backend serial --rule gd --iters 20 \
    --out "$tmp/r1.tsv" 2>"$tmp/log" \
    && "$bin" --data random:200x8 --seed 3 --backend serial --rule gd --max-iter 20 \
    --out "$tmp/r2.tsv" 2>/dev/null
tap_ok $? "--data random:200x8 runs (--iters and --max-iter)"
[ "$(wc -l < "$tmp/r1.tsv")" -eq 201 ] && cmp -s "$tmp/r1.tsv" "$tmp/r2.tsv"
tap_ok $? "200 rows, the same for the same seed"
grep -q "rule gd, backend serial (the host, 1 thread" "$tmp/log"
tap_ok $? "the header line names the backend and its device"
grep -q "^iteration   10: stress [0-9.]*, [0-9.]* s elapsed, ETA [0-9.]* s$" "$tmp/log"
tap_ok $? "progress: iteration, stress, elapsed, ETA"
grep -q "^time: data [0-9.]* s, start [0-9.]* s, setup [0-9.]* s, 20 iterations [0-9.]* s" \
    "$tmp/log" && tail -n 1 "$tmp/log" | grep -q "^stress .* after 20 iterations"
tap_ok $? "a time line, then the stress line last"
grep -q "; device choice and start [0-9.]* s beside data, checks and start, [0-9.]* s of it \
waited for; total [0-9.]* s$" "$tmp/log"
tap_ok $? "the time line gives the device's start and the part of it waited for"

# The starts (X^T X in bands of rows over the threads) and the fp64 omp
# map: the same numbers whatever the thread count.
same=0
for init in pca cmdscale; do
    for t in 1 3; do
        "$bin" --data random:3000x20 --seed 5 --init $init --backend omp --threads $t \
            --rule newton --iters 2 --out "$tmp/t$t.tsv" 2>/dev/null || same=1
    done
    cmp -s "$tmp/t1.tsv" "$tmp/t3.tsv" || same=1
done
tap_ok $same "pca and cmdscale starts and the omp map: the same on 1 and 3 threads"

# The device starts beside the loading and checking, yet bad input is
# still what is said first: the device's line comes only for good data.
expect_error "duplicates on a device that is not there" --data iris --device opencl:9
grep -q "rows 102 and 143 are the same point" "$tmp/err"
tap_ok $? "the line is the duplicates', not the device's"
expect_error "a device that is not there" --data random:50x4 --device opencl:9
grep -q "^sammon-embed: --backend opencl: .*\(does not exist\|built without it\)" "$tmp/err"
tap_ok $? "the line names the backend and why"
expect_error "a malformed random spec" --data random:1x8
expect_error "an unknown backend" --data iris --dedup --backend gpu
"$bin" --data iris --dedup --iters 2 --out "$tmp/d.tsv" 2>"$tmp/log"
grep -q "backend omp\|backend cuda\|backend hip\|backend opencl" "$tmp/log"
tap_ok $? "the default backend: a GPU's, else omp"

# OpenCL (PoCL here): the float map of iris ends at the fp64 stress to the
# digits printed (t/sammon_engine_opencl compares them within the bound).
if "$bin" --data iris --dedup --backend opencl --out "$tmp/cl.tsv" 2>"$tmp/log"; then
    tail -n 1 "$tmp/log" | grep -q "^stress 0.0039598 after" \
        && grep -q "backend opencl (.*stored 1/d\*" "$tmp/log"
    tap_ok $? "--backend opencl: iris to E = 0.0039598 from the stored distances"
elif grep -q "built without it\|no OpenCL\|OpenCL device" "$tmp/log"; then
    tap_skip "--backend opencl: $(tail -n 1 "$tmp/log")"
else
    tap_ok 1 "--backend opencl"
    tap_diag "$(cat "$tmp/log")"
fi

# Rows distinct in double but one point in float: refused where the work is
# in float (the line names them and the backend), mapped where it is not.
printf 'a,b,label\n1,2,0\n1.00000001,2,1\n3,5,0\n4,1,1\n' > "$tmp/f32.csv"
"$bin" --data "$tmp/f32.csv" --backend opencl --out "$tmp/f32.tsv" >"$tmp/out" 2>"$tmp/err"
st=$?
if grep -q "built without it\|no OpenCL\|OpenCL device" "$tmp/err"; then
    tap_skip "rows one point in float on opencl: $(tail -n 1 "$tmp/err")"
else
    want="sammon-embed: f32.csv: opencl: rows 1 and 2 are distinct but the same point in"
    want="$want single precision, which opencl computes in (--backend omp keeps double)"
    [ $st -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -e "$tmp/f32.tsv" ]
    ok=$?; tap_ok $ok "rows one point in float: opencl refuses them (exit $st), naming both"
    [ $ok -eq 0 ] || tap_diag "$(cat "$tmp/err")"
fi
"$bin" --data "$tmp/f32.csv" --backend omp --out "$tmp/f32.tsv" 2>/dev/null \
    && [ "$(wc -l < "$tmp/f32.tsv")" -eq 5 ]
tap_ok $? "and omp, in double, maps them"

# --plot: a PNG through gnuplot, nothing left beside it.
if command -v gnuplot >/dev/null 2>&1; then
    "$bin" --data iris --dedup --iters 5 --plot "$tmp/map.png" >/dev/null 2>"$tmp/log"
    [ "$(head -c 4 "$tmp/map.png" | od -An -c | tr -d ' ')" = "211PNG" ] \
        && [ "$(ls "$tmp" | grep -c 'map\.png\.')" -eq 0 ]
    tap_ok $? "--plot writes a PNG and leaves no temporary file"
    grep -q "^wrote $tmp/map.png$" "$tmp/log"
    tap_ok $? "--plot says what it wrote"
else
    tap_skip "--plot: no gnuplot here"
    tap_skip "--plot: no gnuplot here"
fi
expect_error "--plot in a missing folder, before the work" --data iris --dedup \
    --plot "$tmp/none/map.png"
