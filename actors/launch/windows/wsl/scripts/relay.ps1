# Relays one websocket of a browser ($Url, on Windows' own loopback) over
# stdio, for a WSL with NAT networking, whose 127.0.0.1 is not Windows':
# each message is its text followed by one NUL byte, both ways (the framing
# of Chromium's --remote-debugging-pipe). The first message written is
# {"relay":"open"}, once the websocket is open. It ends when the browser
# closes the websocket or cdpvisor closes stdin.
$none = [Threading.CancellationToken]::None
$ws = New-Object System.Net.WebSockets.ClientWebSocket
$ws.Options.KeepAliveInterval = [TimeSpan]::Zero
try { $ws.ConnectAsync([Uri]$Url, $none).Wait() }
catch { throw "cannot open the websocket ${Url}: $($_.Exception.GetBaseException().Message)" }
$stdin = [Console]::OpenStandardInput()
$stdout = [Console]::OpenStandardOutput()
$open = [Text.Encoding]::UTF8.GetBytes('{"relay":"open"}')
$stdout.Write($open, 0, $open.Length)
$stdout.WriteByte(0)
$stdout.Flush()
$text = [System.Net.WebSockets.WebSocketMessageType]::Text
$wsBuf = New-Object byte[] 65536
$inBuf = New-Object byte[] 65536
$fromBrowser = New-Object System.IO.MemoryStream # a message being received
$fromWSL = New-Object System.IO.MemoryStream     # a message being read from stdin
$recv = $ws.ReceiveAsync([ArraySegment[byte]]::new($wsBuf), $none)
$read = $stdin.ReadAsync($inBuf, 0, $inBuf.Length)
# One receive and one read are pending at a time; sends are awaited in turn.
while ($true) {
    if ([Threading.Tasks.Task]::WaitAny(@($recv, $read)) -eq 0) {
        if ($recv.IsFaulted) { break } # the browser went away
        $r = $recv.Result
        if ($r.MessageType -eq [System.Net.WebSockets.WebSocketMessageType]::Close) { break }
        $fromBrowser.Write($wsBuf, 0, $r.Count)
        if ($r.EndOfMessage) {
            $fromBrowser.WriteByte(0)
            $fromBrowser.WriteTo($stdout)
            $stdout.Flush()
            $fromBrowser.SetLength(0)
        }
        $recv = $ws.ReceiveAsync([ArraySegment[byte]]::new($wsBuf), $none)
    } else {
        $n = $read.Result
        if ($n -le 0) { break } # cdpvisor closed the relay
        $start = 0
        while (($nul = [Array]::IndexOf($inBuf, [byte]0, $start, $n - $start)) -ge 0) {
            $fromWSL.Write($inBuf, $start, $nul - $start)
            $ws.SendAsync([ArraySegment[byte]]::new($fromWSL.GetBuffer(), 0, [int]$fromWSL.Length), $text, $true, $none).Wait()
            $fromWSL.SetLength(0)
            $start = $nul + 1
        }
        $fromWSL.Write($inBuf, $start, $n - $start)
        $read = $stdin.ReadAsync($inBuf, 0, $inBuf.Length)
    }
}
if ($ws.State -eq [System.Net.WebSockets.WebSocketState]::Open) {
    $null = $ws.CloseAsync([System.Net.WebSockets.WebSocketCloseStatus]::NormalClosure, '', $none).Wait(2000)
}
$stdout.Flush()
