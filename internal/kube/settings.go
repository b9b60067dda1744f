package kube

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// DefaultFieldManager is the field manager the provider applies with unless configured otherwise.
const DefaultFieldManager = "terraform-provider-gardener"

// Settings are the provider's connection settings, named after hashicorp/kubernetes' provider
// attributes. Nil pointers and empty strings mean "not set".
type Settings struct {
	ConfigPath            string
	ConfigPaths           []string
	ConfigContext         string
	ConfigContextAuthInfo string
	ConfigContextCluster  string
	Host                  string
	Token                 string
	ClusterCACertificate  string
	ClientCertificate     string
	ClientKey             string
	Insecure              *bool
	TLSServerName         string
	ProxyURL              string
	Exec                  *ExecSettings
	// QPS and Burst are the client-side rate limit (requests per second, and how many may go at
	// once above it); a QPS of 0 means no client-side limit (see RateLimit).
	QPS   float32
	Burst int
}

// ExecSettings configure a client-go credential plugin such as gardenlogin or kubelogin.
type ExecSettings struct {
	APIVersion string
	Command    string
	Args       []string
	Env        map[string]string
}

// Environment variables read when the matching setting is not configured.
const (
	EnvConfigPath      = "KUBE_CONFIG_PATH"
	EnvConfigPaths     = "KUBE_CONFIG_PATHS"
	EnvContext         = "KUBE_CTX"
	EnvContextAuthInfo = "KUBE_CTX_AUTH_INFO"
	EnvContextCluster  = "KUBE_CTX_CLUSTER"
	EnvHost            = "KUBE_HOST"
	EnvToken           = "KUBE_TOKEN"
	EnvClusterCA       = "KUBE_CLUSTER_CA_CERT_DATA"
	EnvClientCert      = "KUBE_CLIENT_CERT_DATA"
	EnvClientKey       = "KUBE_CLIENT_KEY_DATA"
	EnvInsecure        = "KUBE_INSECURE"
	EnvTLSServerName   = "KUBE_TLS_SERVER_NAME"
	EnvProxyURL        = "KUBE_PROXY_URL"
)

// WithEnvironment fills every setting that is not set from its KUBE_* environment variable, read
// with lookup (os.LookupEnv in production). Explicit settings always win. KUBECONFIG itself is read
// by clientcmd's default loading rules when neither config_path nor config_paths is set.
func (s Settings) WithEnvironment(lookup func(string) (string, bool)) (Settings, error) {
	fill := func(dst *string, env string) {
		if *dst == "" {
			if v, ok := lookup(env); ok {
				*dst = v
			}
		}
	}
	fill(&s.ConfigPath, EnvConfigPath)
	fill(&s.ConfigContext, EnvContext)
	fill(&s.ConfigContextAuthInfo, EnvContextAuthInfo)
	fill(&s.ConfigContextCluster, EnvContextCluster)
	fill(&s.Host, EnvHost)
	fill(&s.Token, EnvToken)
	fill(&s.ClusterCACertificate, EnvClusterCA)
	fill(&s.ClientCertificate, EnvClientCert)
	fill(&s.ClientKey, EnvClientKey)
	fill(&s.TLSServerName, EnvTLSServerName)
	fill(&s.ProxyURL, EnvProxyURL)
	if len(s.ConfigPaths) == 0 {
		if v, ok := lookup(EnvConfigPaths); ok && v != "" {
			s.ConfigPaths = filepath.SplitList(v)
		}
	}
	if s.Insecure == nil {
		if v, ok := lookup(EnvInsecure); ok && v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return s, fmt.Errorf("environment variable %s=%q is not a boolean: use true or false", EnvInsecure, v)
			}
			s.Insecure = &b
		}
	}
	return s, nil
}

// SettingError is a connection setting that cannot be used, found without a request: a
// kubeconfig that does not exist or does not parse, a context it lacks, or a certificate or key
// that does not parse. Setting names the provider attribute it comes from (or whose KUBE_*
// environment variable it comes from); empty means the kubeconfig client-go's default loading
// rules found (KUBECONFIG, else ~/.kube/config).
type SettingError struct {
	Setting string
	Err     error
}

// Error is the problem, as client-go words it.
func (e *SettingError) Error() string { return e.Err.Error() }

// Unwrap is the problem.
func (e *SettingError) Unwrap() error { return e.Err }

// RESTConfig builds the client configuration: kubeconfig files are found and merged by clientcmd's
// loading rules (config_path, else config_paths, else KUBECONFIG, else ~/.kube/config), and the
// explicit settings override what the kubeconfig says. With no kubeconfig and no host it fails
// instead of falling back to localhost. It reads the kubeconfig files and parses the certificates
// and keys, and makes no request; a setting that cannot be used is a *SettingError.
func (s Settings) RESTConfig() (*rest.Config, error) {
	rules, err := s.loadingRules()
	if err != nil {
		return nil, err
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, s.overrides())
	raw, err := loader.RawConfig()
	if err != nil {
		return nil, &SettingError{Setting: s.kubeconfigSetting(), Err: fmt.Errorf("loading kubeconfig: %w", err)}
	}
	if len(raw.Clusters) == 0 && s.Host == "" {
		return nil, fmt.Errorf("no Garden cluster configured: set config_path (or KUBECONFIG) to a kubeconfig of the Garden cluster, or set host with credentials")
	}
	cfg, err := loader.ClientConfig()
	if err != nil {
		return nil, &SettingError{Setting: s.kubeconfigSetting(), Err: fmt.Errorf("building client configuration: %w", err)}
	}
	if _, err := rest.TLSConfigFor(cfg); err != nil {
		return nil, &SettingError{Setting: s.tlsSetting(err), Err: fmt.Errorf("reading the TLS settings: %w", err)}
	}
	cfg.QPS, cfg.Burst = s.RateLimit()
	return cfg, nil
}

