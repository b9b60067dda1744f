package provider

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions"
)

// Every piece of HCL a user may paste from the provider's texts must work: the fixes and meanings
// of the rule catalogue (Gardener's and the extensions'), the schema descriptions, the hints the
// diagnostics give, the templates of the docs, the README and the examples. These tests find each
// snippet, parse it as HCL and check it against the schemas the provider serves to Terraform:
// attribute names, whether a user may set them, and the shape of literal values (a map of objects
// where the schema has one, a string where it has one). Attribute paths the texts name, such as
// `spec.machine_images[*].versions[*].cri`, must exist too, and expressions that read a data
// source (`data.gardener_cloud_profile.aws.kubernetes_versions["1.31.2"]`) must index its maps by key
// and its lists by number.

// snippetText is a text that may hold snippets, and where it comes from.
type snippetText struct {
	where string
	text  string
	// markdown is true for a Markdown file, whose fenced blocks are snippets as a whole.
	markdown bool
}

// TestSnippets_EveryHCLSnippetFitsTheSchema checks the snippets of every text (see above).
func TestSnippets_EveryHCLSnippetFitsTheSchema(t *testing.T) {
	c := newSnippetChecker(t)
	texts := catalogueTexts()
	texts = append(texts, c.descriptionTexts()...)
	texts = append(texts, goStringTexts(t, "diagnostics and hints", ".", "../kube")...)
	texts = append(texts, repositoryTexts(t)...)
	checked := 0
	for _, text := range texts {
		for _, s := range snippetsOf(text) {
			checked++
			for _, err := range c.check(s) {
				t.Errorf("%s: %s\n    %s", text.where, err, strings.ReplaceAll(s.code, "\n", "\n    "))
			}
		}
	}
	t.Logf("%d snippets checked", checked)
	if checked < 200 {
		t.Errorf("only %d snippets found: the search for them is broken", checked)
	}
}

// TestSnippets_TheCheckerFindsWhatWouldNotWork proves that the checks are real: each of these
// snippets, in the places the texts hold them, is reported.
func TestSnippets_TheCheckerFindsWhatWouldNotWork(t *testing.T) {
	c := newSnippetChecker(t)
	for _, text := range []snippetText{
		{where: "a list of CRIs (the old F-7 fix)", text: "Set `cri = [{ name = \"containerd\" }]` in the version."},
		{where: "a dotted path assignment", text: "Set `spec.parent.kind = \"CloudProfile\"`."},
		{where: "an attribute the schema lacks", text: "Set `machine_typs = {}`."},
		{where: "a path the schema lacks", text: "Remove `spec.machine_images[*].versions[*].version`."},
		{where: "a computed attribute", text: "Set `status_in_sync = true`."},
		{where: "a list where a map is", text: "```terraform\nresource \"gardener_cloud_profile\" \"x\" {\n  spec = { kubernetes = { versions = [{ version = \"1.31.2\" }] } }\n}\n```", markdown: true},
		{where: "a data source's map indexed by position", text: "`data.gardener_cloud_profile.aws.kubernetes_versions[0].classification`"},
		{where: "HCL that does not parse", text: "```terraform\nlocals {\n  x = \n}\n```", markdown: true},
	} {
		t.Run(text.where, func(t *testing.T) {
			var errs []error
			snippets := snippetsOf(text)
			for _, s := range snippets {
				errs = append(errs, c.check(s)...)
			}
			if len(snippets) == 0 || len(errs) == 0 {
				t.Errorf("%d snippets, no error: %q passes", len(snippets), text.text)
			}
		})
	}
}

// catalogueTexts are the meanings and fixes of Gardener's rules and of the extensions'.
func catalogueTexts() []snippetText {
	var out []snippetText
	add := func(owner string, rules []cloudprofile.RuleInfo) {
		for _, r := range rules {
			out = append(out, snippetText{where: owner + " rule " + r.ID + " meaning", text: r.Meaning},
				snippetText{where: owner + " rule " + r.ID + " fix", text: r.Fix})
		}
	}
	add("catalogue", cloudprofile.Rules())
	for _, e := range extensions.Known() {
		add(e.Type+" extension", e.Rules)
	}
	return out
}

