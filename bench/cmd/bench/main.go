// Command bench measures the provider against a running Garden (make bench starts one with
// scripts/garden.sh run): terraform plan, apply and the data sources over the big profile of
// bench/gen, the API requests of each operation (GARDENER_PROVIDER_REQUEST_LOG), the provider's
// peak memory and the Go benchmarks of the rules package; it prints medians with their budgets and
// exits 1 when a budget fails.
//
// The provider's peak memory is measured by wrapping it: dev_overrides points terraform to a
// folder whose terraform-provider-gardener is a link to this binary; started that way (the
// variable BENCH_PROVIDER_REAL is set), it runs the real provider as its child with the same
// standard streams (standard error through a counter of its lines) and appends the child's maximum
// resident set size, CPU time (getrusage) and log lines to BENCH_RSS_LOG.
// Started as terraform-provider-benchfloor (another link there), it serves the framework floor
// of the workspace part (floorprovider.go); started from the folder requestfloor, the request
// floor (requestfloor.go).
//
// Usage: bench -provider bin/terraform-provider-gardener [-runs 5] [-work .cache/bench] [-gobench FILE]
// [-parts big,workspace,worst] [-worst-cases all/valid,all/errors] [-quiet-timeout 120s]
// (the Garden's kubeconfig comes from GARDEN_KUBECONFIG). bench -generate DIR only writes the
// generated profiles (JSON and .tf.json) into DIR.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	if filepath.Base(os.Args[0]) == floorProviderName {
		os.Exit(serveFloorProvider())
	}
	if isRequestFloor(os.Args[0]) {
		os.Exit(serveRequestFloor())
	}
	if real := os.Getenv("BENCH_PROVIDER_REAL"); real != "" {
		os.Exit(wrapProvider(real, os.Getenv("BENCH_RSS_LOG")))
	}
	var (
		provider  = flag.String("provider", "bin/terraform-provider-gardener", "the provider binary")
		runs      = flag.Int("runs", 5, "repetitions of each measurement (medians are reported)")
		work      = flag.String("work", ".cache/bench", "work folder (recreated)")
		goBench   = flag.String("gobench", "", "output of go test -bench of the rules package, to check the rules budget")
		terraform = flag.String("terraform", "", "terraform binary (default: from PATH)")
		generate  = flag.String("generate", "", "only write the generated profiles into this folder and exit")
		keep      = flag.Bool("keep", false, "leave the profiles in the Garden")
		parts     = flag.String("parts", partBig+","+partWorkspace+","+partWorst, "the parts to measure: big (the big profile), workspace (300 namespaced profiles), worst (the worst cases of validation cost)")
		worst     = flag.String("worst-cases", "", "the worst cases to measure, by name, in this order (default: all of gen.WorstCases)")
	)
	flag.DurationVar(&quietTimeout, "quiet-timeout", quietTimeout, "how long each measurement waits at most for a quiet machine")
	flag.Parse()
	if *generate != "" {
		if err := writeGenerated(*generate, ""); err != nil {
			fatal(err)
		}
		fmt.Println("bench: generated profiles in", *generate)
		return
	}
	tf := *terraform
	if tf == "" {
		p, err := exec.LookPath("terraform")
		if err != nil {
			fatal(fmt.Errorf("terraform not found: %w", err))
		}
		tf = p
	}
	kubeconfig := os.Getenv("GARDEN_KUBECONFIG")
	if kubeconfig == "" {
		fatal(fmt.Errorf("GARDEN_KUBECONFIG is not set (run through scripts/garden.sh run)"))
	}
	absProvider, err := filepath.Abs(*provider)
	if err != nil {
		fatal(err)
	}
	absWork, err := filepath.Abs(*work)
	if err != nil {
		fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	b := &bench{terraform: tf, provider: absProvider, work: absWork, kubeconfig: kubeconfig, runs: *runs, keep: *keep, parts: strings.Split(*parts, ",")}
	if *worst != "" {
		b.worstCases = strings.Split(*worst, ",")
	}
	b.gardenPGID, _ = strconv.Atoi(os.Getenv("GARDEN_PGID")) // unset: the Garden's CPU is not reported
	ok, err := b.run(ctx, *goBench)
	stop()
	if err != nil {
		fatal(err)
	}
	if !ok {
		fmt.Println("bench: FAIL (a budget is exceeded)")
		os.Exit(1)
	}
	fmt.Println("bench: PASS (all budgets met)")
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(2)
}

// wrapProvider runs the real provider with this process's standard streams, arguments and
// environment (minus the wrapper's variable), forwards termination signals, and records the
// child's peak RSS, CPU time (user and system, in microseconds) and the lines it wrote to its
// standard error (its logs, which terraform reads).
func wrapProvider(real, rssLog string) int {
	cmd := exec.Command(real, os.Args[1:]...)
	logs := &lineCounter{w: os.Stderr}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, logs
	var env []string
	for _, e := range os.Environ() {
		if len(e) < len("BENCH_PROVIDER_REAL=") || e[:len("BENCH_PROVIDER_REAL=")] != "BENCH_PROVIDER_REAL=" {
			env = append(env, e)
		}
	}
	cmd.Env = env
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "bench wrapper:", err)
		return 1
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	if rssLog != "" && cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			_ = appendFile(rssLog, fmt.Appendf(nil, "%d %d %d %d\n", cmd.ProcessState.Pid(), ru.Maxrss, cpu.Microseconds(), logs.lines)) // kB on Linux
			if len(logs.extra) > 0 {
				_ = appendFile(rssLog+".logs", fmt.Appendf(nil, "provider process %d:\n%s\n", cmd.ProcessState.Pid(), logs.extra))
			}
		}
	}
	if cmd.ProcessState != nil {
		if code := cmd.ProcessState.ExitCode(); code >= 0 {
			return code
		}
		return 1
	}
	if err != nil {
		return 1
	}
	return 0
}

// appendFile appends data to file, creating it when missing.
func appendFile(file string, data []byte) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// lineCounter passes what is written on to w, counts the lines, and keeps the first
// keptLogBytes of what follows go-plugin's two start-up lines (the lines a budget counts).
type lineCounter struct {
	w     io.Writer
	lines int
	extra []byte
}

// keptLogBytes is how much of a provider's unexpected log lines the wrapper keeps for the report.
const keptLogBytes = 2048

// Write counts the newlines of p, keeps what follows the first two lines, and writes p to w.
func (c *lineCounter) Write(p []byte) (int, error) {
	rest := p
	for c.lines < 2 && len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			rest = nil
			break
		}
		c.lines++
		rest = rest[i+1:]
	}
	c.lines += bytes.Count(rest, []byte{'\n'})
	if room := keptLogBytes - len(c.extra); room > 0 {
		c.extra = append(c.extra, rest[:min(room, len(rest))]...)
	}
	return c.w.Write(p)
}
