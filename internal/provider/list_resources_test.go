package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

func TestPages_FollowsContinueUntilTheLimit(t *testing.T) {
	for _, tc := range []struct {
		name      string
		limit     int64
		pageSizes []int // objects the server has per page
		want      []kube.ListPage
	}{
		{"no limit, all pages", 0, []int{100, 100, 3}, []kube.ListPage{
			{Limit: 100}, {Limit: 100, Continue: "1"}, {Limit: 100, Continue: "2"},
		}},
		{"limit within the first page", 30, []int{30}, []kube.ListPage{{Limit: 30}}},
		{"limit across pages", 150, []int{100, 50}, []kube.ListPage{{Limit: 100}, {Limit: 50, Continue: "1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []kube.ListPage
			pages(context.Background(), tc.limit, func(p kube.ListPage) (int, string, bool) {
				got = append(got, p)
				i := len(got) - 1
				next := ""
				if i+1 < len(tc.pageSizes) {
					next = string(rune('1' + i))
				}
				return tc.pageSizes[i], next, true
			})
			if len(got) != len(tc.want) {
				t.Fatalf("requests %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("request %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestLabelSelector_InvalidIsReportedOnTheAttribute(t *testing.T) {
	if _, diags := labelSelector(types.StringValue("team in (a,b),tier!=test")); diags.HasError() {
		t.Fatalf("valid selector rejected: %v", diags)
	}
	_, diags := labelSelector(types.StringValue("team==="))
	if !diags.HasError() {
		t.Fatal("invalid selector accepted")
	}
	d := diags[0]
	if !strings.Contains(d.Detail(), `"team==="`) {
		t.Errorf("detail %q does not quote the selector", d.Detail())
	}
}
