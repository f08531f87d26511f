// Package progress is the progress line of a long standalone run.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// Progress on long runs: when stderr is a terminal and the output is
// text, a run still going after progressDelay shows on one line of stderr
// what it is doing (files parsed of how many, packages replayed from the
// cache, packages being analysed) and how long it has taken, and erases
// the line before it prints anything else. Nothing is shown when stderr is
// not a terminal or the output is -json or -sarif. GUARDVET_PROGRESS=off
// turns it off; =on shows it from the start on any stderr (for scripts
// that want it, and for the test).
const (
	envProgress   = "GUARDVET_PROGRESS"
	progressDelay = 2 * time.Second
	progressTick  = 200 * time.Millisecond
)

// Line is a run's progress line. A nil *Line is no line: its methods do
// nothing (Writer returns w as it is).
type Line struct {
	w     io.Writer
	start time.Time
	// files and parsed count the files a load parses.
	files, parsed atomic.Int64
	mu            sync.Mutex
	phase         string // what the run does now; guarded by mu
	shown         bool   // a line is on the terminal; guarded by mu
	active        bool   // past the delay: the line is drawn; guarded by mu
	stopped       chan struct{}
	wg            sync.WaitGroup
}

// Start returns the run's progress line on stderr, or nil when none is to
// be shown. machine is true when the output is for a program (-json,
// -sarif).
func Start(stderr io.Writer, machine bool) *Line {
	delay := progressDelay
	switch os.Getenv(envProgress) {
	case "off":
		return nil
	case "on":
		delay = 0
	default:
		f, ok := stderr.(*os.File)
		if !ok || !term.IsTerminal(int(f.Fd())) || machine {
			return nil
		}
	}
	p := &Line{w: stderr, start: time.Now(), stopped: make(chan struct{})}
	p.wg.Go(func() {
		select {
		case <-time.After(delay):
		case <-p.stopped:
			return
		}
		t := time.NewTicker(progressTick)
		defer t.Stop()
		p.mu.Lock()
		p.active = true
		p.mu.Unlock()
		for {
			p.draw()
			select {
			case <-t.C:
			case <-p.stopped:
				return
			}
		}
	})
	return p
}

// SetPhase says what the run does now.
func (p *Line) SetPhase(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.phase = fmt.Sprintf(format, args...)
	p.mu.Unlock()
	p.draw() // a new phase shows at once, however short
}

// Loading starts a load of about files files: the line counts them as
// they are parsed (Parsed).
func (p *Line) Loading(files int) {
	if p == nil {
		return
	}
	p.files.Store(int64(files))
	p.parsed.Store(0)
	p.SetPhase("")
}

// Parsed counts a file of the load as parsed.
func (p *Line) Parsed() {
	if p != nil {
		p.parsed.Add(1)
	}
}

func (p *Line) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active {
		return
	}
	line := p.phase
	if line == "" {
		if n := p.files.Load(); n > 0 {
			line = fmt.Sprintf("loading packages: %d of %d files parsed", min(p.parsed.Load(), n), n)
		} else {
			line = fmt.Sprintf("loading packages: %d files parsed", p.parsed.Load())
		}
	}
	fmt.Fprintf(p.w, "\r\x1b[Kguardvet: %s (%ds)", line, int(time.Since(p.start).Seconds()))
	p.shown = true
}

// Stop ends the line and erases it, before the run prints its output.
func (p *Line) Stop() {
	if p == nil {
		return
	}
	close(p.stopped)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.active = false
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// Writer returns w with the line erased before each write, so errors
// printed during the run do not run into it; the next tick draws it again.
func (p *Line) Writer(w io.Writer) io.Writer {
	if p == nil {
		return w
	}
	return progressWriter{p, w}
}

type progressWriter struct {
	p *Line
	w io.Writer
}

func (pw progressWriter) Write(b []byte) (int, error) {
	pw.p.mu.Lock()
	defer pw.p.mu.Unlock()
	if pw.p.shown {
		fmt.Fprint(pw.p.w, "\r\x1b[K")
		pw.p.shown = false
	}
	return pw.w.Write(b)
}