// goStringTexts are the string literals of the non-test Go files of the folders: the texts of the
// diagnostics and their hints.
func goStringTexts(t *testing.T, what string, dirs ...string) []snippetText {
	t.Helper()
	var out []snippetText
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, snippetText{where: fmt.Sprintf("%s (%s)", fset.Position(lit.Pos()), what), text: s})
				}
				return true
			})
		}
	}
	return out
}

// repositoryTexts are the docs templates, the README and the examples.
func repositoryTexts(t *testing.T) []snippetText {
	t.Helper()
	root := filepath.Join("..", "..")
	var out []snippetText
	read := func(path string, markdown bool) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		text := string(raw)
		if !markdown {
			text = "```terraform\n" + text + "```\n" // an example is one snippet
		}
		out = append(out, snippetText{where: rel, text: text, markdown: true})
	}
	read(filepath.Join(root, "README.md"), true)
	for _, dir := range []string{"templates", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case strings.HasSuffix(path, ".md.tmpl"):
				read(path, true)
			case strings.HasSuffix(path, ".tf"):
				read(path, false)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// descriptionTexts are the descriptions of every attribute of the schemas.
func (c *snippetChecker) descriptionTexts() []snippetText {
	var out []snippetText
	var attrs func(where string, as []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock)
	attrs = func(where string, as []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock) {
		for _, a := range as {
			out = append(out, snippetText{where: where + "." + a.Name + " description", text: a.Description})
			if a.NestedType != nil {
				attrs(where+"."+a.Name, a.NestedType.Attributes, nil)
			}
		}
		for _, b := range blocks {
			attrs(where+"."+b.TypeName, b.Block.Attributes, b.Block.BlockTypes)
		}
	}
	for name, s := range c.schemas() {
		out = append(out, snippetText{where: name + " description", text: s.Block.Description})
		attrs(name, s.Block.Attributes, s.Block.BlockTypes)
	}
	for name, f := range c.functions {
		out = append(out, snippetText{where: "function " + name, text: f.Description})
		for _, p := range f.Parameters {
			out = append(out, snippetText{where: "function " + name + " " + p.Name, text: p.Description})
		}
	}
	return out
}

// snippet is a piece of a text that is HCL, or an attribute path.
type snippet struct {
	code string
	// block is a fenced block of Markdown, or an example file: a configuration (or a fragment of
	// one) as a whole.
	block bool
}

var (
	fencedBlock = regexp.MustCompile("(?ms)^```(terraform|hcl)\\n(.*?)^```")
	anyFence    = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpan    = regexp.MustCompile("`([^`\n]+)`")
	// assignment is a code span that sets an attribute, bare or dotted; value is one that is a
	// literal object or list.
	assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\[\]"*-]*\s+=\s+[^=>]`)
	value      = regexp.MustCompile(`^[{\[]`)
	// specPathSpan is a code span that names an attribute of a resource's spec or metadata.
	specPathSpan = regexp.MustCompile(`^(spec|metadata)((\.[a-z_]+)|(\[[^\]]*\]))+$`)
	// dataSourceRead is a code span that reads an attribute of a data source.
	dataSourceRead = regexp.MustCompile(`^data\.gardener_[a-z_]+\.[a-z_]+\.`)
)

// snippetsOf finds the snippets of a text: the fenced terraform and hcl blocks of Markdown, and the
// code spans elsewhere that assign, are literal objects or lists, name a spec attribute or read a
// data source.
func snippetsOf(text snippetText) []snippet {
	var out []snippet
	prose := text.text
	if text.markdown {
		for _, m := range fencedBlock.FindAllStringSubmatch(prose, -1) {
			out = append(out, snippet{code: m[2], block: true})
		}
		prose = anyFence.ReplaceAllString(prose, "")
	}
	for _, m := range codeSpan.FindAllStringSubmatch(prose, -1) {
		code := strings.TrimSpace(m[1])
		if assignment.MatchString(code) || value.MatchString(code) && strings.Contains(code, "=") ||
			specPathSpan.MatchString(code) || dataSourceRead.MatchString(code) {
			out = append(out, snippet{code: code})
		}
	}
	return out
}

// snippetChecker checks snippets against the schemas the provider serves.
type snippetChecker struct {
	resp       *tfprotov6.GetProviderSchemaResponse
	identities map[string]*tfprotov6.ResourceIdentitySchema
	functions  map[string]*tfprotov6.Function
	// byName are the attributes a user may set, by name, in every schema: the candidates for an
	// assignment whose place the text gives in words.
	byName map[string][]*tfprotov6.SchemaAttribute
	// objects are the nested objects of every schema that a user may write: the candidates for a
	// literal object whose place the text gives in words.
	objects [][]*tfprotov6.SchemaAttribute
}

func newSnippetChecker(t *testing.T) *snippetChecker {
	t.Helper()
	server, err := NewProtocol6Server(New("test"))()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	identities, err := server.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	c := &snippetChecker{resp: resp, identities: identities.IdentitySchemas, functions: resp.Functions, byName: map[string][]*tfprotov6.SchemaAttribute{}}
	var index func(as []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock)
	index = func(as []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock) {
		c.objects = append(c.objects, as)
		for _, a := range as {
			if !settable(a) {
				continue
			}
			c.byName[a.Name] = append(c.byName[a.Name], a)
			if a.NestedType != nil {
				index(a.NestedType.Attributes, nil)
			}
		}
		for _, b := range blocks {
			index(b.Block.Attributes, b.Block.BlockTypes)
		}
	}
	for _, s := range c.schemas() {
		index(s.Block.Attributes, s.Block.BlockTypes)
	}
	return c
}

// schemas are the provider's, the resources', the data sources' and the list resources' schemas,
// by a name for messages.
func (c *snippetChecker) schemas() map[string]*tfprotov6.Schema {
	out := map[string]*tfprotov6.Schema{"provider": c.resp.Provider}
	for name, s := range c.resp.ResourceSchemas {
		out["resource "+name] = s
	}
	for name, s := range c.resp.DataSourceSchemas {
		out["data "+name] = s
	}
	for name, s := range c.resp.ListResourceSchemas {
		out["list "+name] = s
	}
	return out
}

// settable tells whether a user may write an attribute.
func settable(a *tfprotov6.SchemaAttribute) bool { return a.Required || a.Optional }

// placeholder matches the ellipses and <placeholders> of the texts, which stand for a value, more
// of the same or a name.
var placeholder = regexp.MustCompile(`=\s*…|,?\s*…|<[a-z][a-z -]*>`)

// notForPasting are the snippets the texts show as what does not work, by the reason.
var notForPasting = map[string]string{
	// The upgrade guide's table: the list schema, which the map schema replaced.
	`[{ version = "1.31.2", classification = "supported" }]`: "the list schema",
	`[{ name = "gardenlinux", versions = [ … ] }]`:           "the list schema",
	`[{ version = "1877.3.0", … }]`:                          "the list schema",
	`[{ type = "gvisor" }]`:                                  "the list schema",
	`[{ name = "m5.large", cpu = "2", … }]`:                  "the list schema",
	`[{ name = "gp3", class = "standard" }]`:                 "the list schema",
	`[{ name = "eu-west-1", zones = [ … ] }]`:                "the list schema",
	`[{ name = "eu-west-1a" }]`:                              "the list schema",
	`[{ name = "containerd" }]`:                              "the list schema",
	// Troubleshooting: a misspelled attribute, which Terraform drops without a word.
	`expiration = "…"`: "a misspelling",
	// Migrating: an attribute of alekc/kubectl's kubectl_manifest.
	`server_side_apply = true`: "another provider's attribute",
}

// terraformArguments are the arguments Terraform itself gives blocks (resources, data sources,
// list blocks, import blocks), which the provider's schemas do not describe.
var terraformArguments = map[string]bool{"count": true, "for_each": true, "depends_on": true, "provider": true,
	"include_resource": true, "limit": true, "to": true, "id": true}

// check parses a snippet and checks it against the schemas.
func (c *snippetChecker) check(s snippet) []error {
	if _, shown := notForPasting[s.code]; shown {
		return nil
	}
	code := placeholder.ReplaceAllStringFunc(s.code, func(m string) string {
		switch {
		case strings.HasPrefix(m, "<"):
			return "x"
		case strings.HasPrefix(m, "="):
			return "= null"
		}
		return ""
	})
	switch {
	case !s.block && specPathSpan.MatchString(code):
		return c.checkPath(code)
	case !s.block && dataSourceRead.MatchString(code) && !strings.Contains(code, "="):
		return c.checkExpression(code)
	case !s.block && value.MatchString(code):
		return c.checkValue(code)
	}
	if strings.HasPrefix(code, "provider_installation {") {
		return nil // a CLI configuration (HCL 1, which allows quoted names), not a Terraform configuration
	}
	file, diags := hclsyntax.ParseConfig([]byte(code+"\n"), "snippet.tf", hcl.InitialPos)
	if diags.HasErrors() {
		if _, exprDiags := hclsyntax.ParseExpression([]byte(code), "snippet.tf", hcl.InitialPos); s.block && !exprDiags.HasErrors() {
			return c.checkExpression(code) // a block that shows one expression
		}
		return []error{fmt.Errorf("not HCL a user could paste: %s", diags.Error())}
	}
	body := file.Body.(*hclsyntax.Body)
	var errs []error
	for _, b := range body.Blocks {
		errs = append(errs, c.checkBlock(b)...)
	}
	for _, a := range sortedAttributes(body) {
		errs = append(errs, c.checkLoose(a.Name, a.Expr)...)
	}
	errs = append(errs, c.checkReads(body)...)
	return errs
}

// checkBlock checks a top-level block of a configuration: the provider's, its resources', data
// sources' and list resources'. Other blocks (locals, outputs, modules, checks, imports) are only
// parsed, and their reads of data sources checked.
func (c *snippetChecker) checkBlock(b *hclsyntax.Block) []error {
	var s *tfprotov6.Schema
	switch {
	case b.Type == "provider" && len(b.Labels) == 1 && b.Labels[0] == "gardener":
		s = c.resp.Provider
	case b.Type == "resource" && len(b.Labels) == 2:
		s = c.resp.ResourceSchemas[b.Labels[0]]
	case b.Type == "data" && len(b.Labels) == 2:
		s = c.resp.DataSourceSchemas[b.Labels[0]]
	case b.Type == "list" && len(b.Labels) == 2:
		for _, inner := range b.Body.Blocks {
			if ls := c.resp.ListResourceSchemas[b.Labels[0]]; inner.Type == "config" && ls != nil {
				return c.checkBody(b.Labels[0]+" config", ls.Block.Attributes, ls.Block.BlockTypes, inner.Body)
			}
		}
		return nil
	}
	if s == nil {
		if len(b.Labels) > 0 && strings.HasPrefix(b.Labels[0], "gardener_") {
			return []error{fmt.Errorf("%s %q is not a %s of the provider", b.Type, b.Labels[0], b.Type)}
		}
		return nil
	}
	return c.checkBody(strings.Join(append([]string{b.Type}, b.Labels...), "."), s.Block.Attributes, s.Block.BlockTypes, b.Body)
}

// metaArguments are the arguments and blocks Terraform itself gives every resource, data source
// and list block.
var metaArguments = map[string]bool{"count": true, "for_each": true, "depends_on": true, "provider": true, "lifecycle": true,
	"include_resource": true, "limit": true, "alias": true}

// checkBody checks the attributes and blocks of body against a schema's.
func (c *snippetChecker) checkBody(where string, attrs []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock, body *hclsyntax.Body) []error {
	var errs []error
	for _, a := range sortedAttributes(body) {
		sa := attributeNamed(attrs, a.Name)
		switch {
		case sa == nil && metaArguments[a.Name]:
		case sa == nil:
			errs = append(errs, fmt.Errorf("%s has no attribute %q", where, a.Name))
		case !settable(sa):
			errs = append(errs, fmt.Errorf("%s.%s is computed: a configuration cannot set it", where, a.Name))
		default:
			errs = append(errs, c.checkAttribute(where+"."+a.Name, sa, a.Expr)...)
		}
	}
	for _, b := range body.Blocks {
		i := slices.IndexFunc(blocks, func(nb *tfprotov6.SchemaNestedBlock) bool { return nb.TypeName == b.Type })
		switch {
		case i >= 0:
			errs = append(errs, c.checkBody(where+"."+b.Type, blocks[i].Block.Attributes, blocks[i].Block.BlockTypes, b.Body)...)
		case !metaArguments[b.Type]:
			errs = append(errs, fmt.Errorf("%s has no block %q", where, b.Type))
		}
	}
	return errs
}

// checkLoose checks an assignment whose place the text gives in words: some attribute of that name
// that a user may set must accept the value.
func (c *snippetChecker) checkLoose(name string, expr hclsyntax.Expression) []error {
	switch {
	case name == "identity":
		return c.checkIdentity(expr)
	case terraformArguments[name]:
		return nil
	}
	candidates := c.byName[name]
	if len(candidates) == 0 {
		return []error{fmt.Errorf("no schema has an attribute %q a user may set", name)}
	}
	var first []error
	for _, a := range candidates {
		errs := c.checkAttribute(name, a, expr)
		if len(errs) == 0 {
			return nil
		}
		if first == nil {
			first = errs
		}
	}
	return first
}

// checkIdentity checks the identity of an import block: its attributes must be those of a
// resource's identity.
func (c *snippetChecker) checkIdentity(expr hclsyntax.Expression) []error {
	cons, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return nil
	}
	for _, s := range c.identities {
		fits := true
		for _, item := range cons.Items {
			name := staticKey(item.KeyExpr)
			fits = fits && slices.ContainsFunc(s.IdentityAttributes, func(a *tfprotov6.ResourceIdentitySchemaAttribute) bool { return a.Name == name })
		}
		if fits {
			return nil
		}
	}
	return []error{fmt.Errorf("the identity fits no resource's identity")}
}

