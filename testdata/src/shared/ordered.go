package shared

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// handOff: the parent writes, then closes a channel the goroutine receives
// from before it reads.
func handOff() {
	var wg sync.WaitGroup
	hold := make(chan struct{})
	dir := ""
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-hold
		use(len(dir))
	}()
	dir = "/tmp"
	close(hold)
	wg.Wait()
}

// handOffLate: the write comes after the signal: a race.
func handOffLate() {
	var wg sync.WaitGroup
	hold := make(chan struct{})
	dir := ""
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-hold
		use(len(dir)) // want `dir is read in the goroutine started at ordered.go:34 and written by the function that started it, at ordered.go:40, before joining it`
	}()
	close(hold)
	dir = "/tmp"
	wg.Wait()
}

// fields: the goroutine and the parent use different fields of a struct
// value.
func fields() {
	var st struct{ a, b int }
	done := make(chan bool)
	go func() {
		st.a = 1
		done <- true
	}()
	st.b = 2
	<-done
}

// sameField: the same field is a race.
func sameField() {
	var st struct{ a, b int }
	done := make(chan bool)
	go func() {
		st.a = 1 // want `st.a is written in the goroutine started at ordered.go:61 and read by the function that started it, at ordered.go:65`
		done <- true
	}()
	use(st.a)
	<-done
}

// once: sync.Once runs the store once.
func once(n int) int {
	var o sync.Once
	var first int
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.Do(func() { first = i })
		}()
	}
	wg.Wait()
	return first
}

// semaphore: a mutex locked by the parent and unlocked by the goroutine.
func semaphore() []int {
	l := make([]int, 3)
	var m sync.Mutex
	m.Lock()
	go func() {
		for i := range l {
			l[i] = i
		}
		m.Unlock()
	}()
	m.Lock()
	return l
}

// addrHandedOn: &x passed to a function is not a write of x here.
func addrHandedOn(n int) {
	var x int
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keep(&x)
		}()
	}
	wg.Wait()
}

func keep(*int) {}

// atomicFlag: data published through an atomic flag of the same struct.
func atomicFlag() {
	var X struct {
		flag int32
		data int
	}
	done := make(chan bool)
	go func() {
		X.data = 1
		atomic.StoreInt32(&X.flag, 1)
		done <- true
	}()
	for atomic.LoadInt32(&X.flag) == 0 {
	}
	use(X.data)
	<-done
}

// helperJoin: the channel is handed to a function that receives from it.
func helperJoin() int {
	v := 0
	done := make(chan bool)
	go func() {
		v = 1
		close(done)
	}()
	waitDone(done)
	v = 2
	return v
}

func waitDone(c chan bool) { <-c }

// timerJoin: the timer's function signals a WaitGroup the caller waits on.
func timerJoin() int {
	var wg sync.WaitGroup
	fired := 0
	wg.Add(1)
	time.AfterFunc(time.Millisecond, func() {
		fired = 1
		wg.Done()
	})
	wg.Wait()
	return fired
}

// bubble: synctest.Wait returns once every goroutine of the bubble has
// blocked or exited.
func bubble(t *testing.T) {
	synctest.Test(t, func(*testing.T) {
		v := 0
		go func() {
			v++
		}()
		synctest.Wait()
		v++
		go func() {
			v++
		}()
		synctest.Wait()
		use(v)
	})
}

// method: a method called on a captured value does its own locking: its
// write of c.n is under c.mu, so it is not part of its summary.
type counterT struct {
	mu sync.Mutex
	n  int
}

func (c *counterT) inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }

func method(n int) int {
	var c counterT
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.inc()
		}()
	}
	wg.Wait()
	return c.n
}

// bubbleNoWait: without synctest.Wait between them the two goroutines race.
func bubbleNoWait(t *testing.T) {
	synctest.Test(t, func(*testing.T) {
		v := 0
		go func() {
			v++ // want `v is written in the goroutine started at ordered.go:207 and written in the goroutine started at ordered.go:210 at ordered.go:211`
		}()
		go func() {
			v++
		}()
		synctest.Wait()
	})
}

