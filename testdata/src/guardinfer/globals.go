package guardinfer

import "sync"

// A package-level lock can guard the fields of a struct with no lock of
// its own: every write of registry entries' count is made with regMu held.

var regMu sync.Mutex

type entry struct {
	count int
	name  string
}

var registry = map[string]*entry{}

func Register(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	e := registry[name]
	if e == nil {
		e = &entry{name: name}
		registry[name] = e
	}
	e.count++
}

func Unregister(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	if e := registry[name]; e != nil {
		e.count--
	}
}

func Reset(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	if e := registry[name]; e != nil {
		e.count = 0
	}
}

func Count(name string) int {
	regMu.Lock()
	defer regMu.Unlock()
	if e := registry[name]; e != nil && e.count > 0 {
		return e.count
	}
	return 0
}

func Active(e *entry) bool {
	regMu.Lock()
	defer regMu.Unlock()
	return e.count > 0
}

func Twice(e *entry) int {
	regMu.Lock()
	defer regMu.Unlock()
	return e.count + e.count
}

func Idle(e *entry) bool {
	regMu.Lock()
	defer regMu.Unlock()
	return e.count == 0
}

// Peek reads count without regMu: reported.
func Peek(e *entry) int {
	return e.count // want `e.count is accessed with regMu held at 9 of 10 sites`
}

// name is set when the entry is created and only read: silent.
func Name(e *entry) string { return e.name }
