package windows

import (
	"context"
	"errors"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/transport"
)

// closeAnswerWait bounds the wait for Browser.close's answer: a browser
// that heard it answers at once and then shuts down.
const closeAnswerWait = 2 * time.Second

// errCloseUnanswered is a Browser.close sent that nothing answered.
var errCloseUnanswered = errors.New("Browser.close was not answered")

// closeByCDP asks the browser to close itself with CDP Browser.close,
// through whichever path reaches it (directly or the Windows helper). It is
// the Windows counterpart of SIGTERM: Stop-Process is TerminateProcess,
// which gives Chrome no chance to write its profile.
func closeByCDP(wsURL string, reach launch.Reach) error {
	ctx, cancel := context.WithTimeout(context.Background(), transport.HandshakeTimeout+launch.ReachTimeout)
	conn, err := launch.DialWebSocket(ctx, reach, wsURL, 1<<20)
	cancel()
	if err != nil {
		return err
	}
	if err := conn.Write([]byte(`{"id":1,"method":"Browser.close"}`), false); err != nil {
		conn.Close(1000, "")
		return err
	}
	answered := make(chan bool, 1)
	go func() { // ends when the answer comes or conn closes
		m := transport.NewMessage()
		defer m.Release()
		for {
			if err := conn.Read(m); err != nil {
				answered <- true // the browser went away: heard, too
				return
			}
			if head, err := transport.ScanHead(m.B); err == nil && head.HasID && head.ID == 1 {
				answered <- true
				return
			}
		}
	}()
	t := time.NewTimer(closeAnswerWait)
	defer t.Stop()
	ok := false
	select {
	case ok = <-answered:
	case <-t.C:
	}
	conn.Close(1000, "")
	if !ok {
		<-answered // the reader ends with the connection
		return errCloseUnanswered
	}
	return nil
}
