package races

import "reflect"

// Sets (lock sets, object sets, field sets) are maps from a key to true,
// shared and never changed in place once made: two sets that are one map
// are equal without a look at their members.

// sameMap reports whether x and y are one map, not merely equal ones.
func sameMap[K comparable](x, y map[K]bool) bool {
	return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
}

// intersects reports whether x and y share a member, looking through the
// smaller.
func intersects[K comparable](x, y map[K]bool) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	for k := range x {
		if y[k] {
			return true
		}
	}
	return false
}
