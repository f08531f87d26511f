package guardinfer

import "sync"

// A function handed a block by its callers: track reads blk.bytes, and
// every call the package makes of it either holds blk.mu or passes a
// block the caller has just made and not shared. Its bare read is meant
// under the lock (nats' updateTrackingState). trackCount is its twin:
// one caller holds nothing on a shared block, and it is reported.
type Blk struct {
	mu    sync.Mutex // guards bytes and count
	bytes int
	count int
}

func (b *Blk) Add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bytes += n
	b.count++
}

func (b *Blk) Sub(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bytes -= n
	b.count--
}

func (b *Blk) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bytes = 0
	b.count = 0
}

func (b *Blk) Bytes() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bytes + b.count
}

func (b *Blk) Total() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return track(b) + trackCount(b)
}

func track(b *Blk) int { return b.bytes }

func trackCount(b *Blk) int { return b.count } // want `b.count is documented as guarded by mu \("guards bytes and count" at paramcallers.go:\d+\), but b.mu is not held here`

func RecoverBlk(n int) int {
	b := &Blk{bytes: n}
	return track(b)
}

func PeekBlk(b *Blk) int { return trackCount(b) }
