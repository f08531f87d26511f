package sessionref_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guardvet/guardvet/sessionref"
)

// TestApproveSerializesAndLogs runs concurrent approvals and denials on one
// session: every approved command must reach the child whole (no
// interleaving), and the log must hold each decision once.
func TestApproveSerializesAndLogs(t *testing.T) {
	m := newManager(t, sessionref.Options{Scrollback: 1 << 20})
	s := create(t, m, rawCat...)
	waitOutput(t, s, ready)

	const approvals, denials = 12, 4
	cmds := make([]string, approvals)
	for i := range cmds {
		// Long enough that one write can be split by the kernel.
		cmds[i] = fmt.Sprintf("cmd%02d-%s", i, strings.Repeat(string(rune('a'+i)), 6000))
	}
	var wg sync.WaitGroup
	for i := range approvals {
		wg.Go(func() {
			if err := m.Approve(s.ID(), cmds[i]); err != nil {
				t.Errorf("Approve %d: %v", i, err)
			}
		})
	}
	for i := range denials {
		wg.Go(func() {
			if err := m.Deny(s.ID(), fmt.Sprintf("rm -rf /%d", i), "destructive"); err != nil {
				t.Errorf("Deny %d: %v", i, err)
			}
		})
	}
	wg.Wait()

	want := len(ready)
	for _, c := range cmds {
		want += len(c) + 1
	}
	waitFor(t, 20*time.Second, "all approved commands echoed", func() bool { return len(s.Output()) >= want })
	out := s.Output()[len(ready):]
	for len(out) > 0 {
		i := bytes.IndexByte(out, '\r')
		if i < 0 {
			t.Fatalf("unterminated command in output: %.40q", out)
		}
		line := string(out[:i])
		out = out[i+1:]
		found := false
		for _, c := range cmds {
			if line == c {
				found = true
			}
		}
		if !found {
			t.Fatalf("interleaved or corrupt command in output: %.60q", line)
		}
	}

	log := s.Decisions()
	var nApproved, nDenied int
	seen := map[string]bool{}
	for _, d := range log {
		if seen[d.Cmd] {
			t.Errorf("decision for %.10q logged twice", d.Cmd)
		}
		seen[d.Cmd] = true
		if d.Approved {
			nApproved++
		} else {
			nDenied++
			if d.Reason != "destructive" {
				t.Errorf("denial reason %q", d.Reason)
			}
		}
	}
	if nApproved != approvals || nDenied != denials {
		t.Fatalf("log has %d approvals and %d denials, want %d and %d", nApproved, nDenied, approvals, denials)
	}

	if err := m.Delete(s.ID()); err != nil {
		t.Fatal(err)
	}
	if err := m.Approve(s.ID(), "ls"); !errors.Is(err, sessionref.ErrNotFound) {
		t.Fatalf("Approve after Delete = %v", err)
	}
}