// kubeconfigSetting is the setting that says where the connection comes from: the kubeconfig
// path settings, else host (no kubeconfig is read then), else none (client-go's default rules).
func (s Settings) kubeconfigSetting() string {
	switch {
	case s.ConfigPath != "":
		return "config_path"
	case len(s.ConfigPaths) > 0:
		return "config_paths"
	case s.Host != "":
		return "host"
	}
	return ""
}

// tlsSetting is the setting a TLS problem of client-go comes from: the CA, the client certificate
// or key, or insecure where set explicitly, else the kubeconfig that holds them.
func (s Settings) tlsSetting(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "insecure") && s.Insecure != nil:
		return "insecure"
	case strings.Contains(msg, "root certificates") && s.ClusterCACertificate != "":
		return "cluster_ca_certificate"
	case strings.Contains(msg, "root certificates"):
	case strings.Contains(msg, "certificate input") && s.ClientCertificate != "":
		return "client_certificate"
	case s.ClientKey != "":
		return "client_key"
	case s.ClientCertificate != "":
		return "client_certificate"
	}
	return s.kubeconfigSetting()
}

// RateLimit is the client-side rate limit of the rest.Config. Without a configured QPS the client
// has none (client-go turns its limiter off for a negative QPS): Terraform runs up to -parallelism
// operations at once and the API server's priority and fairness protects the Garden, answering 429
// with Retry-After, which the client honours (see RetryPolicy); client-go's own default of 5
// requests per second would make the provider wait on itself. A QPS without Burst gets a burst of
// DefaultBurst.
func (s Settings) RateLimit() (qps float32, burst int) {
	if s.QPS <= 0 {
		return -1, 0
	}
	if s.Burst > 0 {
		return s.QPS, s.Burst
	}
	return s.QPS, DefaultBurst(s.QPS)
}

// DefaultBurst is the burst of a client-side rate limit of qps requests per second when none is
// configured: two seconds' worth, as client-go's defaults (5 and 10), and at least 1.
func DefaultBurst(qps float32) int {
	return max(1, int(math.Ceil(float64(2*qps))))
}

// loadingRules are clientcmd's loading rules for the settings. A configured kubeconfig file that
// does not exist is an error naming it: clientcmd would skip a missing file of config_paths, and
// the provider would then talk to whatever the other files name, or report no cluster at all.
func (s Settings) loadingRules() (*clientcmd.ClientConfigLoadingRules, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	switch {
	case s.ConfigPath != "":
		p, err := existingKubeconfig(s.ConfigPath, "config_path or "+EnvConfigPath)
		if err != nil {
			return nil, &SettingError{Setting: "config_path", Err: err}
		}
		rules.ExplicitPath = p
		rules.Precedence = nil
	case len(s.ConfigPaths) > 0:
		paths := make([]string, 0, len(s.ConfigPaths))
		for _, p := range s.ConfigPaths {
			e, err := existingKubeconfig(p, "config_paths or "+EnvConfigPaths)
			if err != nil {
				return nil, &SettingError{Setting: "config_paths", Err: err}
			}
			paths = append(paths, e)
		}
		rules.Precedence = paths
	case s.Host != "":
		// Only explicit settings: do not read ~/.kube/config or KUBECONFIG behind the user's back.
		rules.Precedence = nil
	}
	return rules, nil
}

// existingKubeconfig is the kubeconfig path p of setting with ~ expanded, or an error naming it
// when no file is there. Other failures to read it are left to clientcmd, which names them.
func existingKubeconfig(p, setting string) (string, error) {
	e, err := expandHome(p)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(e); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("the kubeconfig file %q (from %s) does not exist", e, setting)
	}
	return e, nil
}

func (s Settings) overrides() *clientcmd.ConfigOverrides {
	o := &clientcmd.ConfigOverrides{
		CurrentContext: s.ConfigContext,
		Context: clientcmdapi.Context{
			AuthInfo: s.ConfigContextAuthInfo,
			Cluster:  s.ConfigContextCluster,
		},
		ClusterInfo: clientcmdapi.Cluster{
			Server:        s.Host,
			TLSServerName: s.TLSServerName,
			ProxyURL:      s.ProxyURL,
		},
		AuthInfo: clientcmdapi.AuthInfo{Token: s.Token},
	}
	if s.ClusterCACertificate != "" {
		o.ClusterInfo.CertificateAuthorityData = []byte(s.ClusterCACertificate)
	}
	if s.Insecure != nil {
		o.ClusterInfo.InsecureSkipTLSVerify = *s.Insecure
	}
	if s.ClientCertificate != "" {
		o.AuthInfo.ClientCertificateData = []byte(s.ClientCertificate)
	}
	if s.ClientKey != "" {
		o.AuthInfo.ClientKeyData = []byte(s.ClientKey)
	}
	if s.Exec != nil {
		o.AuthInfo.Exec = s.Exec.config()
	}
	return o
}

func (e *ExecSettings) config() *clientcmdapi.ExecConfig {
	c := &clientcmdapi.ExecConfig{
		APIVersion:      e.APIVersion,
		Command:         e.Command,
		Args:            append([]string(nil), e.Args...),
		InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
	}
	for _, name := range slices.Sorted(maps.Keys(e.Env)) {
		c.Env = append(c.Env, clientcmdapi.ExecEnvVar{Name: name, Value: e.Env[name]})
	}
	return c
}

func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("expanding %q: %w", p, err)
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}
