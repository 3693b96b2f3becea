# Does one HTTP request to a browser's debugging port ($Method $Url, on
# Windows' own loopback) for a WSL with NAT networking, and prints the
# answer as JSON: {"Status": code, "ContentType": …, "Body": base64}.
# $Body is the request body in base64 ('' for none); $ContentType and
# $Accept are its headers ('' for none); $TimeoutMs bounds the request.
$req = [System.Net.HttpWebRequest]::Create([Uri]$Url)
$req.Method = $Method
$req.Proxy = $null
$req.Timeout = $TimeoutMs
$req.AutomaticDecompression = [System.Net.DecompressionMethods]'GZip, Deflate'
if ($Accept -ne '') { $req.Accept = $Accept }
if ($ContentType -ne '') { $req.ContentType = $ContentType }
if ($Body -ne '') {
    $bytes = [Convert]::FromBase64String($Body)
    $req.ContentLength = $bytes.Length
    $s = $req.GetRequestStream()
    $s.Write($bytes, 0, $bytes.Length)
    $s.Close()
} elseif ($Method -ne 'GET' -and $Method -ne 'HEAD') {
    $req.ContentLength = 0
}
try {
    $resp = $req.GetResponse()
} catch [System.Net.WebException] {
    # An error status is an answer too; no answer at all is a failure.
    $resp = $_.Exception.Response
    if ($null -eq $resp) { throw }
}
$body = New-Object System.IO.MemoryStream
$resp.GetResponseStream().CopyTo($body)
$answer = @{ Status = [int]$resp.StatusCode; ContentType = [string]$resp.ContentType; Body = [Convert]::ToBase64String($body.ToArray()) }
$resp.Close()
[Console]::Out.Write((ConvertTo-Json -Compress -InputObject $answer))
