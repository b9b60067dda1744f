package main

import (
	"fmt"
	"os"

	"go.uber.org/zap/zapcore"
	"golang.org/x/sys/unix"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// setUpLogging points stderr at logFile (if given) and installs controller-runtime's logger. It must run
// before the Garden starts: controller-runtime keeps the first logger set, so gardener-apiserver's own
// logger (installed when it starts) only takes over klog.
func setUpLogging(logFile string, verbose bool) error {
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		// Redirecting the descriptor itself also catches output of libraries that write to stderr.
		if err := unix.Dup2(int(f.Fd()), int(os.Stderr.Fd())); err != nil {
			return fmt.Errorf("redirecting stderr to %s: %w", logFile, err)
		}
		_ = f.Close()
	}
	level := zapcore.ErrorLevel
	if verbose {
		level = zapcore.InfoLevel
	}
	crlog.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(level), zap.StacktraceLevel(zapcore.PanicLevel), zap.ConsoleEncoder()))
	return nil
}

// logf writes one progress line to stderr.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "local-garden: "+format+"\n", args...)
}
