package main

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/rs/zerolog"
)

// stopOnSignal is a context that ends at the first of sigs, logged with
// what happens next. Its goroutine ends with the context.
func stopOnSignal(log zerolog.Logger, next string, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		defer signal.Stop(ch)
		select {
		case sig := <-ch:
			log.Info().Str("signal", signalName(sig)).Msg("received " + signalName(sig) + "; " + next)
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return strings.ToUpper(sig.String())
}
