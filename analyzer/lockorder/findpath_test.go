package lockorder

import (
	"slices"
	"testing"
)

// TestFindPathIgnoresEdgeOrder: the graph's edge lists are filled from
// the package facts of the dependencies, which come in map order, so the
// path findPath picks, whose sites and names the cycle's message prints,
// must not depend on the order of a list. Two edges here differ only in
// how they show the locks (two packages name the same classes), the
// other in the site.
func TestFindPathIgnoresEdgeOrder(t *testing.T) {
	edges := []Edge{
		{From: "a.A.mu", To: "b.B.mu", FromShow: "A.mu", ToShow: "B.mu", Site: "x.go:3"},
		{From: "a.A.mu", To: "b.B.mu", FromShow: "a.A.mu", ToShow: "b.B.mu", Site: "x.go:3"},
		{From: "a.A.mu", To: "b.B.mu", FromShow: "A.mu", ToShow: "B.mu", Site: "y.go:9"},
	}
	var want []Edge
	for i, perm := range [][]int{{0, 1, 2}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}} {
		var list []Edge
		for _, j := range perm {
			list = append(list, edges[j])
		}
		got := findPath(map[string][]Edge{"a.A.mu": list}, "a.A.mu", "b.B.mu")
		if i == 0 {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("edges in order %v: path %v, in order %v: %v", perm, got, []int{0, 1, 2}, want)
		}
	}
}
