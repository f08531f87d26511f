package guardinfer

import "sync"

// One access, one finding: reading d.mu.mem.mutable with no lock misses
// the guard of the field mutable and, since mem is a struct value holding
// it, of mem too. Only the field read, mutable, is reported.
type MemDB struct {
	mu struct {
		sync.Mutex
		mem struct {
			mutable []int
			queue   []int
		}
	}
}

func (d *MemDB) Op1() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op2() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op3() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op4() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op5() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op6() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op7() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op8() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op9() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op10() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Op11() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.mu.mem.mutable = append(d.mu.mem.mutable, len(d.mu.mem.queue))
	d.mu.mem.queue = d.mu.mem.queue[:0]
	return len(d.mu.mem.mutable)
}

func (d *MemDB) Peek() int {
	return len(d.mu.mem.mutable) // want `d.mu.mem.mutable is accessed with d.mu.Mutex held at \d+ of \d+ sites`
}
