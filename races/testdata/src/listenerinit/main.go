// Command listenerinit: a server builds its listeners from a
// configuration (one factory per kind, the listener an interface
// value), sets each up and only then adds it to the registry other
// goroutines close listeners through (mochi-mqtt's AddListener). The
// set-up is not reported; a listener set up after it is registered is.
package main

import (
	"net"
	"os"
	"os/signal"
	"sync"
)

type Listener interface {
	ID() string
	Init() error
	Close()
}

type TCP struct {
	id, addr string
	listen   net.Listener
}

func NewTCP(id, addr string) *TCP { return &TCP{id: id, addr: addr} }

func (l *TCP) ID() string { return l.id }

func (l *TCP) Init() error {
	ln, err := net.Listen("tcp", l.addr)
	l.listen = ln
	return err
}

func (l *TCP) Close() {
	if l.listen != nil {
		l.listen.Close()
	}
}

type Unix struct {
	id, path string
	listen   net.Listener
}

func NewUnix(id, path string) *Unix { return &Unix{id: id, path: path} }

func (l *Unix) ID() string { return l.id }

func (l *Unix) Init() error {
	ln, err := net.Listen("unix", l.path)
	l.listen = ln // want `Unix.listen written in Unix.Init .* races with its read in Unix.Close`
	return err
}

func (l *Unix) Close() {
	if l.listen != nil {
		l.listen.Close()
	}
}

type Listeners struct {
	mu sync.RWMutex
	m  map[string]Listener
}

func (ls *Listeners) Add(l Listener) {
	ls.mu.Lock()
	ls.m[l.ID()] = l
	ls.mu.Unlock()
}

func (ls *Listeners) CloseAll() {
	ls.mu.RLock()
	defer ls.mu.RUnlock()
	for _, l := range ls.m {
		l.Close()
	}
}

type Server struct {
	Listeners *Listeners
}

// AddListener sets l up, then registers it.
func (s *Server) AddListener(l Listener) error {
	if err := l.Init(); err != nil {
		return err
	}
	s.Listeners.Add(l)
	return nil
}

// AddLate registers l first and sets it up after: CloseAll can reach
// it in between.
func (s *Server) AddLate(l Listener) {
	s.Listeners.Add(l)
	l.Init()
}

func (s *Server) AddFromConfig(kinds []string) error {
	for _, k := range kinds {
		var l Listener
		switch k {
		case "tcp":
			l = NewTCP(k, "127.0.0.1:0")
		case "unix":
			l = NewUnix(k, "/tmp/listenerinit.sock")
		default:
			continue
		}
		if err := s.AddListener(l); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	s := &Server{Listeners: &Listeners{m: map[string]Listener{}}}
	s.AddListener(NewTCP("first", "127.0.0.1:0"))
	go func() {
		s.AddFromConfig(os.Args[1:])
		s.AddLate(NewUnix("late", "/tmp/late.sock"))
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
	s.Listeners.CloseAll()
}
