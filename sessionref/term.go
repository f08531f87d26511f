package sessionref

import (
	"os"
	"syscall"
	"unsafe"

	"github.com/creack/pty"
)

// pollable returns a non-blocking, poller-backed duplicate of f and closes f.
//
// creack/pty does its ioctls through f.Fd(), which puts the descriptor in
// blocking mode. A blocking Read or Write on a PTY master cannot be
// interrupted by Close: Close would wait for it, so a pump blocked on a
// child that never writes, or a Write to a child that never reads, would
// make Delete hang. On a duplicate with O_NONBLOCK set, os.NewFile registers
// the descriptor with the runtime poller, and Close unblocks every pending
// Read and Write.
//
// Only use setWinsize on the result: pty.Setsize would call Fd again.
func pollable(f *os.File) (*os.File, error) {
	defer func() { _ = f.Close() }()
	sc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	nfd := -1
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		var r uintptr
		r, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, 0)
		nfd = int(r)
	}); err != nil {
		return nil, err
	}
	if errno != 0 {
		return nil, os.NewSyscallError("fcntl", errno)
	}
	if err := syscall.SetNonblock(nfd, true); err != nil {
		_ = syscall.Close(nfd)
		return nil, os.NewSyscallError("setnonblock", err)
	}
	return os.NewFile(uintptr(nfd), f.Name()), nil
}

// setWinsize sets the window size of the terminal f without taking f out
// of non-blocking mode.
func setWinsize(f *os.File, ws *pty.Winsize) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(ws)))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return os.NewSyscallError("ioctl TIOCSWINSZ", errno)
	}
	return nil
}

// makeRaw puts the terminal f in raw mode, as cfmakeraw(3) and `stty raw
// -echo` do: no line editing, no echo, no signal characters, no output
// processing, 8-bit characters, reads return as soon as a byte arrives.
// It works on the descriptor directly, so attaching needs no stty binary.
func makeRaw(f *os.File) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		var t syscall.Termios
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t))); errno != 0 {
			return
		}
		t.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP | syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
		t.Oflag &^= syscall.OPOST
		t.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
		t.Cflag &^= syscall.CSIZE | syscall.PARENB
		t.Cflag |= syscall.CS8
		t.Cc[syscall.VMIN] = 1
		t.Cc[syscall.VTIME] = 0
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&t)))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}
