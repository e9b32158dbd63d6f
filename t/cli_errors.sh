#!/bin/sh
# SPDX-License-Identifier: MIT
# Every bad input gets exit status 2 and one line naming the problem.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

tap_plan 24
expect_usage_error "no command"
expect_usage_error "unknown command" frobnicate
expect_usage_error "unknown run option" run --frobnicate 3
expect_usage_error "unknown backend" run --backend quantum
expect_usage_error "unknown paper" run --paper nosuchpaper
expect_usage_error "unknown variant" run --paper givens --variant nosuch
expect_usage_error "unknown precision" run --prec f16
expect_usage_error "unknown preset" run --preset huge
expect_usage_error "size 0" run --paper givens --n 0
expect_usage_error "negative size" run --paper givens --n -8
expect_usage_error "non-numeric size" run --paper givens --n abc
expect_usage_error "trailing garbage" run --paper givens --n 64x
expect_usage_error "overflowing size" run --paper givens --n 99999999999999999999999
expect_usage_error "size out of range" run --paper givens --n 1000000
expect_usage_error "empty list item" run --paper givens --n 64,,128
expect_usage_error "option without value" run --paper givens --n
expect_usage_error "bad seconds" run --min-time -1
expect_usage_error "max below min samples" run --min-samples 10 --max-samples 5
expect_usage_error "restricted m larger than n" run --paper givens --n 64 --m 65 --backend serial
RB_MEM_LIMIT_MB=64; export RB_MEM_LIMIT_MB
expect_usage_error "memory that would not fit" run --paper givens --backend serial --n 8192
unset RB_MEM_LIMIT_MB
expect_usage_error "resume of a missing directory" run --resume "$tmp/nope"
expect_usage_error "plot without a directory" plot
expect_usage_error "list with an unknown backend" list --backend quantum

"$RB_BIN" run --help >/dev/null 2>&1
tap_ok $? "run --help exits 0"