// checkValue checks a literal object or list whose place the text gives in words: it must fit some
// attribute, or be an entry of some nested attribute.
func (c *snippetChecker) checkValue(code string) []error {
	expr, diags := hclsyntax.ParseExpression([]byte(code), "snippet.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return []error{fmt.Errorf("not HCL a user could paste: %s", diags.Error())}
	}
	for _, candidates := range c.byName {
		for _, a := range candidates {
			if len(c.checkAttribute("", a, expr)) == 0 {
				return nil
			}
		}
	}
	if cons, ok := expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, attrs := range c.objects {
			if len(c.checkObject("", attrs, cons)) == 0 {
				return nil
			}
		}
	}
	return []error{fmt.Errorf("the value fits no attribute of the provider's schemas")}
}

// checkAttribute checks the expression of an attribute.
func (c *snippetChecker) checkAttribute(where string, a *tfprotov6.SchemaAttribute, expr hclsyntax.Expression) []error {
	if a.NestedType == nil {
		return checkTyped(where, a.Type, expr)
	}
	if isNull(expr) {
		return nil
	}
	attrs := a.NestedType.Attributes
	switch a.NestedType.Nesting {
	case tfprotov6.SchemaObjectNestingModeSingle:
		if cons, ok := expr.(*hclsyntax.ObjectConsExpr); ok {
			return c.checkObject(where, attrs, cons)
		}
		if _, ok := expr.(*hclsyntax.TupleConsExpr); ok {
			return []error{fmt.Errorf("%s is an object, not a list", where)}
		}
	case tfprotov6.SchemaObjectNestingModeMap:
		switch e := expr.(type) {
		case *hclsyntax.ObjectConsExpr:
			var errs []error
			for _, item := range e.Items {
				key := staticKey(item.KeyExpr)
				if cons, ok := item.ValueExpr.(*hclsyntax.ObjectConsExpr); ok {
					errs = append(errs, c.checkObject(fmt.Sprintf("%s[%q]", where, key), attrs, cons)...)
				} else if !dynamic(item.ValueExpr) && !isNull(item.ValueExpr) {
					errs = append(errs, fmt.Errorf("%s[%q] must be an object", where, key))
				}
			}
			return errs
		case *hclsyntax.TupleConsExpr:
			return []error{fmt.Errorf("%s is a map of objects by key, not a list (map of object required)", where)}
		}
	case tfprotov6.SchemaObjectNestingModeList, tfprotov6.SchemaObjectNestingModeSet:
		switch e := expr.(type) {
		case *hclsyntax.TupleConsExpr:
			var errs []error
			for i, item := range e.Exprs {
				if cons, ok := item.(*hclsyntax.ObjectConsExpr); ok {
					errs = append(errs, c.checkObject(fmt.Sprintf("%s[%d]", where, i), attrs, cons)...)
				}
			}
			return errs
		case *hclsyntax.ObjectConsExpr:
			return []error{fmt.Errorf("%s is a list, not an object", where)}
		}
	}
	return nil
}

