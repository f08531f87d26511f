// Package escapestrict is run under -config.strict: the copy-on-write and
// empty values escape leaves alone by default (see escapecow) are reported.
package escapestrict

import (
	"slices"
	"sync"
)

type Dir struct {
	mu      sync.Mutex
	entries []string       //guard:by mu
	names   map[string]int //guard:by mu
}

func (d *Dir) Entries() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.entries // want `returns d.entries, the guarded slice itself`
}

func (d *Dir) Names() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.names // want `returns d.names, the guarded map itself`
}

func (d *Dir) Refresh(list []string) {
	fresh := slices.Clone(list)
	m := make(map[string]int, len(fresh))
	d.mu.Lock()
	d.entries = fresh
	d.names = m
	d.mu.Unlock()
}

// Empty returns the field only where it is nil.
func (d *Dir) Empty() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries == nil {
		return d.entries // want `returns d.entries, the guarded slice itself`
	}
	return nil
}

func (d *Dir) Cached(src []string) []string {
	d.mu.Lock()
	list := d.entries // want `list keeps a reference into guarded d.entries that is used at line 51 after d.mu is released`
	d.mu.Unlock()
	if list != nil {
		return list
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries != nil {
		return d.entries // want `returns d.entries, the guarded slice itself`
	}
	for _, s := range src {
		list = append(list, s)
	}
	d.entries = list
	return list
}
