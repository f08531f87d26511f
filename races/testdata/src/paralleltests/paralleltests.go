// Package paralleltests: tests that call t.Parallel run at the same time
// as each other from that call on; what a test does before it, and what
// tests that do not call it do, runs alone.
package paralleltests

type stats struct{ hits, setup, serial int }

var shared stats

func record() {
	shared.hits++ // want `stats.hits written in record \(TestFirst: TestFirst → record\) races with its write in TestSecond \(TestSecond: TestSecond\)`
}
