package executa

import "syscall"

// dup2 is dup3 on Linux: some architectures (arm64) have no dup2 system call.
func dup2(oldfd, newfd int) error { return syscall.Dup3(oldfd, newfd, 0) }
