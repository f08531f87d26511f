package main_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// runOnTerminal runs guardvet on the fixtures with stderr on a real
// terminal (a PTY) and stdout on a pipe; it returns both.
func runOnTerminal(t *testing.T, env []string, args ...string) (stdout, terminal string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	cmd := fixtureCommand(t, env, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child has its copy; EOF comes when it exits
	var term bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&term, ptmx); close(done) }()
	cmd.Wait()
	<-done
	return out.String(), term.String()
}

func TestProgressOnTerminal(t *testing.T) {
	t.Parallel()
	want, _ := runFixtures(t, nil)
	out, term := runOnTerminal(t, []string{"GUARDVET_PROGRESS=on"})
	if out != want {
		t.Errorf("with progress, stdout differs:\n%s", firstDifference(want, out))
	}
	for _, s := range []string{"guardvet: loading packages:", "files parsed", "guardvet: analysing ", "\x1b[K"} {
		if !strings.Contains(term, s) {
			t.Errorf("the terminal does not show %q:\n%q", s, term)
		}
	}
	if !strings.HasSuffix(term, "\r\x1b[K") {
		t.Errorf("the progress line is not erased at the end:\n%q", term)
	}
}

// TestProgressQuiet: no progress on a terminal with -json or -sarif, none
// when turned off, and none when stderr is not a terminal.
func TestProgressQuiet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-json"}},
		{nil, []string{"-sarif"}},
		{[]string{"GUARDVET_PROGRESS=off"}, nil},
	} {
		if _, term := runOnTerminal(t, tc.env, tc.args...); strings.Contains(term, "guardvet:") || strings.Contains(term, "\r") {
			t.Errorf("%v %v: the terminal shows progress:\n%q", tc.env, tc.args, term)
		}
	}
	// Stderr on a pipe, default setting: nothing but the run's own output.
	_, stderr := runFixtures(t, nil)
	if strings.Contains(stderr, "\r") {
		t.Errorf("progress printed to a pipe:\n%q", stderr)
	}
}
