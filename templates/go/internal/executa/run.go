package executa

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Run serves the manifest's tools over stdin/stdout until stdin closes, the host sends
// shutdown, or SIGTERM / SIGHUP / SIGINT arrives; then it lets in-flight invokes finish
// (within Grace) and returns the exit code: 0, or 1 when the manifest cannot be read.
//
// Before any code of package main runs, descriptor 1 is pointed at stderr (see stdio.go):
// the protocol keeps the real stdout for itself, and a tool's fmt.Println goes to the log.
func Run(manifestJSON []byte, bindings Bindings) int {
	out := protectStdout()
	log := logger(os.Stderr)
	ctx, stop := onSignals(log)
	defer stop()
	if err := Serve(ctx, manifestJSON, bindings, os.Stdin, out, os.Stderr); err != nil {
		log("executa: %v", err)
		return 1
	}
	return 0
}

// Serve is Run without the process-wide parts (stdout redirection, signals): it reads
// frames from in, writes frames to out and logs to errOut, until in ends, a shutdown
// request, or ctx is done. Then it stops taking requests, waits up to Grace for the
// in-flight invokes and returns. Tests use it to run a manifest and bindings of their own.
func Serve(ctx context.Context, manifestJSON []byte, bindings Bindings, in io.Reader, out io.Writer, errOut io.Writer) error {
	m, err := parseManifest(manifestJSON)
	if err != nil {
		return err
	}
	log := logger(errOut)
	stopper := newStopper()
	writer := newFrameWriter(out, log, func() { stopper.stop("stdout closed") })
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &server{
		manifest: m,
		bindings: bindings,
		writer:   writer,
		channel:  newChannel(m, writer, log),
		stopper:  stopper,
		log:      log,
		errOut:   errOut,
		base:     base,
	}
	for name := range bindings {
		if m.byName[name] == nil {
			log("executa: binding %q is not a tool in manifest.json; run `executa manifest`", name)
		}
	}

	eof := make(chan struct{})
	go s.read(newFrameReader(in, MaxFrameBytes), eof)

	select {
	case <-eof:
		s.channel.close()
		stopper.stop("stdin closed")
	case <-stopper.stopped:
	case <-ctx.Done():
		stopper.stop("signal")
	}
	stopper.drain(Grace, log)
	writer.close() // never waits for a write blocked by a host that stopped reading
	return nil
}

// handOver is how long an invoke runs on the reading goroutine before another goroutine
// takes over the reading.
const handOver = time.Millisecond

// burst is how many invokes may start at once when slow invokes arrive together (an invoke
// was handed over within busyWindow and more input is waiting): each counts until it returns
// or handOver has passed. Slow invokes sent together thus start without waiting for each
// other, quick ones still run one after the other on the reading goroutine, and a host that
// stopped reading stdout finds the reading stopped (by the backlog) before more than burst
// answers pile up at a time.
const (
	burst      = 16
	busyWindow = 10 * time.Millisecond
)

// busy reports whether an invoke was handed over within busyWindow.
func (s *server) busy() bool {
	return time.Now().UnixNano()-s.handedOver.Load() < int64(busyWindow)
}

// startBurst runs an invoke on a goroutine of its own at once, unless burst invokes that
// started within the last handOver still run.
func (s *server) startBurst(run func()) bool {
	if s.starting.Add(1) > burst {
		s.starting.Add(-1)
		return false
	}
	var once sync.Once
	done := func() { once.Do(func() { s.starting.Add(-1) }) }
	time.AfterFunc(handOver, done)
	go func() {
		defer done()
		run()
	}()
	return true
}

// read handles stdin frame by frame until it ends, then closes eof. An invoke runs on the
// reading goroutine; if it is still running after handOver, a new goroutine takes over the
// reading, so invokes run concurrently and a tool waiting for a reverse response gets it. A
// quick tool thus answers without waking another thread, which keeps the cost per invoke
// close to a plain read-answer loop. Slow invokes sent together start at once (see burst).
func (s *server) read(reader *frameReader, eof chan struct{}) {
	for {
		s.writer.waitForRoom() // backpressure: a host that stops reading stdout stops being read
		line, oversize, err := reader.next()
		switch {
		case oversize:
			s.writer.error(nullID, CodeInvalidRequest, fmt.Sprintf("Frame exceeds %d MiB", MaxFrameBytes>>20), nil)
		case err != nil:
			if err != io.EOF {
				s.log("executa: stdin: %v", err)
			}
			close(eof)
			return
		default:
			s.line(line)
			if run := s.next; run != nil {
				s.next = nil
				if reader.buffered() > 0 && s.busy() && s.startBurst(run) {
					continue
				}
				timer := time.AfterFunc(handOver, func() {
					s.handedOver.Store(time.Now().UnixNano())
					go s.read(reader, eof)
				})
				run()
				if !timer.Stop() {
					return // another goroutine reads now
				}
			}
		}
	}
}