// checkObject checks an object constructor against nested attributes.
func (c *snippetChecker) checkObject(where string, attrs []*tfprotov6.SchemaAttribute, cons *hclsyntax.ObjectConsExpr) []error {
	var errs []error
	for _, item := range cons.Items {
		name := staticKey(item.KeyExpr)
		a := attributeNamed(attrs, name)
		switch {
		case a == nil:
			errs = append(errs, fmt.Errorf("%s has no attribute %q", where, name))
		case !settable(a):
			errs = append(errs, fmt.Errorf("%s.%s is computed: a configuration cannot set it", where, name))
		default:
			errs = append(errs, c.checkAttribute(where+"."+name, a, item.ValueExpr)...)
		}
	}
	return errs
}

// checkTyped checks the expression of an attribute of a Terraform type: object and collection
// constructors by their elements, literals by conversion; other expressions (references, function
// calls, for expressions) are known only when Terraform evaluates them.
func checkTyped(where string, typ tftypes.Type, expr hclsyntax.Expression) []error {
	if dynamic(expr) || isNull(expr) {
		return nil
	}
	switch {
	case typ.Is(tftypes.Object{}):
		cons, ok := expr.(*hclsyntax.ObjectConsExpr)
		if !ok {
			return []error{fmt.Errorf("%s must be an object", where)}
		}
		attrTypes := typ.(tftypes.Object).AttributeTypes
		var errs []error
		for _, item := range cons.Items {
			name := staticKey(item.KeyExpr)
			t, ok := attrTypes[name]
			if !ok {
				errs = append(errs, fmt.Errorf("%s has no attribute %q", where, name))
				continue
			}
			errs = append(errs, checkTyped(where+"."+name, t, item.ValueExpr)...)
		}
		return errs
	case typ.Is(tftypes.Map{}):
		cons, ok := expr.(*hclsyntax.ObjectConsExpr)
		if !ok {
			return []error{fmt.Errorf("%s must be a map", where)}
		}
		var errs []error
		for _, item := range cons.Items {
			errs = append(errs, checkTyped(fmt.Sprintf("%s[%q]", where, staticKey(item.KeyExpr)), typ.(tftypes.Map).ElementType, item.ValueExpr)...)
		}
		return errs
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		cons, ok := expr.(*hclsyntax.TupleConsExpr)
		if !ok {
			return []error{fmt.Errorf("%s must be a list", where)}
		}
		elem := tftypes.Type(tftypes.DynamicPseudoType)
		if l, ok := typ.(tftypes.List); ok {
			elem = l.ElementType
		} else if s, ok := typ.(tftypes.Set); ok {
			elem = s.ElementType
		}
		var errs []error
		for i, e := range cons.Exprs {
			errs = append(errs, checkTyped(fmt.Sprintf("%s[%d]", where, i), elem, e)...)
		}
		return errs
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil
	}
	for _, p := range []struct {
		tf tftypes.Type
		ct cty.Type
	}{{tftypes.String, cty.String}, {tftypes.Number, cty.Number}, {tftypes.Bool, cty.Bool}} {
		if typ.Is(p.tf) {
			if _, err := convert.Convert(v, p.ct); err != nil {
				return []error{fmt.Errorf("%s: %s", where, err)}
			}
		}
	}
	return nil
}

