# Creates a fresh directory $Prefix<random> in the user's temporary
# directory and prints its path. The path is built from the known folder
# LocalApplicationData, not $env:TEMP, which may hold 8.3 short names
# (C:\Users\JOHNDO~1) that the WSL drive mount does not resolve.
$temp = Join-Path ([Environment]::GetFolderPath('LocalApplicationData')) 'Temp'
$dir = Join-Path $temp ($Prefix + [guid]::NewGuid().ToString('N').Substring(0, 10))
$null = New-Item -ItemType Directory -Path $dir
[Console]::Out.Write($dir)
