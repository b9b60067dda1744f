package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const kubeconfigTemplate = `apiVersion: v1
kind: Config
current-context: first
clusters:
- name: first
  cluster: {server: "https://first.example:6443"}
- name: second
  cluster: {server: "https://second.example:6443"}
users:
- name: first
  user: {token: first-token}
- name: second
  user: {token: second-token}
contexts:
- name: first
  context: {cluster: first, user: first}
- name: second
  context: {cluster: second, user: second}
`

// isolate points HOME and KUBECONFIG away from the developer's real files.
func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("KUBECONFIG", "")
	return dir
}

func writeKubeconfig(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(kubeconfigTemplate), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func mustConfig(t *testing.T, s Settings, vars map[string]string) (host, token string) {
	t.Helper()
	s, err := s.WithEnvironment(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Host, cfg.BearerToken
}

func TestSettings_ConfigPathSelectsKubeconfigAndCurrentContext(t *testing.T) {
	dir := isolate(t)
	host, token := mustConfig(t, Settings{ConfigPath: writeKubeconfig(t, dir, "a")}, nil)
	if host != "https://first.example:6443" || token != "first-token" {
		t.Fatalf("got %s %s", host, token)
	}
}

func TestSettings_ExplicitAttributeBeatsEnvironment(t *testing.T) {
	dir := isolate(t)
	explicit := writeKubeconfig(t, dir, "explicit")
	host, _ := mustConfig(t, Settings{ConfigPath: explicit, ConfigContext: "first"},
		map[string]string{EnvConfigPath: "/does/not/exist", EnvContext: "second"})
	if host != "https://first.example:6443" {
		t.Fatalf("explicit config_context must beat KUBE_CTX, got %s", host)
	}
}

func TestSettings_EnvironmentFillsUnsetAttributes(t *testing.T) {
	dir := isolate(t)
	host, token := mustConfig(t, Settings{}, map[string]string{EnvConfigPath: writeKubeconfig(t, dir, "env"), EnvContext: "second"})
	if host != "https://second.example:6443" || token != "second-token" {
		t.Fatalf("got %s %s", host, token)
	}
}

func TestSettings_KUBECONFIGIsReadWhenNoPathIsSet(t *testing.T) {
	dir := isolate(t)
	t.Setenv("KUBECONFIG", writeKubeconfig(t, dir, "kc"))
	host, _ := mustConfig(t, Settings{}, nil)
	if host != "https://first.example:6443" {
		t.Fatalf("got %s", host)
	}
}

func TestSettings_HostAndTokenOverrideTheKubeconfig(t *testing.T) {
	dir := isolate(t)
	host, token := mustConfig(t, Settings{ConfigPath: writeKubeconfig(t, dir, "a"), Host: "https://override:443", Token: "explicit"}, nil)
	if host != "https://override:443" || token != "explicit" {
		t.Fatalf("got %s %s", host, token)
	}
}

func TestSettings_HostAloneReadsNoKubeconfig(t *testing.T) {
	dir := isolate(t)
	t.Setenv("KUBECONFIG", writeKubeconfig(t, dir, "ignored"))
	host, token := mustConfig(t, Settings{Host: "https://only:443", Token: "t"}, nil)
	if host != "https://only:443" || token != "t" {
		t.Fatalf("got %s %s", host, token)
	}
}

func TestSettings_NothingConfiguredNeverFallsBackToLocalhost(t *testing.T) {
	isolate(t)
	_, err := Settings{}.RESTConfig()
	if err == nil || !strings.Contains(err.Error(), "no Garden cluster configured") {
		t.Fatalf("want a clear error instead of localhost, got %v", err)
	}
}

func TestSettings_ConfigPathsAreMerged(t *testing.T) {
	dir := isolate(t)
	s := Settings{ConfigPaths: []string{writeKubeconfig(t, dir, "a"), writeKubeconfig(t, dir, "b")}, ConfigContext: "second"}
	host, _ := mustConfig(t, s, nil)
	if host != "https://second.example:6443" {
		t.Fatalf("got %s", host)
	}
}

func TestSettings_MissingKubeconfigIsAnErrorNamingIt(t *testing.T) {
	dir := isolate(t)
	missing := filepath.Join(dir, "no-such-kubeconfig")
	for name, c := range map[string]struct {
		s    Settings
		vars map[string]string
	}{
		"config_path":       {Settings{ConfigPath: missing}, nil},
		"KUBE_CONFIG_PATH":  {Settings{}, map[string]string{EnvConfigPath: missing}},
		"config_paths":      {Settings{ConfigPaths: []string{writeKubeconfig(t, dir, "a"), missing}}, nil},
		"KUBE_CONFIG_PATHS": {Settings{}, map[string]string{EnvConfigPaths: writeKubeconfig(t, dir, "b") + string(filepath.ListSeparator) + missing}},
	} {
		s, err := c.s.WithEnvironment(env(c.vars))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.RESTConfig()
		if err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), missing) {
			t.Errorf("%s: want an error saying %s does not exist, got %v", name, missing, err)
		}
	}
}

func TestSettings_InsecureFromEnvironmentMustBeBoolean(t *testing.T) {
	if _, err := (Settings{}).WithEnvironment(env(map[string]string{EnvInsecure: "perhaps"})); err == nil {
		t.Fatal("want an error for KUBE_INSECURE=perhaps")
	}
	s, err := (Settings{}).WithEnvironment(env(map[string]string{EnvInsecure: "true"}))
	if err != nil || s.Insecure == nil || !*s.Insecure {
		t.Fatalf("got %v %v", s.Insecure, err)
	}
}

func TestSettings_ExecPluginReplacesKubeconfigUser(t *testing.T) {
	dir := isolate(t)
	s := Settings{ConfigPath: writeKubeconfig(t, dir, "a"), Exec: &ExecSettings{
		APIVersion: "client.authentication.k8s.io/v1", Command: "gardenlogin", Args: []string{"get-client-certificate"},
		Env: map[string]string{"B": "2", "A": "1"},
	}}
	cfg, err := s.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ExecProvider == nil || cfg.ExecProvider.Command != "gardenlogin" {
		t.Fatalf("exec provider not set: %+v", cfg.ExecProvider)
	}
	if got := cfg.ExecProvider.Env; len(got) != 2 || got[0].Name != "A" || got[1].Name != "B" {
		t.Fatalf("exec env must be sorted by name, got %+v", got)
	}
}

func TestSettings_HomeIsExpandedInConfigPath(t *testing.T) {
	dir := isolate(t)
	writeKubeconfig(t, dir, "home-config")
	host, _ := mustConfig(t, Settings{ConfigPath: "~/home-config"}, nil)
	if host != "https://first.example:6443" {
		t.Fatalf("got %s", host)
	}
}
