# Removes the temporary directory $Path that tempdir.ps1 created, retrying
# while the files of a browser that just exited are still locked. Refuses
# anything not named like cdpvisor's temporary directories.
if ((Split-Path -Leaf $Path) -notlike "$Prefix*") { throw "$Path is not a cdpvisor temporary directory" }
for ($i = 0; $i -lt 20; $i++) {
    if (-not (Test-Path -LiteralPath $Path)) { exit 0 }
    Remove-Item -LiteralPath $Path -Recurse -Force -ErrorAction SilentlyContinue
    Start-Sleep -Milliseconds 250
}
if (Test-Path -LiteralPath $Path) { throw "$Path is still in use" }
