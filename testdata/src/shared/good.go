package shared

import (
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"shared/tally"
)

// localInside: each goroutine declares its own err.
func localInside(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := fetch(i)
			_ = err
		}()
	}
	wg.Wait()
}

// byIndex: results collected by index, one index per goroutine.
func byIndex(n int) []error {
	errs := make([]error, n)
	res := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = fetch(i)
		}()
	}
	wg.Wait()
	return errs
}

// byIndexParam: the index is the goroutine's parameter.
func byIndexParam(n int) []int {
	res := make([]int, n)
	done := make(chan bool)
	for i := 0; i < n; i++ {
		go func(j int) {
			res[j] = j
			done <- true
		}(i)
	}
	for i := 0; i < n; i++ {
		<-done
	}
	return res
}

// beforeAndAfter: written before the start, read after the join.
func beforeAndAfter() int {
	x := 1
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = 2
	}()
	wg.Wait()
	return x
}

// errgroupJoin: the errgroup's Wait joins.
func errgroupJoin() (int, error) {
	var v int
	g := &errgroup.Group{}
	g.Go(func() error {
		var err error
		v, err = fetch(1)
		return err
	})
	err := g.Wait()
	return v, err
}

// mutexMap: workers fill a map under a mutex.
func mutexMap(keys []string) map[string]int {
	m := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			m[k] = len(k)
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return m
}

// readOnly: a value only read by everyone.
func readOnly(n int) int {
	limit := 10
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			use(limit + i)
		}()
	}
	use(limit)
	wg.Wait()
	return limit
}

// atomicCounter: the counter is bumped atomically.
func atomicCounter(n int) int64 {
	var total int64
	var hits atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&total, 1)
			hits.Add(1)
		}()
	}
	wg.Wait()
	return atomic.LoadInt64(&total) + hits.Load()
}

// channelResult: the result comes back over the channel the goroutine
// sends on, and the receive joins it.
func channelResult() int {
	var v int
	ch := make(chan struct{})
	go func() {
		v = 1
		ch <- struct{}{}
	}()
	<-ch
	return v
}

// rangeJoin: ranging over the channel until the goroutine closes it.
func rangeJoin() int {
	total := 0
	ch := make(chan int)
	go func() {
		defer close(ch)
		total = 1
		ch <- 1
	}()
	for v := range ch {
		_ = v
	}
	return total
}

// selectJoin: a select case receiving from the done channel joins.
func selectJoin(stop chan struct{}) int {
	v := 0
	done := make(chan struct{})
	go func() {
		v = 1
		close(done)
	}()
	select {
	case <-done:
		return v
	case <-stop:
		return 0
	}
}

// sequential: the second goroutine starts after the first is joined.
func sequential() error {
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err = fetch(1)
	}()
	wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err = fetch(2)
	}()
	wg.Wait()
	return err
}

// joinedInLoop: each goroutine is joined before the next starts.
func joinedInLoop(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		done := make(chan bool)
		go func() {
			total += i
			done <- true
		}()
		<-done
	}
	return total
}

// namedJoined: the named result is set by a goroutine joined before the
// return.
func namedJoined() (err error) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err = work()
	}()
	wg.Wait()
	return
}

// parentBefore: the parent's write is before the start.
func parentBefore() {
	var wg sync.WaitGroup
	limit := 10
	limit++
	wg.Add(1)
	go func() {
		defer wg.Done()
		use(limit)
	}()
	wg.Wait()
}

// perIteration: each iteration's goroutine has its own wake, which the
// next iteration's go statement reads as a new variable.
func perIteration(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wake := i
		wg.Add(1)
		go func(first int) {
			defer wg.Done()
			wake += first
		}(wake)
	}
	wg.Wait()
}

// selectThenJoin: a select with no default blocks until a case is ready;
// every path then joins before the return.
func selectThenJoin(a, b chan bool) (err error) {
	done := make(chan bool)
	go func() {
		err = work()
		close(done)
	}()
	select {
	case <-a:
	case <-b:
	}
	<-done
	return
}

// results is filled through a pointer.
type results struct {
	mu   sync.Mutex
	res  []int
	sum  int
	seen map[int]bool
	a, b int
}

func (r *results) set(i, v int) { r.res[i] = v }

func (r *results) add(v int) {
	r.mu.Lock()
	r.sum += v
	r.mu.Unlock()
}

func (r *results) total() int { return r.sum }

// byIndexThroughPointer: each worker writes its own element of a slice
// reached through a pointer, directly or through a method.
func byIndexThroughPointer(r *results, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			r.res[j] = j
		}(i)
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.set(i, i)
		}()
	}
	wg.Wait()
}

// lockedMethod: the method takes the struct's own lock; the parent reads
// after the join.
func lockedMethod(r *results, n int) int {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.add(i)
		}()
	}
	wg.Wait()
	return r.total()
}

// readOnlyMethod: every worker only reads through the pointer.
func readOnlyMethod(r *results, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			use(r.total())
		}()
	}
	wg.Wait()
}

// fieldBeforeGo: the parent writes through the pointer before the start
// and reads after the join; the pointer itself is only read meanwhile.
func fieldBeforeGo(r *results) *results {
	var wg sync.WaitGroup
	r.sum = 1
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.sum++
	}()
	keepResults(r)
	wg.Wait()
	return r
}

func keepResults(*results) {}

// otherFields: the goroutine and the parent write different fields of one
// object.
func otherFields(r *results) {
	done := make(chan bool)
	go func() {
		r.a = 1
		close(done)
	}()
	r.b = 2
	<-done
}

// otherPackageSafe: another package's counters that lock, or use atomics.
func otherPackageSafe(n int) {
	var l tally.Locked
	var a tally.Atomic
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Add()
			a.Add()
		}()
	}
	wg.Wait()
}

