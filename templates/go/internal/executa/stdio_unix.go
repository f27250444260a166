//go:build unix

package executa

import (
	"os"
	"syscall"
)

// redirectStdout duplicates descriptor 1 for the protocol and points descriptor 1 at
// stderr. If that fails, the protocol keeps os.Stdout and os.Stdout becomes os.Stderr.
func redirectStdout() *os.File {
	fd, err := syscall.Dup(1)
	if err != nil {
		return fallbackStdout()
	}
	syscall.CloseOnExec(fd)
	if err := dup2(2, 1); err != nil {
		syscall.Close(fd)
		return fallbackStdout()
	}
	return os.NewFile(uintptr(fd), "/dev/stdout")
}

func fallbackStdout() *os.File {
	real := os.Stdout
	os.Stdout = os.Stderr
	return real
}
