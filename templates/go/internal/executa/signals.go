package executa

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// onSignals returns a context that is cancelled by the first SIGTERM, SIGHUP or SIGINT; a
// second one exits the process at once. SIGPIPE is ignored, so a host that went away shows up as
// a failed write (and a clean stop) rather than a kill.
func onSignals(log func(string, ...any)) (context.Context, func()) {
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			log("executa: %v: stopping", sig)
			cancel()
		case <-done:
			return
		}
		select {
		case sig := <-signals:
			log("executa: second %v, exiting now", sig)
			os.Exit(0)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel()
	}
}
