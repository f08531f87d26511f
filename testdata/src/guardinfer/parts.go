package guardinfer

import "sync"

type blockStats struct{ tombstones int }

type blockMeta struct {
	id    string
	stats blockStats
}

// Block.ID reads one part of meta and Delete writes another, under the
// lock: different memory, no race (prometheus' Block.String reading
// meta.ULID while Delete changes meta.Stats). Copy reads all of its own
// meta, which Delete's write changes a part of: reported.
type Block struct {
	mtx  sync.Mutex
	meta blockMeta
	copy blockMeta
}

func (b *Block) Delete() {
	b.mtx.Lock()
	b.meta.stats.tombstones++
	b.copy.stats.tombstones++
	b.mtx.Unlock()
}

func (b *Block) ID() string { return b.meta.id }

func (b *Block) Copy() blockMeta { return b.copy } // want `b.copy is read here with no lock held \(in exported Block.Copy\), and written at parts.go:\d+ with b.mtx held \(in exported Block.Delete\)`
