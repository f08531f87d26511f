package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// report is what the -measure wrapper sends to the runner on fd 3.
type report struct {
	WallNanos int64  `json:"wall_ns"`
	MaxRSSKiB int64  `json:"maxrss_kib"` // getrusage(RUSAGE_CHILDREN).ru_maxrss
	CPUNanos  int64  `json:"cpu_ns"`     // getrusage(RUSAGE_CHILDREN) user + system time
	ExitCode  int    `json:"exit_code"`  // -1 if killed by a signal
	Signal    string `json:"signal,omitempty"`
	Error     string `json:"error,omitempty"` // the command could not be started
}

// measureMain is the -measure=FD sub-mode: it runs argv with this
// process's standard streams, waits for it, and writes a report to file
// descriptor fd (the runner passes a pipe as fd 3). The wrapper has exactly one
// child, so after the wait getrusage(RUSAGE_CHILDREN).ru_maxrss is the
// largest peak RSS of that child and of every descendant that was waited
// for by its parent (Linux reports ru_maxrss in KiB).
func measureMain(fd int, argv []string) int {
	out := io.Writer(os.Stderr)
	if fd > 2 {
		// Keep the report pipe from the measured command, so that only
		// this process holds its write end.
		syscall.CloseOnExec(fd)
		out = os.NewFile(uintptr(fd), "report")
	}
	rep := measureChild(argv)
	if err := json.NewEncoder(out).Encode(rep); err != nil {
		fmt.Fprintf(os.Stderr, "guardvet-bench -measure: writing report: %v\n", err)
		return 2
	}
	if rep.Error != "" {
		return 2
	}
	return 0
}

func measureChild(argv []string) report {
	if len(argv) == 0 {
		return report{Error: "-measure: no command given"}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return report{Error: err.Error()}
	}
	err := cmd.Wait()
	wall := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return report{Error: err.Error()}
	}
	rep := report{WallNanos: wall.Nanoseconds(), ExitCode: cmd.ProcessState.ExitCode()}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		rep.Signal = ws.Signal().String()
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return report{Error: "getrusage: " + err.Error()}
	}
	rep.MaxRSSKiB = ru.Maxrss
	rep.CPUNanos = syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime)
	return rep
}

// Sample is one timed run of one command.
type Sample struct {
	WallSeconds float64 `json:"wall_s"`
	CPUSeconds  float64 `json:"cpu_s"`
	PeakRSSMiB  float64 `json:"peak_rss_mib"`
	ExitCode    int     `json:"exit_code"`
}

// measureCommand runs argv under the -measure wrapper (the executable
// self) and returns its measurements. It fails if the command could not
// be run, was killed by a signal, or printed a Go panic or fatal error.
func measureCommand(self, dir string, argv, env []string) (Sample, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return Sample{}, err
	}
	defer r.Close()
	scan := &crashScanner{}
	cmd := exec.Command(self, append([]string{"-measure=3", "--"}, argv...)...)
	cmd.Stdout, cmd.Stderr = scan, scan
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return Sample{}, err
	}
	w.Close()
	repBytes, readErr := io.ReadAll(r)
	waitErr := cmd.Wait()
	scan.flush()

	var rep report
	if err := json.Unmarshal(repBytes, &rep); err != nil {
		return Sample{}, fmt.Errorf("no report from -measure wrapper (wait: %v, read: %v): %v\n%s", waitErr, readErr, err, scan.tail())
	}
	if rep.Error != "" {
		return Sample{}, fmt.Errorf("running %q: %s", argv, rep.Error)
	}
	if rep.Signal != "" {
		return Sample{}, fmt.Errorf("%q was killed by signal %s; output tail:\n%s", argv, rep.Signal, scan.tail())
	}
	if scan.crashed != "" {
		return Sample{}, fmt.Errorf("%q crashed (exit %d): %q; output tail:\n%s", argv, rep.ExitCode, scan.crashed, scan.tail())
	}
	return Sample{
		WallSeconds: float64(rep.WallNanos) / 1e9,
		CPUSeconds:  float64(rep.CPUNanos) / 1e9,
		PeakRSSMiB:  float64(rep.MaxRSSKiB) / 1024,
		ExitCode:    rep.ExitCode,
	}, nil
}

// crashScanner is an io.Writer that looks for the marks of a Go crash
// (panic, runtime fatal error, goroutine dump) at the start of each line
// of a command's combined output, and keeps only the last bytes of that
// output for error messages.
type crashScanner struct {
	partial []byte // incomplete last line
	last    []byte // tail of the output
	crashed string // first crash line seen
}

const tailBytes = 4 << 10

func (s *crashScanner) Write(p []byte) (int, error) {
	s.last = append(s.last, p...)
	if len(s.last) > 2*tailBytes {
		s.last = append(s.last[:0], s.last[len(s.last)-tailBytes:]...)
	}
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		s.line(string(s.partial[:i]))
		s.partial = s.partial[i+1:]
	}
	// Keep an overlong line bounded; its start has been seen already.
	if len(s.partial) > tailBytes {
		s.line(string(s.partial))
		s.partial = s.partial[:0]
	}
	return len(p), nil
}

func (s *crashScanner) flush() {
	if len(s.partial) > 0 {
		s.line(string(s.partial))
		s.partial = nil
	}
}

func (s *crashScanner) line(l string) {
	if s.crashed == "" && isCrashLine(l) {
		s.crashed = l
	}
}

// isCrashLine reports whether l is a line that the Go runtime prints when
// a program panics or dies of a fatal error.
func isCrashLine(l string) bool {
	return strings.HasPrefix(l, "panic: ") ||
		strings.HasPrefix(l, "fatal error: ") ||
		(strings.HasPrefix(l, "goroutine ") && strings.Contains(l, "[running]"))
}

func (s *crashScanner) tail() string {
	t := s.last
	if len(t) > tailBytes {
		t = t[len(t)-tailBytes:]
	}
	return string(t)
}
