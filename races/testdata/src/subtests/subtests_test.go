package subtests

import "testing"

func TestSequentialSubtests(t *testing.T) {
	c := &cache{}
	t.Run("fill", func(t *testing.T) {
		c.size = 10 // one subtest after the other: no race
	})
	t.Run("read", func(t *testing.T) {
		if c.size != 10 {
			t.Fatal("size")
		}
	})
}

func TestGoroutineInSubtest(t *testing.T) {
	c := &cache{}
	t.Run("count", func(t *testing.T) {
		go func() {
			c.hits++ // want `cache.hits written in TestGoroutineInSubtest func literal 1 func literal 1 .* races with its (read|write) in`
		}()
		if c.hits > 1 {
			t.Log("many")
		}
	})
}
