package guarantee

// ---- new objects: free to touch until another goroutine can reach them ----

func newC() *C {
	c := &C{}
	c.n = 1
	return c
}

func publishedBad(ch chan *C) {
	c := &C{}
	c.n = 1
	ch <- c
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}

func capturedBad() {
	c := &C{}
	go func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}()
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}

func (c *C) start() {
	go func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}()
}

func startedBad() {
	c := &C{}
	c.start()
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}

func addressSentBad(ch chan *C) {
	var x C
	ch <- &x
	x.n = 2 // not reported: handing on &x does not publish x
}

func addressStartedBad() {
	var x C
	x.start()
	x.n = 2 // not reported: the implicit &x of a method call does not publish x
}

func fieldAddressSentBad(ch chan *int) {
	c := &C{}
	ch <- &c.n
	c.n = 2 // not reported: handing on &c.n does not publish c
}
