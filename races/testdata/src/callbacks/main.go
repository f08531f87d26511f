// Package main: a function handed to a dependency runs when the
// dependency calls it, in the caller's goroutine: sync.Map's Range calls
// it for each entry (GoKer's Istio 8144: an eviction callback run by a
// cache's own goroutine writes what the test reads).
package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

type recorder struct{ calls int }

func (r *recorder) callback() {
	r.calls++ // want `recorder.calls written in recorder.callback \(goroutine started in newCache: cache.evict → cache.evict func literal 1 → recorder.callback\) races with its read in main`
}

type cache struct {
	entries  sync.Map
	callback func()
}

func (c *cache) evict() {
	c.entries.Range(func(k, v any) bool {
		c.callback()
		return true
	})
}

func newCache(cb func()) *cache {
	c := &cache{callback: cb}
	go c.evict()
	return c
}

type byName struct{ names []string }

// context.AfterFunc runs its function in a goroutine of its own once the
// context is done.
type conn struct{ closed bool }

func (c *conn) watch(ctx context.Context) {
	context.AfterFunc(ctx, func() {
		c.closed = true // want `conn.closed written in conn.watch func literal 1 \(context.AfterFunc callback in conn.watch: conn.watch func literal 1\) races with its read in main`
	})
}

func main() {
	r := &recorder{}
	c := newCache(r.callback)
	c.entries.Store(1, 1)
	fmt.Println(r.calls)

	// sort.Slice runs less in this goroutine: silent.
	b := &byName{names: []string{"b", "a"}}
	sort.Slice(b.names, func(i, j int) bool { return b.names[i] < b.names[j] })
	fmt.Println(b.names)

	ctx, cancel := context.WithCancel(context.Background())
	cn := &conn{}
	cn.watch(ctx)
	cancel()
	fmt.Println(cn.closed)
}
