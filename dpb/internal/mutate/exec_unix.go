//go:build unix

package mutate

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup puts cmd in a process group of its own and makes its
// cancellation kill the whole group (go build's compilers, go test's test
// binary), not only the process it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
}
