# SPDX-License-Identifier: MIT
# What the tests of sbo-learn's device trainers share (sourced after
# t/cli_lib.sh, with bin, tmp and backend set and an omp run of the same
# patches in omp/): a summary's field, the bad-input check, and the checks
# of one device run against the omp one.  Sourced, not run.

# field FILE KEY: the value of KEY in a summary.txt.
field() { awk -F '\t' -v k="$2" '$1 == k { print $2 }' "$1"; }

# expect_error DESCRIPTION ARGS...: exit 2, one line on stderr, no files,
# and no --out folder left behind.
expect_error() {
    what=$1; shift
    rm -rf "$tmp/bad"
    "$bin" --out "$tmp/bad" "$@" >"$tmp/out" 2>"$tmp/err"; est=$?
    if [ "$est" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
        && grep -q '^sbo-learn: ' "$tmp/err" && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/bad" ]; then
        tap_ok 0 "$what: $(cat "$tmp/err")"
    else
        tap_ok 1 "$what"
        tap_diag "status $est, stderr:" "$(cat "$tmp/err")"
    fi
}

# check_profile DIR: a --profile run's summary has the profile (1 check).
check_profile() {
    s=$1/summary.txt
    awk -F '\t' '$1 ~ /^ms_sbo_/ && $2 >= 0 { k++ } $1 == "ms_gaps" && $2 >= 0 { g = 1 }
        $1 == "ms_wall" && $2 > 0 { w = 1 } END { exit !(k >= 5 && g && w) }' $s
    tap_ok $? "--profile: ms_<kernel> of $(grep -c '^ms_sbo_' $s) kernels, ms_gaps, ms_wall \
in summary.txt"
}

# check_run DIR SVD: the checks of one device run (8 of them).
check_run() {
    d=$1
    [ -s $d/rmse.tsv ] && [ -s $d/atoms.pgm ] && [ -s $d/summary.txt ] \
        && [ -z "$(ls $d | grep '\.tmp$')" ]
    tap_ok $? "$2: rmse.tsv, atoms.pgm and summary.txt written, no .tmp left"
    [ "$(head -n 1 $d/rmse.tsv)" = "$(head -n 1 omp/rmse.tsv)" ] \
        && [ "$(cut -f 1,2 $d/rmse.tsv)" = "$(cut -f 1,2 omp/rmse.tsv)" ]
    tap_ok $? "$2: rmse.tsv has omp's header and (blocks, round) rows"
    tail -n +2 $d/rmse.tsv | awk -F '\t' '
        NF != 4 || !($3 > 0 && $3 < 255) || $4 < 0 || $4 < last { bad = 1 } { last = $4 }
        { fin[$1] = $3; n = $1 } END {
        for (b = 2; b <= n; b++) if (fin[b] > fin[b - 1] * (1 + 1e-4)) bad = 1
        exit bad }'
    tap_ok $? "$2: RMSE in (0, 255), seconds non-decreasing, last round's RMSE by blocks too"
    [ "$(head -c 11 $d/atoms.pgm)" = "$(head -c 11 omp/atoms.pgm)" ]
    tap_ok $? "$2: atoms.pgm has omp's header (3 blocks, 225 x 73)"
    s=$d/summary.txt
    [ "$(field $s backend)" = "$backend" ] && [ "$(field $s blocks_learned)" = 3 ] \
        && [ "$(field $s patches)" = 2000 ] && [ "$(field $s svd)" = "$2" ] \
        && [ "$(field $s precision)" = f32 ] && [ -n "$(field $s device)" ]
    tap_ok $? "$2: summary: backend, blocks, patches, svd, f32, device '$(field $s device)'"
    field $s train_includes | grep -q '^upload of the patches' \
        && awk -v b="$(field $s build_seconds)" -v d="$(field $s ms_device)" \
            -v n="$(field $s launches)" -v h="$(field $s host_syncs)" \
            'BEGIN { exit !(b != "" && b >= 0 && d > 0 && n > 0 && h > 0) }'
    tap_ok $? "$2: summary says train_seconds includes the upload, gives build_seconds, \
ms_device, launches and host_syncs"
    awk -v a="$(field $s final_rmse)" -v b="$(field $s code_rmse)" \
        -v l="$(tail -n 1 $d/rmse.tsv | cut -f 3)" \
        -v t="$(field $s train_seconds)" -v c="$(field $s code_seconds)" \
        'BEGIN { d = a - b; if (d < 0) d = -d; e = a - l; if (e < 0) e = -e
                 exit !(d <= 1e-5 * a && e <= 1e-6 * a && t > 0 && c > 0) }'
    tap_ok $? "$2: final RMSE is the last row's, the device coding pass gives it, times > 0"
    # Float against float, each its own order of sums (OpenBLAS on the host,
    # the kernels' reductions on the device), and a new block trained on the
    # W worst patches: a near tie there picks other patches and the paths
    # part.  On 2000 patches and 3 blocks the final RMSE differed by at most
    # 0.91% over 6 seeds on PoCL (polar and jacobi alike, either sign); 3% is
    # the fp64-against-float bound of t/sbo_learn.sh, about 3x that spread.
    awk -v a="$(field omp/summary.txt final_rmse)" -v b="$(field $s final_rmse)" \
        'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.03 * a) }'
    tap_ok $? "$2: final RMSE within 3% of omp's ($(field $s final_rmse), \
$(field omp/summary.txt final_rmse))"
}
