// Package main: an object made anew each time round a loop, chosen by a
// switch and held as an interface, filled in before the loop publishes
// it. What the last round published is not the object this round fills
// in, so the filling is set-up, not a race with the workers that take
// the published ones; a write after publishing is.
package main

import (
	"os"
	"strings"
	"sync"
)

type job interface {
	parse(spec string)
	run()
}

type fetch struct {
	url   string
	tries int
}

func (f *fetch) parse(spec string) { f.url = spec }

func (f *fetch) run() {
	f.tries++
	println(f.url)
}

type ping struct {
	host string
}

func (p *ping) parse(spec string) { p.host = spec }

func (p *ping) run() { println(p.host) }

type queue struct {
	mu   sync.Mutex
	jobs []job
}

func (q *queue) fill(specs []string) {
	for _, s := range specs {
		var j job
		switch {
		case strings.HasPrefix(s, "http"):
			j = &fetch{}
		case strings.HasPrefix(s, "ping:"):
			j = &ping{}
		default:
			continue
		}
		j.parse(s) // before this round publishes it: not reported
		q.mu.Lock()
		q.jobs = append(q.jobs, j)
		q.mu.Unlock()
		if f, ok := j.(*fetch); ok {
			f.tries = 0 // want `fetch.tries written in queue.fill \(main: main → queue.fill\) races with its write in fetch.run`
		}
	}
}

func (q *queue) work() {
	for {
		q.mu.Lock()
		if len(q.jobs) > 0 {
			j := q.jobs[0]
			q.jobs = q.jobs[1:]
			j.run()
		}
		q.mu.Unlock()
	}
}

func main() {
	q := &queue{}
	go q.work()
	go q.work()
	q.fill(os.Args[1:])
}
