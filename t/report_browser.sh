#!/bin/sh
# SPDX-License-Identifier: MIT
# The report in a real browser: headless Chromium renders index.html to a
# PNG, and the page's own check (every image decoded, no script error)
# reaches the dumped DOM.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
browser=
for b in chromium chromium-browser; do
    command -v $b >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || tap_skip_all "chromium not found (apt-get install chromium)"
command -v gnuplot >/dev/null 2>&1 || tap_skip_all "gnuplot not found: a page without figures"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

tap_plan 4
"$RB_BIN" run --paper givens --backend serial --n 16,32 --prec f32 --min-samples 2 \
    --min-time 0.01 --quiet --no-plot --out "$tmp/res" > /dev/null 2> "$tmp/err"
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
"$RB_BIN" report --quiet "${run%/}" 2>> "$tmp/err"
st=$?
tap_ok $st "a small run and its report"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
page="file://$(cd "$run/report" && pwd)/index.html"

# Its own profile and no GPU, sandbox or crash reporter: runs as root in CI.
flags="--headless --disable-gpu --no-sandbox --no-first-run --disable-dev-shm-usage
    --user-data-dir=$tmp/profile --virtual-time-budget=5000"
timeout 60 $browser $flags --window-size=1200,3000 --screenshot="$tmp/page.png" "$page" \
    > "$tmp/shot.log" 2>&1
size=$(wc -c < "$tmp/page.png" 2>/dev/null || echo 0)
head -c 8 "$tmp/page.png" 2>/dev/null | grep -q PNG && [ "$size" -gt 20000 ]
tap_ok $? "the page renders to a PNG ($size bytes)"
[ "$size" -gt 20000 ] || tap_diag "$(tail -n 5 "$tmp/shot.log")"

timeout 60 $browser $flags --dump-dom "$page" > "$tmp/dom.html" 2> "$tmp/dom.log"
body=$(grep -o '<body[^>]*>' "$tmp/dom.html" | head -n 1)
tap_diag "dumped body: $body"
n=$(grep -c '<img ' "$run/report/index.html")
echo "$body" | grep -q "data-images=\"ok $n\""
tap_ok $? "all $n images decoded in the browser"
! echo "$body" | grep -q 'data-errors'
tap_ok $? "no script error on the page"
