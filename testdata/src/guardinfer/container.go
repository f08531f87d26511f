package guardinfer

import "sync"

// A constructor builds a wrapper around its new connection, and hands the
// connection a callback that reaches the wrapper, before it sets the
// connection up (quic-go's newConnection, which stores the Conn in a
// wrappedConn and then calls preSetup). Until the constructor returns the
// wrapper nothing else can reach either object, so the set-up's unlocked
// write (initState) is not a miss of the lock. A constructor that
// registers the wrapper first (newListedLine) has shared the connection
// by the time it sets it up, and that set-up's write (initPeers) is
// reported.
type Line struct {
	mu    sync.Mutex
	state int
	peers int
	timer *lineTicker
}

type LineEnd struct {
	line *Line
}

type lineTicker struct{ onTick func() }

func newLineTicker(f func()) *lineTicker { return &lineTicker{onTick: f} }

func (l *Line) initState() {
	l.state = 1
}

func (l *Line) initPeers() {
	l.peers = 0 // want `l.peers is accessed with l.mu held at`
}

func (l *Line) tick() {
	l.mu.Lock()
	l.state++
	l.peers++
	l.mu.Unlock()
}

func newLine() *LineEnd {
	l := &Line{}
	e := &LineEnd{line: l}
	l.timer = newLineTicker(func() { e.line.tick() })
	l.initState()
	return e
}

var listedLines []*LineEnd

func newListedLine() *LineEnd {
	l := &Line{}
	e := &LineEnd{line: l}
	listedLines = append(listedLines, e)
	l.initPeers()
	return e
}

func DialLine() *LineEnd { return newLine() }

func DialListedLine() *LineEnd { return newListedLine() }

func (e *LineEnd) Reset() {
	e.line.mu.Lock()
	e.line.state = 0
	e.line.peers = 0
	e.line.mu.Unlock()
}

func (e *LineEnd) Join() {
	e.line.mu.Lock()
	e.line.peers++
	e.line.state = 2
	e.line.mu.Unlock()
}

func (e *LineEnd) Leave() {
	e.line.mu.Lock()
	e.line.peers--
	e.line.state = 3
	e.line.mu.Unlock()
}

func (e *LineEnd) Stats() (int, int) {
	e.line.mu.Lock()
	defer e.line.mu.Unlock()
	return e.line.state, e.line.peers
}

func (e *LineEnd) Busy() bool {
	e.line.mu.Lock()
	defer e.line.mu.Unlock()
	return e.line.state > 1 && e.line.peers > 0
}

func (e *LineEnd) Idle() bool {
	e.line.mu.Lock()
	defer e.line.mu.Unlock()
	return e.line.state == 0 && e.line.peers == 0
}

func (e *LineEnd) Kick() {
	e.line.mu.Lock()
	e.line.peers = 0
	e.line.state = 4
	e.line.mu.Unlock()
}

func (e *LineEnd) Crowded() bool {
	e.line.mu.Lock()
	defer e.line.mu.Unlock()
	return e.line.peers > 8 && e.line.state != 0
}
