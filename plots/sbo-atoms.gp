# SPDX-License-Identifier: MIT
# The atoms sbo-learn learned (its atoms.pgm: each block an 8 x 8 grid of
# 8 x 8 atoms, four blocks to a row) drawn as a grey image.  Not a records
# figure (`reprobench plot` runs the sbo_*.gp scripts only); `make sbo-figures` does:
#   gnuplot -e "in='atoms.pgm'; out='sbo-atoms'" sbo-atoms.gp
# gnuplot reads the raster as a binary array after the header, whose length
# it computes from the size: sbo-learn writes "P5\nW H\n255\n", no comment.
if (!exists("in")) in = "atoms.pgm"
if (!exists("out")) out = "sbo-atoms"
if (!exists("name")) name = "SBO atoms"

hdr = system(sprintf("head -n 2 '%s' | tail -n 1", in))
w = int(word(hdr, 1))
h = int(word(hdr, 2))
if (w < 1 || h < 1) { print sprintf("%s: not a PGM of sbo-learn", in); exit status 1 }
skip = strlen(sprintf("P5\n%d %d\n255\n", w, h))

unset key
unset tics
unset border
unset colorbox
set palette gray
set cbrange [0:255]
set size ratio -1
set margins 1, 1, 1, 3
set xrange [-0.5:w - 0.5]
set yrange [-0.5:h - 0.5]
scale = w < 600 ? 3 : 1
pdf_h = 6.0 * (h + 25.0) / (w + 15.0)    # inches, for a 6-inch-wide page
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size scale * w + 40, scale * h + 70 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 6, pdf_h font ",9" noenhanced
    }
    set output out.".".fmt
    set title sprintf("%s: %d atoms per block, each contrast-stretched", name, 64)
    plot in binary array=(w, h) skip=skip format="%uchar" flipy with image pixels
    unset output
}
