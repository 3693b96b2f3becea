# Prints the Windows user's LocalAppData and temporary directories as JSON,
# for detection when the drive mount alone does not tell which user is ours.
$local = [Environment]::GetFolderPath('LocalApplicationData')
[Console]::Out.Write((ConvertTo-Json -Compress @{ LocalAppData = $local; Temp = (Join-Path $local 'Temp') }))
