# Starts a Windows program and prints its Windows pid.
# $FilePath: the program (a Windows path). $ArgumentList: its arguments as
# one command line, already quoted by cdpvisor (Start-Process would join an
# array with blanks and no quoting). $Hidden: 1 for no window.
$style = if ($Hidden -eq 1) { 'Hidden' } else { 'Normal' }
if (-not (Test-Path -LiteralPath $FilePath -PathType Leaf)) {
    throw "$FilePath does not exist"
}
$p = Start-Process -FilePath $FilePath -ArgumentList $ArgumentList -WindowStyle $style -PassThru
[Console]::Out.Write($p.Id)
