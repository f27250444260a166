package executa

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// protectStdout keeps the real stdout for the protocol and points os.Stdout at stderr, so
// that fmt.Println and anything else that writes to os.Stdout from now on lands in the log,
// never in the protocol stream.
func protectStdout() *os.File {
	real := os.Stdout
	os.Stdout = os.Stderr
	return real
}

// logger returns a log function that writes one line per call to errOut.
func logger(errOut io.Writer) func(string, ...any) {
	var mu sync.Mutex
	return func(format string, args ...any) {
		line := fmt.Sprintf(format, args...) + "\n"
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(errOut, line)
	}
}
