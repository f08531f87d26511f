package guarantee

// ---- defer ----

func deferUnlockGood(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func deferInBranchBad(c *C, b bool) {
	if b {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.n++ // want `c.n written while c.mu is held on some paths only`
}

// ---- go in loops ----

func goInLoopBad(cs []*C) {
	for _, c := range cs {
		c.mu.Lock()
		go func() {
			c.n++ // want `c.n written while c.mu is not known to be held`
		}()
		c.mu.Unlock()
	}
}

func goInLoopGood(cs []*C) {
	for _, c := range cs {
		go func() {
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
		}()
	}
}

func goContractInLoopBad(cs []*C) {
	for _, c := range cs {
		c.mu.Lock()
		go c.incLocked() // want `go c.incLocked runs in a new goroutine`
		c.mu.Unlock()
	}
}

func lockInLoopBad(c *C, xs []int) {
	for range xs {
		c.n++ // want `c.n written while c.mu is held on some paths only`
		c.mu.Lock()
	}
	c.mu.Unlock()
}

func lockInLoopGood(c *C, xs []int) {
	for _, x := range xs {
		c.mu.Lock()
		c.n += x
		c.mu.Unlock()
	}
}

// ---- select ----

func selectBad(c *C, in chan int, out chan int) {
	select {
	case c.n = <-in: // want `c.n written while c.mu is not known to be held`
	case out <- c.n: // want `c.n read while c.mu is not known to be held`
	default:
		c.n = 0 // want `c.n written while c.mu is not known to be held`
	}
}

func selectBodyBad(c *C, in chan int) {
	c.mu.Lock()
	select {
	case v := <-in:
		c.mu.Unlock()
		c.n = v // want `c.n written while c.mu is not held`
	default:
		c.n = 0
		c.mu.Unlock()
	}
}

func selectGood(c *C, in chan int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case c.n = <-in:
	case v := <-in:
		c.n = v
	default:
		c.n = 0
	}
}

// ---- labelled continue and break ----

// The unlocked path continues the inner loop, where continue outer was
// meant.
func continueLabelBad(c *C, xss [][]int) {
	for _, xs := range xss {
		c.mu.Lock()
		for _, x := range xs {
			if x < 0 {
				c.mu.Unlock()
				continue
			}
			c.n += x // want `c.n written while c.mu is held on some paths only`
		}
		c.mu.Unlock()
	}
}

func continueLabelGood(c *C, xss [][]int) {
outer:
	for _, xs := range xss {
		c.mu.Lock()
		for _, x := range xs {
			if x < 0 {
				c.mu.Unlock()
				continue outer
			}
			c.n += x
		}
		c.mu.Unlock()
	}
}

func breakLabelBad(c *C, xs []int) {
	c.mu.Lock()
loop:
	for _, x := range xs {
		switch {
		case x == 0:
			c.mu.Unlock()
			break loop
		case x < 0:
			break loop
		}
	}
	c.n++ // want `c.n written while c.mu is held on some paths only`
}

func breakLabelGood(c *C, xs []int) {
	c.mu.Lock()
loop:
	for _, x := range xs {
		switch {
		case x == 0:
			break loop
		}
	}
	c.n++
	c.mu.Unlock()
}

// ---- goto ----

func gotoBad(c *C, b bool) {
	c.mu.Lock()
	if b {
		goto done
	}
	c.mu.Unlock()
done:
	c.n++ // want `c.n written while c.mu is held on some paths only`
}

func gotoGood(c *C, b bool) {
	c.mu.Lock()
	if b {
		goto done
	}
	c.n--
done:
	c.n++
	c.mu.Unlock()
}

// ---- panic and recover ----

func recoverBad(c *C, f func()) {
	defer func() {
		if recover() != nil {
			c.n = 0 // want `c.n written while c.mu is not held`
		}
	}()
	c.mu.Lock()
	f()
	c.mu.Unlock()
}

func recoverGood(c *C, f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() {
		if recover() != nil {
			c.n = 0
		}
	}()
	f()
}

// A panic ends its path: only the locked path reaches the access.
func panicGood(c *C, b bool) {
	if b {
		c.mu.Lock()
	} else {
		panic("no lock")
	}
	c.n++
	c.mu.Unlock()
}

// ---- switch, type switch, if and for headers ----

func headersBad(c *C, x any) {
	switch c.n { // want `c.n read while c.mu is not known to be held`
	case 1:
	}
	switch x.(type) {
	case int:
		c.n = 1 // want `c.n written while c.mu is not known to be held`
	}
	if v := c.n; v > 0 { // want `c.n read while c.mu is not known to be held`
		return
	}
	for c.n = 0; c.n < 3; c.n++ { // want `c.n written while c.mu is not known to be held` `c.n read while c.mu is not known to be held` `c.n written while c.mu is not known to be held`
	}
}
