package guardinfer

import "sync"

// A miss of an inferred guard is reported where it runs concurrently with
// other code: in an exported method or function, in a goroutine, or in a
// helper one of those calls. sample runs in the goroutine Watch starts
// through goDo, a helper whose body starts its argument on a goroutine of
// its own (nats-server's s.startGoRoutine(func() {...})): reported. settle
// is reached only from a callback keep stores for later, which no thread
// of the package is seen to call (etcd's token provider methods, called
// through an interface on the apply goroutine): not reported.
type LevelGauge struct {
	mu    sync.Mutex
	level int
	peak  int
	later func()
}

func (g *LevelGauge) goDo(f func()) {
	go func() {
		f()
	}()
}

func (g *LevelGauge) keep(f func()) { g.later = f }

func (g *LevelGauge) Watch() { g.goDo(func() { g.sample() }) }

func (g *LevelGauge) Defer() { g.keep(func() { g.settle() }) }

func (g *LevelGauge) sample() int {
	return g.level // want `g.level is accessed with g.mu held at`
}

func (g *LevelGauge) settle() int {
	return g.peak
}

func (g *LevelGauge) Set(v int) {
	g.mu.Lock()
	g.level = v
	g.peak = max(g.peak, v)
	g.mu.Unlock()
}

func (g *LevelGauge) Add(v int) {
	g.mu.Lock()
	g.level += v
	g.peak = max(g.peak, g.level)
	g.mu.Unlock()
}

func (g *LevelGauge) Reset() {
	g.mu.Lock()
	g.level, g.peak = 0, 0
	g.mu.Unlock()
}

func (g *LevelGauge) Level() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.level
}

func (g *LevelGauge) Peak() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.peak
}

func (g *LevelGauge) Both() (int, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.level, g.peak
}

func (g *LevelGauge) Over(n int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.level > n || g.peak > n
}

func (g *LevelGauge) Drop() {
	g.mu.Lock()
	g.level--
	g.peak--
	g.mu.Unlock()
}

func (g *LevelGauge) Scale(k int) {
	g.mu.Lock()
	g.level *= k
	g.mu.Unlock()
}
