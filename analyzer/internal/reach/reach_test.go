package reach

import (
	"slices"
	"testing"
)

// TestSpread: from a start the caller marked, every node reachable is
// marked once, depth first (the last one pushed is visited first), and a
// cycle back to the start stops there.
func TestSpread(t *testing.T) {
	edges := map[string][]string{"a": {"b", "c"}, "b": {"d"}, "c": {"d", "a"}, "d": {"b"}}
	seen := map[string]bool{"a": true}
	var order []string
	Spread([]string{"a"}, func(n string) []string { return edges[n] }, func(n string) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		order = append(order, n)
		return true
	})
	if want := []string{"b", "c", "d"}; !slices.Equal(order, want) {
		t.Errorf("marked %v, want %v", order, want)
	}
	visited := 0
	Spread([]int{1}, func(n int) []int { visited++; return nil }, func(int) bool { return true })
	if visited != 1 {
		t.Errorf("a start with no edges: next called %d times, want 1", visited)
	}
}
