// Package shim keeps etcd and kube-apiserver in the process group of the program that starts them.
//
// controller-runtime's envtest starts every control-plane binary in a process group of its own and
// stops it by signalling that group. A caller that kills the local Garden's process group would then
// leave etcd and kube-apiserver running. To avoid that, envtest is pointed at links named like the
// binaries that lead back to the running executable. When the executable is started through such a
// link, RunIfInvoked starts the real binary in its parent's process group, forwards signals to it and
// exits with it. envtest still owns a group of its own to signal (the shim's), and killing the parent's
// group ends the real binary, after which the shim ends too.
package shim

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"time"
)

// envRealAssets names the environment variable holding the folder with the real binaries.
const envRealAssets = "LOCAL_GARDEN_REAL_ASSETS"

// Binaries are the control-plane programs that envtest starts.
var Binaries = []string{"etcd", "kube-apiserver"}

// Prepare creates, in dir, one link per binary pointing at the running executable, and records
// realAssets for the shims in the process environment (inherited by envtest's children).
func Prepare(realAssets, dir string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding own executable: %w", err)
	}
	for _, name := range Binaries {
		if _, err := os.Stat(filepath.Join(realAssets, name)); err != nil {
			return fmt.Errorf("control-plane binary missing: %w", err)
		}
		if err := os.Symlink(self, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return os.Setenv(envRealAssets, realAssets)
}

// RunIfInvoked runs the shim and exits the process if this process was started through a link made by
// Prepare; otherwise it returns at once. Call it first in main (and in TestMain).
func RunIfInvoked() {
	realAssets := os.Getenv(envRealAssets)
	name := filepath.Base(os.Args[0])
	if realAssets == "" || !slices.Contains(Binaries, name) {
		return
	}
	os.Exit(run(filepath.Join(realAssets, name), os.Args[1:]))
}

// run starts the real binary in the parent's process group and returns its exit code.
func run(path string, args []string) int {
	// The child is forked from this thread; keeping it locked means the thread never exits, so the
	// parent-death signal below only fires when the shim itself ends.
	runtime.LockOSThread()
	parent := os.Getppid()
	pgid, err := syscall.Getpgid(parent)
	if err != nil {
		fmt.Fprintf(os.Stderr, "local-garden shim: %v\n", err)
		return 1
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid, Pdeathsig: syscall.SIGKILL}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "local-garden shim: %v\n", err)
		return 1
	}
	go forward(cmd.Process, signals)
	go stopWhenOrphaned(cmd.Process, parent)
	return exitCode(cmd.Wait())
}

// forward passes every received signal on to the child.
func forward(p *os.Process, signals <-chan os.Signal) {
	for s := range signals {
		_ = p.Signal(s)
	}
}

// stopWhenOrphaned terminates the child once the process that started the shim is gone.
func stopWhenOrphaned(p *os.Process, parent int) {
	for os.Getppid() == parent {
		time.Sleep(time.Second)
	}
	_ = p.Signal(syscall.SIGTERM)
}

// exitCode turns the result of Wait into a shell-style exit code.
func exitCode(err error) int {
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		if err != nil {
			return 1
		}
		return 0
	}
	if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return exitErr.ExitCode()
}
