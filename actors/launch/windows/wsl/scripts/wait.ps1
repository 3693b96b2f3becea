# Waits until the process $Id has exited and prints its exit code when
# Windows tells it (nothing when the process was already gone). cdpvisor
# keeps this running as its way to learn of the browser's exit: there is no
# Linux process to wait for. It also ends, printing nothing, when its stdin
# closes: cdpvisor closes it when it lets the browser go, and it closes by
# itself when cdpvisor dies, so this never outlives its owner.
$p = Get-Process -Id $Id -ErrorAction SilentlyContinue
if ($null -eq $p) { exit 0 }
$null = $p.Handle # keeps the exit code readable after the exit
$stdin = [Console]::OpenStandardInput()
$released = $stdin.ReadAsync((New-Object byte[] 1), 0, 1) # cdpvisor never writes: this completes at EOF
while (-not $p.WaitForExit(250)) {
    if ($released.IsCompleted) { exit 0 }
}
if ($null -ne $p.ExitCode) { [Console]::Out.Write($p.ExitCode) }
