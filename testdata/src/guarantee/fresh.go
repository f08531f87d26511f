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
	x.n = 2 // want `x.n written while x.mu is not known to be held`
}

func addressStartedBad() {
	var x C
	x.start()
	x.n = 2 // want `x.n written while x.mu is not known to be held`
}

func fieldAddressSentBad(ch chan *int) {
	c := &C{}
	ch <- &c.n
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}

func addressKeptBad() {
	var x C
	p := &x
	go func() {
		p.mu.Lock()
		p.n++
		p.mu.Unlock()
	}()
	x.n = 2 // want `x.n written while x.mu is not known to be held`
}

func setUp(c *C) {
	c.mu.Lock()
	c.n = 1
	c.mu.Unlock()
}

func addressToHelperGood() *C {
	var x C
	setUp(&x) // setUp does not keep its argument
	x.n = 2
	return &x
}

func addressKeptGood() *C {
	var x C
	p := &x
	p.n = 1 // x is not published yet, nor is p
	x.n = 2
	return p
}

type job struct{ c *C }

func newJob(c *C) *job { return &job{c: c} }

var jobs []*job

func register(c *C) *job {
	j := &job{c: c}
	jobs = append(jobs, j)
	return j
}

type owner struct {
	c   C
	job *job
}

// The address of o.c goes into a new job that o itself keeps: o is still
// unpublished.
func newOwnerGood() *owner {
	o := &owner{}
	o.job = newJob(&o.c)
	o.c.n = 1
	return o
}

func newOwnerBad() *owner {
	o := &owner{}
	o.job = register(&o.c)
	o.c.n = 1 // want `o.c.n written while o.c.mu is not known to be held`
	return o
}
