package paralleltests

import "testing"

func TestFirst(t *testing.T) {
	shared.setup = 1 // before t.Parallel: every other parallel test is waiting
	t.Parallel()
	record()
}

func TestSecond(t *testing.T) {
	t.Parallel()
	if shared.setup != 1 {
		t.Log("no setup")
	}
	shared.hits++ // races with record's write, reported there (one report a pair)
	if shared.serial != 0 {
		t.Log("serial ran")
	}
}

func TestSerial(t *testing.T) {
	shared.serial = 1 // not parallel: runs before the parallel tests go on
}
