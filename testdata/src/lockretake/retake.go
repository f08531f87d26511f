// want package:`edges\(TaskSet\.mu -> Task\.sigMu, JobSet\.mu -> Job\.mu, Job\.mu -> JobSet\.mu\)`

// Package lockretake covers helpers that are called with a lock held, drop
// it to take another, and take it back: the lock the caller holds is not
// held while the helper takes the other, so the caller's call is no edge
// from it.
package lockretake

import "sync"

type TaskSet struct {
	mu    sync.RWMutex
	tasks []*Task //guard:by mu
}

type Task struct {
	sigMu sync.Mutex
	set   *TaskSet
	n     int //guard:by sigMu
}

// The order: TaskSet.mu, then Task.sigMu.
func (ts *TaskSet) SignalAll() { // want SignalAll:`acquires\(ts\.mu\)`
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	for _, t := range ts.tasks {
		t.sigMu.Lock()
		t.n++
		t.sigMu.Unlock()
	}
}

// stopLocked drops the signal lock to take the set's lock, and takes it
// back once the set's lock is released (deferred calls run last first).
//
//guard:holds t.sigMu
func (t *Task) stopLocked() int { // want stopLocked:`acquires\(t\.set\.mu \(t\.sigMu released\)\)`
	t.sigMu.Unlock()
	defer t.sigMu.Lock()
	t.set.mu.RLock()
	defer t.set.mu.RUnlock()
	return len(t.set.tasks)
}

func (t *Task) Deliver() { // want Deliver:`acquires\(t\.sigMu, t\.set\.mu\)`
	t.sigMu.Lock()
	t.n++
	t.stopLocked()
	t.n++
	t.sigMu.Unlock()
}

// The same pair of classes with a helper that keeps the lock it is called
// with: a real inversion.
type JobSet struct {
	mu   sync.RWMutex
	jobs []*Job //guard:by mu
}

type Job struct {
	mu  sync.Mutex
	set *JobSet
	n   int //guard:by mu
}

func (js *JobSet) BumpAll() { // want BumpAll:`acquires\(js\.mu\)`
	js.mu.RLock()
	defer js.mu.RUnlock()
	for _, j := range js.jobs {
		j.mu.Lock() // want `potential deadlock: Job.mu is acquired here \(j.mu\) while JobSet.mu is held \(js.mu\), but elsewhere the order is reversed \(Job.mu then JobSet.mu at retake.go:78\)`
		j.n++
		j.mu.Unlock()
	}
}

//guard:holds j.mu
func (j *Job) countLocked() int { // want countLocked:`acquires\(j\.set\.mu\)`
	j.set.mu.RLock()
	defer j.set.mu.RUnlock()
	return len(j.set.jobs)
}

func (j *Job) Count() int { // want Count:`acquires\(j\.mu, j\.set\.mu\)`
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.countLocked()
}
