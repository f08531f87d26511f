package guarantee

// ---- copies ----

// Locking a copy of a lock protects nothing.
func copyOfLockBad(c *C) {
	mu := c.mu
	mu.Lock()
	c.n++ // want `c.n written while c.mu is not known to be held`
	mu.Unlock()
}

func copyOfStructBad(c *C) {
	d := *c
	d.mu.Lock()
	c.n++ // want `c.n written while c.mu is not known to be held`
	d.mu.Unlock()
}

func copyOfPointerGood(c *C) {
	d := c // the same object
	d.mu.Lock()
	c.n++
	d.mu.Unlock()
}

func copyOfLockPointerGood(c *C) {
	mu := &c.mu
	mu.Lock()
	c.n++
	mu.Unlock()
}

// Copying an element reads its guarded fields without the lock; what is
// reported is the use of the copy's field, checked against the copy's lock.
func rangeCopyBad(cs []C) (t int) {
	for _, v := range cs {
		t += v.n // want `v.n read while v.mu is not known to be held`
	}
	return t
}