// checkPath checks an attribute path of a resource's spec or metadata: it must exist in one of
// the resources. An index step ([*], ["x"], [0]) selects an element of a list or map.
func (c *snippetChecker) checkPath(code string) []error {
	steps := regexp.MustCompile(`\.([a-z_]+)|\[[^\]]*\]`).FindAllStringSubmatch("."+code, -1)
	for _, s := range c.resp.ResourceSchemas {
		attrs := s.Block.Attributes
		var typ tftypes.Type
		ok := true
		for _, step := range steps {
			if step[1] == "" { // an element
				switch {
				case typ != nil && (typ.Is(tftypes.List{}) || typ.Is(tftypes.Map{}) || typ.Is(tftypes.Set{})):
					typ = elementType(typ)
				case typ == nil && attrs != nil:
				default:
					ok = false
				}
				continue
			}
			a := attributeNamed(attrs, step[1])
			if a == nil {
				if typ != nil && typ.Is(tftypes.Object{}) {
					if t, found := typ.(tftypes.Object).AttributeTypes[step[1]]; found {
						typ = t
						continue
					}
				}
				ok = false
				break
			}
			attrs, typ = nil, a.Type
			if a.NestedType != nil {
				attrs, typ = a.NestedType.Attributes, nil
			}
		}
		if ok {
			return nil
		}
	}
	return []error{fmt.Errorf("neither resource has the attribute %s", code)}
}

