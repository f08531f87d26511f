// Package shared holds the shapes of the shared rule: variables shared
// with goroutines, accessed with nothing ordering the accesses. bad.go has
// the races, good.go their correct twins.
package shared

import (
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
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
			_, err = fetch(i) // want `err is written in the goroutine started at bad.go:21 and written in another instance of it at bad.go:23, with no lock, atomic or join ordering the two; declare err inside the goroutine, or collect results by index or over a channel`
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
		_, err = fetch(1) // want `err is written in the goroutine started at bad.go:34 and written in the goroutine started at bad.go:38 at bad.go:39`
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
		err = work() // want `err is written in the goroutine started at bad.go:49 and returned by the return at bad.go:52, which the goroutine can outlive, with no lock, atomic or join ordering the two; join the goroutine before returning, or have it set a variable of its own`
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
		use(limit) // want `limit is read in the goroutine started at bad.go:63 and written by the function that started it, at bad.go:67, before joining it, with no lock, atomic or join ordering the two; move that access after the join, give the goroutine its own copy, or lock both`
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
			m[k] = len(k) // want `m is written into in the goroutine started at bad.go:79 and written into in another instance of it at bad.go:81, .*; lock the map on both sides, or send the results over a channel`
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
			total++ // want `total is written in the goroutine started at bad.go:93 and written in another instance of it at bad.go:94`
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
	go reader()
	config = "b" // the goroutine's read is reported at the read
}

func reader() {
	println(config) // want `config is read in the goroutine started at bad.go:109 and written by the function that started it, at bad.go:110`
}

// afterFunc: a timer callback writes what the caller reads.
func afterFunc() int {
	fired := 0
	time.AfterFunc(time.Second, func() {
		fired = 1 // want `fired is written in the goroutine started at bad.go:120 and read by the function that started it, at bad.go:123, before joining it`
	})
	return fired
}

// mapReadWhileWritten: the parent reads a map a worker fills.
func mapReadWhileWritten() int {
	m := map[int]int{}
	done := make(chan struct{})
	go func() {
		m[1] = 1 // want `m is written into in the goroutine started at bad.go:130 and read from by the function that started it, at bad.go:134, before joining it, with no lock, atomic or join ordering the two; lock the map on both sides, or send the results over a channel to one goroutine that fills it`
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
		out = append(out, 1) // want `out is written in the goroutine started at bad.go:144 and written by the function that started it, at bad.go:148, before joining it`
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
			err = work() // want `err is written in the goroutine started at bad.go:158 and read by the function that started it, at bad.go:162`
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
		v = 1 // want `v is written in the goroutine started at bad.go:173 and read by the function that started it, at bad.go:181, before joining it`
		close(done)
	}()
	select {
	case <-done:
		return v
	case <-stop:
		return v
	}
}
