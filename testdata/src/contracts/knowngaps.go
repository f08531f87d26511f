package contracts

// Known gaps: code guardvet should report and does not yet. Each case
// carries the diagnostic it should get in a "// gap:" comment, in the
// syntax of a want. The every-rule test (analyzer/suite) fails with
// "known gap now reported" when one starts being reported, so that the
// gap becomes a want; until then the case is compiled and checked silent.

// Released on one path only; the paths join before the end of the body.
// Not reported: correlated branches (if b { unlock } ... if b { relock })
// would make "held on some paths only at a return" noisy (docs/silence.md, Known
// limitations).
//
//guard:releases t.mu
func (t *T) releaseSometimes(b bool) {
	if b {
		t.mu.Unlock()
	}
} // gap: `releaseSometimes returns with t.mu held on some paths only, breaking its //guard:releases t.mu contract`
