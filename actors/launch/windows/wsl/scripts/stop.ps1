# Ends the process $Id (Stop-Process -Force: TerminateProcess; Chrome's
# helpers follow their browser) and waits up to $TimeoutMs for its exit.
# Prints gone (it was not running), stopped, or running (still there).
$p = Get-Process -Id $Id -ErrorAction SilentlyContinue
if ($null -eq $p) { [Console]::Out.Write('gone'); exit 0 }
Stop-Process -Id $Id -Force -ErrorAction SilentlyContinue
if ($p.WaitForExit($TimeoutMs)) { [Console]::Out.Write('stopped') } else { [Console]::Out.Write('running') }
