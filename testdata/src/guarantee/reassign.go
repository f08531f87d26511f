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

type holder struct{ p *C }

// d := h.p does not make d another name for h.p when h.p changes.
func storedPathBad(h *holder, other *C) {
	d := h.p
	h.p = other
	h.p.mu.Lock()
	d.n++ // want `d.n written while d.mu is not known to be held`
	h.p.mu.Unlock()
}

func storedPathGood(h *holder) {
	d := h.p
	d.mu.Lock()
	h.p.n++
	d.mu.Unlock()
}
