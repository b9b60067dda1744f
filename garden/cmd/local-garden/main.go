// Command local-garden runs a local Garden for tests and demos: etcd, kube-apiserver, Gardener's real
// gardener-apiserver and Gardener's CloudProfile and NamespacedCloudProfile controllers.
//
// Once it is ready it prints exactly one line to stdout:
//
//	local-garden: ready kubeconfig=<path>[ control=<addr>]
//
// Everything else goes to stderr (or to --log-file). SIGINT or SIGTERM stops it cleanly.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/garden"
	"github.com/gardener-community/terraform-provider-gardener/garden/internal/shim"
)

func main() {
	shim.RunIfInvoked()
	os.Exit(run())
}

// run starts the Garden, reports readiness, waits for a signal and stops it; it returns the exit code.
func run() int {
	f, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "local-garden: %v\n", err)
		return 2
	}
	if err := setUpLogging(f.logFile, f.verbose); err != nil {
		fmt.Fprintf(os.Stderr, "local-garden: %v\n", err)
		return 1
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()

	g, err := garden.Start(ctx, f.options())
	if err != nil && ctx.Err() != nil {
		logf("interrupted during start-up; stopped")
		return 0
	}
	if err != nil {
		logf("start failed: %v", err)
		return 1
	}
	control, err := serveControl(f.controlAddr, g.Controllers)
	if err != nil {
		logf("control endpoint: %v", err)
		return stop(g, nil, 1)
	}
	fmt.Println(readyLine(g.Kubeconfig, control))
	<-ctx.Done()
	stopSignals() // a second signal ends the process at once
	logf("stopping")
	return stop(g, control, 0)
}

// readyLine is the single line printed to stdout once the Garden is ready.
func readyLine(kubeconfig string, control net.Listener) string {
	line := "local-garden: ready kubeconfig=" + kubeconfig
	if control != nil {
		line += " control=" + control.Addr().String()
	}
	return line
}

// stop shuts the control endpoint and the Garden down; it returns code, or 1 if stopping failed.
func stop(g *garden.Garden, control net.Listener, code int) int {
	if control != nil {
		_ = control.Close()
	}
	if err := g.Stop(); err != nil {
		logf("stop: %v", err)
		return 1
	}
	logf("stopped")
	return code
}

// serveControl serves the control endpoint on a loopback address; an empty address disables it.
func serveControl(addr string, c *garden.Controllers) (net.Listener, error) {
	if addr == "" {
		return nil, nil
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if ip := l.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		_ = l.Close()
		return nil, fmt.Errorf("%s is not a loopback address", addr)
	}
	go func() { _ = http.Serve(l, garden.ControlHandler(c)) }()
	return l, nil
}
