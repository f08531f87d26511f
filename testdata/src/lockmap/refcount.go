package lockmap

import "sync"

// Counted hands out one lock per id to every goroutine working on it, and
// counts them: //guard:refcount says an entry goes only when its count is
// zero, so that nobody still holding or waiting for the old lock runs
// alongside a goroutine that got a fresh one.
type Counted struct {
	mu sync.Mutex
	//guard:by mu
	//guard:refcount refs
	locks map[string]*sync.Mutex
	//guard:by mu
	refs map[string]int
	//guard:by mu
	//guard:refcount users
	byNum map[int]*sync.Mutex
	//guard:by mu
	users map[int]uint32
}

func (c *Counted) ref(id string) *sync.Mutex {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.locks[id]
	if !ok {
		l = new(sync.Mutex)
		c.locks[id] = l
	}
	c.refs[id]++
	return l
}

// ---- reported ----

// UnrefAlways drops the entry whoever else still uses it.
func (c *Counted) UnrefAlways(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	delete(c.locks, id) // want `delete\(c.locks, id\) is not made under a check that c.refs\[id\] is zero: //guard:refcount refs on locks says an entry is removed only when nothing uses it; delete it inside if c.refs\[id\] == 0, after the count is decremented`
}

// UnrefWrongTest tests a condition that holds for live entries too.
func (c *Counted) UnrefWrongTest(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if c.refs[id] >= 0 {
		delete(c.refs, id)
		delete(c.locks, id) // want `delete\(c.locks, id\) is not made under a check that c.refs\[id\] is zero`
	}
}

// UnrefOtherKey tests one id's count and drops another's entry.
func (c *Counted) UnrefOtherKey(id, other string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if c.refs[id] == 0 {
		delete(c.locks, other) // want `delete\(c.locks, other\) is not made under a check that c.refs\[other\] is zero`
	}
}

// UnrefOtherTable tests this table's count and drops another table's entry.
func (c *Counted) UnrefOtherTable(d *Counted, id string) {
	c.mu.Lock()
	d.mu.Lock()
	defer c.mu.Unlock()
	defer d.mu.Unlock()
	if c.refs[id] == 0 {
		delete(d.locks, id) // want `delete\(d.locks, id\) is not made under a check that d.refs\[id\] is zero`
	}
}

// UnrefElse deletes in the branch where the count is not zero.
func (c *Counted) UnrefElse(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if c.refs[id] == 0 {
		delete(c.refs, id)
	} else {
		delete(c.locks, id) // want `delete\(c.locks, id\) is not made under a check that c.refs\[id\] is zero`
	}
}

// UnrefOr deletes when either condition holds: the count may be live.
func (c *Counted) UnrefOr(id string, force bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if force || c.refs[id] == 0 {
		delete(c.locks, id) // want `delete\(c.locks, id\) is not made under a check that c.refs\[id\] is zero`
	}
}

// ---- silent ----

// Unref is the correct shape.
func (c *Counted) Unref(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if c.refs[id] == 0 {
		delete(c.refs, id)
		delete(c.locks, id)
	}
}

// UnrefGuardClause returns while the entry is still in use.
func (c *Counted) UnrefGuardClause(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if c.refs[id] > 0 {
		return
	}
	delete(c.refs, id)
	delete(c.locks, id)
}

// UnrefLocal decrements through a local and tests it.
func (c *Counted) UnrefLocal(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.refs[id] - 1
	c.refs[id] = n
	if 0 == n && id != "" {
		delete(c.refs, id)
		delete(c.locks, id)
	}
}

// UnrefNum uses an unsigned count and a constant-free key type.
func (c *Counted) UnrefNum(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.users[k]--
	if c.users[k] < 1 {
		delete(c.users, k)
		delete(c.byNum, k)
	} else if c.users[k] != 0 {
		return
	}
}

// UnrefElseNonzero deletes in the else branch of the not-zero test.
func (c *Counted) UnrefElseNonzero(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs[id]--
	if c.refs[id] != 0 {
		c.refs[id] += 0
	} else {
		delete(c.refs, id)
		delete(c.locks, id)
	}
}

// Use takes and releases an id's lock with the count around it.
func (c *Counted) Use(id string, work func()) {
	l := c.ref(id)
	l.Lock()
	work()
	l.Unlock()
	c.Unref(id)
}
