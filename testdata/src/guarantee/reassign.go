package guarantee

// ---- a variable made to name another object ----

func reassignBad(c, other *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c = other
	c.n++ // want `c.n written while c.mu is not known to be held`
}

func reassignGood(c, other *C) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c = other
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func rangeAssignBad(cs []*C, c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, c = range cs {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}
}

func rangeAssignGood(cs []*C, c *C) {
	for _, c = range cs {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
}