// lockedMap: a map through a pointer, under the struct's lock.
func lockedMap(r *results, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.mu.Lock()
			r.seen[i] = true
			r.mu.Unlock()
		}()
	}
	wg.Wait()
}

type response struct{ notHandled bool }

func respond(string) (*response, error) { return nil, nil }

// byIndexThenField: each goroutine stores its own element, then reads a
// field through it: the element read on the way is its own too.
func byIndexThenField(chunks []string) []*response {
	responses := make([]*response, len(chunks))
	var g errgroup.Group
	for i, chunk := range chunks {
		g.Go(func() (err error) {
			responses[i], err = respond(chunk)
			if responses[i] != nil && responses[i].notHandled {
				return nil
			}
			return err
		})
	}
	_ = g.Wait()
	return responses
}

type server struct{ ticks int }

func (s *server) loop() { s.ticks++ }

// startedWithResult: go s.loop() reads s when it starts, in the parent;
// the goroutine only uses what s points to, which the return does not
// touch.
func startedWithResult() (s *server) {
	s = &server{}
	go s.loop()
	return s
}

type slot struct {
	mu sync.Mutex
	h  []int
}

func (s *slot) add(v int) {
	s.mu.Lock()
	s.h = append(s.h, v)
	s.mu.Unlock()
}

type bench struct{ slots []slot }

// slotPerGoroutine: the parent prepares each goroutine's own element
// before starting it; the goroutine uses only that element (the parent's
// later writes are the next iterations', to other elements).
func slotPerGoroutine(b *bench, n int) {
	for i := 0; i < n; i++ {
		idx := i
		b.slots[idx].h = nil
		go func(idx int) {
			b.slots[idx].add(1)
		}(idx)
	}
}

type stream struct {
	finished atomic.Bool
	trailers []string
}

// finish runs its work once per stream: only the caller whose
// compare-and-swap succeeds gets past the guard.
func (s *stream) finish() {
	if s.finished.Load() || !s.finished.CompareAndSwap(false, true) {
		return
	}
	s.trailers = append(s.trailers, "end")
}

// finishFromBoth: the goroutine and the parent both call finish; one of
// them does the work.
func finishFromBoth(s *stream) {
	go s.finish()
	s.finish()
}

// atomicBothSides: the parent reads the counter with sync/atomic while
// workers add to it, and plainly only after the join.
func atomicBothSides(n int) int64 {
	var total int64
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&total, 1)
		}()
	}
	if atomic.LoadInt64(&total) > 10 {
		println("many")
	}
	wg.Wait()
	return total
}

// emptyIf: an if with an empty body is no guard (and no trouble).
func (s *stream) emptyIf(ok bool) {
	if ok {
	}
	s.trailers = nil
}

// unexportedElsewhere: another package's unexported variable, written by
// its exported function, is that package's concern.
func unexportedElsewhere(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tally.Hit()
		}()
	}
	wg.Wait()
}

// fresh assigns its receiver a new object before writing through it.
func (r *results) fresh() *results {
	r = &results{}
	r.sum = 1
	return r
}

// reassignedReceiver: fresh writes a new object, not the shared one.
func reassignedReceiver(r *results, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = r.fresh()
		}()
	}
	wg.Wait()
}

type queue struct{ mu sync.Mutex }

// do runs f under the queue's lock.
func (q *queue) do(f func() bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return f()
}

type conn struct {
	q     *queue
	quota int
}

// take changes quota only in a closure called from the callback do runs
// under its lock.
func (c *conn) take() bool {
	check := func() bool {
		c.quota--
		return c.quota >= 0
	}
	return c.q.do(func() bool { return check() })
}

// callbackUnderLock: both sides change quota through take.
func callbackUnderLock(c *conn) {
	go c.take()
	c.take()
}

type byteReader struct {
	data []byte
	i    int
}

// read moves on only when data remains.
func (r *byteReader) read() int {
	if r.i >= len(r.data) {
		return 0
	}
	r.i++
	return 1
}

// readersOfEmpty: the workers share an empty reader, whose read only
// reads; a callee's write behind a condition counts as a read.
func readersOfEmpty(n int) {
	r := &byteReader{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.read()
		}()
	}
	wg.Wait()
}

// listenerChan returns the named result it made, as itself: the return
// stores got where it already is (the compiler leaves the store out), so
// it only reads got, as the goroutine does (nats.go's ws test server).
func listenerChan() (addr string, got chan int) {
	got = make(chan int, 1)
	go func() {
		got <- 1
	}()
	return "addr", got
}

// pollRunner signals and waits through its methods: halt closes r.stop,
// and loop returns only from the case that receives from it.
type pollRunner struct {
	stop chan struct{}
	tick chan struct{}
}

func (r *pollRunner) halt() { close(r.stop) }

func (r *pollRunner) loop() {
	for {
		select {
		case <-r.stop:
			return
		case <-r.tick:
		}
	}
}

// matchUntilStopped: the goroutine writes match and then calls
// r.halt(); the starter reads match after r.loop() returns, which it does
// only once halt has closed r.stop: a join through two methods (go-redis's
// CommandRunner in its end-to-end tests).
func matchUntilStopped(find func() string) string {
	r := &pollRunner{stop: make(chan struct{}), tick: make(chan struct{})}
	var match string
	go func() {
		match = find()
		r.halt()
	}()
	r.loop()
	return match
}

// stoppedBySend: the goroutine polls until it receives from stop, and
// returns at once; stop is unbuffered, so the send completes only after
// that receive, and every poll comes before it (ristretto's
// TestCacheMetricsClear). The write after the send is ordered.
func stoppedBySend(poll func() int) int {
	stop := make(chan struct{})
	var seen int
	go func() {
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
