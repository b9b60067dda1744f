package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/extadmission"
	"github.com/gardener-community/terraform-provider-gardener/garden/internal/garden"
)

// flags are the command-line settings.
type flags struct {
	assets      string
	kubeconfig  string
	projects    projectList
	controllers bool
	controlAddr string
	gates       string
	admission   string
	logFile     string
	verbose     bool
}

// projectList collects --project values, each possibly a comma-separated list.
type projectList []string

// String joins the names with commas.
func (p *projectList) String() string { return strings.Join(*p, ",") }

// Set adds the comma-separated names in v.
func (p *projectList) Set(v string) error {
	for name := range strings.SplitSeq(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*p = append(*p, name)
		}
	}
	return nil
}

// parseFlags parses args; defaults that depend on the repository are resolved from its root.
func parseFlags(args []string) (*flags, error) {
	root := repoRoot()
	f := &flags{}
	fs := flag.NewFlagSet("local-garden", flag.ContinueOnError)
	fs.StringVar(&f.assets, "assets", defaultAssets(root), "folder with the etcd and kube-apiserver binaries")
	fs.StringVar(&f.kubeconfig, "kubeconfig", filepath.Join(root, ".cache", "garden", "admin.kubeconfig"),
		"where to write the admin kubeconfig; project kubeconfigs are written beside it")
	fs.Var(&f.projects, "project", "project to prepare (repeatable or comma-separated)")
	fs.BoolVar(&f.controllers, "controllers", true, "start the CloudProfile and NamespacedCloudProfile controllers")
	fs.StringVar(&f.controlAddr, "control-addr", "", "loopback address for the control endpoint, e.g. 127.0.0.1:0 (off if empty)")
	fs.StringVar(&f.gates, "feature-gates", garden.DefaultFeatureGates,
		"gardener-apiserver's feature gates, e.g. VersionClassificationLifecycle=false")
	fs.StringVar(&f.admission, "extension-admission", extadmission.None,
		"provider extension whose admission webhooks run and are registered: local or none")
	fs.StringVar(&f.logFile, "log-file", "", "append all logs to this file instead of stderr")
	fs.BoolVar(&f.verbose, "verbose", false, "show control-plane output and informational logs")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if !extadmission.Valid(f.admission) {
		return nil, fmt.Errorf("--extension-admission: unknown value %q (want local or none)", f.admission)
	}
	var err error
	if f.assets, err = filepath.Abs(f.assets); err != nil {
		return nil, err
	}
	if f.kubeconfig, err = filepath.Abs(f.kubeconfig); err != nil {
		return nil, err
	}
	return f, nil
}

// options turns the flags into Garden options.
func (f *flags) options() garden.Options {
	return garden.Options{
		AssetsDir:          f.assets,
		KubeconfigPath:     f.kubeconfig,
		Projects:           f.projects,
		Controllers:        f.controllers,
		FeatureGates:       f.gates,
		ExtensionAdmission: f.admission,
		Verbose:            f.verbose,
		Logf:               logf,
	}
}

// defaultAssets is $KUBEBUILDER_ASSETS, else <repo>/.cache/assets.
func defaultAssets(root string) string {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir
	}
	return filepath.Join(root, ".cache", "assets")
}

// repoRoot finds the repository holding the garden module, searching upwards from the working
// directory and then from the executable; it falls back to the working directory.
func repoRoot() string {
	wd, _ := os.Getwd()
	starts := []string{wd}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, dir := range starts {
		if root, err := findUp(dir); err == nil {
			return root
		}
	}
	return wd
}

// findUp returns the first folder at or above dir that contains garden/go.mod.
func findUp(dir string) (string, error) {
	for dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "garden", "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", errors.New("repository root not found")
}
