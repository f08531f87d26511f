package shared

import (
	"io"
	"os"
)

// pipeJoin: the goroutine writes, then closes the pipe's write end; the
// parent reads the pipe to its end before it reads: io.ReadAll returns
// only once the write end is closed.
func pipeJoin() string {
	r, w := io.Pipe()
	name := ""
	go func() {
		name = "out"
		w.Write([]byte("x"))
		w.Close()
	}()
	out, _ := io.ReadAll(r)
	return name + string(out)
}

// pipeJoinDeferred: os.Pipe, closed by a deferred call, read by io.Copy.
func pipeJoinDeferred(dst io.Writer) (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	name := ""
	go func() {
		defer w.Close()
		name = "out"
	}()
	if _, err := io.Copy(dst, r); err != nil {
		return "", err
	}
	return name, nil
}

// pipeEarly: the parent reads before it has read the pipe to its end.
func pipeEarly() string {
	r, w := io.Pipe()
	name := ""
	go func() {
		name = "out" // want `name is written in the goroutine started at pipes.go:\d+ and read by the function that started it`
		w.Close()
	}()
	n := name
	io.ReadAll(r)
	return n
}

// pipeOtherReader: the pipe read to its end is not the one the goroutine
// closes.
func pipeOtherReader() string {
	r1, w1 := io.Pipe()
	r2, w2 := io.Pipe()
	name := ""
	go func() {
		name = "out" // want `name is written in the goroutine started at pipes.go:\d+ and read by the function that started it`
		w1.Close()
	}()
	io.ReadAll(r2)
	w2.Close()
	r1.Close()
	return name
}
