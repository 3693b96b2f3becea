# The plot of cdpbench's worldscale figure (docs/performance.md):
#   jq -r '.worldscale.steps[] | "\(.worlds) \(.pss_mb) \(.rt_p50_us/1000) \(.rt_p99_us/1000)"' bench.json > worldscale.dat
#   gnuplot -e "data='worldscale.dat'; out='docs/worldscale.png'" cmd/cdpbench/worldscale.gp
set terminal pngcairo size 900,380 font ",10"
set output out
set multiplot layout 1,2 title "Worlds of 2 pages on one Chromium (cdpbench --only worldscale)"
set key top left
set grid
set xlabel "worlds"
set ylabel "browser PSS (MB)"
set xrange [0:*]
set yrange [0:*]
plot data using 1:2 with linespoints lw 2 pt 7 title "PSS, all processes of the browser"
set ylabel "round trip (ms), every world's agent at once"
set logscale y
set yrange [*:*]
plot data using 1:3 with linespoints lw 2 pt 7 title "p50", \
     data using 1:4 with linespoints lw 2 pt 5 title "p99"
unset multiplot
