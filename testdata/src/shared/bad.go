// Package shared holds the shapes of the shared rule: variables shared
// with goroutines, accessed with nothing ordering the accesses. bad.go has
// the races, good.go their correct twins.
package shared

import (
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"shared/tally"
)

func fetch(int) (int, error) { return 0, nil }

// errCaptured: the idiomatic err, assigned by every worker.
func errCaptured(n int) error {
	var wg sync.WaitGroup
	var err error
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err = fetch(i) // want `err is written in the goroutine started at bad.go:24 and written in another instance of it at bad.go:26, with no lock, atomic or join ordering the two; declare err inside the goroutine, or collect results by index or over a channel`
		}()
	}
	wg.Wait()
	return err
}

// errTwoGoroutines: two different goroutines assign one err.
func errTwoGoroutines() error {
	var err error
	g := &errgroup.Group{}
	g.Go(func() error {
		_, err = fetch(1) // want `err is written in the goroutine started at bad.go:37 and written in the goroutine started at bad.go:41 at bad.go:42`
		return nil
	})
	g.Go(func() error {
		_, err = fetch(2)
		return nil
	})
	g.Wait()
	return err
}

// namedResult: the goroutine sets the result after the function may have
// returned.
func namedResult() (err error) {
	go func() {
		err = work() // want `err is written in the goroutine started at bad.go:52 and returned by the return at bad.go:55, which the goroutine can outlive, with no lock, atomic or join ordering the two; join the goroutine before returning, or have it set a variable of its own`
	}()
	return
}

func work() error { return nil }

// parentWritesAfterGo: the parent changes a variable the goroutine reads,
// before joining it.
func parentWritesAfterGo() {
	var wg sync.WaitGroup
	limit := 10
	wg.Add(1)
	go func() {
		defer wg.Done()
		use(limit) // want `limit is read in the goroutine started at bad.go:66 and written by the function that started it, at bad.go:70, before joining it, with no lock, atomic or join ordering the two; move that access after the join, give the goroutine its own copy, or lock both`
	}()
	limit = 20
	wg.Wait()
}

func use(int) {}

// mapWorkers: workers fill a map without a lock.
func mapWorkers(keys []string) map[string]int {
	m := map[string]int{}
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m[k] = len(k) // want `m is written into in the goroutine started at bad.go:82 and written into in another instance of it at bad.go:84, .*; lock the map on both sides, or send the results over a channel`
		}()
	}
	wg.Wait()
	return m
}

// counter: loop goroutines bump a captured counter.
func counter(n int) int {
	total := 0
	done := make(chan bool)
	for i := 0; i < n; i++ {
		go func() {
			total++ // want `total is written in the goroutine started at bad.go:96 and written in another instance of it at bad.go:97`
			done <- true
		}()
	}
	for i := 0; i < n; i++ {
		<-done
	}
	return total
}

// config is a package-level setting.
var config = "a"

// packageVar: a goroutine reads a package-level variable the parent sets.
func packageVar() {
	go reader()  // want `config is read by reader in the goroutine started at bad.go:112 and written by the function that started it, at bad.go:113`
	config = "b" // the goroutine's read, in reader, is reported at the go statement
}

func reader() {
	println(config)
}

// afterFunc: a timer callback writes what the caller reads.
func afterFunc() int {
	fired := 0
	time.AfterFunc(time.Second, func() {
		fired = 1 // want `fired is written in the goroutine started at bad.go:123 and read by the function that started it, at bad.go:126, before joining it`
	})
	return fired
}

// mapReadWhileWritten: the parent reads a map a worker fills.
func mapReadWhileWritten() int {
	m := map[int]int{}
	done := make(chan struct{})
	go func() {
		m[1] = 1 // want `m is written into in the goroutine started at bad.go:133 and read from by the function that started it, at bad.go:137, before joining it, with no lock, atomic or join ordering the two; lock the map on both sides, or send the results over a channel to one goroutine that fills it`
		close(done)
	}()
	n := len(m)
	<-done
	return n
}

// sliceHeader: a worker appends to a slice the parent also appends to.
func sliceHeader() []int {
	var out []int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		out = append(out, 1) // want `out is written in the goroutine started at bad.go:147 and written by the function that started it, at bad.go:151, before joining it`
	}()
	out = append(out, 2)
	wg.Wait()
	return out
}

// subtest: the race inside a closure handed to a function (t.Run).
func subtest(run func(func())) {
	run(func() {
		var err error
		done := make(chan bool)
		go func() {
			err = work() // want `err is written in the goroutine started at bad.go:161 and read by the function that started it, at bad.go:165`
			done <- true
		}()
		if err != nil {
			return
		}
		<-done
	})
}

// selectTimeout: on the timeout path the goroutine is not joined.
func selectTimeout(stop chan struct{}) int {
	v := 0
	done := make(chan struct{})
	go func() {
		v = 1 // want `v is written in the goroutine started at bad.go:176 and read by the function that started it, at bad.go:184, before joining it`
		close(done)
	}()
	select {
	case <-done:
		return v
	case <-stop:
		return v
	}
}

// counter is bumped through a method.
type tallyT struct{ n, hits int }

func (c *tallyT) inc() { c.n++ }

func (c *tallyT) bump() { c.inc() }

// counterMethod: a counter bumped through a method by parallel workers.
func counterMethod(n int) int {
	c := &tallyT{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			c.inc() // want `c.n is written by tallyT.inc in the goroutine started at bad.go:201 and written by tallyT.inc in another instance of it at bad.go:202, with no lock, atomic or join ordering the two; guard it with a mutex both sides hold, or use sync/atomic`
			wg.Done()
		}()
	}
	wg.Wait()
	return c.n
}

