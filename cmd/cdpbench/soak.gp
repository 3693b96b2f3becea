# The plot of cdpbench's soak figure (docs/performance.md); cdpbench runs it
# with --soak-png:
#   gnuplot -e "data='soak.csv'; out='docs/soak.png'; faults='2.0 4.0'; ttl='…'" cmd/cdpbench/soak.gp
# faults: minutes of the browser's kills and hangs, drawn as marks;
# reccap: the recordings' total cap in MB, a fourth panel of their bytes
# (0 or unset: the soak did not record).
if (!exists("reccap")) reccap = 0
panels = (reccap > 0) ? 4 : 3
set terminal pngcairo size 1000,200*panels font ",10"
set output out
set datafile separator ","
set key autotitle columnhead
set multiplot layout panels,1 title ttl
set grid
set xrange [0:*]
do for [f in faults] { set arrow from f, graph 0 to f, graph 1 nohead lc rgb "#cccccc" }
set ylabel "RSS (MB)"
set yrange [0:*]
plot data using 1:2 with lines lw 2 title "coordinator RSS"
set ylabel "goroutines"
plot data using 1:3 with lines lw 2 title "goroutines"
set ylabel "open fds"
if (reccap <= 0) set xlabel "minutes"
plot data using 1:4 with lines lw 2 title "open fds", data using 1:5 with lines lw 1 title "threads"
if (reccap > 0) {
	set ylabel "recordings (MB)"
	set xlabel "minutes"
	set yrange [0:reccap*1.15]
	set key top left
	plot data using 1:16 with lines lw 2 title "recordings kept", data using 1:24 with lines lw 1 title "on disk", reccap with lines dt 2 lc rgb "#aa0000" title "total cap"
}
unset multiplot
