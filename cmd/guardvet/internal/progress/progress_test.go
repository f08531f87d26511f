package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the line's goroutine and the
// test's.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNoLineOffTerminal: on a stderr that is not a terminal (a buffer, a
// file), or with GUARDVET_PROGRESS=off, there is no line, and a run's
// calls on it print nothing: what the run writes through it arrives as
// it is.
func TestNoLineOffTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, env := range []string{"", "off"} {
		t.Setenv(envProgress, env)
		var buf bytes.Buffer
		p := Start(&buf, false)
		if p != nil {
			t.Fatalf("GUARDVET_PROGRESS=%q, a buffer for stderr: a progress line", env)
		}
		p.Loading(3)
		p.Parsed()
		p.SetPhase("analysing %d packages", 2)
		w := p.Writer(&buf)
		w.Write([]byte("guardvet: an error\n"))
		p.Stop()
		if got := buf.String(); got != "guardvet: an error\n" {
			t.Errorf("GUARDVET_PROGRESS=%q: stderr %q, want the error alone", env, got)
		}
	}
	t.Setenv(envProgress, "")
	if p := Start(file, false); p != nil {
		p.Stop()
		t.Errorf("a file for stderr: a progress line")
	}
}

// TestLineOn: GUARDVET_PROGRESS=on draws the line at once on any stderr,
// counting the files parsed; a write through Writer erases it first, and
// Stop leaves no line behind.
func TestLineOn(t *testing.T) {
	t.Setenv(envProgress, "on")
	var buf syncBuffer
	p := Start(&buf, true)
	if p == nil {
		t.Fatal("GUARDVET_PROGRESS=on: no line")
	}
	p.Loading(3)
	p.Parsed()
	want := "\r\x1b[Kguardvet: loading packages: 1 of 3 files parsed ("
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(buf.String(), want) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(buf.String(), want) {
		p.Stop()
		t.Fatalf("no line %q in %q", want, buf.String())
	}
	p.Writer(&buf).Write([]byte("guardvet: an error\n"))
	p.Stop()
	out := buf.String()
	if !strings.Contains(out, "\r\x1b[Kguardvet: an error\n") {
		t.Errorf("the line is not erased before a write: %q", out)
	}
	if !strings.HasSuffix(out, "\r\x1b[K") && !strings.HasSuffix(out, "guardvet: an error\n") {
		t.Errorf("a line left after Stop: %q", out)
	}
	if after := buf.String(); after != out {
		t.Errorf("written after Stop: %q", after[len(out):])
	}
}
