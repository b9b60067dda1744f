package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func providerSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Manages Gardener `CloudProfile` and `NamespacedCloudProfile` objects " +
			"(`core.gardener.cloud/v1beta1`) in a Garden cluster, with Gardener's own rules checked at plan time.\n\n" +
			"Connection settings follow the `hashicorp/kubernetes` provider. Precedence, highest first: an " +
			"attribute set in this block; its `KUBE_*` environment variable; the kubeconfig found by client-go's " +
			"loading rules (`config_path`, else `config_paths`, else `KUBECONFIG`, else `~/.kube/config`). " +
			"Attributes such as `host`, `token` or `config_context` override the matching part of the kubeconfig. " +
			"The client is only built when a resource or data source first needs the cluster.",
		Attributes: map[string]schema.Attribute{
			"config_path": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Path to the kubeconfig of the Garden cluster. Environment: `KUBE_CONFIG_PATH`. Takes precedence over `config_paths` and `KUBECONFIG`.",
			},
			"config_paths": schema.ListAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Kubeconfig files merged in order, as `KUBECONFIG` would merge them. Environment: `KUBE_CONFIG_PATHS` (separated like `PATH`).",
			},
			"config_context": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Kubeconfig context to use instead of the current one. Environment: `KUBE_CTX`.",
			},
			"config_context_auth_info": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Kubeconfig user to use instead of the context's. Environment: `KUBE_CTX_AUTH_INFO`.",
			},
			"config_context_cluster": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Kubeconfig cluster to use instead of the context's. Environment: `KUBE_CTX_CLUSTER`.",
			},
			"host": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "URL of the Garden cluster's API server, e.g. `https://api.garden.example.com`. Environment: `KUBE_HOST`. When set without a kubeconfig path, no kubeconfig is read.",
			},
			"token": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "Bearer token. Environment: `KUBE_TOKEN`.",
			},
			"cluster_ca_certificate": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "PEM-encoded CA certificate of the API server. Environment: `KUBE_CLUSTER_CA_CERT_DATA`.",
			},
			"client_certificate": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "PEM-encoded client certificate for TLS client authentication. Environment: `KUBE_CLIENT_CERT_DATA`.",
			},
			"client_key": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "PEM-encoded private key of `client_certificate`. Environment: `KUBE_CLIENT_KEY_DATA`.",
			},
			"insecure": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Skip verification of the API server's certificate. Off by default; only for tests. Environment: `KUBE_INSECURE`.",
			},
			"tls_server_name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Server name to verify the API server's certificate against, when it differs from the host. Environment: `KUBE_TLS_SERVER_NAME`.",
			},
			"proxy_url": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "URL of a proxy to reach the API server through. Environment: `KUBE_PROXY_URL`.",
			},
			"field_manager": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Field manager name for server-side apply. Default: `terraform-provider-gardener`.",
			},
			"qps": schema.NumberAttribute{
				Optional: true,
				MarkdownDescription: "Client-side rate limit: requests per second to the API server, as `--kube-api-qps` of other Kubernetes tools. " +
					"Default: no client-side limit, so that the provider never waits on itself however high Terraform's `-parallelism`; " +
					"the API server's priority and fairness protects the Garden, and the provider honours its `429` answers with `Retry-After`. " +
					"Must be a positive number no larger than 3.4e38.",
			},
			"burst": schema.NumberAttribute{
				Optional: true,
				MarkdownDescription: "Client-side rate limit: how many requests may go at once above `qps`, as `--kube-api-burst`. " +
					"A whole number from 1 to 2147483647. Needs `qps`. Default: twice `qps` (rounded up).",
			},
			"expiry_warning_window": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "How far ahead a plan warns about versions that change classification (for example expire), " +
					"as a Go duration such as `720h`. Default: `720h` (30 days). `0s` turns these warnings off.",
			},
			featureGatesAttribute:    featureGatesSchema(),
			gardenerVersionAttribute: gardenerVersionSchema(),
			"plan_reminders": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether every plan repeats the warnings about all versions that are expired or change classification " +
					"within `expiry_warning_window`, and about overrides that change nothing, also for entries the plan leaves as they are. " +
					"Default: `false`: a plan warns only about the entries it adds or changes, so a plan that changes nothing prints no warning; " +
					"the `conditions` of the data sources report the state of the whole profile.",
			},
			"server_checks": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a plan that changes a profile asks the Garden to check it with a server-side dry-run apply " +
					"(one request per changed object and plan, and Terraform plans each change once more right before applying it; none for a plan without changes). The Garden's answer covers what the offline rules " +
					"cannot know (admission webhooks of provider extensions, its feature gates and Gardener version, conflicts with other " +
					"field managers): its rejections fail the plan on the attribute, and the values it fills in are planned exactly. " +
					"Without permission to write (read-only credentials) or without a reachable Garden the plan uses the offline rules " +
					"and warns once. Default: `true`; `false` plans offline only.",
			},
		},
		Blocks: map[string]schema.Block{
			"exec": schema.SingleNestedBlock{
				MarkdownDescription: "A client-go credential plugin (such as `gardenlogin` or `kubectl oidc-login`) that prints credentials. Overrides the kubeconfig user's authentication.",
				Attributes: map[string]schema.Attribute{
					"api_version": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "API version of the plugin's ExecCredential, e.g. `client.authentication.k8s.io/v1`.",
					},
					"command": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Command to run.",
					},
					"args": schema.ListAttribute{
						Optional:            true,
						ElementType:         types.StringType,
						MarkdownDescription: "Arguments of the command.",
					},
					"env": schema.MapAttribute{
						Optional:            true,
						Sensitive:           true,
						ElementType:         types.StringType,
						MarkdownDescription: "Environment variables set for the command.",
					},
				},
			},
		},
	}
}