// checkExpression checks an expression that reads a data source (see checkReads).
func (c *snippetChecker) checkExpression(code string) []error {
	expr, diags := hclsyntax.ParseExpression([]byte(code), "snippet.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return []error{fmt.Errorf("not HCL a user could paste: %s", diags.Error())}
	}
	return c.checkReads(expr)
}

// checkReads checks every read of a data source's attributes in a body or an expression.
func (c *snippetChecker) checkReads(node hclsyntax.Node) []error {
	var errs []error
	_ = hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics { // the visitor reports nothing
		if t, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
			errs = append(errs, c.checkRead(t.Traversal)...)
		}
		return nil
	})
	return errs
}

// checkRead checks a traversal data.gardener_….NAME.…: each attribute must exist, maps must be
// indexed by a string and lists by a number.
func (c *snippetChecker) checkRead(tr hcl.Traversal) []error {
	if len(tr) < 4 || tr.RootName() != "data" {
		return nil
	}
	typeName, ok := tr[1].(hcl.TraverseAttr)
	if !ok {
		return nil
	}
	s := c.resp.DataSourceSchemas[typeName.Name]
	if s == nil {
		if strings.HasPrefix(typeName.Name, "gardener_") {
			return []error{fmt.Errorf("there is no data source %s", typeName.Name)}
		}
		return nil
	}
	attrs := s.Block.Attributes
	var typ tftypes.Type
	where := "data." + typeName.Name
	for _, step := range tr[3:] {
		switch st := step.(type) {
		case hcl.TraverseAttr:
			where += "." + st.Name
			if attrs != nil {
				a := attributeNamed(attrs, st.Name)
				if a == nil {
					return []error{fmt.Errorf("%s does not exist", where)}
				}
				attrs, typ = nil, a.Type
				if a.NestedType != nil {
					attrs, typ = a.NestedType.Attributes, nestedType(a.NestedType)
				}
				continue
			}
			if typ == nil || !typ.Is(tftypes.Object{}) {
				return nil
			}
			t, found := typ.(tftypes.Object).AttributeTypes[st.Name]
			if !found {
				return []error{fmt.Errorf("%s does not exist", where)}
			}
			typ = t
		case hcl.TraverseIndex:
			where += "[" + st.Key.GoString() + "]"
			switch {
			case typ == nil:
				return nil
			case typ.Is(tftypes.Map{}) && st.Key.Type() != cty.String:
				return []error{fmt.Errorf("%s: a map by key is indexed by a string, not by position", where)}
			case typ.Is(tftypes.List{}) && st.Key.Type() != cty.Number:
				return []error{fmt.Errorf("%s: a list is indexed by a number", where)}
			}
			typ = elementType(typ)
			if obj, isObj := typ.(tftypes.Object); isObj {
				typ = obj
			}
			attrs = nil
		default:
			return nil
		}
	}
	return nil
}

