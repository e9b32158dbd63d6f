# SPDX-License-Identifier: MIT
# A figure's log x range, and its y range when asked, from the points it
# draws: fitted to them, or, where they all share one value, an octave (x)
# or a decade (y) either side, so that a run of one size still gets an axis
# and gnuplot warns of no empty range.  Not a figure of its own: a script
# defines ax(x) and ay(x), a row's x and y as the figure draws them (NaN
# for the rows it leaves out), and then
#   log_axes = dir(ARG0)."log_axes.gp"     (once, first: a call clears ARG0)
#   call log_axes FILE ["y"]
# Without "y" the y axis is autoscaled: for figures that draw a line of
# their own (the speedups' 1x), which the autoscaling takes in.
axes_file = ARG1
axes_y = ARGC >= 2 && ARG2 eq "y"
# stats leaves out the points outside the ranges set before (an earlier
# panel's): none are set while it counts.
set autoscale x
set autoscale y
stats axes_file using (ax(0)) name "AXES_X" nooutput
if (axes_y) {
    stats axes_file using (ay(0)) name "AXES_Y" nooutput
}
if (AXES_X_min == AXES_X_max) {
    set xrange [AXES_X_min / 2 : AXES_X_max * 2]
} else {
    set autoscale xfix
}
if (axes_y && AXES_Y_min == AXES_Y_max) {
    set yrange [AXES_Y_min / 10 : AXES_Y_max * 10]
}
