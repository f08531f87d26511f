package guardinfer

import "sync"

// ObjCatalog is built by openCatalog in its named result: scan runs on the
// object before it is returned, so scan is an init helper and its bare
// writes are silent (pebble's objstorageprovider.open and remoteInit).
// rescan is its twin: an exported method calls it too, on a catalog
// already in use, and its bare write is reported.
type ObjCatalog struct {
	mu    sync.Mutex // guards known and stale
	known map[int]bool
	stale map[int]bool
}

func openCatalog() (c *ObjCatalog, err error) {
	defer func() {
		if err != nil {
			c = nil
		}
	}()
	c = &ObjCatalog{known: map[int]bool{}, stale: map[int]bool{}}
	c.scan()
	c.rescan()
	return c, nil
}

func (c *ObjCatalog) scan() { c.known[0] = true }

func (c *ObjCatalog) rescan() { c.stale[0] = true } // want `c.stale is documented as guarded by mu \("guards known and stale" at namedresult.go:\d+\), but c.mu is not held here`

func (c *ObjCatalog) Refresh() { c.rescan() }

func (c *ObjCatalog) Add(k int) {
	c.mu.Lock()
	c.known[k] = true
	c.stale[k] = false
	c.mu.Unlock()
}
