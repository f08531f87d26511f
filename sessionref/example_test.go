package sessionref_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/guardvet/guardvet/sessionref"
)

// A session runs a command on its own terminal; its output is kept after it
// exits.
func ExampleManager() {
	m := sessionref.NewManager(sessionref.Options{})
	defer m.Close()

	s, err := m.Create(context.Background(), sessionref.Spec{
		Argv: []string{"/bin/sh", "-c", "stty size; echo hello; exit 3"},
		Rows: 24, Cols: 80,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	status, _ := s.Wait(context.Background())
	// The terminal turns "\n" into "\r\n".
	fmt.Print(strings.ReplaceAll(string(s.Output()), "\r\n", "\n"))
	fmt.Println(status, "status:", s.Status())
	// Output:
	// 24 80
	// hello
	// exit status 3 status: exited
}

// Errors wrap exported sentinels.
func ExampleManager_Create_errors() {
	m := sessionref.NewManager(sessionref.Options{})
	defer m.Close()
	ctx := context.Background()

	_, err := m.Create(ctx, sessionref.Spec{Argv: []string{"cat"}, Rows: 0, Cols: 80})
	fmt.Println(errors.Is(err, sessionref.ErrInvalidSize))
	_, err = m.Create(ctx, sessionref.Spec{Argv: []string{"/no/such/program"}, Rows: 24, Cols: 80})
	fmt.Println(errors.Is(err, sessionref.ErrStart))
	_, err = m.Get("nope")
	fmt.Println(errors.Is(err, sessionref.ErrNotFound))
	// Output:
	// true
	// true
	// true
}

// Subscribers get the scrollback first, then live output, until the output
// ends.
func ExampleSession_Subscribe() {
	m := sessionref.NewManager(sessionref.Options{})
	defer m.Close()

	s, err := m.Create(context.Background(), sessionref.Spec{
		Argv: []string{"/bin/sh", "-c", "read go; echo one; echo two"},
		Rows: 24, Cols: 80,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	sub := s.Subscribe()
	defer sub.Close()
	s.Write([]byte("go\n"))

	var got bytes.Buffer
	for chunk := range sub.C() {
		got.Write(chunk)
	}
	fmt.Printf("%q\n", got.String())
	fmt.Println("same as Output:", bytes.Equal(got.Bytes(), s.Output()), "err:", sub.Err())
	// Output:
	// "go\r\none\r\ntwo\r\n"
	// same as Output: true err: <nil>
}

// Attach gives a terminal onto the running session; Detach closes it and
// the child keeps running.
func ExampleSession_Attach() {
	m := sessionref.NewManager(sessionref.Options{})
	defer m.Close()

	s, err := m.Create(context.Background(), sessionref.Spec{
		Argv: []string{"/bin/sh", "-c", "stty raw -echo; echo ready; exec cat"},
		Rows: 24, Cols: 80,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	term, err := s.Attach()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Status())
	read := func(n int) string {
		buf := make([]byte, n)
		io.ReadFull(term, buf)
		return string(buf)
	}
	fmt.Printf("%q\n", read(len("ready\n"))) // the child is in raw mode now

	term.Write([]byte("ping"))
	fmt.Printf("%q\n", read(len("ping"))) // cat echoes what was typed

	s.Detach()
	fmt.Println(s.Status())
	s.Write([]byte(" still alive"))
	term, _ = s.Attach()
	fmt.Printf("%q\n", read(len("ready\nping still alive"))) // the new terminal replays the scrollback
	fmt.Println(s.Status())
	// Output:
	// running
	// "ready\n"
	// "ping"
	// detached
	// "ready\nping still alive"
	// running
}

// Approvals type reviewed commands into a session one at a time; denials
// are only logged.
func ExampleManager_Approve() {
	m := sessionref.NewManager(sessionref.Options{})
	defer m.Close()

	s, err := m.Create(context.Background(), sessionref.Spec{
		ID:   "build",
		Argv: []string{"/bin/sh"},
		Rows: 24, Cols: 80,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Deny("build", "rm -rf /", "destructive"))
	fmt.Println(m.Approve("build", "exit 7"))
	status, _ := s.Wait(context.Background())
	fmt.Println("exit code:", status.Code)
	for _, d := range s.Decisions() {
		fmt.Printf("%q approved=%v %s\n", d.Cmd, d.Approved, d.Reason)
	}
	// Output:
	// <nil>
	// <nil>
	// exit code: 7
	// "rm -rf /" approved=false destructive
	// "exit 7" approved=true
}
