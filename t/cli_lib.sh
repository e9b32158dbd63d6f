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
