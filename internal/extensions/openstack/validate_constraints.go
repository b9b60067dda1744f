package openstack

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Load balancer class purposes (the extension's DefaultLoadBalancerClass, PrivateLoadBalancerClass
// and VPNLoadBalancerClass).
const (
	purposeDefault = "default"
	purposePrivate = "private"
	purposeVPN     = "vpn"
)

// validateConstraints checks the floating pools with their load balancer classes and the load
// balancer providers (ValidateCloudProfileConfig, first part).
func validateConstraints(c Constraints, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	poolsPath := at.Child("constraints").Child("floatingPools")
	if len(c.FloatingPools) == 0 {
		ps = append(ps, extcommon.Required(RuleFloatingPools, poolsPath.Path(), "must provide at least one floating pool"))
	}
	seen := map[string]bool{}
	for i, pool := range c.FloatingPools {
		pp := poolsPath.Index(i)
		if pool.Name == "" {
			ps = append(ps, extcommon.Required(RuleFloatingPools, pp.Child("name").Path(), "must provide a name"))
		}
		if pool.Region == nil && pool.Domain == nil {
			continue
		}
		region, domain := "*", "*"
		if pool.Region != nil {
			if *pool.Region == "" {
				ps = append(ps, extcommon.Required(RuleFloatingPools, pp.Child("region").Path(), "must provide a region if key is present"))
			}
			region = *pool.Region
		}
		if pool.Domain != nil {
			if *pool.Domain == "" {
				ps = append(ps, extcommon.Required(RuleFloatingPools, pp.Child("domain").Path(), "must provide a domain if key is present"))
			}
			domain = *pool.Domain
		}
		key := pool.Name + "," + domain + "," + region
		if seen[key] {
			ps = append(ps, duplicate(RuleFloatingPools, pp.Child("name"), pool.Name))
		}
		seen[key] = true
	}
	for i, pool := range c.FloatingPools {
		ps = append(ps, validateLoadBalancerClasses(pool.LoadBalancerClasses, poolsPath.Index(i).Child("loadBalancerClasses"))...)
	}

	providersPath := at.Child("constraints").Child("loadBalancerProviders")
	if len(c.LoadBalancerProviders) == 0 {
		ps = append(ps, extcommon.Required(RuleLoadBalancerProviders, providersPath.Path(), "must provide at least one load balancer provider"))
	}
	seen = map[string]bool{}
	for i, p := range c.LoadBalancerProviders {
		pp := providersPath.Index(i)
		if p.Name == "" {
			ps = append(ps, extcommon.Required(RuleLoadBalancerProviders, pp.Child("name").Path(), "must provide a name"))
		}
		if p.Region != nil {
			if *p.Region == "" {
				ps = append(ps, extcommon.Required(RuleLoadBalancerProviders, pp.Child("region").Path(), "must provide a region if key is present"))
			}
			id := p.Name + "," + *p.Region
			if seen[id] {
				ps = append(ps, duplicate(RuleLoadBalancerProviders, pp, fmt.Sprintf("duplicate provider %q for region %q", p.Name, *p.Region)))
			}
			seen[id] = true
		}
	}
	return ps
}

func duplicate(rule string, at extcommon.ConfigPath, bad any) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Duplicate, Path: at.Path(), BadValue: bad}
}

// validateLoadBalancerClasses is the extension's ValidateLoadBalancerClasses.
func validateLoadBalancerClasses(classes []LoadBalancerClass, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	names := map[string]bool{}
	var hasDefault, hasPrivate bool
	for i, class := range classes {
		cp := at.Index(i)
		ps = append(ps, validateLoadBalancerClass(class, cp)...)
		if names[class.Name] {
			ps = append(ps, duplicate(RuleLoadBalancerClasses, cp.Child("name"), class.Name))
		} else {
			names[class.Name] = true
		}
		if (class.Purpose != nil && *class.Purpose == purposeDefault) || class.Name == purposeDefault {
			if hasDefault {
				ps = append(ps, extcommon.Invalid(RuleLoadBalancerClasses, at.Path(), classes, "not allowed to configure multiple default load balancer classes"))
			} else {
				hasDefault = true
			}
		}
		if (class.Purpose != nil && *class.Purpose == purposePrivate) || class.Name == purposePrivate {
			if hasPrivate {
				ps = append(ps, extcommon.Invalid(RuleLoadBalancerClasses, at.Path(), classes, "not allowed to configure multiple private load balancer classes"))
			} else {
				hasPrivate = true
			}
		}
	}
	return ps
}

var genericName = regexp.MustCompile(`^[^{}\[\]\n]+$`)

func validateLoadBalancerClass(c LoadBalancerClass, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	if c.Purpose != nil && *c.Purpose != purposeDefault && *c.Purpose != purposePrivate && *c.Purpose != purposeVPN {
		ps = append(ps, extcommon.Invalid(RuleLoadBalancerClasses, at.Path(), *c.Purpose, fmt.Sprintf("invalid LoadBalancerClass purpose. Valid values are %q or %q", purposeDefault, purposePrivate)))
	}
	if c.FloatingNetworkID != nil {
		ps = append(ps, validateUUID(*c.FloatingNetworkID, at.Child("floatingNetworkID"))...)
	}
	if c.FloatingSubnetID != nil {
		ps = append(ps, validateUUID(*c.FloatingSubnetID, at.Child("floatingSubnetID"))...)
	}
	ps = append(ps, validateResourceName(c.Name, at.Child("name"))...)
	if c.FloatingSubnetName != nil {
		ps = append(ps, validateResourceName(*c.FloatingSubnetName, at.Child("floatingSubnetName"))...)
	}
	if c.FloatingSubnetTags != nil {
		ps = append(ps, validateResourceName(*c.FloatingSubnetTags, at.Child("floatingSubnetTags"))...)
	}
	id, name, tags := c.FloatingSubnetID != nil, c.FloatingSubnetName != nil, c.FloatingSubnetTags != nil
	switch {
	case id && name && tags:
		ps = append(ps, extcommon.Forbidden(RuleLoadBalancerClasses, at.Path(), "cannot select floating subnet by id, name and tags in parallel"))
	case id && (name || tags):
		ps = append(ps, extcommon.Forbidden(RuleLoadBalancerClasses, at.Path(), "specify floating subnet id and name or tags is not possible"))
	case name && tags:
		ps = append(ps, extcommon.Forbidden(RuleLoadBalancerClasses, at.Path(), "specify floating subnet name and id or tags is not possible"))
	}
	return ps
}