// atomicElements: each goroutine adds to the elements atomically.
func atomicElements(n int) {
	var counts [4]int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range counts {
				atomic.AddInt32(&counts[j], 1)
			}
		}()
	}
	wg.Wait()
}

// closureJoin: the channel is handed to a local closure that receives.
func closureJoin() int {
	v := 0
	done := make(chan bool)
	wait := func(c chan bool) { <-c }
	go func() {
		v = 1
		close(done)
	}()
	wait(done)
	v = 2
	return v
}

// loop is restarted only after the previous run has signalled, from its
// own body, that it stopped.
type loop struct {
	stopped chan struct{}
	work    map[int]bool
}

func (l *loop) run() {
	defer func() { l.stopped <- struct{}{} }()
	l.work[1] = true
}

// restartAfterStop: go l.run() again only after a receive from the
// channel run sends on when it returns.
func restartAfterStop(l *loop, events chan int) {
	for range events {
		<-l.stopped
		go l.run()
	}
}

// signalOnEveryPath: each path sends, or panics (nothing waits then);
// defer wg.Done() at the top covers the early return.
func signalOnEveryPath(ok bool, err error) int {
	v, w := 0, 0
	done := make(chan bool, 1)
	go func() {
		v = 1
		if err != nil {
			panic(err)
		}
		if ok {
			done <- true
			return
		}
		done <- false
	}()
	<-done
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if !ok {
			return
		}
		w = 1
	}()
	wg.Wait()
	return v + w
}

// closeOnErrorOnly: the goroutine closes errc only on its error path and
// nothing else closes it, so the case that receives from it runs after
// the close, and after the write before it.
func closeOnErrorOnly(c chan struct{}) error {
	var err error
	errc := make(chan struct{})
	go func() {
		if err = work(); err != nil {
			close(errc)
			return
		}
	}()
	select {
	case <-c:
		return nil
	case <-errc:
		return err
	}
}

// countedReceives: a loop that receives once per goroutine started joins
// them all when it ends.
func countedReceives() uint32 {
	var a [4]uint32
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			atomic.AddUint32(&a[0], 1)
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	return a[0]
}

type slowConn struct {
	timer   *time.Timer
	started chan struct{}
}

// stoppedTimer: the timer is stopped as soon as it is made, so its
// function runs only after a later Reset, and the channel made before
// that is ready by then (pgx's slowWriteTimer). The same timer left
// running is reported (afterFunc in bad.go).
func stoppedTimer(c *slowConn) {
	c.timer = time.AfterFunc(time.Hour, func() {
		c.started <- struct{}{}
	})
	c.timer.Stop()
	c.started = make(chan struct{})
}

// runningTimer is its twin: the timer runs, and its function may read
// c.started before it is made.
func runningTimer(c *slowConn) {
	c.timer = time.AfterFunc(time.Hour, func() {
		c.started <- struct{}{} // want `c.started is read in the goroutine started at ordered.go:\d+ and written by the function that started it, at ordered.go:\d+, before joining it`
	})
	c.started = make(chan struct{})
}

// retry calls f until it returns true: in place, in the caller's
// goroutine.
func retry(f func() bool) {
	for !f() {
	}
}

// joinedInCallback: the callback reads s only in the select arm that
// receives from ch, which the goroutine closes after writing s (pebble's
// async-compact test): joined there, although the callback runs while
// the goroutine may. Reading s in the default arm is reported.
func joinedInCallback() string {
	var s, t string
	ch := make(chan struct{})
	go func() {
		s = "done"
		t = "done" // want `t is written in the goroutine started at ordered.go:\d+ and read by the function that started it, at ordered.go:\d+, before joining it`
		close(ch)
	}()
	out := ""
	retry(func() bool {
		select {
		case <-ch:
			out = s
			return true
		default:
			out = t
			return false
		}
	})
	return out
}
