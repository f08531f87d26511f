// Package main: a recovery that starts a worker per store, hands them a
// WaitGroup in a context struct, and waits for them all before it starts
// the loops that use what they built. What the workers did happens
// before their Done, the Wait before the loops' go statement; a monitor
// started before the recovery is not ordered so.
package main

import (
	"os"
	"sync"
	"time"
)

type store struct {
	mu   sync.Mutex
	name string
	last uint64
}

func (s *store) append() {
	s.mu.Lock()
	s.last++
	s.mu.Unlock()
}

type registry struct {
	mu sync.Mutex
	m  map[string]*store
}

type recoveryCtx struct {
	wg  *sync.WaitGroup
	reg *registry
}

func recoverOne(name string, ctx *recoveryCtx) {
	defer ctx.wg.Done()
	s := &store{name: name}
	ctx.reg.mu.Lock()
	ctx.reg.m[name] = s
	ctx.reg.mu.Unlock()
	s.last = uint64(len(name)) // want `store.last written in recoverOne \(goroutine started in recoverAll: recoverOne\) races with its read in monitor`
}

func recoverAll(reg *registry, names []string) {
	wg := &sync.WaitGroup{}
	ctx := &recoveryCtx{wg: wg, reg: reg}
	for _, n := range names {
		wg.Add(1)
		go recoverOne(n, ctx)
	}
	wg.Wait()
}

func ioLoop(reg *registry) {
	for {
		reg.mu.Lock()
		for _, s := range reg.m {
			s.append()
		}
		reg.mu.Unlock()
	}
}

func monitor(reg *registry) {
	for {
		reg.mu.Lock()
		for _, s := range reg.m {
			println(s.name, s.last)
		}
		reg.mu.Unlock()
		time.Sleep(time.Second)
	}
}

func main() {
	reg := &registry{m: map[string]*store{}}
	go monitor(reg)
	recoverAll(reg, os.Args[1:])
	go ioLoop(reg)
	select {}
}
