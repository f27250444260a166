package executa

import (
	"sync"
	"time"
)

// Grace is how long in-flight invokes may still run once the plugin stops (on stdin EOF,
// shutdown, SIGTERM, SIGHUP or SIGINT); their answers are still written, and requests that
// arrive meanwhile are answered "Shutting down".
const Grace = 3 * time.Second

// stopper counts the invokes in flight and knows when stopping began.
type stopper struct {
	mu         sync.Mutex
	stopping   bool
	running    int // invokes not answered yet (health's in_flight)
	unfinished int // invokes whose goroutine is still at work
	reason     string
	stopped    chan struct{} // closed when stopping begins
	drained    chan struct{} // closed when stopping and no invoke is at work
}

func newStopper() *stopper {
	return &stopper{stopped: make(chan struct{}), drained: make(chan struct{})}
}

// start counts one more invoke; false once stopping began (the request is not taken).
func (s *stopper) start() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.running++
	s.unfinished++
	return true
}

// answering: the invoke's answer is about to be written, it no longer counts as in flight.
func (s *stopper) answering() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
}

// done: the invoke's answer is written (or could not be).
func (s *stopper) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unfinished--
	if s.stopping && s.unfinished == 0 {
		close(s.drained)
	}
}

// inFlight is the number of invokes not answered yet.
func (s *stopper) inFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

func (s *stopper) isStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}

// stop begins stopping; later calls do nothing.
func (s *stopper) stop(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return
	}
	s.stopping = true
	s.reason = reason
	close(s.stopped)
	if s.unfinished == 0 {
		close(s.drained)
	}
}

// drain waits until the invokes at work are done or the grace period is over; false when
// invokes were still at work at the end.
func (s *stopper) drain(grace time.Duration, log func(string, ...any)) bool {
	select {
	case <-s.drained:
		return true
	default:
	}
	s.mu.Lock()
	log("executa: %s: waiting up to %v for %d invoke(s)", s.reason, grace, s.unfinished)
	s.mu.Unlock()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-s.drained:
		return true
	case <-timer.C:
		s.mu.Lock()
		log("executa: grace period over with %d invoke(s) unanswered", s.unfinished)
		s.mu.Unlock()
		return false
	}
}
