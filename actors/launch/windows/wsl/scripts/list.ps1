# Lists the processes named $Names (comma-separated, e.g. chrome.exe,msedge.exe)
# with their command lines, as a JSON array, so cdpvisor can match a browser
# by profile and debugging port.
$names = $Names -split ','
$procs = Get-CimInstance Win32_Process | Where-Object { $names -contains $_.Name } |
    Select-Object ProcessId, ParentProcessId, Name, ExecutablePath, CommandLine
[Console]::Out.Write((ConvertTo-Json -InputObject @($procs) -Compress))
