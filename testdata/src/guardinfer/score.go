package guardinfer

import "sync"

// Evidence, not thresholds: a guard is inferred from the writes made with
// a lock held and the functions that hold it at an access (one point each,
// at most 3 of each; -config.infer.score 5), among accesses that hold it
// at least -config.infer.ratio (0.9) of the time.

// Counter holds n under c.mu in seven methods, writes it under c.mu in
// three, and Peek reads it bare: 9 of 10 sites, score 6: reported.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Add(d int) {
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
}

func (c *Counter) Reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

func (c *Counter) Between(lo, hi int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return lo <= c.n && c.n <= hi
}

func (c *Counter) Sign() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 0 {
		return 1
	}
	if c.n == 0 {
		return 0
	}
	return -1
}

func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *Counter) Odd() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n%2 != 0
}

func (c *Counter) Peek() int {
	return c.n // want `c.n is accessed with c.mu held at 9 of 10 sites`
}

// Small is a small type with strong evidence (written under s.mu in three
// methods) and one bare read: 3 of 4 sites is under the ratio, so it is
// silent. A known gap: the ratio keeps guards with fewer than ten accesses
// from being inferred unless a comment names the lock (prose guards need
// no ratio); lowering it found more on real code than it found right.
type Small struct {
	mu sync.Mutex
	n  int
}

func (s *Small) Inc() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *Small) Dec() {
	s.mu.Lock()
	s.n--
	s.mu.Unlock()
}

func (s *Small) Zero() {
	s.mu.Lock()
	s.n = 0
	s.mu.Unlock()
}

func (s *Small) Peek() int { return s.n } // want `s.n is read here with no lock held \(in exported Small.Peek\), and written at score.go:\d+ with s.mu held \(in exported Small.Inc\)`

// Label is as small, with weak evidence: one write under l.mu in one
// method (score 2). Set may lock for another reason; nothing says mu
// guards s: silent.
type Label struct {
	mu   sync.Mutex
	s    string
	hits int
}

func (l *Label) Set(s string) {
	l.mu.Lock()
	l.s = s
	l.hits++
	l.mu.Unlock()
}

func (l *Label) Get() string { return l.s } // want `l.s is read here with no lock held \(in exported Label.Get\)`

// Report is large and weak: cfg is read under b.mu at nine sites, all in
// one method, and written only bare (score 1). 9 of 10 sites hold the
// lock, which the old 90% threshold took for a guard: silent.
type Report struct {
	mu   sync.Mutex
	cfg  int
	rows []int
}

func (b *Report) Configure(v int) { b.cfg = v }

func (b *Report) Render() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := 0; i < b.cfg; i++ {
		b.rows = append(b.rows, b.cfg+b.cfg*b.cfg)
	}
	if b.cfg > 1 && b.cfg < 9 && b.cfg != 4 {
		b.rows = append(b.rows, b.cfg, b.cfg)
	}
}
