// Package spanned is a library whose methods run at once (they take the
// file's lock). Read holds the lock while the workers readAt starts run:
// readAt waits for every one of them before it returns, and Read releases
// the lock after that, so Close, which needs the lock, cannot clear the
// handle while they read it. Peek's reader is not waited for, Unlocked
// releases the lock before it waits, and Spin writes the offset itself
// while its worker does: those race. Spin's worker and readAt's workers
// each run inside a critical section of the lock, so they do not.
package spanned

import "sync"

type File struct {
	mu     sync.Mutex
	handle string
	offset int
	seen   int
}

// Read reads with workers, under the lock.
func (f *File) Read(n int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readAt(n)
}

func (f *File) readAt(n int) int {
	var wg sync.WaitGroup
	sizes := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sizes[i] = len(f.handle) + f.offset
		}(i)
	}
	wg.Wait()
	total := 0
	for _, s := range sizes {
		total += s
	}
	return total
}

// Close clears the handle and the offset, under the lock.
func (f *File) Close() {
	f.mu.Lock()
	f.handle = "" // want `File.handle written in File.Close .* races with its read in File.Peek func literal 1 .* \(and 1 more access\)`
	f.offset = 0
	f.mu.Unlock()
}

// Peek starts a reader it does not wait for.
func (f *File) Peek() {
	f.mu.Lock()
	go func() {
		println(f.handle) // reported with Close's write, as are Unlocked's reads
	}()
	f.mu.Unlock()
}

// Unlocked releases the lock before it waits for its reader.
func (f *File) Unlocked() {
	f.mu.Lock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.seen = len(f.handle)
	}()
	f.mu.Unlock()
	wg.Wait()
}

// Spin holds the lock while its worker runs, and waits for it, but sets
// the offset itself meanwhile.
func (f *File) Spin() {
	f.mu.Lock()
	defer f.mu.Unlock()
	done := make(chan bool)
	go func() {
		f.offset++ // want `File.offset written in File.Spin func literal 1 .* races with its write in File.Spin \(exported method: File.Spin\); `
		close(done)
	}()
	f.offset = 1
	<-done
}
