# Waits until the process $Id has exited and prints its exit code when
# Windows tells it (nothing when the process was already gone). cdpvisor
# keeps this running as its way to learn of the browser's exit: there is no
# Linux process to wait for.
$p = Get-Process -Id $Id -ErrorAction SilentlyContinue
if ($null -eq $p) { exit 0 }
$null = $p.Handle # keeps the exit code readable after the exit
$p.WaitForExit()
if ($null -ne $p.ExitCode) { [Console]::Out.Write($p.ExitCode) }
