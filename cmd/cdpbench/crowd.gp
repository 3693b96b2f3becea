# The plot of cdpbench's crowd figure (docs/performance.md); cdpbench runs it
# with --crowd-png (the data beside it, or --crowd-data):
#   gnuplot -e "data='crowd.dat'; out='docs/crowd.png'; sides='chromium cdpvisor'; ttl='…'" cmd/cdpbench/crowd.gp
# data: N, then per side three columns: loops/s all at work, loops/s whole
# run, loop p50 (s).
stats data using 1 nooutput
set terminal pngcairo size 960,440 font ",10"
set output out
set multiplot layout 1,2 title ttl
set key below maxrows 2 width 2
set grid
set xlabel "agents at once (N)"
set logscale x 2
set xrange [STATS_min/1.3:STATS_max*1.3]
set xtics (4, 8, 16, 32, 64, 128, 256)
set ylabel "loops/s"
set yrange [0:*]
ns = words(sides)
plot for [i=1:ns] data using 1:(column(2+3*(i-1))) with linespoints lw 2 pt 7 lc i title word(sides, i)." (all at work)", \
     for [i=1:ns] data using 1:(column(3+3*(i-1))) with linespoints lw 1 dt 2 pt 6 lc i title word(sides, i)." (whole run)"
set ylabel "loop time p50 (s)"
plot for [i=1:ns] data using 1:(column(4+3*(i-1))) with linespoints lw 2 pt 7 lc i title word(sides, i)
unset multiplot
