#!/bin/sh
# SPDX-License-Identifier: MIT
# reprobench embed: the same TSV as its old name sammon-embed from the same
# options, errors in the new name, and a --help written from the option
# table (every option listed, every option listed accepted).
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
old=$(dirname "$RB_BIN")/sammon-embed
[ -x "$old" ] || tap_skip_all "no sammon-embed next to $RB_BIN"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
opts="--data --dedup --init --rule --iters --max-iter --outdim --backend --threads
--tile --seed --out --plot --help"
tap_plan 8

"$RB_BIN" embed --data iris --dedup --iters 50 --backend serial --out new.tsv 2>/dev/null
st_new=$?
"$old" --data iris --dedup --iters 50 --backend serial --out old.tsv 2>/dev/null
[ "$st_new" -eq 0 ] && [ -s new.tsv ] && cmp -s new.tsv old.tsv
tap_ok $? "embed and sammon-embed write the same TSV (iris, serial)"

"$RB_BIN" embed --data random:60x5 --seed 7 --init random --rule newton --iters 30 \
    --backend omp >new.tsv 2>/dev/null
"$old" --data random:60x5 --seed 7 --init random --rule newton --iters 30 \
    --backend omp >old.tsv 2>/dev/null
[ -s new.tsv ] && cmp -s new.tsv old.tsv
tap_ok $? "the same TSV on stdout (random data, newton, omp)"

"$RB_BIN" embed --data iris --rule nope >out 2>err; st=$?
[ "$st" -eq 2 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q '^reprobench: --rule' err \
    && [ ! -s out ]
tap_ok $? "a bad value: exit 2, one line naming the option"

"$RB_BIN" embed --dedup >out 2>err; st=$?
[ "$st" -eq 2 ] && grep -q '^reprobench embed: --data is required' err
tap_ok $? "--data required, in the new name"

help_checks embed "$old" "$opts"

# As sammon-embed always did: an option given again, the last one counts.
"$RB_BIN" embed --data iris --dedup --rule gd --iters 400 --iters 3 --backend serial \
    >/dev/null 2>err
tail -n 1 err | grep -q 'after 3 iterations'
tap_ok $? "an option given twice: the last one counts"
