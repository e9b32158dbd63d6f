# SPDX-License-Identifier: MIT
# TAP helpers for the shell tests of the command line.  Sourced, not run.
tap_n=0
tap_plan() { echo "1..$1"; }
tap_ok() {   # tap_ok STATUS DESCRIPTION: STATUS 0 passes
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else echo "not ok $tap_n - $2"; fi
}
tap_diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }   # one check not run here
tap_skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# expect_usage_error DESCRIPTION ARGS...: exit status 2 and exactly one line
# on stderr starting with "reprobench: ".
expect_usage_error() {
    what=$1; shift
    "$RB_BIN" "$@" >/dev/null 2>"$tmp/err"; st=$?
    lines=$(wc -l < "$tmp/err")
    if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q '^reprobench: ' "$tmp/err"; then
        tap_ok 0 "$what"
    else
        tap_ok 1 "$what"
        tap_diag "status $st, stderr:" "$(cat "$tmp/err")"
    fi
}

# help_checks CMD OLD OPTS [ARGS...]: four checks of `reprobench CMD --help`
# (generated from its option table): it lists every option of OPTS, every
# option it lists is accepted (tried with ARGS, which must make the program
# stop before any work), and OLD --help, the old program's, is the same
# table.  Leaves the help text in ./help.
help_checks() {
    cmd=$1 old=$2 opts=$3; shift 3
    "$RB_BIN" "$cmd" --help >help; st=$?
    missing=
    for o in $opts; do
        grep -q "^  $o\\b" help || missing="$missing $o"
    done
    [ "$st" -eq 0 ] && [ -z "$missing" ]
    tap_ok $? "--help lists every option${missing:+ (missing:$missing)}"
    unknown=
    for o in $(sed -n 's/^  \(--[a-z-]*\).*/\1/p' help); do
        "$RB_BIN" "$cmd" "$o" "$@" >/dev/null 2>err </dev/null
        grep -q 'unknown option' err && unknown="$unknown $o"
    done
    [ -z "$unknown" ]
    tap_ok $? "every option --help lists is accepted${unknown:+ (not:$unknown)}"
    "$old" --help >oldhelp && sed "s/^usage: $(basename "$old")/usage: reprobench $cmd/" oldhelp \
        | cmp -s - help
    tap_ok $? "$(basename "$old") --help is the same table"
}
