# Prints the profile $Profile's DevToolsActivePort (port, then the browser
# websocket path), for a profile outside the drive mounts.
$f = Join-Path $Profile 'DevToolsActivePort'
if (-not (Test-Path -LiteralPath $f -PathType Leaf)) { throw "no DevToolsActivePort in $Profile" }
[Console]::Out.Write((Get-Content -LiteralPath $f -Raw))
