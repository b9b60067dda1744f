package garden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// runDirPrefix starts the names of run folders, which continue with the owner's process id.
const runDirPrefix = "local-garden-"

// prepareRunDir creates a private temporary folder and makes it the process's TMPDIR, so that every
// temporary file of envtest and gardener-apiserver lands there and is removed in one go by Stop. Folders
// left behind by killed Gardens are removed first.
func (g *Garden) prepareRunDir() error {
	removeStaleRunDirs()
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", runDirPrefix, os.Getpid()))
	if err != nil {
		return err
	}
	g.runDir = dir
	return os.Setenv("TMPDIR", dir)
}

// removeStaleRunDirs removes the run folders whose owning process is gone. Errors are ignored: the
// folders are only temporary files.
func removeStaleRunDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), runDirPrefix+"*"))
	for _, dir := range dirs {
		var pid int
		if _, err := fmt.Sscanf(strings.TrimPrefix(filepath.Base(dir), runDirPrefix), "%d-", &pid); err != nil {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			_ = os.RemoveAll(dir)
		}
	}
}
