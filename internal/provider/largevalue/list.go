package largevalue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

var _ tfprotov6.ListResourceServer = (*server)(nil)

// listServer is the framework's server as a list resource server.
func (s *server) listServer() (tfprotov6.ListResourceServer, error) {
	ls, ok := s.ProviderServer.(tfprotov6.ListResourceServer)
	if !ok {
		return nil, fmt.Errorf("the provider server %T serves no list resources; this is a bug in the provider", s.ProviderServer)
	}
	return ls, nil
}

// ValidateListResourceConfig passes the call to the framework's server (list values are never
// large: include_resource results are built in full).
func (s *server) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	ls, err := s.listServer()
	if err != nil {
		return nil, err
	}
	return ls.ValidateListResourceConfig(ctx, req)
}

// ListResource passes the call to the framework's server.
func (s *server) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	ls, err := s.listServer()
	if err != nil {
		return nil, err
	}
	return ls.ListResource(ctx, req)
}
