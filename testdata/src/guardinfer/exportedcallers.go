package guardinfer

import "sync"

// Exported methods called by the package under a lock. Manager.Load is
// exported, but its one call in the package, from Update, holds m.mtx:
// the package runs it under that lock, so its bare read of restored does
// not race with Update's write (prometheus' rules.Manager.LoadGroups).
// Callers outside the package are not seen; they are the ones the method
// was written for, and the call the author makes shows the protocol.
type Manager struct {
	mtx      sync.Mutex
	restored bool
	groups   map[string]int
}

func (m *Manager) Update(names []string) {
	m.mtx.Lock()
	defer m.mtx.Unlock()
	m.groups = m.Load(names)
	m.restored = true
}

func (m *Manager) Load(names []string) map[string]int {
	out := map[string]int{}
	for i, n := range names {
		if !m.restored {
			out[n] = i
		}
	}
	return out
}

// LoosePeek is its twin: one of its calls in the package holds no lock,
// so it gets no entry lock set and its bare read races with Bump's write.
type Loose struct {
	mtx sync.Mutex
	n   int
}

func (l *Loose) Bump() {
	l.mtx.Lock()
	l.n++
	l.mtx.Unlock()
}

func (l *Loose) Peek() int { return l.n } // want `l.n is read here with no lock held \(in exported Loose.Peek\), and written at exportedcallers.go:\d+ with l.mtx held \(in exported Loose.Bump\)`

func (l *Loose) Report() int {
	l.mtx.Lock()
	defer l.mtx.Unlock()
	return l.Peek()
}

func ReportLoose(l *Loose) int { return l.Peek() }

// Host.Hooks hands out the address of hooks; the package calls it only
// under the lock of another type (Frontend.mu). That lock orders nothing
// between Hooks and Notify, and no access of hooks holds a lock of its
// own: nothing says the author treats it as shared, and the pair is not
// reported as locked on one side (tailscale's ExtensionHost.Hooks).
type Host struct {
	mu    sync.Mutex
	hooks []func()
	n     int
}

func (h *Host) Hooks() *[]func() { return &h.hooks }

func (h *Host) Notify() {
	h.mu.Lock()
	h.n++
	h.mu.Unlock()
	for _, f := range h.hooks {
		f()
	}
}

type Frontend struct {
	mu   sync.Mutex
	host *Host
}

func (b *Frontend) Register(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	hooks := b.host.Hooks()
	*hooks = append(*hooks, f)
}