// nestedType is the Terraform type of a nested attribute's value.
func nestedType(o *tfprotov6.SchemaObject) tftypes.Type {
	attrTypes := map[string]tftypes.Type{}
	for _, a := range o.Attributes {
		attrTypes[a.Name] = a.Type
		if a.NestedType != nil {
			attrTypes[a.Name] = nestedType(a.NestedType)
		}
	}
	obj := tftypes.Object{AttributeTypes: attrTypes}
	switch o.Nesting {
	case tfprotov6.SchemaObjectNestingModeList:
		return tftypes.List{ElementType: obj}
	case tfprotov6.SchemaObjectNestingModeSet:
		return tftypes.Set{ElementType: obj}
	case tfprotov6.SchemaObjectNestingModeMap:
		return tftypes.Map{ElementType: obj}
	}
	return obj
}

// elementType is the element type of a list, set or map; nil for other types.
func elementType(t tftypes.Type) tftypes.Type {
	switch c := t.(type) {
	case tftypes.List:
		return c.ElementType
	case tftypes.Set:
		return c.ElementType
	case tftypes.Map:
		return c.ElementType
	}
	return nil
}

func attributeNamed(attrs []*tfprotov6.SchemaAttribute, name string) *tfprotov6.SchemaAttribute {
	for _, a := range attrs {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// staticKey is the key of an object constructor's item: an identifier or a literal string.
func staticKey(e hclsyntax.Expression) string {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		if name := hcl.ExprAsKeyword(k.Wrapped); name != "" {
			return name
		}
		e = k.Wrapped
	}
	if v, diags := e.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() {
		return v.AsString()
	}
	return ""
}

// dynamic tells whether Terraform only knows the value of an expression when it evaluates it.
func dynamic(e hclsyntax.Expression) bool {
	switch e.(type) {
	case *hclsyntax.ObjectConsExpr, *hclsyntax.TupleConsExpr, *hclsyntax.LiteralValueExpr, *hclsyntax.TemplateExpr:
		if t, ok := e.(*hclsyntax.TemplateExpr); ok && !t.IsStringLiteral() {
			return true
		}
		return false
	}
	return true
}

func isNull(e hclsyntax.Expression) bool {
	l, ok := e.(*hclsyntax.LiteralValueExpr)
	return ok && l.Val.IsNull()
}

// sortedAttributes are a body's attributes in the order of the source.
func sortedAttributes(body *hclsyntax.Body) []*hclsyntax.Attribute {
	attrs := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for _, a := range body.Attributes {
		attrs = append(attrs, a)
	}
	slices.SortFunc(attrs, func(a, b *hclsyntax.Attribute) int { return a.SrcRange.Start.Byte - b.SrcRange.Start.Byte })
	return attrs
}
