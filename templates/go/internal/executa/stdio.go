package executa

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// protocolOut is the real stdout, kept for the protocol. This package's init points
// descriptor 1 at stderr before any code of package main runs, so package-level copies of
// os.Stdout, prints in init functions and syscall.Write(1, …) all land in the log, never in
// the protocol stream.
var protocolOut = redirectStdout()

// protectStdout returns the protocol's stdout; os.Stdout (and fmt.Println) now mean stderr.
func protectStdout() *os.File {
	return protocolOut
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