// validateResourceName is the extension's validateResourceName: no braces, brackets or newlines,
// not empty, at most 255 characters.
func validateResourceName(name string, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	if name != "" && !genericName.MatchString(name) {
		ps = append(ps, extcommon.Invalid(RuleLoadBalancerClasses, at.Path(), name, fmt.Sprintf("does not match expected regex %q", genericName.String())))
	}
	if name == "" {
		ps = append(ps, extcommon.Required(RuleLoadBalancerClasses, at.Path(), "cannot be empty"))
	}
	if l := utf8.RuneCountInString(name); l > 255 {
		ps = append(ps, extcommon.Invalid(RuleLoadBalancerClasses, at.Path(), name, fmt.Sprintf("must not be more than %d characters, got %d", 255, l)))
	}
	return ps
}

func validateUUID(u string, at extcommon.ConfigPath) cloudprofile.Problems {
	if err := parseUUID(u); err != nil {
		return cloudprofile.Problems{extcommon.Invalid(RuleLoadBalancerClasses, at.Path(), u, fmt.Sprintf("must be a valid UUID: %v", err))}
	}
	return nil
}

// parseUUID accepts what github.com/google/uuid's Parse accepts, with its error messages.
func parseUUID(s string) error {
	switch len(s) {
	case 36:
	case 36 + 9:
		if !strings.EqualFold(s[:9], "urn:uuid:") {
			return fmt.Errorf("invalid urn prefix: %q", s[:9])
		}
		s = s[9:]
	case 36 + 2:
		s = s[1:]
	case 32:
		for i := 0; i < 32; i += 2 {
			if !isHex(s[i]) || !isHex(s[i+1]) {
				return errors.New("invalid UUID format")
			}
		}
		return nil
	default:
		return fmt.Errorf("invalid UUID length: %d", len(s))
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return errors.New("invalid UUID format")
	}
	for _, x := range []int{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34} {
		if !isHex(s[x]) || !isHex(s[x+1]) {
			return errors.New("invalid UUID format")
		}
	}
	return nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// validCertificate is Gardener's utils.DecodeCertificate succeeding: a PEM block of type
// CERTIFICATE that parses as X.509.
func validCertificate(s string) bool {
	block, _ := pem.Decode([]byte(s))
	if block == nil || block.Type != "CERTIFICATE" {
		return false
	}
	_, err := x509.ParseCertificate(block.Bytes)
	return err == nil
}

// validateEndpoints checks KeyStone, DNS servers, the DHCP domain and server group policies
// (ValidateCloudProfileConfig, last part).
func validateEndpoints(cfg *CloudProfileConfig, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	if cfg.KeyStoneURL == "" && len(cfg.KeyStoneURLs) == 0 {
		ps = append(ps, extcommon.Required(RuleKeyStone, at.Child("keyStoneURL").Path(), "must provide the URL to KeyStone"))
	}
	if ca := cfg.KeyStoneCACert; ca != nil && *ca != "" && !validCertificate(*ca) {
		ps = append(ps, extcommon.Invalid(RuleKeyStone, at.Child("caCert").Path(), *ca, "caCert is not a valid PEM-encoded certificate"))
	}
	regions := map[string]bool{}
	for i, u := range cfg.KeyStoneURLs {
		up := at.Child("keyStoneURLs").Index(i)
		if u.Region == "" {
			ps = append(ps, extcommon.Required(RuleKeyStone, up.Child("region").Path(), "must provide a region"))
		}
		if u.URL == "" {
			ps = append(ps, extcommon.Required(RuleKeyStone, up.Child("url").Path(), "must provide an url"))
		}
		if ca := u.CACert; ca != nil && *ca != "" && !validCertificate(*ca) {
			ps = append(ps, extcommon.Invalid(RuleKeyStone, up.Child("caCert").Path(), *ca, "caCert is not a valid PEM-encoded certificate"))
		}
		if regions[u.Region] {
			ps = append(ps, duplicate(RuleKeyStone, up.Child("region"), u.Region))
		}
		regions[u.Region] = true
	}
	for i, ip := range cfg.DNSServers {
		if net.ParseIP(ip) == nil {
			ps = append(ps, extcommon.Invalid(RuleNetworkSettings, at.Child("dnsServers").Index(i).Path(), ip, "must provide a valid IP"))
		}
	}
	if cfg.DHCPDomain != nil && *cfg.DHCPDomain == "" {
		ps = append(ps, extcommon.Required(RuleNetworkSettings, at.Child("dhcpDomain").Path(), "must provide a dhcp domain when the key is specified"))
	}
	for i, policy := range cfg.ServerGroupPolicies {
		if policy == "" {
			ps = append(ps, extcommon.Required(RuleNetworkSettings, at.Child("serverGroupPolicies").Index(i).Path(), "policy cannot be empty"))
		}
	}
	return ps
}
