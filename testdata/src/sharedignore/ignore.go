// Package sharedignore: a shared finding the code says is intended,
// silenced with //guard:ignore, which unusedignore then sees as used (with
// the rule on) or as possibly used (with it off). A package of its own:
// the directive makes every rule apply here.
package sharedignore

func use(int) {}

func ignored() {
	x := 0
	go func() {
		x = 1 //guard:ignore the test provokes this race on purpose
	}()
	use(x)
}

func stale() {
	x := 0
	use(x) //guard:ignore nothing to suppress here // want `//guard:ignore suppresses nothing here`
}