// counterValue: the same on a struct value (c.bump() takes &c), two
// calls deep.
func counterValue(n int) int {
	var c tallyT
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.bump() // want `c.n is written by tallyT.bump in the goroutine started at bad.go:217 and written by tallyT.bump in another instance of it at bad.go:219`
		}()
	}
	wg.Wait()
	return c.n
}

// counterOtherPackage: the method is in another package.
func counterOtherPackage(n int) int {
	var c tally.Counter
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add() // want `c.n is written by tally.Counter.Add in the goroutine started at bad.go:232 and written by tally.Counter.Add in another instance of it at bad.go:234`
		}()
	}
	wg.Wait()
	return c.Get()
}

// progress: a struct reached through a pointer.
type progress struct {
	done  int
	total int
	res   []int
	names map[int]string
}

// pointerField: the goroutine writes a field through a captured pointer
// while the parent reads it.
func pointerField(p *progress) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.done = 1 // want `p.done is written in the goroutine started at bad.go:254 and read by the function that started it, at bad.go:258, before joining it`
	}()
	use(p.done)
	wg.Wait()
}

// pointerMapField: workers fill a map reached through a pointer.
func pointerMapField(p *progress, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.names[i] = "x" // want `p.names is written into in the goroutine started at bad.go:267 and written into in another instance of it at bad.go:269, with no lock, atomic or join ordering the two; lock the map on both sides`
		}()
	}
	wg.Wait()
}

// throughParam: a function writes through the pointer it is handed.
func throughParam() int {
	x := 0
	done := make(chan bool)
	go func() {
		tally.Store(&x, 1) // want `x is written by tally.Store in the goroutine started at bad.go:279 and read by the function that started it, at bad.go:283`
		done <- true
	}()
	v := x
	<-done
	return v
}

// settingThroughCall: a goroutine changes a package-level setting
// through a function of another package while the parent reads it.
func settingThroughCall() int {
	done := make(chan bool)
	go func() {
		tally.SetLevel(2) // want `Level is written by tally.SetLevel in the goroutine started at bad.go:292 and read by the function that started it, at bad.go:296`
		done <- true
	}()
	v := tally.Level
	<-done
	return v
}

// restartNoWait: a new run at every event, with nothing waiting for the
// previous one (ordered.go's restartAfterStop receives its signal first).
func restartNoWait(l *loop, events chan int) {
	for range events {
		go l.run() // want `l.work is written into by loop.run in the goroutine started at bad.go:305 and written into by loop.run in another instance of it at bad.go:305`
	}
}

// signalOnOnePath: the goroutine sends only when ok, and the parent
// sends too when stopped: the receive may take the parent's value, and
// then orders nothing.
func signalOnOnePath(ok bool, stop chan bool) int {
	v := 0
	done := make(chan bool, 2)
	go func() {
		v = 1 // want `v is written in the goroutine started at bad.go:315 and read by the function that started it, at bad.go:325, before joining it`
		if ok {
			done <- true
		}
	}()
	if <-stop {
		done <- false
	}
	<-done
	return v
}

// mixedAtomic: workers add with sync/atomic while the parent reads the
// counter plainly before the join.
func mixedAtomic(n int) int64 {
	var total int64
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&total, 1) // want `total is written atomically in the goroutine started at bad.go:335 and read by the function that started it, at bad.go:340, before joining it, with no lock or join ordering the two; mixing sync/atomic and plain accesses of one variable is a race: make every access atomic`
		}()
	}
	if total > 10 {
		println("many")
	}
	wg.Wait()
	return total
}

// listenerChanRenewed is the twin of good.go's listenerChan: its return
// stores a new channel in got while the goroutine may still read it.
func listenerChanRenewed() (addr string, got chan int) {
	got = make(chan int, 1)
	go func() {
		got <- 1 // want `got is read in the goroutine started at bad.go:\d+ and set by the return at bad.go:\d+, which the goroutine can outlive`
	}()
	return "addr", make(chan int)
}

// matchUntilTicked is the twin of good.go's matchUntilStopped: the
// starter waits for a tick, which the goroutine does not send, so nothing
// orders its write of match before the read.
func matchUntilTicked(find func() string) string {
	r := &pollRunner{stop: make(chan struct{}), tick: make(chan struct{})}
	var match string
	go func() {
		match = find() // want `match is written in the goroutine started at bad.go:\d+ and read by the function that started it, at bad.go:\d+, before joining it`
		r.halt()
	}()
	<-r.tick
	return match
}

// namedResultVar is namedResult as a function variable's literal: checked
// as a function of the variable's name.
var namedResultVar = func() (err error) {
	go func() {
		err = work() // want `err is written in the goroutine started at bad.go:\d+ and returned by the return at bad.go:\d+, which the goroutine can outlive`
	}()
	return
}

// stoppedByBufferedSend: the same with a buffered stop channel, where the
// send completes before the goroutine receives: it can still be polling.
func stoppedByBufferedSend(poll func() int) int {
	stop := make(chan struct{}, 1)
	var seen int
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				seen = poll() // want `seen is written in the goroutine started at bad.go:\d+ and written by the function that started it, at bad.go:\d+, before joining it`
			}
		}
	}()
	stop <- struct{}{}
	seen = 0
	return seen
}

// stoppedThenWrites: the goroutine writes again after the receive (its
// deferred call), after the send has let the starter go on.
func stoppedThenWrites(poll func() int) int {
	stop := make(chan struct{})
	var seen int
	go func() {
		defer func() { seen = -1 }() // want `seen is written in the goroutine started at bad.go:\d+ and written by the function that started it, at bad.go:\d+, before joining it`
		for {
			select {
			case <-stop:
				return
			default:
				seen = poll()
			}
		}
	}()
	stop <- struct{}{}
	seen = 0
	return seen
}
