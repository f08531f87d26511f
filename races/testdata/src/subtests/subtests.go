// Package subtests: tests whose work is in subtests (t.Run). A subtest
// runs before Run returns, so what one subtest writes and a later one
// reads is ordered; a goroutine a subtest starts and does not wait for
// races with what the subtest reads after starting it.
package subtests

type cache struct{ hits, size int }
