#!/bin/sh
# SPDX-License-Identifier: MIT
# What `make bench` sweeps (the default plan): every series of every
# paper's figures has at least three sizes on the figures' x axis (Givens
# n, Sammon points, SBO signals).
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR RB_MEM_LIMIT_MB

tap_plan 4
"$RB_BIN" run --dry-run > "$tmp/plan" 2>"$tmp/err"
tap_ok $? "the default plan ($(tail -n 1 "$tmp/plan"))"
# Each line: "paper/algo/variant backend prec k=v ...".  A series is the
# line without its x value; the fewest sizes of any series of the paper.
for pair in givens:n sammon:points sbo:signals; do
    paper=${pair%%:*} axis=${pair#*:}
    fewest=$(awk -v p="$paper/" -v a="$axis=" 'index($1, p) == 1 {
        x = ""; s = ""
        for (i = 1; i <= NF; i++)
            if (index($i, a) == 1) x = $i; else s = s " " $i
        if (!((s, x) in seen)) { seen[s, x] = 1; n[s]++ }
    } END { m = -1; for (s in n) if (m < 0 || n[s] < m) m = n[s]; print m }' "$tmp/plan")
    tap_ok $([ "$fewest" -ge 3 ]; echo $?) "$paper: every series has >= 3 values of $axis ($fewest)"
done
