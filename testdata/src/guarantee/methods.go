package guarantee

// ---- method values and method expressions ----

// Whatever calls a method, through a method value, a method expression or
// an interface, its body is checked on its own: with no locks held, unless
// its contract says otherwise.
func (c *C) get() int {
	return c.n // want `c.n read while c.mu is not known to be held`
}

func (c *C) getGood() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func methodValue(c *C) int {
	f := c.get
	g := (*C).getGood
	return f() + g(c)
}

func methodExprHoldsBad(c *C) {
	(*C).incLocked(c) // want `call to \(\*C\).incLocked needs c.mu locked`
}

func methodExprHoldsGood(c *C) {
	c.mu.Lock()
	(*C).incLocked(c)
	c.mu.Unlock()
}

func goMethodExprBad(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	go (*C).incLocked(c) // want `go \(\*C\).incLocked runs in a new goroutine, which holds no locks, but it needs c.mu held`
}

func goMethodBad(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	go c.incLocked() // want `go c.incLocked runs in a new goroutine`
}

func deferMethodBad(c *C) {
	c.mu.Lock()
	c.mu.Unlock()
	defer c.incLocked() // want `call to c.incLocked needs c.mu locked`
}

func deferMethodGood(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.incLocked() // runs before the Unlock deferred above
}

// ---- interfaces ----

type counter interface{ count() int }

func (c *C) count() int {
	return c.n // want `c.n read while c.mu is not known to be held`
}

func (r *RW) count() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.m)
}

func viaInterface(cs []counter) (t int) {
	for _, x := range cs {
		t += x.count()
	}
	return t
}

// ---- value receivers: the method works on a copy ----

func (c C) valueGet() int {
	return c.n // want `c.n read while c.mu is not known to be held`
}
