package guardinfer

import "sync"

// A method called on a part of a struct-valued field reaches the fields
// its body selects from its receiver: Reconnect's c.cfg.setAuth writes
// only cfg.auth, which IsRecovering's read of cfg.recovery does not touch
// (amqp091-go's Connection.Reconnect calling c.Config.setSASL while
// IsRecoveryEnabled reads c.Config.Recovery). Silent. Refresh's
// c.state.reset writes the part Phase reads: reported.

type dialConfig struct {
	recovery bool
	auth     []string
}

func (c *dialConfig) setAuth(mech string) {
	if c.auth == nil {
		c.auth = append(c.auth, mech)
	}
}

type AMQPConn struct {
	mu  sync.Mutex
	cfg dialConfig
}

func (c *AMQPConn) Reconnect(mech string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cfg.setAuth(mech)
}

func (c *AMQPConn) IsRecovering() bool { return c.cfg.recovery }

type linkState struct {
	phase int
	peers []string
}

func (s *linkState) reset() {
	s.phase = 0
	s.peers = nil
}

type AMQPLink struct {
	mu    sync.Mutex
	state linkState
}

func (l *AMQPLink) Refresh() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state.reset()
}

func (l *AMQPLink) Phase() int { return l.state.phase } // want `l.state is read here with no lock held \(in exported AMQPLink.Phase\), and written at partmethods.go:\d+ with l.mu held \(in exported AMQPLink.Refresh\)`
