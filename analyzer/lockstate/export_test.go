package lockstate

// SetVisitBudget sets the per-block visit budget for a test and returns
// a function that restores it.
func SetVisitBudget(n int) (restore func()) {
	old := visitBudget
	visitBudget = n
	return func() { visitBudget = old }
}
