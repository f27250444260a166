package executa

import (
	"os"
	"syscall"
)

var setStdHandle = syscall.NewLazyDLL("kernel32.dll").NewProc("SetStdHandle")

// redirectStdout keeps the real stdout for the protocol and makes the process's standard
// output handle (which child processes inherit), syscall.Stdout and os.Stdout mean stderr.
func redirectStdout() *os.File {
	real := os.Stdout
	if setStdHandle.Find() == nil {
		stdOutputHandle := int32(syscall.STD_OUTPUT_HANDLE)
		setStdHandle.Call(uintptr(stdOutputHandle), uintptr(syscall.Stderr))
	}
	syscall.Stdout = syscall.Stderr
	os.Stdout = os.Stderr
	return real
}
