#!/bin/sh
# SPDX-License-Identifier: MIT
# embed-cl.sh IN.cl OUT.c: write OUT.c defining `const char rb_cl_NAME[]`
# (NAME: IN's base name) holding IN's text, one C string line per source line,
# so the binary carries its kernels and can record their checksum.
set -e
in=$1
out=$2
if test -z "$in" || test -z "$out"; then
    echo "usage: embed-cl.sh IN.cl OUT.c" >&2
    exit 2
fi
name=`basename "$in" .cl | sed 's/[^A-Za-z0-9_]/_/g'`
dir=`dirname "$out"`
test -d "$dir" || mkdir -p "$dir"
{
    printf '/* %s.cl as a C string, written by build-aux/embed-cl.sh: edit the .cl. */\n' "$name"
    printf 'extern const char rb_cl_%s[];\n' "$name"
    printf 'const char rb_cl_%s[] =\n' "$name"
    # Drop CRs, escape backslashes then quotes, keep each line's newline.
    sed -e 's/\r$//' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$in"
    printf '    "";\n'
} > "$out.tmp"
mv "$out.tmp" "$out"
